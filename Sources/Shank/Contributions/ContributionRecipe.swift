/// A contribution's recipe: its module's, and the collectors that answer `[Value]` and, for a
/// named one, `[String: Value]` in each container it is registered in. An unnamed
/// contribution is no part of a dictionary, so a container with only those does not register
/// one: a `[String: Value]` falls through it, even once it is closed or released.
final class ContributionRecipe<Value>: Recipe {
  /// The contributed module's own recipe, whose registrations are contributions.
  private let module: Recipe

  init(_ module: Recipe) {
    module.role = .contribution
    self.module = module
    super.init(module.terms)
  }

  override func register(into registrations: inout RegistrationList) {
    module.register(into: &registrations)
    registrations.append(ContributedCollection.list(of: Value.self, site: site))
    if name != nil { registrations.append(ContributedCollection.named(Value.self, site: site)) }
  }
}
