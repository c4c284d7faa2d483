/// Makes a module's registrations afresh for each container, so instances are per container.
final class Recipe {
  private let make: () -> [Registration]

  init(_ make: @escaping () -> [Registration]) { self.make = make }

  func registrations() -> [Registration] { make() }
}

// `make` only builds providers. The user's factory inside them, when registered from an actor,
// runs only on that actor (`Provider` checks every call); registered from nonisolated code, it
// may run on several threads at once, which `Module`'s documentation tells its author.
extension Recipe: @unchecked Sendable {}
