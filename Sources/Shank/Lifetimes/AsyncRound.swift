// One run of the synchronous resolution that `start()` and `resolveAsync` repeat.

/// One round of ``Dependencies/makingAsyncModules(on:_:)``: a run of its synchronous
/// resolution, what that run is handed, and what the whole resolution holds.
struct AsyncRound: Sendable {
  /// Unique in the process.
  let number: UInt64

  /// Values that unique modules' async factories made for the resolution, with the slot each
  /// was made for, oldest first, which the round takes: a unique provider keeps nothing, so
  /// nobody else may get them.
  ///
  /// Each round starts with every value made so far and takes each once, in the order they
  /// were made, so a module resolved twice in one round gets two values; a later round, after
  /// another value was made, takes them again, since the round that took them failed and kept
  /// nothing.
  let handoffs: Locked<[(slot: ObjectIdentifier, value: Handed<Any>)]>

  /// What the `.weak` async modules made for the resolution were kept as, decorated, which it
  /// holds across its rounds until it returns: nothing else may hold them, and one read twice
  /// is then made once.
  let held: Locked<[Handed<Any>]>

  /// The slots whose async factories failed for the resolution, and the types it gave up on
  /// making: a factory that catches the absence of one makes its instance without it.
  let standing: (slots: Set<ObjectIdentifier>, keys: Set<ObjectIdentifier>)

  /// The errors of async modules not made or no longer kept that the round's resolutions met.
  let misses = Locked<[ResolutionError]>([])

  /// The disposals of shared instances made in the round and not kept (see ``discard(_:)``).
  let discarded = Locked<[Disposal]>([])

  /// Whether the round goes on: a task that it starts, which inherits it, finds it only then,
  /// as for ``AsyncMaking``.
  let going = Locked(true)

  /// Ends the round, whose values a task it started may still hold it for, and disposes of what
  /// it did not keep.
  func end() {
    going.withLock { $0 = false }
    handoffs.withLock { $0 = [] }
    misses.withLock { $0 = [] }
    let discarded = discarded.withLock { discarded in
      defer { discarded = [] }
      return discarded
    }
    Disposal.runLater(discarded)
  }

  /// This task's, while it goes on.
  static var current: AsyncRound? {
    guard let round = Dependencies.asyncRound, round.going.withLock({ $0 }) else { return nil }
    return round
  }

  /// The last round number given out.
  private static let numbers = Locked<UInt64>(0)

  init(
    handoffs: [(slot: ObjectIdentifier, value: Handed<Any>)], held: Locked<[Handed<Any>]>,
    standing: (slots: Set<ObjectIdentifier>, keys: Set<ObjectIdentifier>)
  ) {
    number = Self.numbers.withLock { number in
      number &+= 1
      return number
    }
    self.handoffs = Locked(handoffs)
    self.held = held
    self.standing = standing
  }

  /// Whether, in a round, this thread met an absence that the round would make since its count
  /// of absences was `before`, and a factory or decorator caught it: what the making made is
  /// then not kept (see ``discard(_:)``), and the round runs again once that module is made.
  @inline(never)
  static func caughtMiss(since before: UInt) -> Bool {
    ResolutionTrace.unretainedCurrent.read({ $0.asyncMisses }) != before
      && current?.hasMissToMake == true
  }

  /// Whether, in a round, this thread met an absence besides `error`'s since its count was
  /// `before`: one a factory or decorator caught, which what they made lacks, so it is not
  /// left unfinished to be finished without that module.
  @inline(never)
  static func caughtAnotherMiss(than error: ResolutionError, since before: UInt) -> Bool {
    error.pending != nil && current != nil
      && ResolutionTrace.unretainedCurrent.read({ $0.asyncMisses }) &- before > 1
  }

  /// Runs `disposal` once this task's round ends, or now outside one: it disposes of a shared
  /// instance made in the round and not kept, which its run may use until then.
  static func discard(_ disposal: Disposal) {
    guard let round = current else { return Disposal.runLater([disposal]) }
    round.discarded.withLock { $0.append(disposal) }
  }

  /// Whether the round met an absence that it would make (see ``missToMake()``).
  var hasMissToMake: Bool { misses.withLock { $0.contains(where: isToMake) } }

  /// The first absence the round met that it would make, as one a factory caught: asked where
  /// none came through (see ``caughtMiss(since:)``).
  func missToMake() -> ResolutionError? {
    guard var fields = misses.withLock({ $0.first(where: isToMake) })?.storage.fields else {
      return nil
    }
    fields.pending?.wasCaught = true
    return ResolutionError(fields)
  }

  /// Whether the round would make the module `miss` is the absence of: not one it gave up on,
  /// nor one on the main actor, which `verify()` holds.
  private func isToMake(_ miss: ResolutionError) -> Bool {
    guard let pending = miss.pending, pending.absence != .mainActorHeld else { return false }
    return !standing.slots.contains(pending.slot) && !standing.keys.contains(pending.key)
  }
}

extension Dependencies {
  /// The round of ``makingAsyncModules(on:_:)`` that this synchronous resolution is, if any.
  @TaskLocal static var asyncRound: AsyncRound?
}
