// Shank beside Swinject, swift-dependencies and hand-written Swift, one scenario per group.
//
// Names read "S<n> <scenario>: <contender>", so `--filter 'S1 .*'` runs one scenario.
// Timed scenarios loop `benchmark.scaledIterations`: 1,000 operations per sample, which
// `scripts/table.py` turns into time per operation and ratios between medians of one run.
// Each loop folds its operations' results into one `Int` with `fold(_:)` (an identity, one
// load at most) and sinks that once, after the loop: a `blackHole` per operation would copy
// each result into a generic call, about 7 ns, on every side alike.
// SHANK_BENCH_SMOKE=1 runs every benchmark once, briefly: a check that it works, not a timing.
import Benchmark
import BenchmarkOpaque
import Dependencies
import Dispatch
import Foundation
import Shank
import Swinject

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a loop folds into its sum for each operation, with no call: a class instance's
/// identity, or the type-metadata word of the existential a module struct is returned in (one
/// load). Either is an identity of what the operation returned; neither copies it.
@inline(__always) func fold(_ object: AnyObject) -> Int {
  Int(bitPattern: ObjectIdentifier(object))
}
@inline(__always) func fold(_ module: any M0Type) -> Int {
  // `as any` keeps the existential closed: opened, the bytes would be the value's own.
  withUnsafeBytes(of: module as any M0Type) {
    $0.load(fromByteOffset: metadataOffset, as: Int.self)
  }
}
@inline(__always) func fold(_ module: any M3Type) -> Int {
  // `as any` keeps the existential closed: opened, the bytes would be the value's own.
  withUnsafeBytes(of: module as any M3Type) {
    $0.load(fromByteOffset: metadataOffset, as: Int.self)
  }
}
@inline(__always) func fold(_ module: any M5Type) -> Int {
  // `as any` keeps the existential closed: opened, the bytes would be the value's own.
  withUnsafeBytes(of: module as any M5Type) {
    $0.load(fromByteOffset: metadataOffset, as: Int.self)
  }
}

/// Where an existential keeps its value's type metadata: after its three-word buffer.
let metadataOffset = 3 * MemoryLayout<Int>.size

/// Calls `body` with `object`, passed through a barrier that the optimizer cannot see across
/// (`shank_opaque` in BenchmarkOpaque.h) and that costs no instruction: a stored property that
/// `body` reads is read at every iteration of a loop, not once before it.
@inline(__always) func barrier<Object: AnyObject, Result>(
  _ object: Object, _ body: (Object) -> Result
) -> Result {
  Unmanaged<Object>.fromOpaque(shank_opaque(Unmanaged.passUnretained(object).toOpaque()))
    ._withUnsafeGuaranteedRef(body)
}

/// True when only checking that every scenario still runs (CI), not timing it.
let smoke = getenv("SHANK_BENCH_SMOKE") != nil

/// Stops the run when a benchmark would time the wrong thing. Checks run outside the
/// measurement; a crash is what makes `swift package benchmark` exit non-zero in CI.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("ShankBenchmarks: \(message())") }
}

/// A configuration for one benchmark; `setup` runs before it, outside the measurement.
func configuration(
  metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal],
  scaling: BenchmarkScalingFactor = .kilo,
  maxDuration: Duration = .seconds(1),
  maxIterations: Int = 10_000,
  setup: (() -> Void)? = nil,
  teardown: (() -> Void)? = nil
) -> Benchmark.Configuration {
  .init(
    metrics: metrics,
    warmupIterations: smoke ? 0 : 3,
    scalingFactor: scaling,
    maxDuration: smoke ? .milliseconds(1) : maxDuration,
    maxIterations: smoke ? 1 : maxIterations,
    setup: setup.map { setup in { setup() } },
    teardown: teardown.map { teardown in { teardown() } }
  )
}

