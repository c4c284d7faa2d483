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

  /// Whether the round goes on: a task that it starts, which inherits it, finds it only then,
  /// as for ``AsyncMaking``.
  let going = Locked(true)

  /// Ends the round, whose values a task it started may still hold it for.
  func end() {
    going.withLock { $0 = false }
    handoffs.withLock { $0 = [] }
    misses.withLock { $0 = [] }
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

  /// Throws the first absence this task's round met that it would make, where one was caught
  /// on this thread since its count of absences was `before`: a making that caught it (a
  /// shared module's, ``SharedProvider``'s `refuseCaughtMiss`, or decorators' of an instance
  /// kept elsewhere) keeps nothing it made without the module, which the round makes, and its
  /// next run makes that again, with it.
  @inline(never)
  static func refuseCaughtMiss(since before: UInt) throws(ResolutionError) {
    guard ResolutionTrace.unretainedCurrent.read({ $0.asyncMisses }) != before,
      let miss = current?.missToMake()
    else { return }
    throw miss
  }

  /// The first absence the round met that it would make, as one a factory caught: asked where
  /// none came through (see ``refuseCaughtMiss(since:)``).
  func missToMake() -> ResolutionError? {
    let miss = misses.withLock { misses in
      misses.first { miss in
        guard let pending = miss.pending, pending.absence != .mainActorHeld else { return false }
        return !standing.slots.contains(pending.slot) && !standing.keys.contains(pending.key)
      }
    }
    guard var fields = miss?.storage.fields else { return nil }
    fields.pending?.wasCaught = true
    return ResolutionError(fields)
  }
}

extension Dependencies {
  /// The round of ``makingAsyncModules(on:_:)`` that this synchronous resolution is, if any.
  @TaskLocal static var asyncRound: AsyncRound?
}
