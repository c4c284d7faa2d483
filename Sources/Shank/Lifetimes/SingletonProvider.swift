// A `.singleton` module's registration: one instance for its container's lifetime.

/// Keeps the first instance for as long as its container lives, and publishes it, when the
/// module is nonisolated, for resolutions to read with one atomic load and no lock.
@usableFromInline
final class SingletonProvider<Value>: SharedProvider<Value> {
  @usableFromInline
  init(_ recipe: ModuleRecipe<Value>) {
    super.init(recipe, made: OnceBox(for: Value.self))
  }

  deinit {
    made!.free(Value.self)
  }

  override func keptInstance(generation: inout UInt) throws(NothingKept) -> Value {
    guard made!.isKept else { throw NothingKept() }
    return made!.instance(Value.self)
  }

  /// Published only for a nonisolated module: resolution reads a published instance with no
  /// isolation check.
  override func store(_ value: Value, madeIn generation: UInt) {
    made!.keep(value, publishing: isolation == nil)
    _ = addDisposal(of: value)
  }
}
