// A `.singleton` module's registration: one instance for its container's lifetime.

/// Keeps the first instance for as long as its container lives, and publishes it, when the
/// module is nonisolated, for resolutions to read with one atomic load and no lock.
final class SingletonProvider<Value>: SharedProvider<Value> {
  /// The instance, kept under the creation lock; ``Provider/made`` too when it is published.
  private let box: OnceBox<Value>

  init(_ recipe: ModuleRecipe<Value>) {
    let box = OnceBox<Value>()
    self.box = box
    super.init(recipe, made: recipe.isolation == nil ? box : nil)
  }

  deinit {
    box.free()
  }

  override func keptInstance(generation: inout UInt) -> Value? {
    box.kept
  }

  override func store(_ value: Value, madeIn generation: UInt) {
    box.keep(value, publishing: made != nil)
    _ = addDisposal(of: value)
  }
}
