// The error of a miss: near misses, what is registered, and which hints apply.

extension Dependencies {
  /// How many entries a message lists of each kind.
  static let listedKeyLimit = 20

  /// The error for a key nothing registers, with near misses and what is registered.
  ///
  /// A container may hold a hundred thousand keys, so this prints each type once, spells
  /// out only the near misses, and keeps only the first keys in order instead of sorting
  /// them all. Where another type has the short name of the requested type, or of one it is
  /// written with, as `Client` of two features, a second pass writes every type of that name in
  /// full.
  func notRegistered<T>(_ type: T.Type, name: String?, site: SourceSite) -> ResolutionError {
    // Read here, on the asking thread and task, not on the fresh stack the error may be made on.
    let above = layerAbove(registering: T.self, name: name)
    let asker = ResolutionTrace.current.asker { _ in true }
    return KeyDescription.withRoom {
      // A closed layer's keys answer that it closed: neither near misses nor what is registered.
      // Nor does a list that a closed layer contributes to, which stops there (`Miss.closedLists`).
      let listIsClosed = sequence(first: self, next: \.parent).contains { layer in
        layer.isClosedToThisThread
          && layer.table.order.contains {
            $0.read { $0.role == .contribution && $0.type == T.self }
          }
      }
      let miss = gather(T.self, name: name, listIsClosed: listIsClosed)
      // A layer made before `build()` lies over the empty container, which no build replaces.
      let overUnbuilt = sequence(first: self, next: \.parent).contains { $0.isUnbuilt }
      let builtSince = overUnbuilt && Root.shared.isBuilt
      let inTest = overUnbuilt && !builtSince && TestRun.isRunning ? testLayers : nil
      return ResolutionError(
        ResolutionError.Fields(
          reason: .notRegistered, key: miss.wanted, site: site,
          noContainerBuilt: overUnbuilt && !builtSince, builtSince: builtSince,
          inTest: inTest,
          registeredAbove: above.map { (origin.description, $0.origin.description) },
          nearMisses: miss.rankedNearMisses,
          registered: miss.listed.map { Self.line(of: $0.key, as: $0.role, at: $0.site) },
          registeredCount: miss.registeredCount, askingFactory: asker))
    }
  }

  /// What a test with no container built resolves from here: the override layers, else this
  /// container if it is not the empty one itself.
  private var testLayers: ResolutionError.TestLayers {
    if sequence(first: self, next: \.parent).contains(where: \.origin.isOverrideLayer) {
      return .overrides
    }
    return isUnbuilt ? .none : .container(madeAt: origin.description)
  }

  /// A container over this one that registers `T` and `name`, where this thread's outermost
  /// resolution, or its task's override layer, started: a shared module of this one, asking
  /// for what only a layer over it registers, misses.
  private func layerAbove<T>(registering type: T.Type, name: String?) -> Dependencies? {
    let trace = ResolutionTrace.current
    let outermost = trace.depth > 0 ? trace.frames[0].container.takeUnretainedValue() : nil
    for start in [outermost, Self.overrides.get().container].compactMap({ $0 }) {
      // The layers from `start` down to this one, if the walk down meets it.
      let over = Array(sequence(first: start, next: \.parent).prefix { $0 !== self })
      guard over.last?.parent === self else { continue }
      if let layer = over.first(where: { $0.registers(T.self, name: name) }) { return layer }
    }
    return nil
  }

  /// The near misses of `T` and `name` among the registrations an open layer from here down
  /// holds, as a miss's message writes them: for ``verify()``, which names a missing key.
  func nearMisses<T>(of type: T.Type, name: String?) -> [String] {
    let miss = gather(T.self, name: name, listIsClosed: false)
    return miss.rankedNearMisses.map { $0.line(missing: miss.wanted) }
  }

  /// What a miss of `T` and `name` finds in the open layers from here down, in a second look
  /// if the first found types that share a short name with `T`'s, to write them in full.
  private func gather<T>(_ type: T.Type, name: String?, listIsClosed: Bool) -> Miss {
    var miss = Miss(T.self, name: name, writingInFull: [], listIsClosed: listIsClosed)
    while true {
      forEachVisibleRegistration(listingClosed: false) { registration, _, _ in
        if listIsClosed, miss.isClosedList(registration) { return }
        miss.offer(registration)
      }
      guard miss.writingInFull.isEmpty, !miss.clashing.isEmpty else { break }
      miss = Miss(T.self, name: name, writingInFull: miss.clashing, listIsClosed: listIsClosed)
    }
    for layer in sequence(first: self, next: \.parent)
    where layer.table.hasLeftOut && !layer.isClosedToThisThread {
      for case let leftOut as LeftOutRecipe in layer.table.modules.lazy.map(\.recipe) {
        for entry in leftOut.wouldRegister {
          miss.offer(entry.takeUnretainedValue(), leftOutWhen: leftOut.contexts)
        }
      }
    }
    return miss
  }

  /// A registered key's line in the registered list, which says what a registration that no
  /// resolution of its own key gives is, and where a contribution is registered: several
  /// layers may contribute under one key.
  private static func line(
    of key: KeyDescription, as role: Registration.Role, at site: SourceSite
  ) -> String {
    switch role {
    case .contribution: "\(key): a contribution to [\(key.typeName)], registered at \(site)"
    case .decorator: "\(key): a decorator"
    case .module, .collector: key.description
    }
  }

  /// Every registration resolution can reach from here, in the top `layers` containers, with
  /// how far down it is registered (0 here, 1 in the parent) and its position in that
  /// container's order. The layer's own win over its parent's.
  func visibleRegistrations(inTop layers: Int = .max)
    -> [(registration: Registration, layer: Int, position: Int)]
  {
    var visible: [(Registration, Int, Int)] = []
    forEachVisibleRegistration(inTop: layers) { visible.append(($0, $1, $2)) }
    return visible
  }

  /// Calls `body` with every registration resolution can reach from here, layer by layer.
  ///
  /// A table holds one registration per key, so a registration is hidden only by a closer
  /// layer's table, which answers that without hashing the key the way a `Set` would.
  ///
  /// Inlined so that each caller's `body` is too: through a closure context, a miss among
  /// 100,000 keys took a fifth longer.
  @inline(__always)
  private func forEachVisibleRegistration(
    listingClosed: Bool = true, inTop layers: Int = .max,
    _ body: (Registration, _ layer: Int, _ position: Int) -> Void
  ) {
    var closer: [Dependencies] = []
    for current in sequence(first: self, next: \.parent).prefix(layers) {
      // Still closer than those under it: its keys hide theirs, which it answers for.
      defer { closer.append(current) }
      if !listingClosed, current.isClosedToThisThread { continue }
      for (position, entry) in current.table.order.enumerated() {
        let registration = entry.takeUnretainedValue()
        let type = ObjectIdentifier(registration.type)
        // A contribution has no key of its own to hide it: every one is part of the list.
        let isHidden =
          registration.role != .contribution && registration.role != .decorator
          && closer.contains {
            $0.table.unretainedRegistration(for: type, name: registration.name) != nil
          }
        if !isHidden { body(registration, closer.count, position) }
      }
    }
  }
}
