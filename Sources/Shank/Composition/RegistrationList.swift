/// A container's registrations in registration order, as its modules' recipes add them.
///
/// A provider that keeps nothing is shared by every container that registers it, and the
/// container's modules already keep it alive, so it goes in unretained; a registration made
/// for this container alone is kept in `first` and `made`. Listing a thousand plain modules
/// then writes no reference count, which is most of what building a root costs. A list whose
/// every registration was made here, a scope's usually, is `first` and `made` alone: one array,
/// not two, and none for a scope of one module.
struct RegistrationList: RandomAccessCollection {
  /// Every registration, in order, once one is shared; empty until then, while `first` and
  /// `made` hold every one in order. Each is kept alive by a module, `first` or `made`.
  private var shared: [Unretained<Registration>] = []
  /// The first registration made for this container alone: inline, so that a container that
  /// makes one allocates no array for it.
  private var first: Registration?
  /// The registrations made for this container alone after `first`: per-container copies and
  /// aliases.
  private var made: [Registration] = []
  /// Whether a shared registration was added, so that `shared` lists every one.
  private var hasShared = false
  /// How many registrations to make room for at the first.
  private let expected: Int

  /// The first module that did not add exactly one registration, if any: the modules before
  /// it need no entry in `ends`, so the usual list, a registration a module, allocates none.
  private var firstIrregular: Int?
  /// Where the registrations of `firstIrregular` and each module after it end in the list.
  private var ends: [Int] = []

  init(reservingCapacity capacity: Int) {
    expected = capacity
  }

  var startIndex: Int { 0 }

  var endIndex: Int { hasShared ? shared.count : first == nil ? 0 : made.count + 1 }

  subscript(position: Int) -> Unretained<Registration> {
    if hasShared { return shared[position] }
    return position == 0 ? Unretained(first!) : Unretained(made[position - 1])
  }

  /// Adds a registration that one of the container's modules keeps alive.
  mutating func append(sharedBy recipe: Registration) {
    if !hasShared {
      shared.reserveCapacity(Swift.max(expected, count + 1))
      if let first { shared.append(Unretained(first)) }
      for registration in made { shared.append(Unretained(registration)) }
      hasShared = true
    }
    shared.append(Unretained(recipe))
  }

  /// Adds a registration made for this container, which the list then keeps alive.
  mutating func append(made registration: consuming Registration) {
    if hasShared { shared.append(Unretained(registration)) }
    guard first != nil else {
      first = registration
      return
    }
    if made.isEmpty { made.reserveCapacity(hasShared ? 1 : Swift.max(1, expected - 1)) }
    made.append(registration)
  }

  /// Notes that module `index`, the next in order, added all its registrations.
  mutating func endModule(_ index: Int) {
    if firstIrregular == nil, count == index + 1 { return }
    if firstIrregular == nil { firstIrregular = index }
    ends.append(count)
  }

  /// The positions of what module `index` added.
  func registrations(ofModule index: Int) -> Range<Int> {
    (index == 0 ? 0 : end(ofModule: index - 1))..<end(ofModule: index)
  }

  private func end(ofModule index: Int) -> Int {
    guard let firstIrregular, index >= firstIrregular else { return index + 1 }
    return ends[index - firstIrregular]
  }
}
