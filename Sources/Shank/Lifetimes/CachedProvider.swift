// A `.cached` module's registration: one instance until its scope is reset.

/// Keeps an instance until ``Dependencies/reset(_:fileID:line:)-8q5zq`` drops it, in a
/// ``CachedInstance`` with a lock of its own, so that a reset never waits for a factory.
@usableFromInline
final class CachedProvider<Value>: SharedProvider<Value> {
  private let cached = CachedInstance<Value>()

  override func keptInstance(generation: inout UInt) throws(NothingKept) -> Value {
    let current = cached.current
    generation = current.generation
    guard let value = current.value else { throw NothingKept() }
    return value
  }

  override func store(_ value: Value, madeIn generation: UInt) {
    // A reset landed while the factory ran: the instance goes to its caller only, dropped
    // as the reset dropped the one before it.
    if !cached.keep(value, madeIn: generation, dispose: { addDisposal(of: value) }) {
      dispose(value)
    }
  }

  override var cachedGeneration: UInt? { cached.current.generation }

  override func reset() -> (order: UInt, disposal: Disposal)? {
    guard let id = cached.reset(), let disposal = owner?.disposals.remove(id) else { return nil }
    return (id, disposal)
  }
}
