// A module that `Module.when(_:)` left out: it registers nothing, and a miss of its key names it.

/// A module whose contexts did not hold when ``Module/when(_:)`` was called: it registers
/// nothing, and stays among its container's modules, so that a miss of one of its keys names
/// it rather than saying nothing is registered.
final class LeftOutRecipe: Recipe {
  private let module: Module
  /// The contexts as written, `.testing, .previews`.
  let contexts: String

  init(_ module: Module, when contexts: String) {
    self.module = module
    self.contexts = contexts
    super.init(module.recipe.terms)
  }

  override func register(into registrations: inout RegistrationList) {
    registrations.hasLeftOut = true
  }

  /// What the module would have registered, made anew for a miss to look at.
  var wouldRegister: RegistrationList {
    var would = RegistrationList(reservingCapacity: 1)
    module.recipe.register(into: &would)
    return would
  }
}
