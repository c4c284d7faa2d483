// How a name is hashed for the registration table: fast for ASCII, and agreeing with `==`.

extension RegistrationTable {
  /// A hash of `name` that agrees with `==`: names that Swift compares equal but that differ
  /// in bytes (`"caf\u{E9}"` and `"cafe\u{301}"`) must land in one slot, or the table keeps
  /// both and frees one that a slot still points to.
  ///
  /// An ASCII name, the usual case, is hashed over its bytes, read in place: a few
  /// instructions a byte. Any other name takes ``canonicalNameHash(_:)``.
  @inlinable
  static func nameHash(_ name: String) -> UInt {
    // 0 stands for "not ASCII", as `nil` does for "not contiguous". An ASCII name whose hash
    // happens to be 0 takes the canonical path too, which hashes its bytes the same way and
    // returns 0 again.
    let hash = name.utf8.withContiguousStorageIfAvailable { bytes -> UInt in
      var hash: UInt = 0xcbf2_9ce4_8422_2325
      var high: UInt8 = 0
      for byte in bytes {
        high |= byte
        hash = (hash ^ UInt(byte)) &* 0x100_0000_01b3
      }
      return high < 0x80 ? hash : 0
    }
    guard let hash, hash != 0 else { return canonicalNameHash(name) }
    return hash
  }

  /// The hash of a name that is not stored as contiguous ASCII.
  ///
  /// A few non-ASCII scalars are canonically equivalent to an ASCII character (U+212A KELVIN
  /// SIGN is `"K"`), so a name made only of ASCII and such scalars hashes as its ASCII
  /// spelling. Any other name is equal only to names with non-ASCII characters too, and
  /// `String`'s own hash, which normalizes, agrees with `==` for those.
  @usableFromInline
  static func canonicalNameHash(_ name: String) -> UInt {
    var spelling: [UInt8] = []
    for character in name {
      if character.utf8.allSatisfy({ $0 < 0x80 }) {
        spelling += character.utf8
      } else if let byte = asciiEquivalent(of: character) {
        spelling.append(byte)
      } else {
        return UInt(bitPattern: name.hashValue)
      }
    }
    return spelling.reduce(0xcbf2_9ce4_8422_2325 as UInt) { ($0 ^ UInt($1)) &* 0x100_0000_01b3 }
  }

  /// The ASCII byte `character` is canonically equivalent to, if any.
  ///
  /// Only a single scalar that never appears composed (a singleton decomposition is a full
  /// composition exclusion) can normalize to an ASCII character, so others are not compared.
  fileprivate static func asciiEquivalent(of character: Character) -> UInt8? {
    let scalars = character.unicodeScalars
    guard scalars.count == 1, let scalar = scalars.first,
      scalar.properties.isFullCompositionExclusion
    else { return nil }
    return (0..<0x80).first { Character(Unicode.Scalar(UInt8($0))) == character }.map(UInt8.init)
  }
}
