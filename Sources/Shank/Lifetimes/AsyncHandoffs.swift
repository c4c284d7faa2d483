// The values of unique async modules that one `resolveAsync` made for its own resolution.

/// Values that unique modules' async factories made for one `resolveAsync` or `start()`,
/// which its synchronous resolution takes: a unique provider keeps nothing, so nobody else
/// may get them.
///
/// Each resolution attempt takes each value once; a later attempt, after another async module
/// was made, takes it again, since the attempt that took it failed and kept nothing.
final class AsyncHandoffs: Sendable {
  @TaskLocal static var current: AsyncHandoffs?

  private struct State {
    var values: [ObjectIdentifier: Handed<Any>] = [:]
    var taken: Set<ObjectIdentifier> = []
  }

  private let state = Locked(State())

  /// Adds the value made for `instance`.
  func add(_ value: Any, for instance: any AsyncMaking) {
    let value = Handed(value)
    state.withLock { $0.values[ObjectIdentifier(instance)] = value }
  }

  /// Lets each value be taken again, for a new attempt.
  func rewind() {
    state.withLock { $0.taken = [] }
  }

  /// The value made for `instance`, if this attempt has not taken it yet.
  func take(for instance: AnyObject) -> Any? {
    let id = ObjectIdentifier(instance)
    let value = state.withLock { state -> Handed<Any>? in
      guard let value = state.values[id], state.taken.insert(id).inserted else { return nil }
      return value
    }
    return value?.value
  }
}
