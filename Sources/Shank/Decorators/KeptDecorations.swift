/// What a container's decorators made of the shared instances that a container underneath
/// keeps: each such instance is decorated once here, and the decorated one is returned from
/// then on.
///
/// An entry remembers the instance it wraps, weakly: when the container underneath drops that
/// instance (a reset, or a `.weak` one released) and makes another, the new one is decorated
/// anew. A value type has no identity to tell a new instance by: a `.singleton` one never
/// changes, and a `.cached` one is told by its generation, the resets that came before it.
final class KeptDecorations: Sendable {
  private struct Entry {
    /// The class instance underneath that the entry wraps; `nil` for a value type.
    weak var underlying: AnyObject?
    /// Its address, compared before `underlying` is loaded under the lock: a load makes a
    /// strong reference, which would free there an instance whose last holder let go meanwhile.
    let address: ObjectIdentifier?
    /// Whether the entry wraps a value type, which no identity tells apart.
    let wrapsValue: Bool
    /// For a `.cached` value type, the generation of the instance the entry wraps.
    let generation: UInt?
    /// The decorated instance; `nil` when kept weakly, as for a `.weak` module.
    let decorated: Any?
    /// The decorated instance of a `.weak` module, which only its holders keep alive.
    weak var weaklyDecorated: AnyObject?
    /// How many decorators wrapped it: fewer are open once a layer in between closes, and its
    /// decorators are then gone from the instance too.
    let decorators: Int
    /// The registration that keeps the instance, whose resets drop the entry.
    let keeper: ObjectIdentifier

    /// The decorated instance, if the entry wraps `object` (`nil` for a value type, told
    /// apart by its `generation`) under as many `decorators`, and still keeps it. A value type
    /// is never kept weakly.
    func decoration(of object: AnyObject?, generation: UInt?, decorators: Int) -> Any? {
      guard decorators == self.decorators else { return nil }
      guard let object else { return wrapsValue && self.generation == generation ? decorated : nil }
      return address == ObjectIdentifier(object) && underlying === object
        ? decorated ?? weaklyDecorated : nil
    }
  }

  /// The entry of each registration underneath; whether ``removeAll()`` closed the container,
  /// so that a decoration that finishes after that is not kept; and the keepers told of these
  /// decorations, which are told again as they go (see `deinit`).
  private let state = Locked(
    (
      entries: [ObjectIdentifier: Handed<Entry>](), isClosed: false, keepers: [Registration](),
      unfinished: [ObjectIdentifier: (entry: Handed<Entry>, next: Int)]()
    ))

  /// The decoration kept for `underlying`, which `registration` gave underneath, when it was
  /// wrapped by as many `decorators` as are open now, if any; else the caller decorates it and
  /// hands the decoration to ``keep(_:of:madeBy:generation:decorators:replacing:)``.
  /// `generation` is the resets of a `.cached` scope read before `underlying` was fetched: its
  /// own generation, or, when a reset came in between, a lower bound of it.
  ///
  /// The lookup and the keeping are calls of their own, not inlined into the caller: the
  /// decorators, which may resolve a chain deeper, run between them, from the caller's frame
  /// (see "Stack depth" in ARCHITECTURE.md).
  @inline(never)
  func decoration(
    of underlying: Any, madeBy registration: Registration, generation: UInt?, decorators: Int
  ) -> Any? {
    let (key, object) = (ObjectIdentifier(registration), Self.identity(of: underlying))
    // Looked up under the lock: a copy of the entry taken out of it would be the last reference
    // to its decoration where a reset dropped the entry meanwhile, and the decoration's deinit,
    // which may resolve the same key, would then run inside this resolution.
    return state.withLock {
      Handed(
        $0.entries[key]?.value.decoration(
          of: object, generation: generation, decorators: decorators))
    }.value
  }

