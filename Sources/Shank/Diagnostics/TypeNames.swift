/// Type names as messages and events write them, each worked out once per process.
///
/// `String(describing:)` of a metatype walks its metadata, thousands of instructions; an
/// observer's event names its key at every resolution, so it would pay that every time.
/// Types are never unloaded, so a name once written stays true.
final class TypeNames: Sendable {
  static let shared = TypeNames()

  private let names = Locked<[ObjectIdentifier: String]>([:])

  func name(of type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let known = names.withLock({ $0[id] }) { return known }
    // Written outside the lock: a collection's name asks for its element's.
    let name = Self.written(type)
    names.withLock { $0[id] = name }
    return name
  }

  private static func written(_ type: Any.Type) -> String {
    if let sugared = (type as? SugaredType.Type)?.sugaredName { return sugared }
    let name = String(describing: type)
    return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
  }
}
