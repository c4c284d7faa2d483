// The values of unique async modules that one `resolveAsync` made for its own resolution.

/// Values that unique modules' async factories made for one `resolveAsync` or `start()`,
/// which one attempt of its synchronous resolution takes: a unique provider keeps nothing, so
/// nobody else may get them.
///
/// Each attempt starts with every value made so far and takes each once, in the order they
/// were made, so a module resolved twice in one attempt gets two values; a later attempt,
/// after another value was made, takes them again, since the attempt that took them failed and
/// kept nothing.
final class AsyncHandoffs: Sendable {
  @TaskLocal static var current: AsyncHandoffs?

  /// What this attempt has not taken yet, oldest first, with the slot it was made for.
  private let values: Locked<[(slot: ObjectIdentifier, value: Handed<Any>)]>

  init(_ values: [(slot: ObjectIdentifier, value: Handed<Any>)]) {
    self.values = Locked(values)
  }

  /// The oldest value made for `slot` that this attempt has not taken yet.
  func take(for slot: AnyObject) -> Any? {
    let taken = values.withLock { values -> Handed<Any>? in
      guard let next = values.firstIndex(where: { $0.slot == ObjectIdentifier(slot) }) else {
        return nil
      }
      return values.remove(at: next).value
    }
    return taken?.value
  }
}
