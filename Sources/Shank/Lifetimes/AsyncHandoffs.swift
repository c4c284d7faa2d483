// The values of unique async modules that one `resolveAsync` made for its own resolution.

/// Values that unique modules' async factories made for one `resolveAsync` or `start()`,
/// which its synchronous resolution takes: a unique provider keeps nothing, so nobody else
/// may get them.
///
/// Each resolution attempt takes each value once; a later attempt, after another async module
/// was made, takes it again, since the attempt that took it failed and kept nothing.
final class AsyncHandoffs {
  @TaskLocal static var current: AsyncHandoffs?

  private let lock = Lock()
  private var values: [ObjectIdentifier: Any] = [:]
  private var taken: Set<ObjectIdentifier> = []

  /// Adds the value made for `instance`.
  func add(_ value: Any, for instance: any AsyncMaking) {
    lock.withLock { values[ObjectIdentifier(instance)] = value }
  }

  /// Lets each value be taken again, for a new attempt.
  func rewind() {
    lock.withLock { taken = [] }
  }

  /// The value made for `instance`, if this attempt has not taken it yet.
  func take(for instance: AnyObject) -> Any? {
    let id = ObjectIdentifier(instance)
    return lock.withLock {
      guard let value = values[id], taken.insert(id).inserted else { return nil }
      return value
    }
  }
}

// Its dictionaries are read and written under `lock`. The values were made for this one
// resolution, whose task alone can read them: a task-local is not seen by other tasks.
extension AsyncHandoffs: @unchecked Sendable {}
