/// Several modules that the builder passes on as one ``Module``, in order.
///
/// A group never holds another group: each step that makes or extends one puts the modules of
/// a group it is given in place of that group. So a `for` loop's array of single modules
/// becomes a group as it is, and the block's result is that array.
@usableFromInline
final class ModuleGroup: Recipe {
  @usableFromInline var modules: [Module]

  @usableFromInline
  init(_ modules: [Module]) {
    self.modules = modules
    super.init(
      name: nil, scope: .unique, site: SourceSite(fileID: #fileID, line: #line), isolation: nil)
  }

  override func register(into registrations: inout RegistrationList) {
    for module in modules { module.recipe.register(into: &registrations) }
  }

  /// The group of `modules`.
  @usableFromInline
  static func grouping(_ modules: consuming [Module]) -> Module {
    var modules = modules
    if modules.contains(where: { $0.recipe is ModuleGroup }) { modules = flattened(modules) }
    return Module(ModuleGroup(modules))
  }

  /// The modules `module` stands for: its group's, or itself.
  @usableFromInline
  static func modules(in module: consuming Module) -> [Module] {
    guard let group = module.recipe as? ModuleGroup else { return [module] }
    return group.modules
  }

  /// `first`'s modules, then `next`'s, as one module.
  ///
  /// A group that only this step holds is extended in place, the longer one taking the
  /// shorter, so a module written before a loop of a thousand costs one insertion.
  @usableFromInline
  static func joining(_ first: consuming Module, _ next: consuming Module) -> Module {
    var first = first
    var next = next
    let firstIsOwned = isKnownUniquelyReferenced(&first.recipe)
    let nextIsOwned = isKnownUniquelyReferenced(&next.recipe)
    let firstGroup = first.recipe as? ModuleGroup
    let nextGroup = next.recipe as? ModuleGroup
    let firstCount = firstGroup?.modules.count ?? 1
    let nextCount = nextGroup?.modules.count ?? 1
    if let firstGroup, firstIsOwned, firstCount >= nextCount {
      firstGroup.modules += modules(in: next)
      return first
    }
    if let nextGroup, nextIsOwned {
      nextGroup.modules.insert(contentsOf: modules(in: first), at: 0)
      return next
    }
    return Module(ModuleGroup(modules(in: first) + modules(in: next)))
  }

  private static func flattened(_ modules: [Module]) -> [Module] {
    var flat: [Module] = []
    flat.reserveCapacity(modules.count)
    for module in modules { flat += Self.modules(in: module) }
    return flat
  }
}

// `modules` is written only by `joining`, and only while the group is uniquely referenced, so
// no other thread can hold it then.
extension ModuleGroup: @unchecked Sendable {}
