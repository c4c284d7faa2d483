/// A registration close to a key that was not found, kept as its parts: a miss among many keys
/// writes only the near misses its message shows, and ``ResolutionError/nearMisses`` the rest
/// when asked.
struct NearMiss: Sendable, CustomStringConvertible {
  /// How the registration is close to the key asked for.
  enum Closeness: Sendable {
    case sameTypeWithNoName
    case sameTypeUnderAnotherName
    /// The type registered as an `Optional`; `wanted` is the key to register instead.
    case registeredAsOptional(wanted: KeyDescription)
    case sameNameAnotherType
    /// A contribution to the type's list, which `list` resolves; the type alone does not.
    case contribution(list: String)
  }

  let key: KeyDescription
  let closeness: Closeness

  var description: String {
    switch closeness {
    case .sameTypeWithNoName: key.description(followedBy: ": the same type with no name")
    case .sameTypeUnderAnotherName:
      key.description(followedBy: ": the same type under another name")
    case .registeredAsOptional(let wanted):
      "\(key): the type registered as an Optional; register it as \(wanted)"
    case .sameNameAnotherType: key.description(followedBy: ": the same name, another type")
    case .contribution(let list):
      key.description(followedBy: ": a contribution; resolve \(list) for every one")
    }
  }
}
