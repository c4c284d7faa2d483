// A module bound to a global actor, resolved off it, in a binary whose Swift runtime is linked
// statically: Shank asks the runtime whether this code runs on the actor without trapping, so
// `resolveOrThrow` throws its error rather than stopping in the runtime's own check.
import Shank

@globalActor actor CheckActor {
  static let shared = CheckActor()
}

@CheckActor func actorBoundModules() -> Dependencies {
  Dependencies { Module(line: 1) { 0 } }
}

let dependencies = await actorBoundModules()
do {
  _ = try dependencies.resolveOrThrow(Int.self, line: 2)
  preconditionFailure("static runtime: a module bound to CheckActor was made off it")
} catch {
  let expected = ResolutionError.Reason.wrongIsolation(
    actor: "CheckActor", registeredAt: "StaticRuntimeCheck/main.swift:1")
  precondition(error.reason == expected, "static runtime: unexpected error\n\(error)")
  print("static runtime: refused off its actor with Shank's error")
}
