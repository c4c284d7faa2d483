// A value boxed on a cache line of its own.

extension UnsafeMutablePointer {
  /// A new allocation holding `value`, for a kept instance that readers copy out without an
  /// `Optional`; the owner deinitializes and deallocates it.
  static func boxing(_ value: Pointee) -> UnsafeMutablePointer {
    let pointer = allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }

  /// As ``boxing(_:)``, on cache lines of its own, for an instance that threads read at once.
  ///
  /// A small box is otherwise allocated right after the instance it holds, on the same cache
  /// line as the instance's reference count, which every reader writes: each read of the box
  /// then waits for that line to come back from the other core.
  static func boxingOnItsOwnCacheLine(_ value: Pointee) -> UnsafeMutablePointer {
    let line = 64
    let size = Swift.max(line, (MemoryLayout<Pointee>.stride + line - 1) / line * line)
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: size, alignment: Swift.max(line, MemoryLayout<Pointee>.alignment))
    let pointer = raw.bindMemory(to: Pointee.self, capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }
}
