/// A contribution's recipe: its module's, and the collectors that answer `[Value]` and
/// `[String: Value]` in each container it is registered in.
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
    registrations.append(ContributedCollection.named(Value.self, site: site))
  }
}
