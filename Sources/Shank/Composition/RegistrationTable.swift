// A container's registrations in an open-addressed table, and the state word every lookup reads.

/// A container's registrations in an open-addressed table keyed by type identity and name.
///
/// `Hasher` costs more than the rest of a resolution, so a slot is found by a multiply of the
/// key's hash: the type's metadata address mixed with a short FNV-1a hash of the name. A slot
/// keeps that hash, so a probe compares names only where the hashes agree, not for every key
/// of the same type that shares the slot's neighbourhood. Lookups cost the same with ten
/// modules or a hundred thousand.
///
/// A value held in its container, not an object of its own: one allocation fewer per
/// container, and one load fewer per lookup. The container frees the slots in its `deinit`.
@usableFromInline
struct RegistrationTable {
  /// One slot of the table: plain integers, so a probe retains nothing and the table frees as
  /// one block.
  @usableFromInline
  struct Slot {
    /// The key's hash (see ``RegistrationTable/key(type:name:)``).
    @usableFromInline var key: UInt
    /// `nil` in an empty slot. Kept alive by `order`, which the table owns.
    @usableFromInline var registration: Unretained<Registration>?
  }

  /// Behind the container's header word (see `state`); freed by ``free()``.
  @usableFromInline let slots: TableSlots<Slot>
  @usableFromInline let mask: Int
  /// The registrations that won their key, in registration order, which it keeps alive.
  let order: RegistrationList
  /// The modules with a registration that won its key, in order: they make a private copy of
  /// the container (see ``Dependencies/privateCopy()``). A module whose every key was replaced
  /// is not kept, so that it and what its factory holds are freed now.
  let modules: [Module]
  /// The contributions registered here, by the type they contribute to, in registration order.
  let contributions: [ObjectIdentifier: [Unretained<Registration>]]

  /// The decorators registered here, by the type they decorate, in registration order.
  let decorators: [ObjectIdentifier: [Unretained<Registration>]]

  /// Whether `modules` has one that ``Module/when(_:)`` left out, a ``LeftOutRecipe``, for a
  /// miss to look for.
  let hasLeftOut: Bool

  /// The `.cached` scopes of every module given, replaced ones and those left out included, for
  /// ``Dependencies/reset(_:fileID:line:)`` to tell a misspelled scope from an overridden one.
  let cachedScopes: Set<Scope>

  /// The table of `modules`, a later one replacing an earlier one with the same key.
  ///
  /// `extra` are more `.cached` scopes to count as registered: those of the replaced modules
  /// of a container that this table's is a copy of.
  init(_ modules: [Module], cachedScopes extra: Set<Scope> = []) {
    var list = RegistrationList(reservingCapacity: modules.count)
    // Borrowed, not retained: `modules` keeps each recipe alive.
    for index in modules.indices {
      Unretained(modules[index].recipe).read { $0.register(into: &list) }
      list.endModule(index)
    }
    // A quarter full at most: a slot costs 16 bytes, a probe past a neighbour costs every
    // lookup that lands before it.
    var capacity = 8
    while capacity < list.count * 4 { capacity *= 2 }
    mask = capacity - 1
    slots = TableSlots(count: capacity, empty: Slot(key: 0, registration: nil))
    var cachedScopes = extra
    var replaced = false
    // `.init()`, not `[:]`, which builds an empty dictionary from an empty literal array at
    // each container made.
    var contributions: [ObjectIdentifier: [Unretained<Registration>]] = .init()
    var collectors: [Unretained<Registration>] = []
    var decorators: [ObjectIdentifier: [Unretained<Registration>]] = .init()
    // By index: iterating would copy the list, and retain each of its arrays.
    for index in list.indices {
      let entry = list[index]
      let (role, isCached) = entry.read { registration in
        guard case .cached = registration.scope.kind else { return (registration.role, false) }
        return (registration.role, true)
      }
      if isCached { cachedScopes.insert(entry.takeUnretainedValue().scope) }
      switch role {
      case .module: replaced = Self.insert(entry, into: slots, mask: mask) || replaced
      case .contribution:
        contributions[ObjectIdentifier(entry.takeUnretainedValue().type), default: []].append(entry)
      case .collector: collectors.append(entry)
      case .decorator:
        decorators[ObjectIdentifier(entry.takeUnretainedValue().type), default: []].append(entry)
      }
    }
    // A scope that only a module left out uses is no misspelling: where its contexts do not
    // hold, its reset drops nothing.
    if list.hasLeftOut {
      for case let leftOut as LeftOutRecipe in modules.lazy.map(\.recipe) {
        if case .cached = leftOut.scope.kind { cachedScopes.insert(leftOut.scope) }
      }
    }
    self.cachedScopes = cachedScopes
    // A collector answers `[P]` only where no module registers `[P]` itself, in any order.
    for entry in collectors {
      let (type, name) = entry.read { (ObjectIdentifier($0.type), $0.name) }
      if Self.unretainedRegistration(for: type, named: name, in: slots, mask: mask) == nil {
        _ = Self.insert(entry, into: slots, mask: mask)
      }
    }
    self.contributions = contributions
    self.decorators = decorators
    hasLeftOut = list.hasLeftOut
    if replaced || !collectors.isEmpty {
      // The table keeps the later of two registrations with the same key, and only the
      // winners: a replaced module and what its factory holds are freed now.
      let order = Self.winners(list, in: slots, mask: mask)
      let winners = Set(order.map(\.address))
      self.modules = modules.indices.compactMap { index in
        let registered = list[list.registrations(ofModule: index)]
        // A module left out registers nothing, and is kept for a miss to name.
        let won = registered.isEmpty || registered.contains { winners.contains($0.address) }
        return won ? modules[index] : nil
      }
      var kept = RegistrationList(reservingCapacity: order.count)
      for entry in order { kept.append(entry.takeUnretainedValue()) }
      self.order = kept
    } else {
      order = consume list
      self.modules = modules
    }
  }

