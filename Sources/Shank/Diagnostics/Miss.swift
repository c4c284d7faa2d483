// What a miss gathers from the registrations it can reach: near misses and the first keys.

/// What a miss of `T` and `name` gathers from the registrations offered: near misses, the
/// first keys, how many there are, and the short names another type shares with `T`'s leaves.
struct Miss {
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
  /// The key's modules that ``Module/when(_:)`` left out, found in a walk of their own: kept
  /// apart so that ``rankedNearMisses`` lists them first.
  var leftOut: [NearMiss] = []
  /// Whether a near miss is only likely, which ``rankedNearMisses`` puts last.
  var hasOwnType = false
  /// The names of the contributions to the type asked for that are near misses already.
  var contributionNames: [String?] = []
  /// The short names an implementation of the unnamed key asked for is given by convention:
  /// `WidgetModule` or `MockWidgetModule` for `WidgetModuleType`, `ServiceImpl`, `LiveService`
  /// or `ServiceMock` for `Service`; none for a named key.
  let ownTypeNames: Set<String>
  /// The first keys a message lists, sorted, at most ``Dependencies/listedKeyLimit``, kept as
  /// they are offered: one comparison for most keys, rather than a sort of all of them. Each
  /// with its role, which says its label, and its site, which tells contributions of one key
  /// apart: a label kept for each would be copied with each comparison.
  private(set) var listed: [(key: KeyDescription, role: Registration.Role, site: SourceSite)] = []
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
    list(key, of: registration)
    if registration.role == .decorator { return }
    let closeness: NearMiss.Closeness
    if registration.role == .contribution {
      // One line of advice for a key, however many layers contribute under it.
      guard type == requested, closedLists.isEmpty, !contributionNames.contains(registration.name)
      else { return }
      contributionNames.append(registration.name)
      closeness = .contribution
    } else if type == requested {
      closeness = registration.name == nil ? .sameTypeWithNoName : .sameTypeUnderAnotherName
    } else if type == optional, registration.name == name {
      closeness = .registeredAsOptional
    } else if !writingInFull.isEmpty, registration.name == name, typeName == wanted.typeName {
      closeness = .writtenAlike
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

  /// Keeps `key` among ``listed`` if it sorts before the last of them.
  private mutating func list(_ key: KeyDescription, of registration: Registration) {
    if listed.count == Dependencies.listedKeyLimit {
      guard let last = listed.last, key < last.key else { return }
      listed.removeLast()
    }
    let index = listed.firstIndex { key < $0.key } ?? listed.endIndex
    listed.insert((key, registration.role, registration.site), at: index)
  }

  /// Notes `registration`, which `.when(contexts)` left out, if it has the key asked for.
  mutating func offer(_ registration: Registration, leftOutWhen contexts: String) {
    guard ObjectIdentifier(registration.type) == requested, registration.name == name,
      registration.role == .module
    else { return }
    let why =
      "registered at \(registration.site) but left out, as .when(\(contexts)) does not hold in this process"
    leftOut.append(NearMiss(key: wanted, closeness: .leftOut(why)))
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

  /// The near misses: the modules of the key left out first, those that are only likely
  /// (``NearMiss/Closeness/ownType``) last, so that the first 20 a message lists keep the
  /// certain ones.
  var rankedNearMisses: [NearMiss] {
    // Copied only where there is something to rank: a miss may have 100,000 near misses.
    guard hasOwnType else { return leftOut.isEmpty ? nearMisses : leftOut + nearMisses }
    return leftOut + nearMisses.filter { !$0.isOwnType } + nearMisses.filter(\.isOwnType)
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
