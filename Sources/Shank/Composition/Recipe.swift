/// What a ``Module`` holds: makes the module's registrations afresh for each container, so
/// that each container keeps its own instances.
///
/// A plain module's recipe is its own ``Provider``; an aliased module's makes one provider and
/// an alias for each type.
@usableFromInline
class Recipe {
  @usableFromInline let name: String?
  let scope: Scope
  let site: SourceSite
  let isolation: (any Actor)?
  /// Whether ``Dependencies/start(fileID:line:)`` makes the module.
  let isEager: Bool

  init(name: String?, scope: Scope, site: SourceSite, isolation: (any Actor)?, isEager: Bool) {
    self.name = name
    self.scope = scope
    self.site = site
    self.isolation = isolation
    self.isEager = isEager
  }

  /// Appends this module's new registrations, in the order they were written.
  func register(into registrations: inout RegistrationList) {
    preconditionFailure("every Recipe subclass overrides register(into:)")
  }
}

/// A factory registered under several types that share its instances.
final class AliasRecipe<Value>: Recipe {
  private let factory: () throws -> Value
  private let onClose: ((Value) async -> Void)?
  private let types: [Any.Type]

  init(
    name: String?, scope: Scope, site: SourceSite, isolation: (any Actor)?, isEager: Bool,
    types: [Any.Type], onClose: ((Value) async -> Void)?, factory: @escaping () throws -> Value
  ) {
    self.factory = factory
    self.onClose = onClose
    self.types = types
    super.init(name: name, scope: scope, site: site, isolation: isolation, isEager: isEager)
  }

  override func register(into registrations: inout RegistrationList) {
    let shared = Provider(
      name: name, scope: scope, upstream: nil, site: site, isolation: isolation,
      isEager: isEager, make: factory, conversion: nil, onClose: onClose, keepsInstances: true)
    for type in types { registrations.append(made: Self.alias(type, of: shared)) }
  }

  /// A provider of `Alias` that reads through to `shared` and casts its value.
  private static func alias<Alias>(_ type: Alias.Type, of shared: Provider<Value>) -> Registration {
    Provider<Alias>(readingThrough: shared, site: shared.site) {
      site, container throws(ResolutionError) in
      let value = try shared.anyInstance(at: site, from: container)
      guard let alias = value as? Alias else {
        let valueType = KeyDescription.typeName(of: Swift.type(of: value as Any))
        throw ResolutionError(
          .notConforming(valueType: valueType),
          key: KeyDescription(Alias.self, name: shared.name), site: site)
      }
      return alias
    }
  }
}

// A recipe only builds providers. The user's factory inside them, when registered from an
// actor, runs only on that actor (`Provider` checks every call); registered from nonisolated
// code, it may run on several threads at once, which `Module`'s documentation tells its author.
extension Recipe: @unchecked Sendable {}

// As for `Recipe`: their stored properties are constants.
extension AliasRecipe: @unchecked Sendable {}
