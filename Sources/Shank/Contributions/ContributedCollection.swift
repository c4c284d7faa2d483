/// What `[P]` and `[String: P]` resolve to: the contributions to `P`, lower layers first.
enum ContributedCollection {
  /// The collector of `[Element]` for a container with contributions to `Element`.
  static func list<Element>(of element: Element.Type, site: SourceSite) -> Registration {
    // Looked up once here: in the unspecialized collector, each lookup of an `[Element]`
    // metadata costs hundreds of instructions.
    let collection: Any.Type = [Element].self
    let making = factories(of: Element.self, replacedBy: collection, named: false, site: site)
    return CollectorProvider<[Element]>(site: site, making: making) {
      site, container throws(ResolutionError) in
      let layers = try contributingLayers(
        to: Element.self, replacedBy: collection, from: container, at: site)
      let replaced = try layers.replacing.map { list throws(ResolutionError) in
        // A list registered whole, as a test swaps one.
        try value([Element].self, of: list, from: container, at: site)
      }
      return try .filled(count: (replaced?.count ?? 0) + layers.contributions.count) {
        add throws(ResolutionError) in
        replaced?.forEach(add)
        try collect(Element.self, layers.contributions, in: container, at: site) { add($1) }
      }
    }
  }

  /// The collector of `[String: Element]`: the named contributions, a later name winning.
  static func named<Element>(_ element: Element.Type, site: SourceSite) -> Registration {
    let collection: Any.Type = [String: Element].self
    let making = factories(of: Element.self, replacedBy: collection, named: true, site: site)
    return CollectorProvider<[String: Element]>(site: site, making: making) {
      site, container throws(ResolutionError) in
      let layers = try contributingLayers(
        to: Element.self, replacedBy: collection, from: container, at: site)
      var named: [String: Element] = [:]
      if let replacing = layers.replacing {
        named = try value([String: Element].self, of: replacing, from: container, at: site)
      }
      try collect(Element.self, lastOfEachName(layers.contributions), in: container, at: site) {
        named[$0!] = $1
      }
      return named
    }
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

  /// The registrations whose factories a resolution of a collection of `Element` runs from a
  /// container: the contributions, for a dictionary (`named`) only the last of each name, a
  /// collection registered whole under them, and the elements' decorators.
  private static func factories<Element>(
    of element: Element.Type, replacedBy collection: Any.Type, named: Bool, site: SourceSite
  ) -> (Dependencies) -> [Registration] {
    { container in
      let layers = try? contributingLayers(
        to: Element.self, replacedBy: collection, from: container, at: site)
      let contributions = layers.map { named ? lastOfEachName($0.contributions) : $0.contributions }
      return (contributions ?? []).map { $0.takeUnretainedValue() }
        + (layers?.replacing.map { [$0] } ?? []) + container.decorations(of: Element.self)
    }
  }

  /// Hands `add` each of `contributions` to `Element`, made as its scope says, in order.
  ///
  /// Values go straight to `add`, with no array of name and value pairs in between: this runs
  /// unspecialized, where each such array costs a generic metadata lookup and a key path.
  private static func collect<Element>(
    _ element: Element.Type, _ contributions: [Unretained<Registration>],
    in container: Dependencies, at site: SourceSite, into add: (String?, Element) -> Void
  ) throws(ResolutionError) {
    for entry in contributions {
      let provider = entry.downcast(to: Provider<Element>.self).takeUnretainedValue()
      add(provider.name, try provider.resolve(at: site, from: container))
    }
  }

  /// The contributions to `Element` of each layer from `top` down to the nearest one that
  /// registers the collection itself (`collection`: `[Element]` or `[String: Element]`), bottom
  /// layer first, and that registration, which replaces those underneath. A closed layer that
  /// contributes, or registers the collection, makes the collection's resolution from `top` fail
  /// as closed; one that does neither is passed over. The layers are walked in a loop, so that
  /// any number of them takes no stack.
  private static func contributingLayers<Element>(
    to element: Element.Type, replacedBy collection: Any.Type, from top: Dependencies,
    at site: SourceSite
  ) throws(ResolutionError) -> (
    contributions: [Unretained<Registration>], replacing: Registration?
  ) {
    var found: [Unretained<Registration>] = []
    var next: Dependencies? = top
    while let layer = next {
      let replacing = layer.table.registration(for: ObjectIdentifier(collection), name: nil)
        .flatMap { $0.role == .module ? $0 : nil }
      let contributions = layer.table.contributions[ObjectIdentifier(Element.self)]
      if replacing != nil || contributions != nil, layer.isClosedToThisThread {
        throw top.closedError(
          KeyDescription(collection, name: nil), closed: layer, site: site)
      }
      if replacing != nil { return (found, replacing) }
      if let contributions {
        // Most lists come from one layer, whose array is then taken as it is.
        found = found.isEmpty ? contributions : contributions + found
      }
      next = layer.parent
    }
    return (found, nil)
  }

  /// The value of `registration`, which registers `T`.
  private static func value<T>(
    _ type: T.Type, of registration: Registration, from container: Dependencies,
    at site: SourceSite
  ) throws(ResolutionError) -> T {
    let provider = Unretained(registration).downcast(to: Provider<T>.self)
    return try provider.takeUnretainedValue().resolve(at: site, from: container)
  }
}
