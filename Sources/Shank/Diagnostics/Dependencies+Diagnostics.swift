// The messages of a miss: near misses, closed containers, released ones.

extension Dependencies {
  /// How many entries a message lists of each kind.
  static let listedKeyLimit = 20

  /// The error for a key nothing registers, with near misses and what is registered.
  ///
  /// A container may hold a hundred thousand keys, so this prints each type once, spells
  /// out only the near misses, and keeps only the first keys in order instead of sorting
  /// them all.
  func notRegistered<T>(_ type: T.Type, name: String?, site: SourceSite) -> ResolutionError {
    let requested = ObjectIdentifier(T.self)
    let optional = ObjectIdentifier(T?.self)
    var typeNames = LastTypeName()
    var nearMisses: [NearMiss] = []
    var listed = FirstKeys(limit: Self.listedKeyLimit)
    var registeredCount = 0
    forEachVisibleRegistration { registration, _ in
      registeredCount += 1
      let type = ObjectIdentifier(registration.type)
      let typeName = typeNames.name(of: registration.type)
      let described = KeyDescription(typeName: typeName, name: registration.name)
      listed.offer(described, labelled: Self.label(of: registration, typeName: typeName))
      if registration.role == .decorator { return }
      if registration.role == .contribution {
        guard type == requested else { return }
        nearMisses.append(NearMiss(key: described, closeness: .contribution(list: "[\(typeName)]")))
      } else if type == requested {
        let closeness: NearMiss.Closeness =
          registration.name == nil ? .sameTypeWithNoName : .sameTypeUnderAnotherName
        nearMisses.append(NearMiss(key: described, closeness: closeness))
      } else if type == optional, registration.name == name {
        let wanted = KeyDescription(T.self, name: nil)
        nearMisses.append(
          NearMiss(key: described, closeness: .registeredAsOptional(wanted: wanted)))
      } else if let name, registration.name == name {
        nearMisses.append(NearMiss(key: described, closeness: .sameNameAnotherType))
      }
    }
    return ResolutionError(
      .notRegistered, key: KeyDescription(T.self, name: name), site: site,
      noContainerBuilt: isBuiltOnNothing, inBareTest: isUnbuilt && TestRun.isRunning,
      nearMisses: nearMisses,
      registered: listed.keys.map { $0.key.description(followedBy: $0.label) },
      registeredCount: registeredCount)
  }

  /// What a registration that no resolution of its own key gives is, in the registered list.
  private static func label(of registration: Registration, typeName: String) -> String {
    switch registration.role {
    case .contribution: ": a contribution to [\(typeName)]"
    case .decorator: ": a decorator"
    case .module, .collector: ""
    }
  }

  /// Every registration resolution can reach from here: the layer's own win over its parent's.
  func visibleRegistrations() -> [Registration] {
    var visible: [Registration] = []
    forEachVisibleRegistration { registration, _ in visible.append(registration) }
    return visible
  }

  /// How far down each of ``visibleRegistrations()`` is registered: 0 here, 1 in the parent.
  func visibleLayers() -> [Int] {
    var layers: [Int] = []
    forEachVisibleRegistration { _, layer in layers.append(layer) }
    return layers
  }

  /// Calls `body` with every registration resolution can reach from here, layer by layer.
  ///
  /// A table holds one registration per key, so a registration is hidden only by a closer
  /// layer's table, which answers that without hashing the key the way a `Set` would.
  private func forEachVisibleRegistration(_ body: (Registration, _ layer: Int) -> Void) {
    var closer: [Dependencies] = []
    var container: Dependencies? = self
    while let current = container {
      for entry in current.table.order {
        let registration = entry.takeUnretainedValue()
        let type = ObjectIdentifier(registration.type)
        // A contribution has no key of its own to hide it: every one is part of the list.
        let isHidden =
          registration.role != .contribution && registration.role != .decorator
          && closer.contains {
            $0.table.unretainedRegistration(for: type, name: registration.name) != nil
          }
        if !isHidden { body(registration, closer.count) }
      }
      closer.append(current)
      container = current.parent
    }
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

/// The last type's name, kept: registrations mostly come in runs of one type, and each name
/// looked up in ``TypeNames`` takes its lock.
private struct LastTypeName {
  private var last: (type: ObjectIdentifier, name: String)?

  mutating func name(of type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let last, last.type == id { return last.name }
    let name = KeyDescription.typeName(of: type)
    last = (id, name)
    return name
  }
}

/// The first `limit` keys in sorted order, each with the label that follows it, kept as they
/// are offered: one comparison for most keys, rather than a sort of all of them.
private struct FirstKeys {
  let limit: Int
  /// Sorted by key, at most `limit`.
  private(set) var keys: [(key: KeyDescription, label: String)] = []

  init(limit: Int) {
    self.limit = limit
  }

  mutating func offer(_ key: KeyDescription, labelled label: String) {
    if keys.count == limit {
      guard let last = keys.last, key < last.key else { return }
      keys.removeLast()
    }
    let index = keys.firstIndex { key < $0.key } ?? keys.endIndex
    keys.insert((key, label), at: index)
  }
}
