/// The values of a `[P]` resolution, gathered before they become one array.
///
/// The collector runs unspecialized, where every `Array.append` looks up the array's generic
/// metadata, hundreds of instructions each. This buffer is not generic, so it has no metadata
/// to look up: only its methods are, and they need nothing but the element's size and
/// witnesses. The array is made once, at the end, by moving the values in.
struct Gathering {
  private var start: UnsafeMutableRawPointer
  private var capacity: Int
  private var count = 0

  /// An empty buffer with room for `capacity` values of `Element` before it grows.
  init<Element>(of element: Element.Type, capacity: Int) {
    self.capacity = Swift.max(capacity, 1)
    start = .allocate(
      byteCount: self.capacity * MemoryLayout<Element>.stride,
      alignment: MemoryLayout<Element>.alignment)
  }

  mutating func append<Element>(_ value: Element) {
    if count == capacity { grow(Element.self) }
    elements(Element.self).advanced(by: count).initialize(to: value)
    count += 1
  }

  /// The values gathered, moved into an array; the buffer is left empty.
  mutating func array<Element>(of element: Element.Type) -> [Element] {
    let moved = count
    count = 0
    let values = elements(Element.self)
    return [Element](unsafeUninitializedCapacity: moved) { buffer, initialized in
      buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: values, count: moved)
      initialized = moved
    }
  }

  /// Releases the values still here (after a contribution threw) and the buffer.
  mutating func free<Element>(_ element: Element.Type) {
    elements(Element.self).deinitialize(count: count)
    start.deallocate()
    count = 0
    capacity = 0
  }

  private func elements<Element>(_ element: Element.Type) -> UnsafeMutablePointer<Element> {
    start.assumingMemoryBound(to: Element.self)
  }

  private mutating func grow<Element>(_ element: Element.Type) {
    let larger = UnsafeMutableRawPointer.allocate(
      byteCount: 2 * capacity * MemoryLayout<Element>.stride,
      alignment: MemoryLayout<Element>.alignment)
    larger.bindMemory(to: Element.self, capacity: 2 * capacity)
      .moveInitialize(from: elements(Element.self), count: count)
    start.deallocate()
    start = larger
    capacity *= 2
  }
}
