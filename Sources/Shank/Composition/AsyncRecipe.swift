/// The recipe of a module with an `async` factory: in each container, a slot for the instance
/// and an ordinary recipe whose synchronous factory takes it from there.
///
/// So an async module resolves as any other, through its provider: kept, decorated, disposed
/// of and checked for isolation the same way. Only making the value is async, in `start()` and
/// `resolveAsync` (see ``AsyncInstance``).
final class AsyncRecipe<Value>: Recipe {
  let factory: () async throws -> Value
  let onClose: ((Value) async -> Void)?
  /// The synchronous recipe the module would have, made of the plain module with a factory
  /// that takes what the async one made: the module itself, an alias or a contribution.
  private let shape: (ModuleRecipe<Value>) -> Recipe

  init(
    _ terms: Terms, onClose: ((Value) async -> Void)?,
    factory: @escaping () async throws -> Value,
    shape: @escaping (ModuleRecipe<Value>) -> Recipe
  ) {
    self.factory = factory
    self.onClose = onClose
    self.shape = shape
    var terms = terms
    terms.isAsync = true
    super.init(terms)
  }

  override func register(into registrations: inout RegistrationList) {
    let instance = AsyncInstance(self)
    // Made for this container alone: a `ModuleRecipe` makes its providers, even a unique one,
    // for each container it registers in, and the list keeps them.
    shape(
      ModuleRecipe(
        terms, onClose: onClose, factory: { try instance.take() }, keeper: Recipe.keeper(for: scope)
      )
    ).register(into: &registrations)
  }
}
