// The values of unique async modules that one `resolveAsync` made for its own resolution.

/// Values that unique modules' async factories made for one `resolveAsync` or `start()`,
/// which its synchronous resolution takes: a unique provider keeps nothing, so nobody else
/// may get them.
///
/// Each resolution attempt takes each value once, in the order they were made, so a module
/// resolved twice in one attempt gets two values; a later attempt, after another value was
/// made, takes them again, since the attempt that took them failed and kept nothing.
final class AsyncHandoffs: Sendable {
  @TaskLocal static var current: AsyncHandoffs?

  private struct State {
    var values: [ObjectIdentifier: [Handed<Any>]] = [:]
    /// How many of each module's values this attempt took.
    var taken: [ObjectIdentifier: Int] = [:]
  }

  private let state = Locked(State())

  /// Adds a value made for `instance`.
  func add(_ value: Any, for instance: any AsyncMaking) {
    let value = Handed(value)
    state.withLock { $0.values[ObjectIdentifier(instance), default: []].append(value) }
  }

  /// Lets each value be taken again, for a new attempt.
  func rewind() {
    state.withLock { $0.taken = [:] }
  }

  /// The next value made for `instance` that this attempt has not taken yet.
  func take(for instance: AnyObject) -> Any? {
    let id = ObjectIdentifier(instance)
    let value = state.withLock { state -> Handed<Any>? in
      let next = state.taken[id, default: 0]
      guard let values = state.values[id], next < values.count else { return nil }
      state.taken[id] = next + 1
      return values[next]
    }
    return value?.value
  }
}
