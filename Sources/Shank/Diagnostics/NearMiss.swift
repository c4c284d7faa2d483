/// A registration close to a key that was not found, kept as its parts: a miss among many keys
/// writes only the near misses its message shows, and ``ResolutionError/nearMisses`` the rest
/// when asked.
struct NearMiss: Sendable {
  /// How the registration is close to the key asked for. Only the rare own type and left-out
  /// module carry a value, so that each of a hundred thousand near misses copies no string of
  /// its own.
  enum Closeness: Sendable {
    case sameTypeWithNoName, sameTypeUnderAnotherName, sameNameAnotherType
    /// Another type under the key's name, written as the key's even in full: one private to
    /// another file, or local to another function.
    case writtenAlike
    /// A contribution to the type's list, which resolves; the type alone does not.
    case contribution
    /// The type registered as an `Optional`.
    case registeredAsOptional
    /// An unnamed module, registered at `registeredAt`, of a type named as an implementation
    /// of the key would be: likely its concrete type, registered without `as`. The site is
    /// written out: a `String`, unlike a `SourceSite`, leaves spare bits for the other cases.
    case ownType(registeredAt: String)
    /// A module of the key itself that ``Module/when(_:)`` left out, with why, as written.
    case leftOut(String)
  }

  let key: KeyDescription
  let closeness: Closeness

  /// Whether the registration is only likely the key's concrete type.
  var isOwnType: Bool {
    if case .ownType = closeness { return true }
    return false
  }

  /// The line a message lists for this near miss of `wanted`.
  func line(missing wanted: KeyDescription) -> String {
    switch closeness {
    case .sameTypeWithNoName: "\(key): the same type with no name"
    case .sameTypeUnderAnotherName: "\(key): the same type under another name"
    case .sameNameAnotherType: "\(key): the same name, another type"
    case .writtenAlike:
      "\(key): another type written the same, private to another file or local to another function: register the type asked for, or ask for this one"
    case .contribution: "\(key): a contribution; resolve [\(key.typeName)] for every one"
    case .ownType(let site):
      "\(key): registered at \(site) as its own type; if it conforms to \(wanted.typeName), register it as that type: Module { … as \(wanted.typeName) }"
    case .leftOut(let why): "\(key): \(why)"
    case .registeredAsOptional:
      "\(key): the type registered as an Optional; register it as \(wanted.typeName)"
    }
  }
}
