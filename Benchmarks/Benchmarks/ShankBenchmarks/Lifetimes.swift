// S10–S12: lifetimes. Resolution from a child container, a scope entered and closed, and a
// root replaced by `build()`, each beside Swinject doing the same with its containers.
//
// Each scenario has a separate benchmark per contender (with allocation counts) and one that
// times the contenders in turn within each sample, which the README's ratios are read from.
import Benchmark
import Shank
import Swinject

func lifetimes() {
  childContainers()
  scopes()
  rootReplacement()
}

// MARK: - S10: resolve from a child container, its own key and a key from its parent

func childContainers() {
  Benchmark(
    "S10 child container, own key: Shank",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: ShankFixtures.child()) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M5Type.self))
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S10 child container, key from the parent: Shank",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: ShankFixtures.child()) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M3Type.self))
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S10 child container, own key: Swinject",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: SwinjectFixtures.child()) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M5Type.self)!)
      }
      blackHole(sum)
    }
  }

  Benchmark(
    "S10 child container, key from the parent: Swinject",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: SwinjectFixtures.child()) { child in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(child.resolve(M3Type.self)!)
      }
      blackHole(sum)
    }
  }

  let shankOwn = BenchmarkMetric.custom("Shank own key")
  let shankParent = BenchmarkMetric.custom("Shank key from the parent")
  let swinjectOwn = BenchmarkMetric.custom("Swinject own key")
  let swinjectParent = BenchmarkMetric.custom("Swinject key from the parent")
  Benchmark(
    "S10 child container, timed in turn",
    configuration: configuration(metrics: [shankOwn, shankParent, swinjectOwn, swinjectParent])
  ) { benchmark in
    let shank = ShankFixtures.child()
    let swinject = SwinjectFixtures.child()
    timeInTurn(
      benchmark,
      [
        (
          shankOwn,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(shank.resolve(M5Type.self)) }
            blackHole(sum)
          }
        ),
        (
          shankParent,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(shank.resolve(M3Type.self)) }
            blackHole(sum)
          }
        ),
        (
          swinjectOwn,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(swinject.resolve(M5Type.self)!)
            }
            blackHole(sum)
          }
        ),
        (
          swinjectParent,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(swinject.resolve(M3Type.self)!)
            }
            blackHole(sum)
          }
        ),
      ])
  }
}

// MARK: - S11: enter a scope, resolve its singleton once, close it

/// S11's operation: a scope over `current` with one singleton, resolved once inside; the
/// scope is closed, and that awaited, before this returns. Returns the singleton's `fold`.
func shankScope() async -> Int {
  await Dependencies.withScope {
    Module(scope: .singleton) { SharedModule() as SharedModuleType }
  } operation: {
    fold(Dependencies.resolve(SharedModuleType.self))
  }
}

func scopes() {
  // The scope's parent is the ten-module root, as Swinject's child's parent is ten modules.
  Benchmark(
    "S11 scope entered, singleton resolved, closed: Shank withScope",
    configuration: configuration(setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    await ShankFixtures.checkScope()
    benchmark.startMeasurement()
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= await shankScope()
    }
    blackHole(sum)
    benchmark.stopMeasurement()
  }

  Benchmark(
    "S11 scope entered, singleton resolved, closed: Swinject child container",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: SwinjectFixtures.tenModules() as! Container) { parent in
      var sum = 0
      for _ in benchmark.scaledIterations {
        sum ^= fold(SwinjectFixtures.scope(over: parent))
      }
      blackHole(sum)
    }
  }

  let shank = BenchmarkMetric.custom("Shank withScope")
  let swinject = BenchmarkMetric.custom("Swinject child container")
  Benchmark(
    "S11 scope, timed in turn",
    configuration: configuration(metrics: [shank, swinject], setup: ShankFixtures.buildTenModules)
  ) { benchmark in
    let parent = SwinjectFixtures.tenModules() as! Container
    await timeInTurnAwaiting(
      benchmark,
      [
        (
          shank,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= await shankScope() }
            blackHole(sum)
          }
        ),
        (
          swinject,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(SwinjectFixtures.scope(over: parent))
            }
            blackHole(sum)
          }
        ),
      ])
  }
}

/// `timeInTurn(_:_:)` for runs that await.
func timeInTurnAwaiting(
  _ benchmark: Benchmark, _ runs: [(metric: BenchmarkMetric, run: () async -> Void)]
) async {
  let clock = ContinuousClock()
  let first = Int.random(in: runs.indices)
  for offset in runs.indices {
    let (metric, run) = runs[(first + offset) % runs.count]
    let start = clock.now
    await run()
    let elapsed = (clock.now - start).components
    benchmark.measurement(
      metric, Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000))
  }
}

// MARK: - S12: build() replacing the root with a new root of 10 modules

func rootReplacement() {
  // Each build replaces the root of the build before, which no resolution reads, so `build()`
  // frees it then; each Swinject container is freed at the end of its iteration.
  Benchmark(
    "S12 replace the root, 10 modules: Shank build()",
    configuration: configuration(setup: ShankFixtures.checkReplacedRootIsFreed)
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      ShankFixtures.tenModules().build()
    }
  }

  Benchmark(
    "S12 replace the root, 10 modules: Swinject new container",
    configuration: configuration()
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations {
      sum ^= fold(SwinjectFixtures.tenModules() as AnyObject)
    }
    blackHole(sum)
  }

  let shank = BenchmarkMetric.custom("Shank build()")
  let swinject = BenchmarkMetric.custom("Swinject new container")
  Benchmark(
    "S12 replace the root, timed in turn",
    configuration: configuration(
      metrics: [shank, swinject], setup: ShankFixtures.checkReplacedRootIsFreed)
  ) { benchmark in
    timeInTurn(
      benchmark,
      [
        (shank, { for _ in benchmark.scaledIterations { ShankFixtures.tenModules().build() } }),
        (
          swinject,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(SwinjectFixtures.tenModules() as AnyObject)
            }
            blackHole(sum)
          }
        ),
      ])
  }
}
