// How a container applies the decorators it composed when it was made.

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
    let links: [DecoratorLink]
  }

  /// The decorators that wrap each type's instances here, sorted by type for a binary search:
  /// a `Dictionary` lookup would hash the type on every decorated resolution. Composed once,
  /// when the container is made.
  static func composedDecorators(
    of table: RegistrationTable, over parent: Dependencies?
  ) -> [DecoratedType] {
    guard !table.decorators.isEmpty || parent?.decorates == true else { return [] }
    var composed: [ObjectIdentifier: [DecoratorLink]] = [:]
    if let parent {
      let layer = Unretained(parent)
      for decorated in parent.decorators {
        composed[decorated.type] = decorated.links.map {
          DecoratorLink(decoration: $0.decoration, layer: $0.layer ?? layer)
        }
      }
    }
    for (type, entries) in table.decorators {
      composed[type, default: []] += entries.map { DecoratorLink(decoration: $0, layer: nil) }
    }
    return composed.map { DecoratedType(type: $0.key, links: $0.value) }.sorted {
      $0.type < $1.type
    }
  }

  /// The composed decorators of `type` here, if any.
  private func decorators(of type: ObjectIdentifier) -> [DecoratorLink]? {
    index(ofDecorated: type).map { decorators[$0].links }
  }

  /// Where `type` is in ``decorators``, if it is decorated here.
  private func index(ofDecorated type: ObjectIdentifier) -> Int? {
    if decorators.count == 1 { return decorators[0].type == type ? 0 : nil }
    var low = 0
    var high = decorators.count
    while low < high {
      let middle = (low + high) / 2
      if decorators[middle].type < type { low = middle + 1 } else { high = middle }
    }
    return low < decorators.count && decorators[low].type == type ? low : nil
  }

  /// The actor a resolution of `type` from here must run on: the module's, else that of a
  /// decorator of the type here or underneath, which runs only there.
  func isolation(ofResolving type: Any.Type, registeredAs registration: Registration?)
    -> (any Actor)?
  {
    if let isolation = registration?.isolation { return isolation }
    return decorators(of: ObjectIdentifier(type))?.lazy
      .compactMap { $0.decoration.takeUnretainedValue().isolation }.first
  }

  /// `value` wrapped by every decorator of `Value` here and underneath.
  @usableFromInline
  func decorated<Value>(_ value: Value, at site: SourceSite) throws(ResolutionError)
    -> Value
  {
    guard let index = index(ofDecorated: ObjectIdentifier(Value.self)) else { return value }
    // Read in place: a copy of the list would be retained and released on every resolution.
    var decorated = value
    for link in decorators[index].links where !isClosed(link.layer) {
      decorated = try link.decoration(as: Value.self).apply(decorated, at: site)
    }
    return decorated
  }

  /// `value`, which `owner` underneath keeps and made as `registration` says, wrapped by the
  /// decorators of `Value` from this container down to `owner`, not `owner`'s own, which
  /// wrapped it as it was made. Decorated once for each instance underneath (for a `.cached`
  /// value type, once for each `generation`), and kept by the topmost open layer with such
  /// decorators, so that the layers over it share its decoration.
  func decorated<Value>(
    _ value: Value, keptBy registration: Registration, generation: UInt?,
    in owner: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> Value {
    let type = ObjectIdentifier(Value.self)
    // `owner` is underneath, so its list is the start of this one.
    guard let links = decorators(of: type)?.dropFirst(owner.decorators(of: type)?.count ?? 0),
      let keeper = links.last(where: { !isClosed($0.layer) }).map(container(of:)),
      let keeping = keeper.keptDecorations
    else { return value }
    let open = links.count { !isClosed($0.layer) }
    if let kept = keeping.decorated(
      of: value, madeBy: registration, generation: generation, decorators: open)
    {
      return kept as! Value
    }
    let decorated = try apply(links, to: value, at: site)
    return keeping.keep(
      decorated, of: value, madeBy: registration, generation: generation, decorators: open)
      as! Value
  }

  /// `value` wrapped by each link's decorator in turn, but for closed layers'.
  private func apply<Value>(
    _ links: ArraySlice<DecoratorLink>, to value: Value, at site: SourceSite
  ) throws(ResolutionError) -> Value {
    var decorated = value
    for link in links where !isClosed(link.layer) {
      decorated = try link.decoration(as: Value.self).apply(decorated, at: site)
    }
    return decorated
  }

  /// The container `link` names: a layer underneath, or this one.
  private func container(of link: DecoratorLink) -> Dependencies {
    link.layer?.takeUnretainedValue() ?? self
  }

  /// Whether `layer`, underneath or this container (`nil`), is closed to this thread.
  private func isClosed(_ layer: Unretained<Dependencies>?) -> Bool {
    guard let layer else { return isClosedToThisThread }
    return layer.read { $0.isClosedToThisThread }
  }
}

extension Dependencies.DecoratorLink {
  /// The decorator, as the `Decoration` of `Value` it is for the type it was composed under.
  func decoration<Value>(as: Value.Type) -> Decoration<Value> {
    decoration.downcast(to: Decoration<Value>.self).takeUnretainedValue()
  }
}

// Immutable: the decoration is kept alive by its layer's table, and the layer by the
// container that composed the link, which sits over it.
extension Dependencies.DecoratorLink: @unchecked Sendable {}

extension Dependencies.DecoratedType: Sendable {}
