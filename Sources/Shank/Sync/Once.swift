// Values published once: written by one writer, then read by any thread with one acquiring
// load and no lock. `OnceFlag` is the word, `OnceCell` an `@Inject` property's value beside its
// word, `OnceBox` a provider's kept instance.
//
// Sound because a word only ever moves empty → claimed → published, the move to claimed is
// a compare-exchange that one thread alone wins (or the writer holds a lock that makes it the
// only one), and that thread writes what the word guards before its releasing store of
// published. Every other thread reads what the word guards only after an acquiring load has
// seen published, so it sees everything written before that store, and nothing writes it
// again. A `OnceCell`'s slot is a `OnceFlag` word, the value right after it, then the context:
// the context is written when the cell is made, and the value, once published, is
// deinitialized only in `deinit`, when no reference is left. A `OnceValue` is an address into
// the cell, valid while the cell lives: whoever holds one keeps the cell alive beside it. A
// `OnceBox`'s words sit in the room after its creation lock's primitive, in the lock's
// allocation (see Lock.swift), and its value on cache lines of its own further on, sized for
// it when the box is made, whose address the writer stores beside the word before publishing;
// only the owner deinitializes it, in its `deinit`.
//
// How these orderings fit the rest is in "Memory ordering, in one place" in ARCHITECTURE.md.

import _ShankAtomics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The states of a word that publishes a value once, its acquiring read and its releasing
/// publication, read with one acquiring load and no lock on any platform (a cell's claim, the
/// one compare-exchange, is in ``OnceValue/publish(_:)``). `Synchronization.Atomic` needs macOS 15
/// and iOS 18; the word sits beside the value it guards, in an allocation whose address is
/// stable (a ``OnceCell``'s, a ``OnceBox``'s).
@usableFromInline
enum OnceFlag {
  @usableFromInline static let empty: UInt = 0
  @usableFromInline static let claimed: UInt = 1
  @usableFromInline static let published: UInt = 2

  /// Whether the word at `word` is published.
  @inlinable @inline(__always)
  static func isSet(at word: UnsafeMutablePointer<UInt>) -> Bool {
    _shank_load_acquiring(word) == published
  }

  /// Publishes what the claiming thread wrote before this call.
  static func publish(at word: UnsafeMutablePointer<UInt>) {
    _shank_store_releasing(word, published)
  }
}

/// A `.singleton` provider's kept instance, on cache lines of its own: kept under the
/// provider's creation lock, which is its writer's claim, and, for a nonisolated module,
/// published for resolutions to read with one acquiring load and no lock.
///
/// It lives in the room of that lock's allocation, so a singleton costs one allocation for
/// both. Not generic, so that making a provider looks up no generic type's metadata: only its
/// methods are, and they are given the instance's type. The provider frees the instance with
/// ``free(_:)``.
@usableFromInline
struct OnceBox {
  /// The creation lock whose room holds the ``OnceFlag`` word, then the instance's address,
  /// or 0 while nothing is kept, then room for the instance.
  @usableFromInline let lock: CreationLock

  /// A box that keeps nothing yet, with room for a `Value`, in a new creation lock's
  /// allocation.
  ///
  /// The instance's room starts on a fresh cache line and fills whole lines. Otherwise the
  /// instance could share a line with whatever the allocator puts beside it, such as the
  /// instance's own object, whose reference count every reader writes: each read would then
  /// wait for that line to come back from the other core.
  init<Value>(for type: Value.Type) {
    let bytes =
      2 * MemoryLayout<UInt>.stride + Self.line(of: Value.self) + Self.room(for: Value.self)
    lock = CreationLock(room: bytes)
    lock.room.initializeMemory(as: UInt.self, repeating: OnceFlag.empty, count: 2)
  }

  /// The word, then the instance's address.
  @inlinable @inline(__always)
  var words: UnsafeMutablePointer<UInt> { lock.room.assumingMemoryBound(to: UInt.self) }

  /// The cache line a `Value` is kept on: 64 bytes, or its alignment if that is larger.
  private static func line<Value>(of type: Value.Type) -> Int {
    Swift.max(64, MemoryLayout<Value>.alignment)
  }

  /// The bytes kept for a `Value`: whole lines.
  private static func room<Value>(for type: Value.Type) -> Int {
    let line = line(of: Value.self)
    return Swift.max(line, (MemoryLayout<Value>.stride + line - 1) / line * line)
  }

  /// Whether the instance is published, and so safe to read from any thread.
  @inlinable @inline(__always)
  var isPublished: Bool { OnceFlag.isSet(at: words) }

  /// The kept instance, a `Value`: once ``isPublished``, from any thread; under the creation
  /// lock, once ``isKept``.
  @inlinable @inline(__always)
  func instance<Value>(_ type: Value.Type) -> Value {
    UnsafeMutablePointer<Value>(bitPattern: words[1]).unsafelyUnwrapped.pointee
  }

  /// Whether an instance is kept; only under the creation lock.
  var isKept: Bool { words[1] != 0 }

  /// Keeps `value` in the room made for it, under the creation lock and only once, and
  /// publishes it if `publishing`.
  func keep<Value>(_ value: Value, publishing: Bool) {
    let line = Self.line(of: Value.self)
    let room = UnsafeMutableRawPointer(words + 2)
    let offset = (line - Int(bitPattern: room) % line) % line
    let box = (room + offset).bindMemory(to: Value.self, capacity: 1)
    box.initialize(to: value)
    words[1] = UInt(bitPattern: box)
    if publishing { OnceFlag.publish(at: words) }
  }

