// A `.cached` module's registration: one instance until its scope is reset.

/// Keeps an instance until ``Dependencies/reset(_:fileID:line:)-8q5zq`` drops it, guarded by a
/// lock of its own, apart from the creation lock.
///
/// A reset takes only this lock, which is never held while a factory runs, so a reset never
/// waits for a factory: neither one reset from inside that factory, nor one whose factory, on
/// another thread, waits for the resetting thread. A reset that lands while an instance is
/// being made bumps the generation, and the maker then hands its instance to its own caller
/// without keeping it.
@usableFromInline
final class CachedProvider<Value>: SharedProvider<Value> {
  private let state = Locked(State())

  private struct State {
    var kept: Handed<Value>?
    /// The kept instance's entry in its owner's ``Disposals``, if its module has `onClose`.
    var disposal: UInt?
    /// How many resets came before the kept instance, or before the next one made.
    var resets: UInt = 0
    /// The decorations kept of the instance, by its container and the layers over it, which
    /// a reset tells to let it go: nothing else links a container to the layers over it. Never
    /// read under the lock: a strong reference released there may free them, and with them
    /// instances whose deinit resolves.
    var decorations: [ObjectIdentifier: KeptDecorations.Reference] = [:]
  }

  override func keptInstance(generation: inout UInt) throws(NothingKept) -> Value {
    let (kept, resets) = state.withLock { ($0.kept, $0.resets) }
    generation = resets
    guard let kept else { throw NothingKept() }
    return kept.value
  }

  /// Keeps `value`, unless a reset came after `generation` was read; records its disposal
  /// under the same lock, so that no reset can come between.
  override func store(_ value: Value, madeIn generation: UInt) {
    // What was kept before is released outside the lock, as `reset` says.
    let handed = Handed(value)
    let (stale, isKept): (Handed<Value>?, Bool) = state.withLock { state in
      guard state.resets == generation else { return (nil, false) }
      state.disposal = addDisposal(of: handed.value)
      defer { state.kept = handed }
      return (state.kept, true)
    }
    withExtendedLifetime(stale) {}
    // A reset landed while the factory ran: the instance goes to its caller only, dropped
    // as the reset dropped the one before it.
    if !isKept { dispose(value) }
  }

  override func hold(_ value: Value, madeIn generation: UInt, disposal: inout UInt?) -> Bool {
    let isCurrent = state.withLock { state in
      guard state.resets == generation else { return false }
      state.disposal = addDisposal(of: value)
      disposal = state.disposal
      return true
    }
    if !isCurrent { dispose(value) }
    return isCurrent && (disposal != nil || !hasOnClose)
  }

  override var cachedGeneration: UInt? { state.withLock { $0.resets } }

  override func keeps(
    _ instance: ObjectIdentifier?, generation: inout UInt?,
    decoratedIn decorations: KeptDecorations
  ) -> Bool {
    state.withLock { state in
      if state.resets != generation {
        // A value type has no identity to tell the instance kept from one a reset dropped.
        guard let instance, let kept = state.kept,
          ObjectIdentifier(kept.value as AnyObject) == instance
        else { return false }
        generation = state.resets
      }
      let id = ObjectIdentifier(decorations)
      if state.decorations[id] == nil {
        state.decorations[id] = KeptDecorations.Reference(decorations: decorations)
      }
      return true
    }
  }

  override func forget(_ decorations: ObjectIdentifier) {
    // A weak reference: letting it go under the lock frees nothing.
    state.withLock { _ = $0.decorations.removeValue(forKey: decorations) }
  }

  override func reset() -> (order: UInt, disposal: Disposal)? {
    let (dropped, id, decorations, resets) = state.withLock { state in
      state.resets &+= 1
      defer { (state.kept, state.disposal, state.decorations) = (nil, nil, [:]) }
      return (state.kept, state.disposal, state.decorations, state.resets)
    }
    for reference in decorations.values {
      reference.decorations?.drop(before: resets, keptBy: ObjectIdentifier(self))
    }
    // Released outside the lock: the instance's deinit may resolve, or reset again.
    withExtendedLifetime(dropped) {}
    dropUnfinished()
    guard let id, let disposal = owner?.disposals?.remove(id) else { return nil }
    return (id, disposal)
  }
}
