// A `.singleton` module's registration: one instance for its container's lifetime.

/// Keeps the first instance for as long as its container lives, and publishes it, when the
/// module is nonisolated, for resolutions to read with one atomic load and no lock.
final class SingletonProvider<Value>: SharedProvider<Value> {
  init(_ recipe: ModuleRecipe<Value>) {
    super.init(recipe, made: recipe.isolation == nil ? OnceFlag() : nil)
  }

  override func keptInstance(generation: inout UInt) -> Value? {
    kept?.pointee
  }

  override func store(_ value: Value, madeIn generation: UInt) {
    kept = UnsafeMutablePointer.boxingOnItsOwnCacheLine(value)
    made?.publish()
    _ = addDisposal(of: value)
  }
}
