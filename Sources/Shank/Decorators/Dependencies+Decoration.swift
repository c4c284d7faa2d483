// Decorators composed when a container is made and applied as it resolves; the actor of a type.

extension Dependencies {
  /// One decorator of a container's composed list, with the layer that registers it, `nil`
  /// for the container itself: a closed layer's decorators are gone with its modules.
  struct DecoratorLink {
    /// Kept alive by its layer's table.
    let decoration: Unretained<Registration>
    /// Kept alive by the container that composed the link, which sits over it.
    let layer: Unretained<Dependencies>?
  }

  /// The decorators of one type in a container, composed with those underneath.
  struct DecoratedType {
    let type: ObjectIdentifier
    /// Those of the layers underneath first, then the container's, in registration order.
    /// Handed: the links are immutable, each decoration is kept alive by its layer's table, and
    /// each layer by the container that composed the list, which sits over it.
    let links: Handed<[DecoratorLink]>
  }

  /// The decorators that wrap each type's instances here, composed once, when the container
  /// is made. A list searched in order: a `Dictionary` lookup would hash the type on every
  /// decorated resolution, and a container decorates few types.
  static func composedDecorators(
    of table: RegistrationTable, over parent: Dependencies?
  ) -> [DecoratedType] {
    guard !table.decorators.isEmpty || parent?.decorates == true else { return [] }
    var composed: [ObjectIdentifier: [DecoratorLink]] = [:]
    if let parent {
      let layer = Unretained(parent)
      for decorated in parent.decorators {
        composed[decorated.type] = decorated.links.value.map {
          DecoratorLink(decoration: $0.decoration, layer: $0.layer ?? layer)
        }
      }
    }
    for (type, entries) in table.decorators {
      composed[type, default: []] += entries.map { DecoratorLink(decoration: $0, layer: nil) }
    }
    return composed.map { DecoratedType(type: $0.key, links: Handed($0.value)) }
  }

  /// The actor a resolution of `type` from here must run on: the module's (for `[P]`, its
  /// contributions'), else that of a decorator of the type here or underneath, which runs only
  /// there.
  func isolation(ofResolving type: Any.Type, registeredAs registration: Registration?)
    -> (any Actor)?
  {
    if let isolation = registration?.isolation(resolvedFrom: self) { return isolation }
    return decorations(of: type).lazy.compactMap(\.isolation).first
  }

  /// The decorators of `type` here and underneath, each as its registration.
  func decorations(of type: Any.Type) -> [Registration] {
    let links = decorators.first { $0.type == ObjectIdentifier(type) }?.links.value ?? []
    return links.map { $0.decoration.takeUnretainedValue() }
  }

  /// `value` wrapped by every decorator of `Value` here and underneath.
  @usableFromInline
  func decorated<Value>(_ value: Value, at site: SourceSite) throws(ResolutionError)
    -> Value
  {
    guard let (index, _) = decorators(of: Value.self, over: nil) else { return value }
    return try apply(decoratorsAt: index, from: 0, to: value, at: site)
  }

  /// Wraps `value` in the decorators of `Value` here and underneath from the `next`th on, one
  /// at a time, as a shared module's instance is as it is made. Where one throws, `value` is
  /// what that decorator was given and `next` is its index, for a later call to go on from.
  @inline(__always)
  func decorate<Value>(_ value: inout Value, from next: inout Int, at site: SourceSite)
    throws(ResolutionError)
  {
    guard let (type, _) = decorators(of: Value.self, over: nil) else { return }
    let end = decorators[type].links.value.count
    while next < end {
      if !isClosed(link(next, of: type).layer) {
        value = try link(next, of: type).apply(to: value, at: site)
      }
      next += 1
    }
  }

  /// `value` wrapped by the decorators of `Value` from this container down to `owner`, not
  /// `owner`'s own or those underneath it, which decorated what `value` was made of; by every
  /// decorator of `Value` here and underneath where `owner` is `nil`.
  ///
  /// Inlined, so that where nothing decorates, an unspecialized caller looks up no metadata of
  /// `Value` to call it: a collection's would cost it about a hundred instructions.
  @inline(__always)
  func decorated<Value>(_ value: Value, over owner: Dependencies?, at site: SourceSite)
    throws(ResolutionError) -> Value
  {
    guard decorates, let (index, start) = decorators(of: Value.self, over: owner) else {
      return value
    }
    return try apply(decoratorsAt: index, from: start, to: value, at: site)
  }

