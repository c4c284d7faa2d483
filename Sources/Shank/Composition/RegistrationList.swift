/// A container's registrations in registration order, as its modules' recipes add them.
///
/// A provider that keeps nothing is shared by every container that registers it, and the
/// container's modules already keep it alive, so it goes in unretained; a registration made
/// for this container alone is kept in `made`. Listing a thousand plain modules then writes no
/// reference count, which is most of what building a root costs.
struct RegistrationList {
  /// Every registration, in order. Each is kept alive by a module or by `made`.
  private(set) var order: [Unmanaged<Registration>] = []
  /// The registrations made for this container alone: per-container copies and aliases.
  private(set) var made: [Registration] = []

  init(reservingCapacity capacity: Int) {
    order.reserveCapacity(capacity)
  }

  /// Adds a registration that one of the container's modules keeps alive.
  mutating func append(sharedBy recipe: Registration) {
    order.append(.passUnretained(recipe))
  }

  /// Adds a registration made for this container, which the list then keeps alive.
  mutating func append(made registration: consuming Registration) {
    order.append(.passUnretained(registration))
    made.append(registration)
  }
}
