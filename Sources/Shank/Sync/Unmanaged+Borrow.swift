// Borrowing an unmanaged reference without a retain.

extension Unmanaged {
  /// Runs `body` with the object, neither retained nor released.
  ///
  /// The caller promises that something else keeps the object alive for the call. The standard
  /// library's `_withUnsafeGuaranteedRef` rethrows untyped errors; this keeps
  /// ``ResolutionError`` typed, and costs nothing unless something is thrown.
  @inlinable
  func borrow<R>(_ body: (Instance) throws(ResolutionError) -> R) throws(ResolutionError) -> R {
    do {
      return try _withUnsafeGuaranteedRef(body)
    } catch {
      // `body` throws nothing else.
      throw error as! ResolutionError
    }
  }
}
