// `Module.contribution`: one element of the `[P]` and `[String: P]` collections.

extension Module {
  /// Registers one element of the collection `[Value]`: a plug-in, an analytics sink, a
  /// handler, made as its scope says.
  ///
  /// ```swift
  /// Dependencies {
  ///   Module.contribution { ConsoleSink() as AnalyticsSinkType }
  ///   Module.contribution("remote", scope: .singleton) { RemoteSink() as AnalyticsSinkType }
  /// }
  /// @Inject var sinks: [AnalyticsSinkType]               // both, in registration order
  /// @Inject var byName: [String: AnalyticsSinkType]      // ["remote": RemoteSink]
  /// ```
  ///
  /// Resolving `[Value]` gives every contribution, those of the containers underneath first,
  /// then each container's in registration order; an empty array when there are none.
  /// `[String: Value]` gives the named ones. A module that registers `[Value]` (or
  /// `[String: Value]`) itself replaces the contributions of its container and of those
  /// underneath: a test swaps the whole list that way. A contribution is never resolved as
  /// `Value` alone.
  ///
  /// - Parameters:
  ///   - name: The key of the contribution in `[String: Value]`, or `nil` for none.
  ///   - scope: How the contribution's instance is shared; ``Scope/unique`` by default.
  ///   - eager: Whether ``Dependencies/start(fileID:line:)`` makes it at launch.
  ///   - isolation: The isolation the factory runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers it, for diagnostics; leave it to its default.
  ///   - line: The line that registers it, for diagnostics; leave it to its default.
  ///   - onClose: Disposes of a kept instance; see ``init(_:scope:eager:isolation:fileID:line:onClose:_:)-7hoea``.
  ///   - factory: Makes the element. Its static result type, usually written `X() as P`, is the
  ///     type contributed to.
  /// - Returns: The module to list in a ``Dependencies`` block.
  public static func contribution<Value>(
    _ name: String? = nil,
    scope: Scope = .unique,
    eager: Bool = false,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    onClose: ((Value) async -> Void)? = nil,
    _ factory: @escaping () throws -> Value
  ) -> Module {
    let terms = Recipe.Terms(
      name: name, scope: scope, site: SourceSite(fileID: fileID, line: line),
      isolation: isolation, isEager: eager)
    let recipe = Recipe.module(terms, onClose: onClose, factory: factory)
    return Module(ContributionRecipe<Value>(recipe))
  }
}
