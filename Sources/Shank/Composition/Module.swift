/// One entry of the composition root: a factory registered under a type and an optional name.
///
/// The type a module answers to is the static result type of its factory, so write the
/// module protocol with `as`:
///
/// ```swift
/// Dependencies {
///   Module { WidgetModule() as WidgetModuleType }
///   Module("abc") { SampleModule(value: "123") as SampleModuleType }
///   Module(scope: .singleton) { AppModule() as AppModuleType }
///   Module(as: Router.self, DeeplinkHandler.self) { RouterImpl() }
/// }
/// ```
///
/// The factory runs where it was registered: registered from main-actor code (an app target
/// with default `MainActor` isolation, say), it may call main-actor initializers, and Shank
/// runs it only on the main actor. Registered from nonisolated code, it runs on whichever
/// thread resolves it, possibly on several threads at once.
///
/// > Important: A factory is not `@Sendable`, so that main-actor initializers compile in it.
/// > A factory written in nonisolated code must therefore not mutate state it captures: Swift
/// > cannot check that for you. Build the module in the factory; keep shared state in a
/// > ``Scope/singleton`` module.
///
/// > Note: Registering the same type and name twice is allowed: the later module wins, so test
/// > and preview overrides can follow the production modules.
public struct Module: Sendable {
  /// A recipe is written only before its module is shared (a contribution's role, as it is
  /// made); a unique module's provider keeps nothing. Its factory, registered from an actor,
  /// runs only there (each provider checks every call); from nonisolated code, it may run on
  /// several threads at once, as the Important note above says.
  @usableFromInline let handed: Handed<Recipe>

  @usableFromInline var recipe: Recipe { handed.value }

  /// The name the module is registered under, or `nil`.
  public var name: String? { recipe.name }

  /// How instances are shared.
  public var scope: Scope { recipe.scope }

  /// Registers `factory` under its result type and `name`.
  ///
  /// - Parameters:
  ///   - name: A name that sets this module apart from others of the same type, as in
  ///     `@Inject("abc")`; `nil` for the unnamed one.
  ///   - scope: How instances are shared; ``Scope/unique`` by default.
  ///   - eager: Whether ``Dependencies/start(fileID:line:)`` makes the module at launch, for a
  ///     ``Scope/singleton`` or ``Scope/cached(_:)`` one; `false` by default.
  ///   - isolation: The isolation the factory runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers the module, for diagnostics; leave it to its default.
  ///   - line: The line that registers the module, for diagnostics; leave it to its default.
  ///   - onClose: Disposes of an instance when its owner drops it: when its container is
  ///     closed or released, or its ``Scope/cached(_:)`` scope is reset. Runs on the isolation
  ///     the factory runs on, newest instance first. Only instances a container keeps are
  ///     disposed of, so it applies to ``Scope/singleton`` and ``Scope/cached(_:)`` modules.
  ///   - factory: Makes the module. Its static result type, usually written `X() as P`, is the
  ///     type the module is resolved by. It may resolve other modules, and may throw.
  @inlinable
  public init<Value>(
    _ name: String? = nil,
    scope: Scope = .unique,
    eager: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    onClose: ((Value) async -> Void)? = nil,
    _ factory: @escaping () throws -> Value
  ) {
    // Inlined, so that the provider's generic type is looked up once per call site, not once
    // per module.
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    handed = Handed(Recipe.module(terms, onClose: onClose, factory: factory))
  }

  /// Registers one factory under several types, sharing the instance when the scope shares.
  ///
  /// ```swift
  /// Module(scope: .singleton, as: Router.self, DeeplinkHandler.self) { RouterImpl() }
  /// ```
  ///
  /// Resolving `Router` and then `DeeplinkHandler` gives the same `RouterImpl` here.
  ///
  /// > Note: The compiler cannot check that the value conforms to every listed type.
  /// > ``Dependencies/verify()`` reports one that it does not, and resolving it stops the
  /// > program with a message that names both types.
  ///
  /// - Parameters:
  ///   - name: The name every listed type is registered under, or `nil`.
  ///   - scope: How the one instance is shared between the types; ``Scope/unique`` by default.
  ///   - eager: Whether ``Dependencies/start(fileID:line:)`` makes the instance at launch.
  ///   - type: The first type the value is resolved as.
  ///   - more: Further types the value is resolved as.
  ///   - isolation: The isolation the factory runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers the module, for diagnostics; leave it to its default.
  ///   - line: The line that registers the module, for diagnostics; leave it to its default.
  ///   - onClose: Disposes of the shared instance when its owner drops it, once however many
  ///     types it is resolved as; see ``init(_:scope:eager:isolation:fileID:line:onClose:_:)-7hoea``.
  ///   - factory: Makes the value. It may resolve other modules and may throw.
  public init<Value>(
    _ name: String? = nil,
    scope: Scope = .unique,
    eager: Bool = false,
    as type: Any.Type,
    _ more: Any.Type...,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    onClose: ((Value) async -> Void)? = nil,
    _ factory: @escaping () throws -> Value
  ) {
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    let module = ModuleRecipe(
      terms, onClose: onClose, factory: factory, keeper: Recipe.keeper(for: scope))
    self.init(AliasRecipe(module, types: [type] + more))
  }

  init(_ recipe: Recipe) {
    handed = Handed(recipe)
  }
}
