// A unique module: a factory that keeps nothing, shared by every container it is listed in.

/// A ``Scope/unique`` module's registration: a new instance at every resolution.
///
/// It keeps nothing, so one serves every container the module is listed in, and the module
/// holds it as its recipe.
@usableFromInline
final class UniqueProvider<Value>: Provider<Value> {
  /// Whether the module was given an `onClose`, which never runs: ``Dependencies/verify()``
  /// reports it.
  private let hasIgnoredOnClose: Bool

  @usableFromInline
  init(_ terms: Terms, hasOnClose: Bool, factory: @escaping () throws -> Value) {
    hasIgnoredOnClose = hasOnClose
    super.init(terms, plainFactory: factory)
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try checkIsolation(at: site)
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    do {
      let value = try plainFactory!()
      guard container.decorates else { return value }
      return try container.decorated(value, at: site)
    } catch {
      throw failure(error, at: site)
    }
  }

  override var hasOnClose: Bool { hasIgnoredOnClose }
}