/// Times `body` only: `fixture` is made before and released after the measurement, so
/// neither building nor freeing it (100,000 registrations take milliseconds) is counted.
func measure<Fixture>(_ benchmark: Benchmark, with fixture: Fixture, _ body: (Fixture) -> Void) {
  benchmark.startMeasurement()
  body(fixture)
  benchmark.stopMeasurement()
  withExtendedLifetime(fixture) {}
}

/// Times each run in turn within one sample and records each under its own metric.
///
/// For goals that compare separate benchmarks: on a shared machine one benchmark can fall in
/// a fast spell and the next in a slow one, while runs timed in turn meet the same machine.
/// Each sample starts at a random run, so that no run always goes first.
func timeInTurn(_ benchmark: Benchmark, _ runs: [(metric: BenchmarkMetric, run: () -> Void)]) {
  let clock = ContinuousClock()
  let first = Int.random(in: runs.indices)
  for offset in runs.indices {
    let (metric, run) = runs[(first + offset) % runs.count]
    let elapsed = clock.measure(run).components
    benchmark.measurement(
      metric, Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000))
  }
}

let benchmarks: @Sendable () -> Void = {
  kept.reserveCapacity(1_000)
  resolutionByType()
  injectedProperty()
  resolutionByName()
  missAmongManyNames()
  rootConstruction()
  singletonAndGraph()
  twoThreads()
  overrides()
  verification()
  memory()
  lifetimes()
  composition()
}

// MARK: - S1: resolve a module by type, a new instance each time, from a root of 10 modules

func resolutionByType() {
  Benchmark(
    "S1 resolve by type: Shank",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= fold(Dependencies.resolve(M5Type.self))
    }
    blackHole(sum)
  }

  Benchmark(
    "S1 resolve by type: Swinject",
    configuration: configuration()
  ) { benchmark in
    let container = SwinjectFixtures.tenModules()
    measure(benchmark, with: container) { container in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(container.resolve(M5Type.self)!)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S1 resolve by type: swift-dependencies",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      @Dependency(\.m5) var m5
      sum ^= fold(m5)
    }
    blackHole(sum)
  }

  Benchmark(
    "S1 resolve by type: hand-written",
    configuration: configuration()
  ) { benchmark in
    let hand = identity(HandWritten())
    measure(benchmark, with: hand) { hand in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(hand.m5())
      }
      blackHole(sum)
    }
  }
}

// MARK: - S2: read an @Inject property after its first read

final class InjectHolder {
  @Inject var module: M5Type
}

final class PlainHolder {
  var module: M5Type = M5()
}

/// Constructor injection, as hand-written code keeps a dependency: read without a copy.
final class LetHolder {
  let module: M5Type
  init(_ module: M5Type) { self.module = module }
}

/// The least any accessor costs: a computed property over a `let`. The optimizer copies the
/// existential out of it, as it does out of every getter and a `var`.
final class ComputedHolder {
  private let storage: M5Type
  var module: M5Type { storage }
  init(_ module: M5Type) { storage = module }
}

final class DependencyHolder {
  @Dependency(\.m5) var module
}