  /// Frees the slots: the container's `deinit`, when no lookup can read them.
  func free() {
    slots.free()
  }

  /// The container's state: ``closedBit`` and ``decoratesBit``, 0 for a container that
  /// resolves plainly. It sits just before the slots, which every lookup reads, so checking it
  /// costs one load from a line that is already there.
  @inlinable @inline(__always) var state: UInt {
    slots.loadRelaxed(Self.stateIndex)
  }

  /// The header word's index: ``state``, right before the slots.
  @usableFromInline static var stateIndex: Int { 0 }

  /// Sets `bits` in ``state``.
  func setState(_ bits: UInt) {
    slots.setBits(bits, in: Self.stateIndex)
  }

  /// Set by ``Dependencies/close()``.
  @usableFromInline static let closedBit: UInt = 1
  /// Set when the container or one underneath registers a decorator.
  @usableFromInline static let decoratesBit: UInt = 2

  /// Puts `entry` in its slot; returns whether it replaced one with the same key.
  private static func insert(
    _ entry: Unretained<Registration>, into slots: TableSlots<Slot>, mask: Int
  ) -> Bool {
    entry.read { registration in
      let key = key(
        type: UInt(bitPattern: ObjectIdentifier(registration.type)), name: registration.name)
      var index = slot(key: key, mask: mask)
      var replaced = false
      while let occupant = slots[index].registration {
        if slots[index].key == key,
          occupant.read({ $0.name == registration.name })
        {
          replaced = true
          break
        }
        index = (index + 1) & mask
      }
      slots[index] = Slot(key: key, registration: entry)
      return replaced
    }
  }

  /// The registrations that won their slot, and every contribution and decorator, each once,
  /// in registration order.
  private static func winners(
    _ all: RegistrationList, in slots: TableSlots<Slot>, mask: Int
  ) -> [Unretained<Registration>] {
    var seen: Set<UInt> = []
    return all.filter { entry in
      // The same module written twice registers the same provider twice.
      guard seen.insert(entry.address).inserted else { return false }
      let registration = entry.takeUnretainedValue()
      if registration.role == .contribution || registration.role == .decorator { return true }
      let winner = unretainedRegistration(
        for: ObjectIdentifier(registration.type), named: registration.name, in: slots, mask: mask)
      return winner?.address == entry.address
    }
  }

  /// The hash of a key: its type's metadata address, mixed with its name's hash if it has one.
  /// Two keys with the same hash and the same name have the same type, so comparing the hash
  /// and then the name confirms a key.
  @inlinable
  static func key(type: UInt, name: String?) -> UInt {
    guard let name else { return type }
    return type ^ nameHash(name)
  }

  /// The first slot to probe for a key with hash `key`.
  @inlinable
  static func slot(key: UInt, mask: Int) -> Int {
    // Fibonacci hashing: the multiply spreads aligned addresses over the top bits.
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
  }

  /// The registration for `type` and `name`, if this table has one.
  @inlinable
  func registration(for type: ObjectIdentifier, name: String?) -> Registration? {
    unretainedRegistration(for: type, name: name)?.takeUnretainedValue()
  }

  /// The registration for `type` and `name`, if this table has one, unretained: the table
  /// keeps it alive, and retaining it on every resolution makes threads contend for it.
  ///
  /// An unnamed key, the usual one, is looked up inline: no name to hash or compare.
  @inlinable @inline(__always)
  func unretainedRegistration(for type: ObjectIdentifier, name: String?) -> Unretained<
    Registration
  >? {
    guard name == nil else {
      return Self.unretainedRegistration(for: type, named: name, in: slots, mask: mask)
    }
    let wanted = UInt(bitPattern: type)
    var index = Self.slot(key: wanted, mask: mask)
    while let found = slots[index].registration {
      if slots[index].key == wanted, found.read({ $0.name == nil }) {
        return found
      }
      index = (index + 1) & mask
    }
    return nil
  }

  /// ``unretainedRegistration(for:name:)`` for a named key. Given the slots and mask alone:
  /// a call given the whole table would copy it, and retain every array it holds.
  @usableFromInline
  static func unretainedRegistration(
    for type: ObjectIdentifier, named name: String?, in slots: TableSlots<Slot>, mask: Int
  ) -> Unretained<Registration>? {
    let wanted = key(type: UInt(bitPattern: type), name: name)
    var index = slot(key: wanted, mask: mask)
    while let found = slots[index].registration {
      if slots[index].key == wanted, found.read({ $0.name == name }) {
        return found
      }
      index = (index + 1) & mask
    }
    return nil
  }
}

// Written only in `init`; read-only from then on.
extension RegistrationTable: @unchecked Sendable {}
