// S9: verify() of a 1,000-module root.
import Benchmark
import Shank

func verification() {
  Benchmark(
    "S9 verify 1,000 modules: Shank",
    configuration: configuration(scaling: .one, maxDuration: .seconds(2))
  ) { benchmark in
    measure(benchmark, with: ShankFixtures.named(1_000)) { dependencies in
      do {
        try dependencies.verify()
      } catch {
        check(false, "verify() reported: \(error)")
      }
    }
  }
}
