// S9 with misses: `verify()` of a container whose every module injects a key that nothing
// registers, counted per module at two sizes, so that a count that grows with the size shows.
import Shank

protocol NeverRegisteredType {}

/// A module whose one `@Inject` asks for what no container registers.
struct MissingInjector {
  @Inject var missing: NeverRegisteredType
}

/// `verify()`s of a container of `size` such modules, each named after its index.
@MainActor @inline(never) func runS9Miss(_ count: Int) {
  let dependencies = Dependencies {
    for index in 0..<size { Module("m\(index)") { MissingInjector() } }
  }
  var sum = 0
  for _ in 0..<count {
    do throws(VerificationError) {
      try dependencies.verify()
    } catch {
      sum ^= error.problems.count
    }
  }
  sink(sum)
}

let verificationScenarios: [String: @MainActor (Int) -> Void] = [
  "s9-miss": runS9Miss
]
