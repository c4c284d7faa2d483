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
    let asker = ResolutionTrace.current.runningFactories.last.map { ($0.keyDescription, $0.site) }
    return KeyDescription.withRoom {
      missError(T.self, name: name, site: site, above: above, asker: asker)
    }
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

  private func missError<T>(
    _ type: T.Type, name: String?, site: SourceSite, above: Dependencies?,
    asker: (key: KeyDescription, registeredAt: SourceSite)?
  ) -> ResolutionError {
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
    let inTest = overUnbuilt && !builtSince && TestRun.isRunning
    let overridden = sequence(first: self, next: \.parent).contains { $0.origin.isOverrideLayer }
    return ResolutionError(
      ResolutionError.Fields(
        reason: .notRegistered, key: miss.wanted, site: site,
        noContainerBuilt: overUnbuilt && !builtSince, builtSince: builtSince,
        inBareTest: inTest && !overridden, inOverriddenTest: inTest && overridden,
        registeredAbove: above.map { (origin.description, $0.origin.description) },
        nearMisses: miss.rankedNearMisses,
        registered: miss.listed.keys.map { Self.line(of: $0.key, as: $0.role) },
        registeredCount: miss.registeredCount, askingFactory: asker))
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
    forEachVisibleRegistration(listingClosed: false) { registration, _, _ in
      if listIsClosed, miss.isClosedList(registration) { return }
      miss.offer(registration)
    }
    if !miss.clashing.isEmpty {
      miss = Miss(
        T.self, name: name, writingInFull: miss.clashing, listIsClosed: listIsClosed)
      forEachVisibleRegistration(listingClosed: false) { registration, _, _ in
        if listIsClosed, miss.isClosedList(registration) { return }
        miss.offer(registration)
      }
    }
    return miss
  }

  /// A registered key's line in the registered list, which says what a registration that no
  /// resolution of its own key gives is.
  private static func line(of key: KeyDescription, as role: Registration.Role) -> String {
    switch role {
    case .contribution: "\(key): a contribution to [\(key.typeName)]"
    case .decorator: "\(key): a decorator"
    case .module, .collector: key.description
    }
  }

  /// Every registration resolution can reach from here, with how far down it is registered
  /// (0 here, 1 in the parent) and its position in that container's order. The layer's own win
  /// over its parent's.
  func visibleRegistrations() -> [(registration: Registration, layer: Int, position: Int)] {
    var visible: [(Registration, Int, Int)] = []
    forEachVisibleRegistration { visible.append(($0, $1, $2)) }
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
    listingClosed: Bool = true, _ body: (Registration, _ layer: Int, _ position: Int) -> Void
  ) {
    var closer: [Dependencies] = []
    for current in sequence(first: self, next: \.parent) {
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

/// What a miss of `T` and `name` gathers from the registrations offered: near misses, the
/// first keys, how many there are, and the short names another type shares with `T`'s leaves.
private struct Miss {
  let requested: ObjectIdentifier
  let optional: ObjectIdentifier
  let name: String?
  let wanted: KeyDescription
  /// The types `T` is written with (see ``KeyDescription/leaves(of:)``).
  let leaves: [Any.Type]
  /// The short names written in full (see ``KeyDescription/typeName(of:writingInFull:)``).
  let writingInFull: Set<String>
  /// `[T]` and `[String: T]` when a closed layer contributes to them: neither is listed as
  /// registered, nor a contribution to them as a near miss, since they stop there.
  let closedLists: [ObjectIdentifier]
  /// The last type's name, kept: registrations mostly come in runs of one type, and each name
  /// looked up in ``KeyDescription/typeName(of:)`` takes its lock.
  var last: (type: ObjectIdentifier, name: String)?
  /// The short names other types, or `T`'s leaves among themselves, share with `T`'s leaves,
  /// which a second pass writes in full.
  var clashing: Set<String>
  var nearMisses: [NearMiss] = []
  /// Whether a near miss is only likely, which ``rankedNearMisses`` puts last.
  var hasOwnType = false
  /// The short names an implementation of the unnamed key asked for is given by convention:
  /// `WidgetModule` or `MockWidgetModule` for `WidgetModuleType`, `ServiceImpl`, `LiveService`
  /// or `ServiceMock` for `Service`; none for a named key.
  let ownTypeNames: Set<String>
  var listed = FirstKeys()
  var registeredCount = 0

  init<T>(
    _ type: T.Type, name: String?, writingInFull: Set<String>, listIsClosed: Bool
  ) {
    requested = ObjectIdentifier(T.self)
    closedLists =
      listIsClosed ? [ObjectIdentifier([T].self), ObjectIdentifier([String: T].self)] : []
    optional = ObjectIdentifier(T?.self)
    self.name = name
    leaves = KeyDescription.leaves(of: T.self)
    self.writingInFull = writingInFull
    clashing = Set(KeyDescription.clashingNames(of: T.self, with: leaves))
    let typeName = KeyDescription.typeName(of: T.self, writingInFull: writingInFull)
    wanted = KeyDescription(typeName: typeName, name: name)
    ownTypeNames = name == nil ? Self.ownTypeNames(of: Self.shortName(typeName)) : []
  }

  /// Whether `registration` is one of ``closedLists``, which is not listed as registered.
  func isClosedList(_ registration: Registration) -> Bool {
    registration.role == .collector && closedLists.contains(ObjectIdentifier(registration.type))
  }

  // Inlined into the walk: a call per registration of a hundred thousand was a quarter of
  // a miss's cost (S4 in Benchmarks/README.md).
  @inline(__always)
  mutating func offer(_ registration: Registration) {
    registeredCount += 1
    let type = ObjectIdentifier(registration.type)
    let typeName = writtenName(of: registration.type)
    let key = KeyDescription(typeName: typeName, name: registration.name)
    listed.offer(key, role: registration.role)
    if registration.role == .decorator { return }
    let closeness: NearMiss.Closeness
    if registration.role == .contribution {
      guard type == requested, closedLists.isEmpty else { return }
      closeness = .contribution
    } else if type == requested {
      closeness = registration.name == nil ? .sameTypeWithNoName : .sameTypeUnderAnotherName
    } else if type == optional, registration.name == name {
      closeness = .registeredAsOptional
    } else if let name, registration.name == name {
      closeness = .sameNameAnotherType
    } else if isLikelyOwnType(registration, named: typeName) {
      closeness = .ownType(registeredAt: registration.site.description)
      hasOwnType = true
    } else {
      return
    }
    nearMisses.append(NearMiss(key: key, closeness: closeness))
  }

  /// Whether `registration`, under `typeName`, is likely the concrete type of the unnamed key
  /// asked for, registered without `as`: an unnamed module of one of ``ownTypeNames``. Out of
  /// line, so that the walk's loop keeps its shape.
  @inline(never)
  private func isLikelyOwnType(_ registration: Registration, named typeName: String) -> Bool {
    !ownTypeNames.isEmpty && registration.name == nil && registration.role == .module
      && ownTypeNames.contains(Self.shortName(typeName))
  }

  /// The names an implementation, or a test's stand-in, of the type of short name `asked` is
  /// given by convention: the name without `Type` or `Protocol`, and either name with a prefix
  /// or a suffix such as `Live…`, `Mock…`, `…Impl` or `…Mock`.
  private static func ownTypeNames(of asked: String) -> Set<String> {
    var bases = [asked]
    for suffix in ["Type", "Protocol"] where asked.hasSuffix(suffix) && asked != suffix {
      bases.append(String(asked.dropLast(suffix.count)))
    }
    var names = Set(bases.dropFirst())
    for base in bases {
      for prefix in ["Live", "Default", "Mock", "Stub", "Fake", "Preview", "InMemory"] {
        names.insert(prefix + base)
      }
      for suffix in ["Impl", "Implementation", "Mock", "Stub", "Fake", "Spy"] {
        names.insert(base + suffix)
      }
    }
    return names
  }

  /// `name` without its module and enclosing types, unless it is generic.
  private static func shortName(_ name: String) -> String {
    name.contains("<") ? name : String(name.split(separator: ".").last ?? Substring(name))
  }

  /// The near misses, those that are only likely (``NearMiss/Closeness/ownType``) last, so that
  /// the first 20 a message lists keep the certain ones.
  var rankedNearMisses: [NearMiss] {
    guard hasOwnType else { return nearMisses }
    return nearMisses.filter { !$0.isOwnType } + nearMisses.filter(\.isOwnType)
  }

  /// `type`'s name, noting the short names it shares with `T`'s leaves.
  private mutating func writtenName(of type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let last, last.type == id { return last.name }
    let name = KeyDescription.typeName(of: type, writingInFull: writingInFull)
    clashing.formUnion(KeyDescription.clashingNames(of: type, with: leaves))
    last = (id, name)
    return name
  }
}

/// The first keys a message lists, in sorted order, kept as they are offered: one comparison
/// for most keys, rather than a sort of all of them.
private struct FirstKeys {
  /// Sorted by key, at most ``Dependencies/listedKeyLimit``, each with its role, which says
  /// its label: a label kept for each would be copied with each comparison.
  private(set) var keys: [(key: KeyDescription, role: Registration.Role)] = []

  mutating func offer(_ key: KeyDescription, role: Registration.Role) {
    if keys.count == Dependencies.listedKeyLimit {
      guard let last = keys.last, key < last.key else { return }
      keys.removeLast()
    }
    let index = keys.firstIndex { key < $0.key } ?? keys.endIndex
    keys.insert((key, role), at: index)
  }
}
