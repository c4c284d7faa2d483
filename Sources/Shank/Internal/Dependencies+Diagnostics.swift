extension Dependencies {
  /// How many registered keys a message lists.
  static let listedKeyLimit = 20

  /// The error for a key nothing registers, with near misses and what is registered.
  func notRegistered<T>(_ type: T.Type, name: String?, site: SourceSite) -> ResolutionError {
    let visible = visibleRegistrations()
    let requested = ObjectIdentifier(T.self)
    let optional = ObjectIdentifier(T?.self)
    var nearMisses: [String] = []
    for registration in visible {
      let key = registration.key
      let described = registration.keyDescription
      if key.type == requested {
        let nameNote = key.name == nil ? "with no name" : "under another name"
        nearMisses.append("\(described): the same type \(nameNote)")
      } else if key.type == optional, key.name == name {
        nearMisses.append(
          "\(described): the type registered as an Optional; register it as \(KeyDescription(T.self, name: nil))"
        )
      } else if let name, key.name == name {
        nearMisses.append("\(described): the same name, another type")
      }
    }
    let listed = visible.map(\.keyDescription).sorted()
    return ResolutionError(
      .notRegistered, key: KeyDescription(T.self, name: name), site: site,
      noContainerBuilt: isBuiltOnNothing, nearMisses: nearMisses,
      registered: listed.prefix(Self.listedKeyLimit).map(\.description),
      registeredCount: listed.count)
  }

  /// Every registration resolution can reach from here: the layer's own win over its parent's.
  func visibleRegistrations() -> [Registration] {
    var seen: Set<Key> = []
    var visible: [Registration] = []
    var container: Dependencies? = self
    while let current = container {
      for registration in current.registrations where seen.insert(registration.key).inserted {
        visible.append(registration)
      }
      container = current.parent
    }
    return visible
  }

  /// Whether this container, or the one it is layered over, is the stand-in for "not built".
  var isBuiltOnNothing: Bool {
    var container: Dependencies? = self
    while let current = container {
      if current.isUnbuilt { return true }
      container = current.parent
    }
    return false
  }
}
