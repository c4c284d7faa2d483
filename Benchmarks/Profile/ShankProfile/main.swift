// A tiny release executable for `valgrind --tool=callgrind`: one scenario, many times, nothing
// else. Instruction counts repeat exactly on a busy machine, where wall-clock time does not.
//
//   swift build -c release --product ShankProfile
//   objcopy --strip-debug .build/release/ShankProfile /tmp/ShankProfile  # for valgrind 3.19
//   valgrind --tool=callgrind --toggle-collect='*measured*' /tmp/ShankProfile s1 10000
//   scripts/profile.sh   # every scenario, as instructions per operation
//
// Usage: ShankProfile SCENARIO [COUNT [MODULES]]; only `measured(_:_:)` is counted.
// `ShankProfile depth [LENGTH]` is no scenario: it checks how deep a release build resolves
// (Depth.swift).
import BenchmarkOpaque
import Foundation
import Shank
import Swinject

protocol M0Type: Sendable { func component() -> Int }
protocol M5Type: Sendable { func component() -> Int }
struct M0: M0Type { func component() -> Int { 0 } }
struct M5: M5Type { func component() -> Int { 5 } }
/// The rest of the ten module types, for S10's parent and S12's root, as in the benchmarks.
protocol M1Type: Sendable { func component() -> Int }
protocol M2Type: Sendable { func component() -> Int }
protocol M3Type: Sendable { func component() -> Int }
protocol M4Type: Sendable { func component() -> Int }
protocol M6Type: Sendable { func component() -> Int }
protocol M7Type: Sendable { func component() -> Int }
protocol M8Type: Sendable { func component() -> Int }
protocol M9Type: Sendable { func component() -> Int }
struct M1: M1Type { func component() -> Int { 1 } }
struct M2: M2Type { func component() -> Int { 2 } }
struct M3: M3Type { func component() -> Int { 3 } }
struct M4: M4Type { func component() -> Int { 4 } }
struct M6: M6Type { func component() -> Int { 6 } }
struct M7: M7Type { func component() -> Int { 7 } }
struct M8: M8Type { func component() -> Int { 8 } }
struct M9: M9Type { func component() -> Int { 9 } }
/// S10's child module, over `M5`.
struct MockM5: M5Type { func component() -> Int { -5 } }
protocol SharedModuleType: AnyObject, Sendable { func component() -> Int }
final class SharedModule: SharedModuleType, Sendable {
  static let shared = SharedModule()
  func component() -> Int { 1 }
}

/// As the Benchmark package's: the optimizer cannot see through it.
@_optimize(none) func blackHole<T>(_: T) {}

/// Where each scenario's loop hands its sum, once: a store the optimizer must keep, so it keeps
/// the fold too. (`blackHole` would not do: the optimizer drops an argument that it ignores.)
@inline(never) func sink(_ sum: Int) { sunk ^= sum }
nonisolated(unsafe) var sunk = 0
@_optimize(none) func opaque<T>(_ value: T) -> T { value }

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

final class InjectHolder { @Inject var module: M5Type }
final class PlainHolder { var module: M5Type = M5() }
/// Constructor injection, as hand-written code keeps a dependency: read without a copy.
final class LetHolder {
  let module: M5Type
  init(_ module: M5Type) { self.module = module }
}
/// The least any accessor costs: a computed property over a `let`, which the optimizer still
/// copies the existential out of, as it does for every getter and a `var`.
final class ComputedHolder {
  private let storage: M5Type
  var module: M5Type { storage }
  init(_ module: M5Type) { storage = module }
}
final class Factories {
  let m5: () -> M5Type = { M5() }
  var byName: [String: () -> M0Type] = [:]
  let shared: [ObjectIdentifier: () -> SharedModuleType] = [
    ObjectIdentifier(SharedModuleType.self): { SharedModule.shared }
  ]
}

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "s1"
let count = arguments.count > 2 ? Int(arguments[2])! : 10_000
let size = arguments.count > 3 ? Int(arguments[3])! : 10
let names = (0..<max(size, 10)).map { "n\($0)" }

// Before any root is built: `depth` builds its own, once.
if scenario == "depth" {
  exit(runDepth(length: arguments.count > 2 ? Int(arguments[2])! : 20_000))
}