  /// `value`, which `owner` underneath keeps and made as `registration` says, wrapped by the
  /// decorators of `Value` from this container down to `owner`, not `owner`'s own, which
  /// wrapped it as it was made. Decorated once for each instance underneath (for a `.cached`
  /// value type, once for each `generation`), and kept by the topmost open layer with such
  /// decorators, so that the layers over it share its decoration.
  ///
  /// `registration` is on the trace meanwhile, so that a decorator resolving what it decorates
  /// is a cycle, and a layer that closes meanwhile stays open to it as to a running factory.
  /// What this lets go of (a decoration it replaces or leaves unfinished, or a stale unfinished
  /// one) is released after, where a deinit that resolves the same key meets no cycle.
  func decorated<Value>(
    _ value: Value, keptBy registration: Registration, generation: UInt?,
    over owner: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> Value {
    var replaced: Any?
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(registration, from: self, at: site)
    defer {
      trace.leave()
      withExtendedLifetime(replaced) {}
    }
    guard let layers = openDecorators(of: Value.self, over: owner) else { return value }
    let keeping = layers.keeping
    if let kept = keeping.decoration(
      of: value, madeBy: registration, generation: generation, decorators: layers.open)
    {
      return kept as! Value
    }
    var (decorated, next) = (value, layers.start)
    keeping.resume(
      &decorated, from: &next, madeBy: registration, generation: generation,
      decorators: layers.open)
    do {
      try decorate(&decorated, from: &next, at: site)
    } catch {
      throw keeping.failure(
        error, decorating: decorated, at: next, of: value, madeBy: registration,
        generation: generation, decorators: layers.open, since: layers.misses,
        replacing: &replaced)
    }
    return keeping.keep(
      decorated, of: value, madeBy: registration, generation: generation,
      decorators: layers.open, unlessCaughtSince: layers.misses, replacing: &replaced) as! Value
  }

  /// Where `type`'s decorators from this container down to `owner`, but for `owner`'s own, are
  /// in ``decorators``, how many of them are open, the decorations of the topmost open layer
  /// with such decorators, which keeps what they make, and this thread's count of absences of
  /// async modules as they start; `nil` if none is open. Worked out in a call of its own, whose
  /// frame is gone before the decorators run.
  private func openDecorators(of type: Any.Type, over owner: Dependencies)
    -> (type: Int, start: Int, open: Int, keeping: KeptDecorations, misses: UInt)?
  {
    guard let (index, start) = decorators(of: type, over: owner) else { return nil }
    let links = decorators[index].links.value[start...]
    guard let link = links.last(where: { !isClosed($0.layer) }),
      let keeping = (link.layer?.takeUnretainedValue() ?? self).keptDecorations
    else { return nil }
    let misses = ResolutionTrace.unretainedCurrent.read { $0.asyncMisses }
    return (index, start, links.count { !isClosed($0.layer) }, keeping, misses)
  }

  /// Where `type`'s entry is in ``decorators``, and where in its list the decorators over
  /// `owner` start: after `owner`'s own, since `owner` is underneath and its list is the start
  /// of this one; at 0 where `owner` is `nil`.
  private func decorators(of type: Any.Type, over owner: Dependencies?) -> (
    index: Int, start: Int
  )? {
    let type = ObjectIdentifier(type)
    guard let index = decorators.firstIndex(where: { $0.type == type }) else { return nil }
    return (index, owner?.decorators.first { $0.type == type }?.links.value.count ?? 0)
  }

  /// `value` wrapped by the decorators of ``decorators``' entry `type` from `start` on, each in
  /// turn, but for closed layers'.
  ///
  /// Inlined into its two callers, with the link's and the decoration's `apply`: each call
  /// would cost every decorated resolution its own prologue and spills.
  @inline(__always)
  private func apply<Value>(
    decoratorsAt type: Int, from start: Int, to value: Value, at site: SourceSite
  ) throws(ResolutionError) -> Value {
    let end = decorators[type].links.value.count
    var index = start
    while index < end, isClosed(link(index, of: type).layer) { index += 1 }
    guard index < end else { return value }
    // The first open decorator is given `value` itself: a copy of it would cost a call to its
    // type's value witnesses.
    var decorated = try link(index, of: type).apply(to: value, at: site)
    for index in (index + 1)..<end where !isClosed(link(index, of: type).layer) {
      decorated = try link(index, of: type).apply(to: decorated, at: site)
    }
    return decorated
  }

  /// The decorator at `index` of ``decorators``' entry `type`, read in place: a copy of the
  /// list would be retained and released on every resolution.
  @inline(__always)
  private func link(_ index: Int, of type: Int) -> DecoratorLink {
    decorators[type].links.value[index]
  }

  /// Whether `layer`, underneath or this container (`nil`), is closed to this thread.
  private func isClosed(_ layer: Unretained<Dependencies>?) -> Bool {
    guard let layer else { return isClosedToThisThread }
    return layer.read { $0.isClosedToThisThread }
  }
}

extension Dependencies.DecoratorLink {
  /// `value` decorated by this link's decorator, borrowed: its layer's table keeps it alive.
  @inline(__always)
  func apply<Value>(to value: Value, at site: SourceSite) throws(ResolutionError) -> Value {
    try decoration.downcast(to: Decoration<Value>.self).borrow {
      decoration throws(ResolutionError) in try decoration.apply(value, at: site)
    }
  }
}
