// The base of every registration that resolves to a value, and the fast path read inline.

/// Gives the instances of one key: the base of each kind of registration resolved as `Value`.
///
/// The kinds are ``UniqueProvider`` (a factory that keeps nothing), the ``SharedProvider``s
/// (a factory and a keeper: ``SingletonProvider``, ``CachedProvider``, ``WeakProvider``),
/// ``AliasProvider`` and ``CollectorProvider``. Each one's ``resolve(at:from:)`` is its whole
/// path. Two cases are read inline first, with no call: a made nonisolated singleton, and a
/// unique module, which are most resolutions.
@usableFromInline
class Provider<Value>: Registration {
  /// Makes an alias's or a collection's instance for a resolution asked for at a site and
  /// started in a container.
  typealias Conversion = (SourceSite, Dependencies) throws(ResolutionError) -> Value

  /// A unique module's factory, which ``instance(at:from:)`` calls inline after the
  /// isolation check; `nil` for every other kind. Called directly: a
  /// wrapping closure would cost a call, and its context would be retained and released on
  /// every resolution.
  @usableFromInline let plainFactory: (() throws -> Value)?
  /// A `.singleton`'s instance, kept once made; a nonisolated one's is published, and then
  /// read without a lock after one atomic load. `nil` for every other kind.
  @usableFromInline let made: OnceBox?

  init(_ terms: Terms, plainFactory: (() throws -> Value)? = nil, made: OnceBox? = nil) {
    self.plainFactory = plainFactory
    self.made = made
    super.init(type: Value.self, terms)
  }

  /// The instance for a resolution asked for at `site` and started in `container`.
  @inlinable @inline(__always)
  final func instance(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Value
  {
    if made.isPublished { return made.published(Value.self) }
    // Read in place: binding it to a name would copy it, a retain and a release.
    guard plainFactory != nil else { return try resolve(at: site, from: container) }
    return try makePlain(at: site, from: container)
  }

  /// A unique module's new instance, undecorated: the factory called directly.
  @inlinable @inline(__always)
  final func makePlain(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try checkIsolation(at: site)
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    do {
      return try plainFactory!()
    } catch {
      throw failure(error, at: site)
    }
  }

  /// The instance, decorated as `container` and the containers underneath say: the kind's
  /// whole path, for everything but the two cases ``instance(at:from:)`` reads inline.
  @usableFromInline
  func resolve(at site: SourceSite, from container: Dependencies) throws(ResolutionError) -> Value {
    preconditionFailure("every kind of provider overrides resolve(at:from:)")
  }

  override func inspectedInstance(
    at site: SourceSite, from container: Dependencies
  ) throws(ResolutionError) -> Any {
    try resolve(at: site, from: container)
  }
}
