/// A container's registrations in an open-addressed table keyed by type identity and name.
///
/// `Hasher` costs more than the rest of a resolution, so a slot is found by a multiply of the
/// type's metadata address mixed with a short FNV-1a hash of the name, and confirmed by
/// comparing both. Lookups cost the same with ten modules or a hundred thousand.
@usableFromInline
final class RegistrationTable {
  /// Each slot's type as its metadata address; 0 marks an empty slot. The columns are raw
  /// buffers apart from each other, so a probe reads plain integers and retains nothing.
  @usableFromInline let types: UnsafeMutablePointer<UInt>
  @usableFromInline let names: UnsafeMutablePointer<String?>
  @usableFromInline let registrations: UnsafeMutablePointer<Registration?>
  @usableFromInline let mask: Int
  /// How many entries a later one with the same key replaced.
  private(set) var replacedCount = 0

  init(_ entries: [Registration]) {
    var capacity = 8
    while capacity < entries.count * 2 { capacity *= 2 }
    mask = capacity - 1
    types = .allocate(capacity: capacity)
    types.initialize(repeating: 0, count: capacity)
    names = .allocate(capacity: capacity)
    names.initialize(repeating: nil, count: capacity)
    registrations = .allocate(capacity: capacity)
    registrations.initialize(repeating: nil, count: capacity)
    for registration in entries {
      let type = UInt(bitPattern: ObjectIdentifier(registration.type))
      var index = Self.slot(type: type, name: registration.name, mask: mask)
      while types[index] != 0, types[index] != type || names[index] != registration.name {
        index = (index + 1) & mask
      }
      if types[index] == 0 {
        types[index] = type
        names[index] = registration.name
      } else {
        replacedCount += 1
      }
      registrations[index] = registration
    }
  }

  deinit {
    types.deallocate()
    names.deinitialize(count: mask + 1).deallocate()
    registrations.deinitialize(count: mask + 1).deallocate()
  }

  @inlinable
  static func slot(type: UInt, name: String?, mask: Int) -> Int {
    var hash = type
    if var name {
      // FNV-1a over the UTF-8 bytes: a few instructions a byte, and names are short.
      hash ^= name.withUTF8 { bytes in
        bytes.reduce(0xcbf2_9ce4_8422_2325 as UInt) { ($0 ^ UInt($1)) &* 0x100_0000_01b3 }
      }
    }
    // Fibonacci hashing: the multiply spreads aligned addresses over the top bits.
    return Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// The registration for `type` and `name`, if this table has one.
  @inlinable
  func registration(for type: ObjectIdentifier, name: String?) -> Registration? {
    unretainedRegistration(for: type, name: name)?.takeUnretainedValue()
  }

  /// The registration for `type` and `name`, if this table has one, unretained: the table
  /// keeps it alive, and retaining it on every resolution makes threads contend for it.
  @inlinable
  func unretainedRegistration(for type: ObjectIdentifier, name: String?) -> Unmanaged<Registration>?
  {
    let wanted = UInt(bitPattern: type)
    var index = Self.slot(type: wanted, name: name, mask: mask)
    while true {
      let found = types[index]
      if found == 0 { return nil }
      if found == wanted, names[index] == name {
        return UnsafeRawPointer(registrations + index).load(as: Unmanaged<Registration>?.self)
      }
      index = (index + 1) & mask
    }
  }
}

// Written only in `init`; read-only from then on.
extension RegistrationTable: @unchecked Sendable {}