  /// Sets `value`, which `registration` gave, to what the decorators before the `next`th made
  /// of it, and `next` to that decorator, where a resolution left its decoration unfinished
  /// under as many `decorators` as are open now; takes it, for this resolution to finish.
  ///
  /// This and ``failure(_:decorating:at:of:madeBy:generation:decorators:replacing:)`` are calls
  /// of their own, whose frames are gone before the decorators run (see "Stack depth" in
  /// ARCHITECTURE.md).
  @inline(never)
  func resume<Value>(
    _ value: inout Value, from next: inout Int, madeBy registration: Registration,
    generation: UInt?, decorators: Int
  ) {
    // One that is not for this instance stays, for the `keep` or `failure` that ends this
    // resolution to let go of once it has left the trace: a deinit may resolve the same key.
    guard
      let unfinished = takeUnfinished(
        of: registration, forThis: true, object: Self.identity(of: value),
        generation: generation, decorators: decorators)
    else { return }
    (value, next) = (unfinished.entry.value.decorated! as! Value, unfinished.next)
  }

  /// `error`, which the `next`th decorator threw, given `decorated`, made of `underlying`.
  /// Where it met an async module not made yet, `decorated` is left unfinished, for the round
  /// that runs again once that module is made to finish, so that no decorator runs twice on
  /// one instance; but not a `.weak` one's, which only its holders may keep, nor where a
  /// decorator before caught another such error since this thread's count of them was
  /// `misses`: the round then decorates `underlying` anew.
  @inline(never)
  func failure<Value>(
    _ error: ResolutionError, decorating decorated: Value, at next: Int, of underlying: Value,
    madeBy registration: Registration, generation: UInt?, decorators: Int, since misses: UInt,
    replacing replaced: inout Any?
  ) -> ResolutionError {
    if error.pending != nil, registration.scope.kind != .weak,
      !AsyncRound.caughtAnotherMiss(than: error, since: misses)
    {
      _ = keep(
        decorated, of: underlying, madeBy: registration, generation: generation,
        decorators: decorators, unfinishedAt: next, replacing: &replaced)
    } else {
      // Kept nothing, so no keeping replaces a stale unfinished one that `resume` left.
      replaced =
        takeUnfinished(
          of: registration, forThis: false, object: Self.identity(of: underlying),
          generation: generation, decorators: decorators)?.entry
    }
    // Let go of with what it replaced, once the caller has left the trace: another thread may
    // drop it from here first, and its deinit may resolve the same key.
    replaced = (replaced, decorated)
    return error
  }

  /// Takes out the unfinished decoration `registration` gave, if whether it is for `object`
  /// under as many `decorators` (and, for a value type, of `generation`) is `forThis`.
  private func takeUnfinished(
    of registration: Registration, forThis: Bool, object: AnyObject?, generation: UInt?,
    decorators: Int
  ) -> (entry: Handed<Entry>, next: Int)? {
    let key = ObjectIdentifier(registration)
    return state.withLock { state in
      guard let unfinished = state.unfinished[key],
        (unfinished.entry.value.decoration(
          of: object, generation: generation, decorators: decorators) != nil) == forThis
      else { return nil }
      state.unfinished[key] = nil
      return unfinished
    }
  }

