extension UnsafeMutablePointer {
  /// A new allocation holding `value`, for a kept instance that readers copy out without an
  /// `Optional`; the owner deinitializes and deallocates it.
  static func boxing(_ value: Pointee) -> UnsafeMutablePointer {
    let pointer = allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }
}