func injectedProperty() {
  Benchmark(
    "S2 property read: Shank @Inject",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    let holder = identity(InjectHolder())
    blackHole(holder.module)  // the first read resolves; the loop reads the kept value
    measure(benchmark, with: holder) { holder in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= barrier(holder) { fold($0.module) }
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S2 property read: swift-dependencies @Dependency",
    configuration: configuration()
  ) { benchmark in
    let holder = identity(DependencyHolder())
    blackHole(holder.module)
    measure(benchmark, with: holder) { holder in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= barrier(holder) { fold($0.module) }
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S2 property read: hand-written stored let",
    configuration: configuration()
  ) { benchmark in
    let holder = identity(LetHolder(M5()))
    measure(benchmark, with: holder) { holder in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= barrier(holder) { fold($0.module) }
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S2 property read: hand-written computed property",
    configuration: configuration()
  ) { benchmark in
    let holder = identity(ComputedHolder(M5()))
    measure(benchmark, with: holder) { holder in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= barrier(holder) { fold($0.module) }
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S2 property read: hand-written stored var",
    configuration: configuration()
  ) { benchmark in
    let holder = identity(PlainHolder())
    blackHole(holder.module)
    measure(benchmark, with: holder) { holder in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= barrier(holder) { fold($0.module) }
      }
      blackHole(sum)
    }
  }
}

// MARK: - S3 and S4: resolve by name from 10, 1,000 and 100,000 registered modules

func resolutionByName() {
  for count in [10, 1_000, 100_000] {
    // S3 is the 10-module case; S4 compares the three sizes.
    let scenario = count == 10 ? "S3 resolve by name" : "S4 resolve by name"
    let label = "\(scenario), \(count) modules"

    Benchmark(
      "\(label): Shank",
      configuration: configuration(setup: { ShankFixtures.buildNamed(count) })
    ) { benchmark in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(Dependencies.resolve(M0Type.self, name: probeName))
      }
      blackHole(sum)
    }

    Benchmark(
      "\(label): Swinject",
      configuration: configuration(maxDuration: .seconds(2))
    ) { benchmark in
      let container = SwinjectFixtures.named(count)
      measure(benchmark, with: container) { container in
        var sum = 0
        for _ in benchmark.scaledIterations {
          sum ^= fold(container.resolve(M0Type.self, name: probeName)!)
        }
        blackHole(sum)
      }
    }

    Benchmark(
      "\(label): hand-written dictionary",
      configuration: configuration()
    ) { benchmark in
      let hand = identity(HandWritten(namedCount: count))
      measure(benchmark, with: hand) { hand in
        var sum = 0
        for _ in benchmark.scaledIterations {
          sum ^= fold(hand.byName[probeName]!())
        }
        blackHole(sum)
      }
    }
  }

  // S4's goal compares sizes, so the sizes are also timed in turn within each sample. Shank
  // resolves through each container's own `resolve`, which skips the root's load and the
  // override check of `Dependencies.resolve` (about 13 ns of it) and so keeps only what could
  // grow with the size: the lookup in the container's table.
  let sizes = [10, 1_000, 100_000]
  let shankMetrics = sizes.map { BenchmarkMetric.custom("Shank \($0) modules") }
  let handMetrics = sizes.map { BenchmarkMetric.custom("hand-written \($0) modules") }
  Benchmark(
    "S4 resolve by name, sizes timed in turn",
    configuration: configuration(metrics: shankMetrics + handMetrics)
  ) { benchmark in
    var runs: [(metric: BenchmarkMetric, run: () -> Void)] = []
    for index in sizes.indices {
      let container = NamedFixtures.shared.containers[index]
      let dictionary = NamedFixtures.shared.dictionaries[index]
      runs.append(
        (
          shankMetrics[index],
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(container.resolve(M0Type.self, name: probeName))
            }
            blackHole(sum)
          }
        ))
      runs.append(
        (
          handMetrics[index],
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(dictionary.byName[probeName]!())
            }
            blackHole(sum)
          }
        ))
    }
    timeInTurn(benchmark, runs)
  }
}

/// A miss among 100,000 names of one type: the error's lists are capped at their first 20
/// keys, so building it and writing its message stays far from the cost of listing them all.
func missAmongManyNames() {
  Benchmark(
    "S4 a miss among 100,000 names, message written: Shank",
    configuration: configuration(scaling: .one, maxDuration: .seconds(2), maxIterations: 100)
  ) { benchmark in
    let container = NamedFixtures.shared.containers[2]
    measure(benchmark, with: container) { container in
      var sum = 0
      for _ in benchmark.scaledIterations {
        do throws(ResolutionError) {
          sum ^= fold(try container.resolveOrThrow(M0Type.self, name: missingName))
        } catch {
          sum ^= error.description.utf8.count
        }
      }
      blackHole(sum)
    }
  }
}

