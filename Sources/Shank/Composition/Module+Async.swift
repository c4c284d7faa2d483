// `Module`'s initializers for factories that are `async`.

extension Module {
  /// Registers an `async` factory under its result type and `name`.
  ///
  /// ```swift
  /// Dependencies {
  ///   Module(scope: .singleton, eager: true) {
  ///     try await DatabasePool.connect(url) as DatabasePoolType
  ///   }
  /// }
  /// ```
  ///
  /// ``Dependencies/start(fileID:line:)`` makes an eager one, at the same time as the other
  /// eager modules, and ``Dependencies/resolveAsync(_:name:isolation:fileID:line:)-swift.type.method``
  /// makes any one: a shared one once per container, however many ask at the same time. Once
  /// made, a shared one resolves synchronously while its container keeps it, decorated and
  /// disposed of as its scope says; a ``Scope/weak`` one released, a ``Scope/cached(_:)`` one
  /// reset, or one a decorator failed on, is made again only by them.
  ///
  /// > Important: A synchronous `resolve()`, `resolveOrThrow()` or ``Inject`` read of it before
  /// > anything made it in that container throws (or stops the program with) a
  /// > ``ResolutionError`` whose reason is ``ResolutionError/Reason/notMadeYet(registeredAt:)``.
  /// > A ``Scope/unique`` one keeps nothing, so it resolves only from `resolveAsync`.
  ///
  /// - Parameters:
  ///   - name: A name that sets this module apart from others of the same type, or `nil`.
  ///   - scope: How instances are shared; ``Scope/unique`` by default.
  ///   - eager: Whether ``Dependencies/start(fileID:line:)`` makes the module at launch.
  ///   - isolation: The isolation the factory runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers the module, for diagnostics; leave it to its default.
  ///   - line: The line that registers the module, for diagnostics; leave it to its default.
  ///   - onClose: Disposes of a kept instance when its owner drops it; see
  ///     ``init(_:scope:eager:isolation:fileID:line:onClose:_:)-7hoea``.
  ///   - factory: Makes the module, and may await and throw. Its static result type, usually
  ///     written `X() as P`, is the type the module is resolved by.
  public init<Value>(
    _ name: String? = nil,
    scope: Scope = .unique,
    eager: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    onClose: ((Value) async -> Void)? = nil,
    _ factory: @escaping () async throws -> Value
  ) {
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    self.init(AsyncRecipe(terms, onClose: onClose, factory: factory) { $0 })
  }

  /// Registers one `async` factory under several types, sharing the instance when the scope
  /// shares.
  ///
  /// It is made as the async module above is; see
  /// ``init(_:scope:eager:isolation:fileID:line:onClose:_:)-1i95g``.
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
  ///   - onClose: Disposes of the shared instance when its owner drops it.
  ///   - factory: Makes the value, and may await and throw.
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
    _ factory: @escaping () async throws -> Value
  ) {
    let types = [type] + more
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    self.init(
      AsyncRecipe(terms, onClose: onClose, factory: factory) { AliasRecipe($0, types: types) })
  }

  /// Registers one element of the collection `[Value]` made by an `async` factory.
  ///
  /// Resolving `[Value]` synchronously before it is made throws the error of
  /// ``ResolutionError/Reason/notMadeYet(registeredAt:)`` that names the contribution;
  /// ``Dependencies/start(fileID:line:)`` makes an eager one, and
  /// ``Dependencies/resolveAsync(_:name:isolation:fileID:line:)-swift.type.method`` of `[Value]` makes
  /// every one it needs.
  ///
  /// - Parameters:
  ///   - name: The key of the contribution in `[String: Value]`, or `nil` for none.
  ///   - scope: How the contribution's instance is shared; ``Scope/unique`` by default.
  ///   - eager: Whether ``Dependencies/start(fileID:line:)`` makes it at launch.
  ///   - isolation: The isolation the factory runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers it, for diagnostics; leave it to its default.
  ///   - line: The line that registers it, for diagnostics; leave it to its default.
  ///   - onClose: Disposes of a kept instance.
  ///   - factory: Makes the element, and may await and throw.
  /// - Returns: The module to list in a ``Dependencies`` block.
  public static func contribution<Value>(
    _ name: String? = nil,
    scope: Scope = .unique,
    eager: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    onClose: ((Value) async -> Void)? = nil,
    _ factory: @escaping () async throws -> Value
  ) -> Module {
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    return Module(
      AsyncRecipe(terms, onClose: onClose, factory: factory) { ContributionRecipe<Value>($0) })
  }
}
