// A value published once into an allocation of its own, then read by any thread with one
// acquiring load and no lock, reached through the value's own address.
//
// Sound because the cell's one tail element is a `OnceSlot`: a `OnceFlag` word, the value
// right after it, then the context. The context is written when the cell is made; the value
// only by the thread whose claim moved the word to claimed, before it publishes (see
// OnceFlag.swift), and read only after the word was seen published, or in `deinit`, when no
// reference is left. A `OnceValue` is an address into the cell, valid while the cell lives:
// whoever holds one keeps the cell alive beside it.

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

  /// A cell whose value is `value`, already published.
  static func make(_ context: Context, publishing value: Value) -> OnceCell {
    let cell = make(context)
    _ = cell.value.publish(value)
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

  /// Publishes `value` if no other thread claimed the cell first, and returns the published
  /// value: `value`, or the one the other thread publishes.
  func publish(_ value: Value) -> Value {
    if OnceFlag.claim(at: word) {
      address.initialize(to: value)
      OnceFlag.publish(at: word)
      return value
    }
    OnceFlag.waitUntilSet(at: word)
    return address.pointee
  }
}