/// S4's fixtures at every size: made on first use, so only the process that runs S4 pays
/// for 100,000 registrations.
final class NamedFixtures: Sendable {
  static let shared = NamedFixtures()
  let containers = [10, 1_000, 100_000].map(ShankFixtures.named)
  let dictionaries = [10, 1_000, 100_000].map { HandWritten(namedCount: $0) }
}

// MARK: - S5: build a root of 1,000 modules

func rootConstruction() {
  let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .mallocBytesCount, pageFaults]

  /// Times `make`, and frees each root only once the next is built.
  ///
  /// A root freed right after its sample sits at the top of the heap, and whether glibc then
  /// hands those pages back to the kernel (so that the next build faults them in again)
  /// depends on the contender's allocation pattern and the process's history: here Shank's
  /// build faulted 27 pages every time and Swinject's none, and in a standalone loop the
  /// reverse. That measures the allocator's trimming, not the build. Freed beneath a newer
  /// root, the memory stays with the process for every contender alike, and `pageFaults`
  /// shows that it did.
  func build<Root>(_ contender: String, _ make: @escaping () -> Root) {
    let previous = Previous<Root>()
    Benchmark(
      "S5 build 1,000-module root: \(contender)",
      configuration: configuration(metrics: metrics, scaling: .one)
    ) { benchmark in
      let faults = minorPageFaults()
      benchmark.startMeasurement()
      let root = make()
      benchmark.stopMeasurement()
      benchmark.measurement(pageFaults, minorPageFaults() - faults)
      previous.root = root  // frees the root of the sample before, outside the measurement
    }
  }

  build("Shank") { ShankFixtures.named(1_000) }
  build("Swinject") { SwinjectFixtures.named(1_000) }
  build("hand-written dictionary") { HandWritten(namedCount: 1_000) }
}

/// The pages a sample faulted in: memory the build took from the system rather than reused.
let pageFaults = BenchmarkMetric.custom("Page faults", useScalingFactor: false)

/// The minor page faults of the process so far, read around a build.
func minorPageFaults() -> Int {
  var usage = rusage()
  #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)
  #endif
  return usage.ru_minflt
}

/// The root that S5's last sample built, freed when the next sample replaces it.
final class Previous<Root> {
  var root: Root?
}

// MARK: - S6: singleton resolution, and a five-object graph from a module's component()

func singletonAndGraph() {
  Benchmark(
    "S6 singleton: Shank .singleton",
    configuration: configuration(setup: ShankFixtures.buildSingleton)
  ) { benchmark in
    blackHole(Dependencies.resolve(SharedModuleType.self))  // made here, outside the loop
    benchmark.startMeasurement()
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= fold(Dependencies.resolve(SharedModuleType.self))
    }
    blackHole(sum)
  }

  Benchmark(
    "S6 singleton: Swinject .container",
    configuration: configuration()
  ) { benchmark in
    let container = SwinjectFixtures.singleton()
    check(
      container.resolve(SharedModuleType.self)! === container.resolve(SharedModuleType.self)!,
      "Swinject's .container scope made two instances")
    measure(benchmark, with: container) { container in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(container.resolve(SharedModuleType.self)!)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S6 singleton: swift-dependencies liveValue",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      @Dependency(\.sharedModule) var shared
      sum ^= fold(shared)
    }
    blackHole(sum)
  }

  Benchmark(
    "S6 singleton: hand-written static let",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= fold(SharedModule.shared)
    }
    blackHole(sum)
  }

  Benchmark(
    "S6 five-object graph: Shank module component()",
    configuration: configuration(setup: ShankFixtures.buildGraph)
  ) { benchmark in
    let module = Dependencies.resolve(GraphModuleType.self)  // one resolution
    blackHole(module.component() as WorkerType)  // and the module's first @Inject read
    measure(benchmark, with: module) { module in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(module.component() as WorkerType)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S6 five-object graph: hand-written constructors",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= fold(handWrittenGraph())
    }
    blackHole(sum)
  }

  // The graph's goal is a ratio of the two above, so they are also timed in turn.
  let shank = BenchmarkMetric.custom("Shank module component()")
  let hand = BenchmarkMetric.custom("hand-written constructors")
  Benchmark(
    "S6 five-object graph, timed in turn",
    configuration: configuration(metrics: [shank, hand], setup: ShankFixtures.buildGraph)
  ) { benchmark in
    let module = Dependencies.resolve(GraphModuleType.self)
    blackHole(module.component() as WorkerType)
    timeInTurn(
      benchmark,
      [
        (
          shank,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(module.component() as WorkerType) }
            blackHole(sum)
          }
        ),
        (
          hand,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(handWrittenGraph()) }
            blackHole(sum)
          }
        ),
      ])
  }
}