  /// Deinitializes the kept instance, a `Value`: the provider's `deinit`, when no other
  /// reference is left.
  func free<Value>(_ type: Value.Type) {
    UnsafeMutablePointer<Value>(bitPattern: words[1])?.deinitialize(count: 1)
  }
}

extension Optional where Wrapped == OnceBox {
  /// Whether this is a box, and its instance is published: one load of the box's word, read
  /// in place, with no copy of the box.
  @inlinable @inline(__always)
  var isPublished: Bool {
    guard case .some(let box) = self else { return false }
    return box.isPublished
  }

  /// The published instance of this box, a `Value`; only once ``isPublished`` said so.
  @inlinable @inline(__always)
  func published<Value>(_ type: Value.Type) -> Value {
    unsafelyUnwrapped.instance(Value.self)
  }
}

// The words are written only under the provider's creation lock, and read without it only
// after an acquiring load has seen them published.
extension OnceBox: @unchecked Sendable {}

/// The tail element of a ``OnceCell``, for its size and alignment. Only ever touched through
/// raw pointers, at the offsets `OnceValue` computes, which are the ones Swift gives these
/// stored properties (`make` checks them in debug builds): the word, the value right after
/// it, then the context.
@usableFromInline
struct OnceSlot<Context, Value> {
  var word: UInt
  var value: Value
  var context: Context
}

/// Owns a ``OnceSlot``: a context, and a value that is published once.
@usableFromInline
final class OnceCell<Context, Value>: ManagedBuffer<Void, OnceSlot<Context, Value>> {
  /// A cell whose value is still to be published.
  static func make(_ context: Context) -> OnceCell {
    typealias Slot = OnceSlot<Context, Value>
    assert(MemoryLayout<Slot>.offset(of: \.word) == 0)
    assert(MemoryLayout<Slot>.offset(of: \.value) == OnceValue<Context, Value>.offset)
    assert(MemoryLayout<Slot>.offset(of: \.context) == OnceValue<Context, Value>.contextOffset)
    let cell = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: OnceCell.self)
    cell.withUnsafeMutablePointerToElements { slot in
      let raw = UnsafeMutableRawPointer(slot)
      raw.initializeMemory(as: UInt.self, repeating: OnceFlag.empty, count: 1)
      OnceValue<Context, Value>(slot: raw).contextAddress.initialize(to: context)
    }
    return cell
  }

  deinit {
    let value = self.value
    value.contextAddress.deinitialize(count: 1)
    if value.isPublished { value.address.deinitialize(count: 1) }
  }

  /// The value's address, for reads that neither retain nor release the cell.
  @usableFromInline var value: OnceValue<Context, Value> {
    withUnsafeMutablePointerToElements { OnceValue(slot: UnsafeMutableRawPointer($0)) }
  }
}

/// The address of a ``OnceCell``'s value, from which its word and context are found; valid
/// only while something else keeps the cell alive.
@usableFromInline
struct OnceValue<Context, Value> {
  @usableFromInline let address: UnsafeMutablePointer<Value>

  /// The value's offset in its slot: right after the word, as the value's alignment allows.
  @inlinable @inline(__always)
  static var offset: Int { max(MemoryLayout<UInt>.stride, MemoryLayout<Value>.alignment) }

  init(slot: UnsafeMutableRawPointer) {
    address = (slot + Self.offset).assumingMemoryBound(to: Value.self)
  }

  /// The ``OnceFlag`` word right before the value.
  @inlinable @inline(__always)
  var word: UnsafeMutablePointer<UInt> {
    (UnsafeMutableRawPointer(address) - Self.offset).assumingMemoryBound(to: UInt.self)
  }

  /// Whether the value is published, and so safe to read from any thread.
  @inlinable @inline(__always)
  var isPublished: Bool { OnceFlag.isSet(at: word) }

  /// A copy of the published value; only once ``isPublished``.
  @inlinable @inline(__always)
  var published: Value { address.pointee }

  /// The context the cell was made with.
  var context: Context { contextAddress.pointee }

  fileprivate var contextAddress: UnsafeMutablePointer<Context> {
    (UnsafeMutableRawPointer(address) - Self.offset + Self.contextOffset)
      .assumingMemoryBound(to: Context.self)
  }

  /// The context's offset in its slot: after the value, as the context's alignment allows.
  static var contextOffset: Int {
    let end = offset + MemoryLayout<Value>.size
    let alignment = MemoryLayout<Context>.alignment
    return (end + alignment - 1) / alignment * alignment
  }

  /// Publishes `value` if no other thread claimed the cell first (moving its word from empty
  /// to claimed), and returns the published value: `value`, or the one the other thread
  /// publishes.
  ///
  /// The claimer writes one value and publishes it without waiting for anything, so a loser
  /// yields rather than blocks; `sched_yield` is POSIX `<sched.h>` on Linux and Darwin alike.
  func publish(_ value: Value) -> Value {
    if _shank_compare_exchange_acquiring(word, OnceFlag.empty, OnceFlag.claimed) {
      address.initialize(to: value)
      OnceFlag.publish(at: word)
      return value
    }
    while !isPublished { sched_yield() }
    return address.pointee
  }
}
