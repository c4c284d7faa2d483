/// What `[P]` and `[String: P]` resolve to: the contributions to `P`, lower layers first.
enum ContributedCollection {
  /// The collector of `[Element]` for a container with contributions to `Element`.
  static func list<Element>(of element: Element.Type, site: SourceSite) -> Registration {
    // Looked up once here: in the unspecialized collector, each lookup of an `[Element]`
    // metadata costs hundreds of instructions.
    let collection = ObjectIdentifier([Element].self)
    return CollectorProvider<[Element]>(site: site) { site, container throws(ResolutionError) in
      let layers = try contributingLayers(
        to: Element.self, replacedBy: collection, from: container, at: site)
      var list = Gathering(of: Element.self, capacity: layers.contributions.count)
      defer { list.free(Element.self) }
      try collect(Element.self, from: layers, in: container, at: site) { list.append($1) }
      return list.array(of: Element.self)
    }
  }

  /// The collector of `[String: Element]`: the named contributions, a later name winning.
  static func named<Element>(_ element: Element.Type, site: SourceSite) -> Registration {
    let collection = ObjectIdentifier([String: Element].self)
    return CollectorProvider<[String: Element]>(site: site) {
      site, container throws(ResolutionError) in
      var named: [String: Element] = [:]
      let layers = try contributingLayers(
        to: Element.self, replacedBy: collection, from: container, at: site)
      try collect(Element.self, from: layers, in: container, at: site) {
        if let name = $0 { named[name] = $1 }
      }
      return named
    }
  }

  /// Hands `add` the contributions to `Element` in `layers`, each made as its scope says: from
  /// the bottom layer up, each layer's in registration order, after the value of the
  /// collection registered underneath, if any.
  ///
  /// Values go straight to `add`, with no array of name and value pairs in between: this runs
  /// unspecialized, where each such array costs a generic metadata lookup and a key path.
  private static func collect<Element>(
    _ element: Element.Type, from layers: ContributingLayers, in container: Dependencies,
    at site: SourceSite, into add: (String?, Element) -> Void
  ) throws(ResolutionError) {
    if let replacing = layers.replacing {
      try replaced(Element.self, by: replacing, from: container, at: site, into: add)
    }
    for entry in layers.contributions {
      let provider = entry.downcast(to: Provider<Element>.self).takeUnretainedValue()
      add(provider.name, try provider.resolve(at: site, from: container))
    }
  }

  /// What `contributingLayers` finds: the contributions, bottom layer first, and the
  /// registration of the collection that replaces those underneath, if any.
  private typealias ContributingLayers = (
    contributions: [Unretained<Registration>], replacing: Registration?
  )

  /// The contributions to `Element` of each layer from `top` down to the nearest one that
  /// registers the collection itself (`collection`: `[Element]` or `[String: Element]`), and
  /// that registration. A closed layer that contributes, or registers the collection, answers
  /// "closed"; one that does neither is passed over. The layers are walked in a loop, so that
  /// any number of them takes no stack.
  private static func contributingLayers<Element>(
    to element: Element.Type, replacedBy collection: ObjectIdentifier, from top: Dependencies,
    at site: SourceSite
  ) throws(ResolutionError) -> ContributingLayers {
    var found: ContributingLayers = ([], nil)
    var next: Dependencies? = top
    while let layer = next {
      let replacing = layer.table.registration(for: collection, name: nil).flatMap {
        $0.role == .module ? $0 : nil
      }
      let contributions = layer.table.contributions[ObjectIdentifier(Element.self)]
      if replacing != nil || contributions != nil, layer.isClosedToThisThread {
        throw layer.closedError([Element].self, name: nil, closed: layer, site: site)
      }
      if replacing != nil {
        found.replacing = replacing
        return found
      }
      if let contributions {
        // Most lists come from one layer, whose array is then taken as it is.
        found.contributions =
          found.contributions.isEmpty ? contributions : contributions + found.contributions
      }
      next = layer.parent
    }
    return found
  }

  /// Hands `add` the value of `registration`, a module that registers `[Element]` or
  /// `[String: Element]` (in name order), which replaces the contributions in its layer and
  /// underneath.
  private static func replaced<Element>(
    _ element: Element.Type, by registration: Registration, from container: Dependencies,
    at site: SourceSite, into add: (String?, Element) -> Void
  ) throws(ResolutionError) {
    if registration.type == [Element].self {
      for value in try value([Element].self, of: registration, from: container, at: site) {
        add(nil, value)
      }
    } else {
      let named = try value([String: Element].self, of: registration, from: container, at: site)
      for (name, value) in named.sorted(by: { $0.key < $1.key }) { add(name, value) }
    }
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
