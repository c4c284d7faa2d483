// A module whose scope shares its instances: made once in its owner, under a creation lock.

/// A module's registration in one container when its scope shares instances: the factory, the
/// creation lock, and the path that makes an instance once, in the container that owns it.
///
/// Each kind of keeping is a subclass: ``SingletonProvider``, ``CachedProvider`` and
/// ``WeakProvider`` say where a made instance is kept and how it is found again.
@usableFromInline
class SharedProvider<Value>: Provider<Value> {
  private let factory: () throws -> Value
  /// Runs when the owner drops a kept instance: the module's `onClose`.
  let onClose: ((Value) async -> Void)?
  private let lock: CreationLock
  /// An instance whose decoration stopped at an async module not made yet, for the resolution
  /// that runs again once it is made to finish (see ``Unfinished``). Only the creation lock's
  /// holder touches it.
  private var unfinished: Unfinished?
  /// The count of this thread's ``ResolutionTrace/asyncMisses`` as the making began. Only the
  /// creation lock's holder touches it.
  private var asyncMissesBefore: UInt = 0

  /// A provider of `recipe`'s module; a singleton's `made` box lives in its creation lock's
  /// allocation, so it passes that lock.
  @usableFromInline
  init(_ recipe: ModuleRecipe<Value>, made: OnceBox? = nil) {
    lock = made?.lock ?? CreationLock()
    factory = recipe.factory
    onClose = recipe.onClose
    super.init(recipe.terms, made: made)
  }

  /// The kept instance, read under the creation lock; for a `.cached` one, sets `generation`
  /// to the resets that came before it, or before the next one made.
  ///
  /// Throws rather than returning an optional: unspecialized code looks `Optional<Value>`'s
  /// metadata up in the runtime's table at every call that returns or copies one.
  func keptInstance(generation: inout UInt) throws(NothingKept) -> Value {
    preconditionFailure("every keeper overrides keptInstance(generation:)")
  }

  /// Keeps `value`, just made and decorated, under the creation lock.
  func store(_ value: Value, madeIn generation: UInt) {
    preconditionFailure("every keeper overrides store(_:madeIn:)")
  }

  override var hasOnClose: Bool { onClose != nil }

  override func adopt(by container: Dependencies) {
    unretainedOwner = Unretained(container)
  }

