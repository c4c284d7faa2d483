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

  /// The slots whose async factories failed for the resolution: a factory that catches one's
  /// absence makes its instance without it (see ``SharedProvider``'s `refuseCaughtMiss`).
  let failedSlots: Set<ObjectIdentifier>

  /// The last error of an async module not made yet that the round's resolutions met.
  let lastMiss = Locked<ResolutionError?>(nil)

  /// Whether the round goes on: a task that it starts, which inherits it, finds it only then,
  /// as for ``AsyncMaking``.
  let going = Locked(true)

  /// Ends the round, whose values a task it started may still hold it for.
  func end() {
    going.withLock { $0 = false }
    handoffs.withLock { $0 = [] }
    lastMiss.withLock { $0 = nil }
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
    failed: Set<ObjectIdentifier>
  ) {
    number = Self.numbers.withLock { number in
      number &+= 1
      return number
    }
    self.handoffs = Locked(handoffs)
    self.held = held
    failedSlots = failed
  }
}

extension Dependencies {
  /// The round of ``makingAsyncModules(on:_:)`` that this synchronous resolution is, if any.
  @TaskLocal static var asyncRound: AsyncRound?
}