// MARK: - S7: two threads resolving at once against one thread

/// Runs `body` on `threads` new threads at once and returns when all are done.
///
/// The one-thread case starts a thread too, so both cases pay the same start-up, which is
/// tens of microseconds against the milliseconds that a sample takes.
func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
  let done = DispatchGroup()
  for _ in 0..<threads {
    done.enter()
    Thread {
      body()
      done.leave()
    }.start()
  }
  done.wait()
}

func twoThreads() {
  // Each thread resolves `perThread` times. A sample is the wall time until every thread is
  // done; the scaling is throughput(2 threads) ÷ throughput(1 thread), 2.0 at best.
  let perThread = 100_000
  let slowPerThread = 10_000  // for the peers that take a lock or copy task-local storage

  // What one thread does in the runs that both the separate benchmarks and the in-turn one
  // time, written once so that the two measure the same loop.
  let hand = identity(HandWritten())
  let shank: @Sendable () -> Void = {
    var sum = 0
    for _ in 0..<perThread { sum ^= fold(Dependencies.resolve(M5Type.self)) }
    blackHole(sum)
  }
  let shankSingleton: @Sendable () -> Void = {
    var sum = 0
    for _ in 0..<perThread { sum ^= fold(Dependencies.resolve(SharedModuleType.self)) }
    blackHole(sum)
  }
  let dictionary: @Sendable () -> Void = {
    // One shared dictionary, read with no lock; each thread holds it once, so the lookups
    // write no shared reference count.
    let table = hand.byType
    let key = ObjectIdentifier(M5Type.self)
    var sum = 0
    for _ in 0..<perThread { sum ^= fold(table[key]!()) }
    blackHole(sum)
  }
  let sharedInstance: @Sendable () -> Void = {
    // The singleton's baseline: a factory that returns one shared class instance gives the
    // caller an owned reference, so each call writes the instance's reference count from
    // both threads, as any resolver that returns it must.
    let table = hand.shared
    let key = ObjectIdentifier(SharedModuleType.self)
    var sum = 0
    for _ in 0..<perThread { sum ^= fold(table[key]!()) }
    blackHole(sum)
  }

  for threads in [1, 2] {
    let suffix = threadCount(threads)
    let config = { (setup: (() -> Void)?) in
      configuration(scaling: .one, maxDuration: .seconds(2), maxIterations: 1_000, setup: setup)
    }

    Benchmark(
      "S7 \(suffix): Shank",
      configuration: config(ShankFixtures.buildTenModules)
    ) { _ in
      onThreads(threads, shank)
    }

    Benchmark(
      "S7 \(suffix): Shank singleton",
      configuration: config(ShankFixtures.buildSingleton)
    ) { _ in
      onThreads(threads, shankSingleton)
    }

    let swinject = UncheckedBox(SwinjectFixtures.tenModules(synchronized: true))
    Benchmark(
      "S7 \(suffix): Swinject synchronized",
      configuration: config(nil)
    ) { _ in
      onThreads(threads) {
        var sum = 0
        for _ in 0..<slowPerThread { sum ^= fold(swinject.value.resolve(M5Type.self)!) }
        blackHole(sum)
      }
    }

    Benchmark(
      "S7 \(suffix): swift-dependencies",
      configuration: config(nil)
    ) { _ in
      onThreads(threads) {
        var sum = 0
        for _ in 0..<slowPerThread {
          @Dependency(\.m5) var m5
          sum ^= fold(m5)
        }
        blackHole(sum)
      }
    }

    Benchmark(
      "S7 \(suffix): unlocked read-only dictionary",
      configuration: config(nil)
    ) { _ in
      onThreads(threads, dictionary)
    }

    Benchmark(
      "S7 \(suffix): unlocked read-only dictionary, shared instance",
      configuration: config(nil)
    ) { _ in
      onThreads(threads, sharedInstance)
    }
  }

  // The goals compare scalings, each the ratio of two benchmarks above; timed in turn, the
  // eight runs of a sample meet the same machine.
  let runs: [(name: String, body: @Sendable () -> Void)] = [
    ("Shank", shank), ("Shank singleton", shankSingleton), ("dictionary", dictionary),
    ("dictionary, shared instance", sharedInstance),
  ]
  let timed = runs.flatMap { run in
    [1, 2].map { threads in
      (
        metric: BenchmarkMetric.custom("\(run.name), \(threadCount(threads))"),
        run: { onThreads(threads, run.body) }
      )
    }
  }
  Benchmark(
    "S7 timed in turn",
    configuration: configuration(
      metrics: timed.map(\.metric), scaling: .one, maxDuration: .seconds(3), maxIterations: 1_000,
      setup: ShankFixtures.buildModuleAndSingleton)
  ) { benchmark in
    timeInTurn(benchmark, timed)
  }
}