/// Registered from nonisolated code, as the benchmarks do: no main-actor check per resolution.
nonisolated func makeRoot(size: Int) -> Dependencies {
  Dependencies {
    Module { M5() as M5Type }
    for name in names.prefix(size) { Module(name) { M0() as M0Type } }
    Module(scope: .singleton) { SharedModule() as SharedModuleType }
  }
}

/// S5's root, as the benchmark builds it: named modules from one loop.
nonisolated func makeNamedRoot(size: Int) -> Dependencies {
  Dependencies {
    for name in names.prefix(size) { Module(name) { M0() as M0Type } }
  }
}

nonisolated func makeNamedSwinject(size: Int) -> Container {
  let container = Container()
  for name in names.prefix(size) {
    container.register(M0Type.self, name: name) { _ in M0() }.inObjectScope(.transient)
  }
  return container
}

/// Ten modules of ten types, as the benchmarks' S1 root: S10's parent and S12's new root.
nonisolated func makeTenModules() -> Dependencies {
  Dependencies {
    Module { M0() as M0Type }
    Module { M1() as M1Type }
    Module { M2() as M2Type }
    Module { M3() as M3Type }
    Module { M4() as M4Type }
    Module { M5() as M5Type }
    Module { M6() as M6Type }
    Module { M7() as M7Type }
    Module { M8() as M8Type }
    Module { M9() as M9Type }
  }
}

/// S10's child: its own `M5Type` over the ten modules, from which `M3Type` falls through.
/// Made from nonisolated code, as the benchmarks make it, so resolution checks no actor.
nonisolated func makeChild() -> Dependencies {
  Dependencies(over: makeTenModules()) {
    Module { MockM5() as M5Type }
  }
}

nonisolated func makeTenSwinject() -> Container {
  let container = Container()
  container.register(M0Type.self) { _ in M0() }.inObjectScope(.transient)
  container.register(M1Type.self) { _ in M1() }.inObjectScope(.transient)
  container.register(M2Type.self) { _ in M2() }.inObjectScope(.transient)
  container.register(M3Type.self) { _ in M3() }.inObjectScope(.transient)
  container.register(M4Type.self) { _ in M4() }.inObjectScope(.transient)
  container.register(M5Type.self) { _ in M5() }.inObjectScope(.transient)
  container.register(M6Type.self) { _ in M6() }.inObjectScope(.transient)
  container.register(M7Type.self) { _ in M7() }.inObjectScope(.transient)
  container.register(M8Type.self) { _ in M8() }.inObjectScope(.transient)
  container.register(M9Type.self) { _ in M9() }.inObjectScope(.transient)
  return container
}

/// S11: a scope over the root with one singleton, resolved once inside, then closed.
nonisolated func scope() async {
  await Dependencies.withScope {
    Module(scope: .singleton) { SharedModule() as SharedModuleType }
  } operation: {
    blackHole(Dependencies.resolve(SharedModuleType.self))
  }
}

/// S11's Swinject side: a child container with one `.container` module, resolved once.
nonisolated func swinjectScope(over parent: Container) -> SharedModuleType {
  let child = Container(parent: parent)
  child.register(SharedModuleType.self) { _ in SharedModule() }.inObjectScope(.container)
  return child.resolve(SharedModuleType.self)!
}

/// Runs `body` on the global executor and waits for it, so the top level stays synchronous.
/// The work runs on another thread: profile.sh counts such scenarios over the whole program.
func waitFor(_ body: @escaping @Sendable () async -> Void) {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    await body()
    done.signal()
  }
  done.wait()
}

/// Roots built by `s5-build`, released after the measurement so that only building counts.
nonisolated(unsafe) var builtRoots: [AnyObject] = []  // only the main thread touches it

nonisolated func makeSwinject(size: Int) -> Container {
  let container = Container()
  container.register(M5Type.self) { _ in M5() }.inObjectScope(.transient)
  for name in names.prefix(size) {
    container.register(M0Type.self, name: name) { _ in M0() }.inObjectScope(.transient)
  }
  container.register(SharedModuleType.self) { _ in SharedModule() }.inObjectScope(.container)
  return container
}

