// An alias: one of the types a `Module(as:)` factory is registered under.

/// Resolves one type of a `Module(as:)` by casting what the provider it aliases gives, so
/// that every type shares that provider's instances. It keeps nothing itself.
final class AliasProvider<Value>: Provider<Value> {
  /// The provider this alias reads through to, which keeps the instances it shares.
  private let upstream: Registration
  private let conversion: Conversion
  /// The owner's decoration of a shared instance as this type, kept as long as the owner, as
  /// its provider keeps the instance: never by a layer underneath, which may outlive it.
  private let ownDecoration: KeptDecorations?

  init(readingThrough upstream: Registration, conversion: @escaping Conversion) {
    self.upstream = upstream
    self.conversion = conversion
    ownDecoration = upstream.scope.kind == .unique ? nil : KeptDecorations()
    super.init(upstream.terms)
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    // A unique alias is decorated anew at each resolution, as `convert` does.
    guard container.decorates, ownDecoration != nil else {
      return try convert(at: site, from: container, by: conversion)
    }
    return try decorated(at: site, from: container)
  }

  /// The shared instance, decorated by `container`'s decorators of this type once per layer
  /// that decorates it, as a module's own type is (see `SharedProvider`): the owner decorates
  /// what its provider keeps, and a layer over it wraps the owner's decoration. Each keeps its
  /// decoration, per alias; the owner's in `ownDecoration`.
  // Out of line, so that its frame is not on the stack of every alias's resolution.
  @inline(never)
  private func decorated(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    // A shared alias's, made with it.
    let (keeper, ownDecoration) = (upstream.keeper, ownDecoration!)
    guard let owner = keeper.owner else {
      return try convert(at: site, from: container, by: conversion)
    }
    // Read before the instance: where a reset comes in between, the keeper tells whether the
    // instance is still the one kept (`Registration.keeps`).
    let generation = keeper.cachedGeneration
    try checkIsolation(at: site)
    if owner !== container {
      // Through a layer over the owner: what the owner kept and decorated, which the layer
      // wraps, told by the generation the owner's decorations keep with it, not that of the
      // instance its keeper keeps.
      let keptUnderneath = try resolve(at: site, from: owner)
      let generation =
        ownDecoration.generation(ofDecoration: keptUnderneath as AnyObject) ?? generation
      return try container.decorated(
        keptUnderneath, keptBy: self, generation: generation, over: owner, at: site)
    }
    // On the trace while the instance is fetched and while it is decorated, so that a decorator
    // resolving what it decorates is a cycle; not as `made` or a replaced decoration goes, which
    // a reset may have dropped meanwhile, and whose deinit may resolve the alias.
    let trace = ResolutionTrace.unretainedCurrent
    let made: Value
    do {
      try trace.enter(self, from: container, at: site)
      defer { trace.leave() }
      made = try conversion(site, container)
    }
    if let kept = ownDecoration.decoration(
      of: made, madeBy: self, generation: generation, decorators: 0)
    {
      return kept as! Value
    }
    var (decorated, next) = (made, 0)
    var replaced: Any?
    ownDecoration.resume(
      &decorated, from: &next, madeBy: self, generation: generation, decorators: 0)
    let misses = trace.read { $0.asyncMisses }
    do {
      try trace.enter(self, from: container, at: site)
      defer { trace.leave() }
      try container.decorate(&decorated, from: &next, at: site)
    } catch {
      throw ownDecoration.failure(
        error, decorating: decorated, at: next, of: made, madeBy: self, generation: generation,
        decorators: 0, since: misses, replacing: &replaced)
    }
    return ownDecoration.keep(
      decorated, of: made, madeBy: self, generation: generation, decorators: 0,
      unlessCaughtSince: misses, replacing: &replaced) as! Value
  }

  /// What `conversion` makes of the instance it reads through to, with this alias on the
  /// trace, decorated as `container` says.
  private func convert(
    at site: SourceSite, from container: Dependencies, by conversion: Conversion
  ) throws(ResolutionError) -> Value {
    try checkIsolation(at: site)
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    let value = try conversion(site, container)
    guard container.decorates else { return value }
    return try container.decorated(value, at: site)
  }

  override var keeper: Registration { upstream.keeper }

  override var hasOnClose: Bool { upstream.hasOnClose }

  override func adopt(by container: Dependencies) {
    upstream.adopt(by: container)
  }
}