/// "1 thread" or "2 threads", as S7's benchmark and metric names read.
func threadCount(_ threads: Int) -> String {
  threads == 1 ? "1 thread" : "\(threads) threads"
}

/// Carries a value that is only read across threads (Swinject's synchronized resolver).
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

// MARK: - S8: resolution inside withOverrides

func overrides() {
  Benchmark(
    "S8 inside override, overridden key: Shank withOverrides",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    Dependencies.withOverrides {
      Module { MockM5() as M5Type }
    } operation: {
      check(Dependencies.resolve(M5Type.self).component() == -5, "the override is not seen")
      benchmark.startMeasurement()
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(Dependencies.resolve(M5Type.self))
      }
      blackHole(sum)
      benchmark.stopMeasurement()
    }
  }

  Benchmark(
    "S8 inside override, key from the root: Shank withOverrides",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    Dependencies.withOverrides {
      Module { MockM5() as M5Type }
    } operation: {
      check(Dependencies.resolve(M3Type.self).component() == 3, "the root is not seen")
      benchmark.startMeasurement()
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(Dependencies.resolve(M3Type.self))
      }
      blackHole(sum)
      benchmark.stopMeasurement()
    }
  }

  Benchmark(
    "S8 inside override, overridden key: Swinject child container",
    configuration: configuration()
  ) { benchmark in
    let child = SwinjectFixtures.overriding(SwinjectFixtures.tenModules() as! Container)
    check(child.resolve(M5Type.self)!.component() == -5, "the Swinject child is not seen")
    measure(benchmark, with: child) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M5Type.self)!)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S8 inside override, key from the root: Swinject child container",
    configuration: configuration()
  ) { benchmark in
    let child = SwinjectFixtures.overriding(SwinjectFixtures.tenModules() as! Container)
    measure(benchmark, with: child) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M3Type.self)!)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S8 inside override, overridden key: swift-dependencies withDependencies",
    configuration: configuration()
  ) { benchmark in
    withDependencies {
      $0.m5 = MockM5()
    } operation: {
      @Dependency(\.m5) var mock
      check(mock.component() == -5, "the swift-dependencies override is not seen")
      benchmark.startMeasurement()
      var sum = 0
      for _ in benchmark.scaledIterations {
        @Dependency(\.m5) var m5
        sum ^= fold(m5)
      }
      blackHole(sum)
      benchmark.stopMeasurement()
    }
  }

  Benchmark(
    "S8 inside override, key from the root: swift-dependencies withDependencies",
    configuration: configuration()
  ) { benchmark in
    withDependencies {
      $0.m5 = MockM5()
    } operation: {
      benchmark.startMeasurement()
      var sum = 0
      for _ in benchmark.scaledIterations {
        @Dependency(\.m3) var m3
        sum ^= fold(m3)
      }
      blackHole(sum)
      benchmark.stopMeasurement()
    }
  }

  Benchmark(
    "S8 enter override and resolve once: Shank withOverrides",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= Dependencies.withOverrides {
        Module { MockM5() as M5Type }
      } operation: {
        fold(Dependencies.resolve(M5Type.self))
      }
    }
    blackHole(sum)
  }

  Benchmark(
    "S8 enter override and resolve once: swift-dependencies withDependencies",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= withDependencies {
        $0.m5 = MockM5()
      } operation: {
        @Dependency(\.m5) var m5
        return fold(m5)
      }
    }
    blackHole(sum)
  }
}

