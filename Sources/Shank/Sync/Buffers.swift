// Raw storage with one owner: a table's slots behind its atomic header word, and a thread's
// stack of plain frames.
//
// Sound because each buffer is allocated, initialized, read and freed by one owner, which
// states when it frees it: `TableSlots` is filled before its table is shared and only read
// after, but for its header word, which is touched only through `_ShankAtomics`' atomic
// calls; `ThreadStack` is touched by its own thread alone, holds `BitwiseCopyable` frames, and
// reads only below its count, which stays within its capacity.

import _ShankAtomics

/// A table's slots in one allocation, behind a word that threads read and write atomically:
/// the table frees it in `deinit`.
@usableFromInline
struct TableSlots<Slot> {
  @usableFromInline let base: UnsafeMutablePointer<Slot>

  /// The header word, in front of the slots, so that reading it brings in the first slots'
  /// line too, padded to two words: a 16-byte slot then never straddles two cache lines.
  @usableFromInline static var headerBytes: Int {
    let bytes = 2 * MemoryLayout<UInt>.stride
    let alignment = MemoryLayout<Slot>.alignment
    return (bytes + alignment - 1) / alignment * alignment
  }

  /// `count` slots, each `empty`, behind a header word that holds 0.
  init(count: Int, empty: Slot) {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: Self.headerBytes + count * MemoryLayout<Slot>.stride,
      alignment: Swift.max(MemoryLayout<UInt>.alignment, MemoryLayout<Slot>.alignment))
    raw.initializeMemory(as: UInt.self, repeating: 0, count: 1)
    base = (raw + Self.headerBytes).initializeMemory(as: Slot.self, repeating: empty, count: count)
  }

  /// Frees the slots, which hold nothing that needs deinitializing.
  func free() {
    (UnsafeMutableRawPointer(base) - Self.headerBytes).deallocate()
  }

  /// The slot at `index`; set only before the table is shared.
  @inlinable
  subscript(index: Int) -> Slot {
    @inline(__always) get { base[index] }
    nonmutating set { base[index] = newValue }
  }

  @inlinable @inline(__always)
  func word(_ index: Int) -> UnsafeMutablePointer<UInt> {
    (UnsafeMutableRawPointer(base) - Self.headerBytes).assumingMemoryBound(to: UInt.self) + index
  }

  /// Header word `index`, read relaxed: for bits that choose a path and guard no data.
  @inlinable @inline(__always)
  func loadRelaxed(_ index: Int) -> UInt {
    _shank_load_relaxed(word(index))
  }

  /// Sets `bits` in header word `index`, publishing what was written before.
  func setBits(_ bits: UInt, in index: Int) {
    _ = _shank_fetch_or_releasing(word(index), bits)
  }

}

/// A stack of plain values that only one thread ever touches, that grows and never shrinks:
/// reads and writes check no exclusivity, and the owner frees it.
@usableFromInline
struct ThreadStack<Element: BitwiseCopyable> {
  @usableFromInline
  struct Header {
    @usableFromInline var count: Int
    @usableFromInline var capacity: Int
    @usableFromInline var elements: UnsafeMutablePointer<Element>
  }

  @usableFromInline let header: UnsafeMutablePointer<Header>

  /// An empty stack with room for `capacity` elements, at least one, before it grows.
  init(capacity: Int) {
    header = .allocate(capacity: 1)
    header.initialize(
      to: Header(count: 0, capacity: capacity, elements: .allocate(capacity: capacity)))
  }

  /// Frees the stack, when its thread is done with it.
  func free() {
    header.pointee.elements.deallocate()
    header.deallocate()
  }

  @inlinable
  var count: Int {
    @inline(__always) get { header.pointee.count }
  }

  /// The element at `index`, below ``count``.
  @inlinable
  subscript(index: Int) -> Element {
    @inline(__always) get { header.pointee.elements[index] }
  }

  /// Pushes `element` on the stack, which is empty: it always has room for one.
  @inlinable @inline(__always)
  func pushOntoEmpty(_ element: Element) {
    header.pointee.elements[0] = element
    header.pointee.count = 1
  }

  /// Pushes `element`.
  func push(_ element: Element) {
    var stack = header.pointee
    if stack.count == stack.capacity {
      let larger = UnsafeMutablePointer<Element>.allocate(capacity: stack.capacity * 2)
      larger.moveInitialize(from: stack.elements, count: stack.count)
      stack.elements.deallocate()
      stack.elements = larger
      stack.capacity *= 2
    }
    stack.elements[stack.count] = element
    stack.count += 1
    header.pointee = stack
  }

  /// Pops the innermost element.
  @inlinable @inline(__always)
  func pop() {
    header.pointee.count -= 1
  }
}
