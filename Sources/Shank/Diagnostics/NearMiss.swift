/// A registration close to a key that was not found, kept as its parts: a miss among many keys
/// writes only the near misses its message shows, and ``ResolutionError/nearMisses`` the rest
/// when asked.
struct NearMiss: Sendable, CustomStringConvertible {
  /// How the registration is close to the key asked for. Only one case carries a value, so
  /// that each of a hundred thousand near misses copies no string of its own.
  enum Closeness: Sendable {
    case sameTypeWithNoName, sameTypeUnderAnotherName, sameNameAnotherType
    /// A contribution to the type's list, which resolves; the type alone does not.
    case contribution
    /// An unnamed module of a type named as its implementation would be: likely its concrete
    /// type, registered without `as`.
    case ownType
    /// The type registered as an `Optional`; `wanted` is the key to register instead.
    case registeredAsOptional(wanted: KeyDescription)
  }

  let key: KeyDescription
  let closeness: Closeness

  /// Whether the registration is only likely the key's concrete type.
  var isOwnType: Bool {
    if case .ownType = closeness { return true }
    return false
  }

  var description: String {
    switch closeness {
    case .sameTypeWithNoName: "\(key): the same type with no name"
    case .sameTypeUnderAnotherName: "\(key): the same type under another name"
    case .sameNameAnotherType: "\(key): the same name, another type"
    case .contribution: "\(key): a contribution; resolve [\(key.typeName)] for every one"
    case .ownType:
      "\(key): registered as its own type; a module is resolved by the type its factory returns, so if it is the type asked for, write `as` and that type in its Module { }"
    case .registeredAsOptional(let wanted):
      "\(key): the type registered as an Optional; register it as \(wanted)"
    }
  }
}
