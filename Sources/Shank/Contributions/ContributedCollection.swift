/// What `[P]` and `[String: P]` resolve to: the contributions to `P`, lower layers first.
enum ContributedCollection {
  /// The collector of `[Element]` for a container with contributions to `Element`.
  static func list<Element>(of element: Element.Type, site: SourceSite) -> Registration {
    // Looked up once here: in unspecialized code, each lookup of a collection's metadata costs
    // hundreds of instructions.
    let key: Any.Type = [Element].self
    return collector(of: Element.self, as: key, named: false, site: site) {
      site, container throws(ResolutionError) -> [Element] in
      let layers = try contributingLayers(
        to: Element.self, replacedBy: key, lastOfEachName: false, from: container, at: site)
      // Each element is made from this closure's frame alone, with no call in between that a
      // chain of lists would pay at every level (see "Stack depth" in ARCHITECTURE.md).
      let replaced: (collection: [Element]?, decoratedBy: Dependencies?) = try replacement(
        layers.replacing, at: site, from: container)
      var list = replaced.collection ?? []
      list.reserveCapacity(list.count + layers.contributions.count)
      for entry in layers.contributions {
        list.append(try made(by: entry, in: container, at: site))
      }
      return try container.decorated(list, over: replaced.decoratedBy, at: site)
    }
  }

  /// The collector of `[String: Element]`: the named contributions, a later name winning.
  static func named<Element>(_ element: Element.Type, site: SourceSite) -> Registration {
    let key: Any.Type = [String: Element].self
    return collector(of: Element.self, as: key, named: true, site: site) {
      site, container throws(ResolutionError) -> [String: Element] in
      let layers = try contributingLayers(
        to: Element.self, replacedBy: key, lastOfEachName: true, from: container, at: site)
      let replaced: (collection: [String: Element]?, decoratedBy: Dependencies?) =
        try replacement(layers.replacing, at: site, from: container)
      var named = replaced.collection ?? [:]
      for entry in layers.contributions {
        named[entry.read { $0.name }!] = try made(by: entry, in: container, at: site)
      }
      return try container.decorated(named, over: replaced.decoratedBy, at: site)
    }
  }

  /// The registration of a collection of `Element`s, registered under `key`, that `collect`
  /// makes and decorates at each resolution; if `named`, it adds only the last contribution of
  /// each name.
  private static func collector<Element, Collection>(
    of element: Element.Type, as key: Any.Type, named: Bool, site: SourceSite,
    collect: @escaping Provider<Collection>.Conversion
  ) -> Registration {
    // What a resolution from `container` makes: the contributions, a collection registered
    // whole under them, and the elements' decorators.
    CollectorProvider<Collection>(
      site: site,
      making: { container in
        let layers = try? contributingLayers(
          to: Element.self, replacedBy: key, lastOfEachName: named, from: container, at: site)
        return (layers?.contributions ?? []).map { $0.takeUnretainedValue() }
          + (layers?.replacing.map { [$0.registration] } ?? [])
          + container.decorations(of: Element.self)
      },
      adds: { table in
        adds(table.contributions[ObjectIdentifier(Element.self)] ?? [], over: [], named: named)
      }, collect: collect)
  }

  /// A collection registered whole, as a test swaps one, which the contributions of the layers
  /// over it are added to, and the layer under which its decorators already wrapped it. A
  /// unique one is made as any unique module resolved from `container` (its factory reads
  /// `container`), undecorated: every decorator wraps the whole. A shared one is what its
  /// layer keeps, decorated there: only the decorators over that layer wrap the whole.
  private static func replacement<Collection>(
    _ replacing: (registration: Registration, layer: Dependencies)?, at site: SourceSite,
    from container: Dependencies
  ) throws(ResolutionError) -> (collection: Collection?, decoratedBy: Dependencies?) {
    guard let (registration, layer) = replacing else { return (nil, nil) }
    let provider = Unretained(registration).downcast(to: Provider<Collection>.self)
      .takeUnretainedValue()
    guard provider.plainFactory == nil else {
      return (try provider.makePlain(at: site, from: container), nil)
    }
    return (try provider.resolve(at: site, from: layer), layer)
  }

  /// The named ones of `contributions`, of those of one name only the last, which wins: an
  /// unnamed one, or one a later one hides, is no part of a dictionary, and is not made.
  private static func lastOfEachName(
    _ contributions: [Unretained<Registration>]
  ) -> [Unretained<Registration>] {
    var names = Set<String>()
    let last = contributions.reversed().filter { entry in
      entry.read { $0.name }.map { names.insert($0).inserted } ?? false
    }
    return last.reversed()
  }

  /// Whether `contributions` add to a collection over `above`, those of the layers over them:
  /// to a list, any does; to a dictionary, a named one whose name no layer over it has.
  private static func adds(
    _ contributions: [Unretained<Registration>], over above: [Unretained<Registration>],
    named: Bool
  ) -> Bool {
    guard named else { return !contributions.isEmpty }
    let hidden = Set(above.compactMap { $0.read { $0.name } })
    return contributions.contains { entry in
      entry.read { $0.name }.map { !hidden.contains($0) } ?? false
    }
  }

  /// The element a contribution makes, as its scope says, resolved from `container`.
  ///
  /// The collections take each straight into their storage, with no array of name and value
  /// pairs in between: they run unspecialized, where each such array costs a generic metadata
  /// lookup and a key path.
  private static func made<Element>(
    by contribution: Unretained<Registration>, in container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> Element {
    try contribution.downcast(to: Provider<Element>.self).takeUnretainedValue()
      .resolve(at: site, from: container)
  }

  /// The contributions to `Element` of each layer from `top` down to the nearest one that
  /// registers the collection itself (`collection`: `[Element]` or `[String: Element]`), bottom
  /// layer first, only the last of each name if `lastOfEachName`, and that registration with its
  /// layer, which replaces those underneath. A closed layer that
  /// adds to the collection, or registers it, makes the collection's resolution from `top` fail
  /// as closed; one that does neither, such as one whose every name a layer over it has too, is
  /// passed over. The layers are walked in a loop, so that any number of them takes no stack.
  private static func contributingLayers<Element>(
    to element: Element.Type, replacedBy collection: Any.Type, lastOfEachName named: Bool,
    from top: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> (
    contributions: [Unretained<Registration>],
    replacing: (registration: Registration, layer: Dependencies)?
  ) {
    var found: [Unretained<Registration>] = []
    var next: Dependencies? = top
    while let layer = next {
      let replacing = layer.table.registration(for: ObjectIdentifier(collection), name: nil)
        .flatMap { $0.role == .module ? $0 : nil }
      let contributions = layer.table.contributions[ObjectIdentifier(Element.self)]
      if layer.isClosedToThisThread {
        if replacing != nil || adds(contributions ?? [], over: found, named: named) {
          throw top.closedError(
            KeyDescription(collection, name: nil), closed: layer, site: site)
        }
        next = layer.parent
        continue
      }
      if let replacing { return (named ? lastOfEachName(found) : found, (replacing, layer)) }
      if let contributions {
        // Most lists come from one layer, whose array is then taken as it is.
        found = found.isEmpty ? contributions : contributions + found
      }
      next = layer.parent
    }
    return (named ? lastOfEachName(found) : found, nil)
  }
}
