/// A contribution's recipe: its provider, and the collectors that answer `[Value]` and
/// `[String: Value]` in each container it is registered in.
final class ContributionRecipe<Value>: Recipe {
  private let provider: Provider<Value>

  init(_ provider: Provider<Value>) {
    provider.role = .contribution
    self.provider = provider
    super.init(
      name: provider.name, scope: provider.scope, site: provider.site,
      isolation: provider.isolation, isEager: provider.isEager)
  }

  override func register(into registrations: inout RegistrationList) {
    provider.register(into: &registrations)
    registrations.append(made: ContributedCollection.list(of: Value.self, site: site))
    registrations.append(made: ContributedCollection.named(Value.self, site: site))
  }
}

// As for `Recipe`: its stored properties are constants.
extension ContributionRecipe: @unchecked Sendable {}
