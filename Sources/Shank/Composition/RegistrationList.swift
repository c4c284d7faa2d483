/// A container's registrations in registration order, as its modules' recipes add them, each
/// kept alive by the list.
///
/// A scope of one module makes one registration, kept inline in `first`, so the list
/// allocates no array for it.
struct RegistrationList: RandomAccessCollection {
  /// The first registration: inline, so that a list of one allocates no array.
  private var first: Registration?
  /// The registrations after `first`.
  private var made: [Registration] = []
  /// How many registrations to make room for at the first.
  private let expected: Int
  /// Whether a registration's instances have an `onClose` handler, which the container then
  /// keeps a ``Disposals`` for.
  private(set) var hasOnClose = false

  /// The first module that did not add exactly one registration, if any: the modules before
  /// it need no entry in `ends`, so the usual list, a registration a module, allocates none.
  private var firstIrregular: Int?
  /// Where the registrations of `firstIrregular` and each module after it end in the list.
  private var ends: [Int] = []

  /// Whether a module that ``Module/when(_:)`` left out is among those registered.
  var hasLeftOut = false

  init(reservingCapacity capacity: Int) {
    expected = capacity
  }

  var startIndex: Int { 0 }

  var endIndex: Int { first == nil ? 0 : made.count + 1 }

  subscript(position: Int) -> Unretained<Registration> {
    position == 0 ? Unretained(first!) : Unretained(made[position - 1])
  }

  /// Adds `registration`, which the list then keeps alive.
  mutating func append(_ registration: consuming Registration) {
    if registration.hasOnClose { hasOnClose = true }
    guard first != nil else {
      first = registration
      return
    }
    if made.isEmpty { made.reserveCapacity(Swift.max(1, expected - 1)) }
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