if scenario == "s1-main" {
  // Registered from main-actor code, as an app target with default MainActor isolation does.
  Dependencies {
    Module { M5() as M5Type }
  }.build()
} else if !prepareComposition(for: scenario) {  // S13–S15 build their own (Composition.swift)
  makeRoot(size: size).build()
  blackHole(Dependencies.resolve(SharedModuleType.self))  // makes the singleton
}
let swinject = opaque(makeSwinject(size: size))
let injected = opaque(InjectHolder())
let plain = opaque(PlainHolder())
let constant = opaque(LetHolder(M5()))
let computed = opaque(ComputedHolder(M5()))
let factories = opaque(Factories())
for name in names.prefix(size) { factories.byName[name] = { M0() } }
let probe = opaque("n5")
let child = opaque(makeChild())
let swinjectChild = opaque(Container(parent: makeTenSwinject()))
swinjectChild.register(M5Type.self) { _ in MockM5() }.inObjectScope(.transient)
let swinjectTen = opaque(makeTenSwinject())
blackHole(injected.module)  // the first read
blackHole(swinject.resolve(SharedModuleType.self)!)

/// Runs `body` on `threads` new threads at once and returns when all are done.
func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
  let started = (0..<threads).map { _ in
    let thread = Thread(block: body)
    thread.start()
    return thread
  }
  while started.contains(where: { !$0.isFinished }) { usleep(100) }
}

// Each scenario is a function of its own, so that what the optimizer inlines into one loop does
// not depend on how many other scenarios there are: written as the cases of one large function,
// as they once were, a resolution's path was inlined or called depending on that function's
// size, so adding a scenario changed the count of another. Each loop folds what its operations
// return into one `Int` (`fold(_:)`) and hands that to `sink(_:)` once, after the loop, so no
// operation pays for a generic call and a copy of its result.
@MainActor @inline(never) func runS1(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M5Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS1Main(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M5Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS1Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinject.resolve(M5Type.self)!) }
  sink(sum)
}
@MainActor @inline(never) func runS1Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(factories.m5()) }
  sink(sum)
}
@MainActor @inline(never) func runS2(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= barrier(injected) { fold($0.module) } }
  sink(sum)
}
@MainActor @inline(never) func runS2Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= barrier(constant) { fold($0.module) } }
  sink(sum)
}
@MainActor @inline(never) func runS2Var(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= barrier(plain) { fold($0.module) } }
  sink(sum)
}
@MainActor @inline(never) func runS2Computed(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= barrier(computed) { fold($0.module) } }
  sink(sum)
}
@MainActor @inline(never) func runS3(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M0Type.self, name: probe)) }
  sink(sum)
}
/// A miss among `size` names of one type (100,000 in profile.sh), its message written.
@MainActor @inline(never) func runS4Miss(_ count: Int) {
  var sum = 0
  for _ in 0..<count {
    do throws(ResolutionError) {
      sum ^= fold(try Dependencies.resolveOrThrow(M0Type.self, name: "n\(size)"))
    } catch {
      sum ^= error.description.utf8.count
    }
  }
  sink(sum)
}
@MainActor @inline(never) func runS3Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinject.resolve(M0Type.self, name: probe)!) }
  sink(sum)
}
@MainActor @inline(never) func runS3Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(factories.byName[probe]!()) }
  sink(sum)
}
@MainActor @inline(never) func runS5(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(makeNamedRoot(size: size)) }
  sink(sum)
}
@MainActor @inline(never) func runS5Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(makeNamedSwinject(size: size)) }
  sink(sum)
}
@MainActor @inline(never) func runS5Build(_ count: Int) {
  for _ in 0..<count { builtRoots.append(makeNamedRoot(size: size)) }
}
@MainActor @inline(never) func runS5BuildSwinject(_ count: Int) {
  for _ in 0..<count { builtRoots.append(makeNamedSwinject(size: size)) }
}
@MainActor @inline(never) func runS6(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(SharedModuleType.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS6Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinject.resolve(SharedModuleType.self)!) }
  sink(sum)
}
@MainActor @inline(never) func runS6Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(SharedModule.shared as SharedModuleType) }
  sink(sum)
}
/// S7's baseline for the singleton: a shared instance from a dictionary of factories.
@MainActor @inline(never) func runS6Dictionary(_ count: Int) {
  let table = factories.shared
  let key = ObjectIdentifier(SharedModuleType.self)
  var sum = 0
  for _ in 0..<count { sum ^= fold(table[key]!()) }
  sink(sum)
}
/// S7, for `perf record -e cpu-clock`: the same resolutions on 1 or 2 threads at once.
@Sendable func resolveM5(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M5Type.self)) }
  sink(sum)
}
@Sendable func resolveShared(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(SharedModuleType.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS7One(_ count: Int) {
  onThreads(1) { resolveM5(count) }
}
@MainActor @inline(never) func runS7Two(_ count: Int) {
  onThreads(2) { resolveM5(count) }
}
@MainActor @inline(never) func runS7SingletonOne(_ count: Int) {
  onThreads(1) { resolveShared(count) }
}
@MainActor @inline(never) func runS7SingletonTwo(_ count: Int) {
  onThreads(2) { resolveShared(count) }
}
/// S10: a child container's own key, and a key that falls through to its parent.
@MainActor @inline(never) func runS10Own(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(child.resolve(M5Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS10Parent(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(child.resolve(M3Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS10OwnSwinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinjectChild.resolve(M5Type.self)!) }
  sink(sum)
}
@MainActor @inline(never) func runS10ParentSwinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinjectChild.resolve(M3Type.self)!) }
  sink(sum)
}
/// S11: a scope entered, its singleton resolved once, and closed. A scope's close runs on a task
/// of its own, so profile.sh counts S11 over the whole program, every thread.
@MainActor @inline(never) func runS11(_ count: Int) {
  waitFor { for _ in 0..<count { await scope() } }
}
@MainActor @inline(never) func runS11Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(swinjectScope(over: swinjectTen)) }
  sink(sum)
}
/// S12: build() replacing the root with a new one of 10 modules; a new Swinject container.
@MainActor @inline(never) func runS12(_ count: Int) {
  for _ in 0..<count { makeTenModules().build() }
}
@MainActor @inline(never) func runS12Swinject(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(makeTenSwinject()) }
  sink(sum)
}