// MARK: - Memory: allocations and bytes per @Inject property and per registered module

/// What the memory benchmarks keep alive, so that what stays allocated can be counted.
nonisolated(unsafe) var kept: [Any] = []

func memory() {
  let metrics: [BenchmarkMetric] = [.mallocCountTotal, .mallocFreeDelta, .memoryLeakedBytes]
  let perSample = 1_000

  Benchmark(
    "Memory per @Inject property, unread: Shank",
    configuration: configuration(metrics: metrics, scaling: .kilo, maxIterations: 100)
  ) { benchmark in
    var properties: [Inject<M5Type>] = []
    properties.reserveCapacity(perSample)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { properties.append(Inject<M5Type>()) }
    benchmark.stopMeasurement()
    blackHole(properties)
  }

  Benchmark(
    "Memory per @Inject property, after first read: Shank",
    configuration: configuration(
      metrics: metrics, scaling: .kilo, maxIterations: 100,
      setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    var properties: [Inject<M5Type>] = []
    properties.reserveCapacity(perSample)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let property = Inject<M5Type>()
      blackHole(property.wrappedValue)
      properties.append(property)
    }
    benchmark.stopMeasurement()
    blackHole(properties)
  }

  Benchmark(
    "Memory per @Dependency property, after first read: swift-dependencies",
    configuration: configuration(metrics: metrics, scaling: .kilo, maxIterations: 100)
  ) { benchmark in
    var properties: [Dependency<any M5Type>] = []
    properties.reserveCapacity(perSample)
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      let property = Dependency(\.m5)
      blackHole(property.wrappedValue)
      properties.append(property)
    }
    benchmark.stopMeasurement()
    blackHole(properties)
  }

  Benchmark(
    "Memory per registered module, 1,000 modules kept: Shank",
    configuration: configuration(metrics: metrics, scaling: .one, maxIterations: 50)
  ) { _ in
    kept.append(ShankFixtures.named(1_000))
  }

  Benchmark(
    "Memory per registered module, 1,000 modules kept: Swinject",
    configuration: configuration(metrics: metrics, scaling: .one, maxIterations: 50)
  ) { _ in
    kept.append(SwinjectFixtures.named(1_000))
  }

  Benchmark(
    "Memory per registered module, 1,000 modules kept: hand-written dictionary",
    configuration: configuration(metrics: metrics, scaling: .one, maxIterations: 50)
  ) { _ in
    kept.append(HandWritten(namedCount: 1_000))
  }
}
