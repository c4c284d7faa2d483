// What a synchronous resolution of an async module not made yet throws, and how to make it.

/// What ``AsyncInstance/take()`` throws when nothing is made: where the module was
/// registered, and how to make it. The provider turns it into a ``ResolutionError`` for its
/// key.
struct AsyncPending: Error, Sendable {
  let site: SourceSite
  /// The slot, which a unique module's value is handed to the next attempt for.
  let slot: ObjectIdentifier
  /// The container the factory makes the module in.
  let container: Dependencies
  /// Why the container has no instance to give.
  let absence: Absence
  /// Whether the module is eager, so that `start()` makes it.
  let isEager: Bool
  /// Whether a container keeps what its factory makes: any scope but `.unique`.
  let isKept: Bool
  /// The module's type as asked for, the same in every container that registers it.
  let key: ObjectIdentifier
  /// The resets of a `.cached` module's scope when it was thrown.
  let generation: UInt?
  /// Whether this round of `makingAsyncModules` was handed a value from the slot, and lost it
  /// before it asked again.
  let wasLostThisRound: Bool
  /// Whether a value was taken from the slot since this was thrown, by any resolution.
  let wasTakenSince: @Sendable () -> Bool
  /// What asked for it, which its message and its factory's error name.
  let asked: Asked
  /// Whether it was thrown in a round of `makingAsyncModules`, which makes the module: only a
  /// resolution that cannot throw, and stops, is told of it there.
  let isInRound: Bool
  /// Whether a factory caught it, and the shared module it made was not kept for that.
  var wasCaught = false
  /// Why `makingAsyncModules` gave up on the resolution, which its message says instead of
  /// pointing at `resolveAsync`, where it ends.
  var gaveUp: GaveUp?

  enum GaveUp: Sendable {
    /// Rounds met the module in a container made anew ``Dependencies/timesMetAnew`` times.
    case metAnew
    /// The slot lost the value it handed a round twice, with no reset of its scope in between.
    case lost
    /// ``Dependencies/mostRounds`` rounds went by.
    case rounds
  }

  /// What the synchronous resolution that met the module not made yet asked for: the key (a
  /// contribution's list), and the module being made, or the decorator running, then.
  struct Asked: Sendable {
    let key: KeyDescription
    let isContribution: Bool
    let by: ResolutionTrace.Asker?
  }

  enum Absence: Sendable {
    /// Nothing has made one in the container yet.
    case notMadeYet
    /// The container does not keep what the factory made before: a `.weak` instance
    /// released, a `.cached` one reset, one a decorator failed on.
    case notKept
    /// The factory is bound to the main actor, which `verify()` holds, so it cannot await it.
    case mainActorHeld
  }

  /// Runs the factory for a resolution asked for at a site: gives the value for a unique
  /// module, `nil` for a shared one (see ``AsyncInstance/make(in:at:taken:generation:route:asked:depth:)``).
  let make: @Sendable (SourceSite) async throws(ResolutionError) -> Any?
}