  /// Checks the isolation on every resolution, and makes an instance once, in the container
  /// that owns it, decorated there as it is made.
  ///
  /// What comes before and after the factory is done in calls that return before it runs
  /// (see "Stack depth" in ARCHITECTURE.md).
  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    if container.decorates, let owner = unretainedOwner, !(owner === Unretained(container)) {
      return try decorated(at: site, over: container)
    }
    if made.isPublished { return made.published(Value.self) }
    var generation: UInt = 0
    try claim(at: site)
    do {
      return try keptInstanceUnlocking(generation: &generation)
    } catch {}
    try startMaking(at: site)
    defer { finishMaking() }
    do {
      return try keep(factory(), madeIn: generation, at: site)
    } catch {
      throw failure(error, at: site)
    }
  }

  /// The kept instance, with the creation lock released; when none is kept, it throws with the
  /// lock still held. A call of its own, so that its copy of the instance is in no frame of a
  /// chain (see "Stack depth" in ARCHITECTURE.md).
  private func keptInstanceUnlocking(generation: inout UInt) throws(NothingKept) -> Value {
    let kept = try keptInstance(generation: &generation)
    lock.unlock()
    return kept
  }

  /// The instance the owner underneath `container` keeps, decorated as the owner made it,
  /// wrapped once more by the layers in between, which keep what they made.
  private func decorated(at site: SourceSite, over container: Dependencies)
    throws(ResolutionError) -> Value
  {
    let owner = owner!
    // Read before the instance: where a reset comes in between, the keeper tells whether the
    // instance is still the one kept (`Registration.keeps`).
    let generation = cachedGeneration
    let value = try resolve(at: site, from: owner)
    return try container.decorated(
      value, keptBy: self, generation: generation, over: owner, at: site)
  }

  /// Checks the isolation, then takes the creation lock, which `resolve` releases, or
  /// `startMaking` and then `finishMaking`; first finishes an ``unfinished`` instance, if any.
  private func claim(at site: SourceSite) throws(ResolutionError) {
    try checkIsolation(at: site)
    if !lock.tryLock() { try waitForLock(site: site) }
    if unfinished != nil { try finishUnfinished(at: site) }
  }

  /// With the creation lock held and nothing kept, records this thread as the maker and puts
  /// the owner's factory on the trace, which `finishMaking()` undoes; on an error, unlocks.
  private func startMaking(at site: SourceSite) throws(ResolutionError) {
    // Unretained: the resolution holds the container it runs in, which keeps the owner, it or
    // one underneath, alive; the thread keeps its trace.
    let owner = unretainedOwner!
    // A resolution that waited for the lock while the owner closed makes nothing: the owner
    // would dispose of the instance as soon as it was made.
    if owner.read({ $0.isClosedToThisThread }) {
      lock.unlock()
      let closed = owner.takeUnretainedValue()
      throw closed.closedError(askedKey(), closed: closed, site: site)
    }
    let trace = ResolutionTrace.unretainedCurrent
    lock.setHolder(trace)
    asyncMissesBefore = trace.read { $0.asyncMisses }
    // Made by its owner, which its factory sees as `current`, so an override layer that
    // happened to be active at the first resolution never ends up inside a shared instance.
    do {
      try owner.borrow { owner throws(ResolutionError) in
        try trace.enter(self, from: owner, at: site)
      }
    } catch {
      lock.setHolder(nil)
      lock.unlock()
      throw error
    }
  }

  /// Undoes what `startMaking` did and releases the lock `claim` took, once the factory has
  /// run or failed.
  private func finishMaking() {
    ResolutionTrace.unretainedCurrent.leave()
    lock.setHolder(nil)
    lock.unlock()
  }

  /// Takes the creation lock that another thread holds, or reports the cycle that waiting for
  /// it would deadlock on.
  private func waitForLock(site: SourceSite) throws(ResolutionError) {
    let trace = ResolutionTrace.current
    let wait = WaitGraph.Wait(
      waiter: CreationLock.holder(trace), awaited: self, lock: lock, thread: trace)
    if let cycle = WaitGraph.shared.record(wait) {
      throw ResolutionError(.cycle(path: cycle), key: askedKey(), site: site)
    }
    lock.lock()
    WaitGraph.shared.remove(wait)
  }

  /// Keeps `value`, just made, once its owner has decorated it; returns what it kept.
  private func keep(_ value: consuming Value, madeIn generation: UInt, at site: SourceSite)
    throws(ResolutionError) -> Value
  {
    if let owner = unretainedOwner, owner.read({ $0.decorates }) {
      var next = 0
      do {
        try owner.borrow { owner throws(ResolutionError) in
          try owner.decorate(&value, from: &next, at: site)
        }
      } catch {
        throw decorationFailed(error, on: value, at: next, madeIn: generation)
      }
    }
    if Switches.isObserving { PendingEvent.noteMade(self) }
    if AsyncRound.caughtMiss(since: asyncMissesBefore) {
      discard(value)
      return value
    }
    store(value, madeIn: generation)
    return value
  }

  /// `error`, thrown by the owner's `next`th decorator given `value`. Where it met an async
  /// module not made yet, `value` is left ``unfinished``, to be finished from that decorator
  /// once the module is made, unless it was made without another one, caught; else it is
  /// disposed of now, as nothing drops it later, unless its scope keeps nothing it would
  /// dispose of (`.weak`).
  @inline(never)
  private func decorationFailed(
    _ error: ResolutionError, on value: Value, at next: Int, madeIn generation: UInt
  ) -> ResolutionError {
    guard scope.keepsInstances else { return error }
    guard error.pending != nil,
      !AsyncRound.caughtAnotherMiss(than: error, since: asyncMissesBefore)
    else {
      dispose(value)
      return error
    }
    var disposal: UInt?
    if hold(value, madeIn: generation, disposal: &disposal) {
      unfinished = Unfinished(value: value, next: next, generation: generation, disposal: disposal)
    }
    return error
  }

  /// With the creation lock held, finishes the ``unfinished`` instance and keeps it, then takes
  /// the lock anew, for `resolve` to find it kept, or to make one where it was not. Releases
  /// the lock where it throws.
  ///
  /// Called before `resolve` makes anything, so that its frame is in no chain of makings.
  @inline(never)
  private func finishUnfinished(at site: SourceSite) throws(ResolutionError) {
    try finish(unfinished.take()!, at: site)
    try claim(at: site)
  }

  /// Finishes `unfinished`'s decoration from the decorator it stopped at and keeps it, unless a
  /// reset or a close has run its `onClose` before or meanwhile. Releases the creation lock
  /// before it lets go of `unfinished`, as where the instance was not kept: its deinit may
  /// resolve.
  private func finish(_ unfinished: consuming Unfinished, at site: SourceSite)
    throws(ResolutionError)
  {
    let generation = cachedGeneration ?? 0
    // A reset since has disposed of it; a close since, `startMaking` tells.
    guard unfinished.generation == generation else { return lock.unlock() }
    try startMaking(at: site)
    var (value, next) = (unfinished.value as! Value, unfinished.next)
    var failure: ResolutionError?
    do {
      try owner!.decorate(&value, from: &next, at: site)
    } catch {
      failure = error
    }
    // Taken out of the owner's list only now, so that a close or a reset meanwhile disposes of
    // it: it is then neither kept nor left again.
    if let id = unfinished.disposal, owner?.disposals?.remove(id) == nil {
      return finishMaking()
    }
    if let failure {
      // Left unfinished under the lock, where the next holder looks.
      let error = decorationFailed(failure, on: value, at: next, madeIn: generation)
      finishMaking()
      throw error
    }
    if Switches.isObserving { PendingEvent.noteMade(self) }
    if AsyncRound.caughtMiss(since: asyncMissesBefore) {
      discard(value)
      return finishMaking()
    }
    store(value, madeIn: generation)
    finishMaking()
  }

  /// Lets go of an ``unfinished`` instance that a reset has dropped, unless the creation lock is
  /// held: a reset never waits for a factory, and the holder lets go of it itself.
  final func dropUnfinished() {
    guard lock.tryLock() else { return }
    let dropped = unfinished?.generation == cachedGeneration ?? 0 ? nil : unfinished.take()
    // Let go of outside the lock: its deinit may resolve.
    withExtendedLifetime(dropped) { lock.unlock() }
  }

  /// Adds the `onClose` of `value`, made in `generation` and not kept yet, to its owner's list
  /// as `disposal`; returns `false`, with `value` disposed of, where it can never be kept: its
  /// owner has closed, or, for a keeper whose reset drops such an instance (it records
  /// `disposal` too), a reset came after `generation`.
  func hold(_ value: Value, madeIn generation: UInt, disposal: inout UInt?) -> Bool {
    disposal = addDisposal(of: value)
    return disposal != nil || !hasOnClose
  }
}

/// An instance of a shared module whose decoration met an async module not made yet: what the
/// decorators before that one made of it, the decorator to go on from, the resets before it
/// was made, and its `onClose`'s entry in its owner's disposals, where a close or a reset
/// that drops it runs the handler. A reference: a field of a generic type, or an optional
/// tuple, would cost every provider made and freed a call into the runtime.
private final class Unfinished {
  let value: Any
  let next: Int
  let generation: UInt
  let disposal: UInt?

  init(value: Any, next: Int, generation: UInt, disposal: UInt?) {
    (self.value, self.next, self.generation, self.disposal) = (value, next, generation, disposal)
  }
}

/// What a keeper's `keptInstance(generation:)` throws when it keeps no instance.
struct NothingKept: Error {}
