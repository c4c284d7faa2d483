/// What `[P]` and `[String: P]` resolve to: the contributions to `P`, lower layers first.
enum Collection {
  /// The collector of `[Element]` for a container with contributions to `Element`.
  static func list<Element>(of element: Element.Type, site: SourceSite) -> Registration {
    collector(site: site) { site, container throws(ResolutionError) in
      try contributions(of: Element.self, named: false, from: container, at: site).map(\.value)
    }
  }

  /// The collector of `[String: Element]`: the named contributions, a later name winning.
  static func named<Element>(_ element: Element.Type, site: SourceSite) -> Registration {
    collector(site: site) { site, container throws(ResolutionError) in
      var named: [String: Element] = [:]
      let found = try contributions(of: Element.self, named: true, from: container, at: site)
      for (name, value) in found {
        if let name { named[name] = value }
      }
      return named
    }
  }

  /// What `[Element]` or `[String: Element]` gives where nothing answers it: an empty
  /// collection, for a `T` that is one.
  static func empty<T>(_ type: T.Type) -> T? {
    (T.self as? EmptyCollection.Type)?.empty as? T
  }

  private static func collector<Value>(
    site: SourceSite, _ collect: @escaping Provider<Value>.Conversion
  ) -> Registration {
    let provider = Provider<Value>(
      name: nil, scope: .unique, upstream: nil, site: site, isolation: nil, isEager: false,
      make: nil, conversion: collect, onClose: nil, keepsInstances: false)
    provider.role = .collector
    return provider
  }

  /// The contributions to `Element` that a resolution from `container` sees, each made as its
  /// scope says: from the bottom layer up to `container`, each layer's in registration order,
  /// starting above the nearest layer that registers the collection itself (`[Element]`, or
  /// `[String: Element]` when `named`), whose value comes first.
  private static func contributions<Element>(
    of element: Element.Type, named: Bool, from container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> [(name: String?, value: Element)] {
    var layers: [Dependencies] = []
    var base: [(name: String?, value: Element)] = []
    var current: Dependencies? = container
    while let layer = current {
      if layer.isClosed {
        throw layer.closedError([Element].self, name: nil, closed: layer, site: site)
      }
      if let replaced = try replacement(
        of: Element.self, named: named, in: layer, from: container, at: site)
      {
        base = replaced
        break
      }
      layers.append(layer)
      current = layer.parent
    }
    var found = base
    for layer in layers.reversed() {
      for entry in layer.table.contributions[ObjectIdentifier(Element.self)] ?? [] {
        let provider = Unmanaged<Provider<Element>>.fromOpaque(entry.toOpaque())
          .takeUnretainedValue()
        found.append((provider.name, try provider.anyInstance(at: site, from: container)))
      }
    }
    return found
  }

  /// The value of a module that registers `[Element]` (`[String: Element]` when `named`) in
  /// `layer`, which replaces the contributions there and underneath.
  private static func replacement<Element>(
    of element: Element.Type, named: Bool, in layer: Dependencies, from container: Dependencies,
    at site: SourceSite
  ) throws(ResolutionError) -> [(name: String?, value: Element)]? {
    if named {
      guard let dictionary = try own([String: Element].self, in: layer, from: container, at: site)
      else { return nil }
      return dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
    return try own([Element].self, in: layer, from: container, at: site)?.map { (nil, $0) }
  }

  /// The value of the module that registers `T` itself in `layer`, if one does.
  private static func own<T>(
    _ type: T.Type, in layer: Dependencies, from container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> T? {
    guard let registration = layer.table.registration(for: ObjectIdentifier(T.self), name: nil),
      registration.role == .module
    else { return nil }
    let provider = Unmanaged<Provider<T>>.fromOpaque(
      Unmanaged.passUnretained(registration).toOpaque())
    return try provider.takeUnretainedValue().anyInstance(at: site, from: container)
  }
}

/// A collection that stands for "no contributions" when nothing answers it.
protocol EmptyCollection {
  static var empty: Any { get }
}

extension Array: EmptyCollection {
  static var empty: Any { [Element]() }
}

extension Dictionary: EmptyCollection where Key == String {
  static var empty: Any { [String: Value]() }
}
