// The recipes a `Module` holds: `Recipe`, a module's `ModuleRecipe` and an alias's `AliasRecipe`.

/// What a ``Module`` holds: makes the module's registrations afresh for each container, so
/// that each container keeps its own instances.
///
/// A unique module's recipe is its own ``UniqueProvider``, which keeps nothing and so serves
/// every container; a shared one's is a ``ModuleRecipe``; an aliased module's an
/// ``AliasRecipe``.
@usableFromInline
class Recipe {
  /// What the module was registered with, which every registration made from it keeps.
  @usableFromInline
  struct Terms {
    @usableFromInline let name: String?
    @usableFromInline let scope: Scope
    @usableFromInline let site: SourceSite
    @usableFromInline let isolation: (any Actor)?
    /// Whether ``Dependencies/start(fileID:line:)`` makes the module.
    @usableFromInline let isEager: Bool
    /// Whether the factory is `async`: an ``AsyncRecipe`` sets it, for `verify()`.
    var isAsync = false

    @usableFromInline
    init(name: String?, scope: Scope, site: SourceSite, isolation: (any Actor)?, isEager: Bool) {
      self.name = name
      self.scope = scope
      self.site = site
      self.isolation = isolation
      self.isEager = isEager
    }
  }

  @usableFromInline let terms: Terms
  // Final and inlinable where lookups read them: an overridable accessor is a call at each
  // lookup (S1 went from 126 to 165 instructions).
  @inlinable final var name: String? { terms.name }
  final var scope: Scope { terms.scope }
  final var site: SourceSite { terms.site }
  final var isolation: (any Actor)? { terms.isolation }
  final var isEager: Bool { terms.isEager }
  /// What the registrations made from it are to their tables; set before any table holds one.
  var role = Role.module

  /// What a registration is to its table.
  enum Role {
    /// Looked up by its key.
    case module
    /// One element of the collections of its type, never looked up by its key.
    case contribution
    /// Answers `[P]` or `[String: P]` with the contributions to `P`, unless a module registers
    /// that key itself.
    case collector
    /// Wraps the instances of its type that its container and the layers over it make.
    case decorator
  }

  init(_ terms: Terms) {
    self.terms = terms
  }

  /// Appends this module's new registrations, in the order they were written.
  func register(into registrations: inout RegistrationList) {
    preconditionFailure("every Recipe subclass overrides register(into:)")
  }

  /// The recipe of a module with `factory`: a unique one is its own provider.
  ///
  /// Inlined into ``Module``'s initializers, so that the provider's generic type is looked up
  /// once per call site, not once per module.
  @inlinable
  static func module<Value>(
    _ terms: Terms, onClose: ((Value) async -> Void)?, factory: @escaping () throws -> Value
  ) -> Recipe {
    guard case .unique = terms.scope.kind else {
      return ModuleRecipe(
        terms, onClose: onClose, factory: factory, keeper: keeper(for: terms.scope))
    }
    return UniqueProvider(terms, hasOnClose: onClose != nil, factory: factory)
  }

  /// Makes a shared module's provider of the kind `scope` says.
  ///
  /// Inlined where the module is made, so that each provider's generic type is looked up
  /// there, once per call site, rather than at every container made from the module.
  @inlinable @inline(__always)
  static func keeper<Value>(for scope: Scope) -> (ModuleRecipe<Value>) -> Provider<Value> {
    switch scope.kind {
    case .unique: { $0.uniqueProvider() }
    case .singleton: { SingletonProvider($0) }
    case .cached: { CachedProvider($0) }
    case .weak: { WeakProvider($0) }
    }
  }
}

/// A module's factory and how its instances are kept: makes its provider for each container.
@usableFromInline
final class ModuleRecipe<Value>: Recipe {
  let factory: () throws -> Value
  let onClose: ((Value) async -> Void)?
  /// Makes a new provider of the kind the scope says: ``Recipe/keeper(for:)``.
  private let keeper: (ModuleRecipe<Value>) -> Provider<Value>

  @usableFromInline
  init(
    _ terms: Terms, onClose: ((Value) async -> Void)?, factory: @escaping () throws -> Value,
    keeper: @escaping (ModuleRecipe<Value>) -> Provider<Value>
  ) {
    self.factory = factory
    self.onClose = onClose
    self.keeper = keeper
    super.init(terms)
  }

  /// A new provider of the kind the scope says.
  func provider() -> Provider<Value> {
    let provider = keeper(self)
    provider.role = role
    return provider
  }

  /// A unique provider of this module's factory: an aliased unique module's, which its
  /// aliases read through.
  @usableFromInline
  func uniqueProvider() -> Provider<Value> {
    UniqueProvider(terms, hasOnClose: onClose != nil, factory: factory)
  }

  override func register(into registrations: inout RegistrationList) {
    registrations.append(provider())
  }
}

/// A factory registered under several types that share its instances.
final class AliasRecipe<Value>: Recipe {
  private let module: ModuleRecipe<Value>
  private let types: [Any.Type]

  init(_ module: ModuleRecipe<Value>, types: [Any.Type]) {
    self.module = module
    self.types = types
    super.init(module.terms)
  }

  /// Registers an alias of each type, but for the made type itself, if listed, the provider the
  /// aliases read through: it decorates its instances as that type already, as it makes them.
  override func register(into registrations: inout RegistrationList) {
    let shared = module.provider()
    let listsItsOwnType = types.contains { $0 == Value.self }
    if !listsItsOwnType { shared.keyType = types[0] }
    for type in types {
      registrations.append(type == Value.self ? shared : Self.alias(type, of: shared))
    }
  }

  /// A provider of `Alias` that reads through to `shared` and casts its value.
  private static func alias<Alias>(_ type: Alias.Type, of shared: Provider<Value>) -> Registration {
    AliasProvider<Alias>(readingThrough: shared) { site, container throws(ResolutionError) in
      let value = try shared.resolve(at: site, from: container)
      guard let alias = value as? Alias else {
        throw notConforming(value, to: Alias.self, registeredAs: shared, at: site)
      }
      return alias
    }
  }

  /// The error of an alias its module's `value` does not conform to. Out of line: each level
  /// of a chain of aliases keeps the alias's frame (see "Stack depth" in ARCHITECTURE.md).
  @inline(never)
  private static func notConforming<Alias>(
    _ value: Value, to alias: Alias.Type, registeredAs shared: Provider<Value>, at site: SourceSite
  ) -> ResolutionError {
    ResolutionError(
      ResolutionError.Fields(
        reason: .notConforming(
          valueType: KeyDescription.typeName(of: Swift.type(of: value as Any))),
        key: KeyDescription(Alias.self, name: shared.name), site: site, registeredAt: shared.site))
  }
}
