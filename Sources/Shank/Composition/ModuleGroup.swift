/// Several modules that the builder passes on as one ``Module``, in order.
///
/// Joining two statements nests them in a new group, at no cost per module, and
/// ``ModuleBuilder/buildFinalResult(_:)`` flattens the groups once, at the end. A `for` loop's
/// array becomes a group as it is, so a root that is one loop is handed on whole. A group
/// reaches a container only where the builder was skipped: a module that ``Module/when(_:)``
/// left out, in a list given with `return`. It registers its members, so that one registers
/// nothing.
@usableFromInline
final class ModuleGroup: Recipe {
  /// The modules in order; a member may itself be a group.
  let members: [Module]

  init(_ members: [Module]) {
    self.members = members
    let site = SourceSite(fileID: #fileID, line: #line)
    super.init(Terms(name: nil, scope: .unique, site: site, isolation: nil, isEager: false))
  }

  /// The group of `modules`.
  @usableFromInline
  static func grouping(_ modules: consuming [Module]) -> Module {
    Module(ModuleGroup(modules))
  }

  /// The modules `module` holds, in order: a group's, else `module` itself.
  @usableFromInline
  static func modules(in module: consuming Module) -> [Module] {
    guard let group = module.recipe as? ModuleGroup else { return [module] }
    // A loop's group holds plain modules: its array is the answer as it is.
    guard group.members.contains(where: { $0.recipe is ModuleGroup }) else { return group.members }
    var flat: [Module] = []
    group.append(to: &flat)
    return flat
  }

  override func register(into registrations: inout RegistrationList) {
    for member in members { member.recipe.register(into: &registrations) }
  }

  private func append(to flat: inout [Module]) {
    for member in members {
      if let group = member.recipe as? ModuleGroup {
        group.append(to: &flat)
      } else {
        flat.append(member)
      }
    }
  }
}