let scenarios: [String: @MainActor (Int) -> Void] = [
  "s1": runS1,
  "s1-main": runS1Main,
  "s1-swinject": runS1Swinject,
  "s1-hand": runS1Hand,
  "s2": runS2,
  "s2-hand": runS2Hand,
  "s2-var": runS2Var,
  "s2-computed": runS2Computed,
  "s3": runS3,
  "s3-swinject": runS3Swinject,
  "s3-hand": runS3Hand,
  "s4-miss": runS4Miss,
  "s5": runS5,
  "s5-swinject": runS5Swinject,
  "s5-build": runS5Build,
  "s5-build-swinject": runS5BuildSwinject,
  "s6": runS6,
  "s6-swinject": runS6Swinject,
  "s6-hand": runS6Hand,
  "s6-dictionary": runS6Dictionary,
  "s7-1": runS7One,
  "s7-2": runS7Two,
  "s7-singleton-1": runS7SingletonOne,
  "s7-singleton-2": runS7SingletonTwo,
  "s10-own": runS10Own,
  "s10-parent": runS10Parent,
  "s10-own-swinject": runS10OwnSwinject,
  "s10-parent-swinject": runS10ParentSwinject,
  "s11": runS11,
  "s11-swinject": runS11Swinject,
  "s12": runS12,
  "s12-swinject": runS12Swinject,
]

/// Runs one scenario: the only function counted (`--toggle-collect='*measured*'`), so no other
/// function's name may contain "measured", or entering it would toggle the count off again.
@MainActor @inline(never) func measured(_ run: @MainActor (Int) -> Void, _ count: Int) {
  run(count)
}

guard
  let run = scenarios.merging(peerScenarios, uniquingKeysWith: { $1 })
    .merging(compositionScenarios, uniquingKeysWith: { $1 })
    .merging(verificationScenarios, uniquingKeysWith: { $1 })[scenario]
else { fatalError("unknown scenario \(scenario)") }
builtRoots.reserveCapacity(count)
measured(run, count)