  /// Keeps `decorated`, just made of `underlying`, unless another thread kept one for it first
  /// (then that one is returned), unless its kind cannot be kept, or unless `underlying` is no
  /// longer what `registration` gives; returns what is kept. Sets `replaced` to the decoration
  /// the one kept replaces, for the caller to release where a deinit that resolves may run.
  ///
  /// With `next`, `decorated` is what the decorators before the `next`th made, left unfinished
  /// by one that met an async module not made yet, for ``resume(_:from:madeBy:generation:decorators:)``
  /// to give the resolution that finishes it; it is not returned.
  ///
  /// With `misses`, this thread's count of absences as the decorators began, keeps nothing
  /// where one of them caught an absence that the round makes (``AsyncRound/caughtMiss(since:)``):
  /// the round's next run decorates `underlying` again, with that module.
  @inline(never)
  func keep(
    _ decorated: Any, of underlying: Any, madeBy registration: Registration, generation: UInt?,
    decorators: Int, unfinishedAt next: Int? = nil, unlessCaughtSince misses: UInt? = nil,
    replacing replaced: inout Any?
  ) -> Any {
    if let misses, AsyncRound.caughtMiss(since: misses) { return decorated }
    let key = ObjectIdentifier(registration)
    let object = Self.identity(of: underlying)
    let isWeak = registration.scope.kind == .weak
    guard object != nil || registration.scope.keepsInstances else { return decorated }
    let weakly = isWeak ? Self.identity(of: decorated) : nil
    guard !isWeak || weakly != nil else { return decorated }
    var generation = generation
    let instance = object.map(ObjectIdentifier.init)
    let (kept, dropped): (Handed<Any>?, [Handed<Entry>?]) = state.withLock {
      // Asked under this lock, which a reset's `drop(before:)` takes after the keeper's: an
      // instance a reset dropped is never kept, nor one labelled older than it is.
      let keeper = registration.keeper
      guard !$0.isClosed, keeper.keeps(instance, generation: &generation, decoratedIn: self)
      else {
        return (nil, [])
      }
      if !$0.keepers.contains(where: { $0 === keeper }) { $0.keepers.append(keeper) }
      if let kept = $0.entries[key]?.value.decoration(
        of: object, generation: generation, decorators: decorators)
      {
        return (Handed(kept), [])
      }
      let made = Entry(
        underlying: object, address: instance, wrapsValue: object == nil, generation: generation,
        decorated: isWeak ? nil : decorated, weaklyDecorated: weakly, decorators: decorators,
        keeper: ObjectIdentifier(keeper))
      if let next {
        return (nil, [$0.unfinished.updateValue((Handed(made), next), forKey: key)?.entry])
      }
      let unfinished = $0.unfinished.removeValue(forKey: key)?.entry
      return (nil, [$0.entries.updateValue(Handed(made), forKey: key), unfinished])
    }
    // Released outside the lock, as is an unfinished one this replaces, and this thread's own
    // where another's was kept first: the caller lets go of them once it has left the trace,
    // since a deinit may resolve through here.
    replaced = kept == nil ? dropped : (dropped, decorated)
    return kept?.value ?? decorated
  }

  /// Lets go of the decorations of the `.cached` instances that `keeper` made before
  /// `generation`: its reset dropped them.
  func drop(before generation: UInt, keptBy keeper: ObjectIdentifier) {
    let dropped = state.withLock { state in
      defer {
        state.entries = state.entries.filter {
          $0.value.value.keeper != keeper || $0.value.value.generation ?? .max >= generation
        }
        state.unfinished = state.unfinished.filter {
          $0.value.entry.value.keeper != keeper
            || $0.value.entry.value.generation ?? .max >= generation
        }
      }
      return (state.entries, state.unfinished)
    }
    // Released outside the lock: a deinit may resolve.
    withExtendedLifetime(dropped) {}
  }

  /// Lets go of every decorated instance, and keeps none from now on: the container closes.
  func removeAll() {
    let dropped = state.withLock { state in
      state.isClosed = true
      defer { (state.entries, state.unfinished) = ([:], [:]) }
      return (state.entries, state.unfinished)
    }
    // Released outside the lock: a deinit may resolve.
    withExtendedLifetime(dropped) {}
  }

  /// The generation of the `.cached` instance underneath that this container decorated as
  /// `decoration`, if it keeps that decoration: its own, told by the keeper as it was kept.
  func generation(ofDecoration decoration: AnyObject) -> UInt? {
    state.withLock { state in
      state.entries.values.first { $0.value.decorated.map { $0 as AnyObject } === decoration }?
        .value.generation
    }
  }

  /// A reference to a container's decorations that does not keep them alive.
  struct Reference {
    weak var decorations: KeptDecorations?
  }

  deinit {
    // So that no keeper tells decorations at this address, which another may be given next.
    for keeper in state.withLock({ Handed($0.keepers) }).value {
      keeper.forget(ObjectIdentifier(self))
    }
  }

  private static func identity(of value: Any) -> AnyObject? {
    type(of: value) is AnyObject.Type ? value as AnyObject : nil
  }
}
