// Making the instances of async factories, for `start()` and `resolveAsync`.

extension Dependencies {
  /// How many times ``makingAsyncModules(on:_:)`` may meet one module in a layer made anew
  /// before the resolution ends with the error of the last round.
  static let timesMetAnew = 2

  /// How many rounds of ``makingAsyncModules(on:_:)`` a resolution may take before it ends
  /// with the error of the last, whatever the rounds made: a backstop for the shapes the
  /// rules below do not see (ARCHITECTURE's known debts), far above the 75 rounds measured
  /// for a resolution racing a storm of other tasks' resets. A resolution that meets that many
  /// async modules not made yet, one round each, is refused too: it cannot tell them apart
  /// from the modules of layers a factory makes anew, and takes time quadratic in them.
  static let mostRounds = 1_000

  /// Runs `resolve`, a synchronous resolution, on `actor` (here, when it is `nil`), until it
  /// no longer meets an async module that is not made yet: each one it meets is made, and the
  /// resolution runs again.
  ///
  /// The resolution itself stays the one path every resolution takes; only the making of an
  /// async module's value happens here, in between. What a unique module's factory made is
  /// handed to the next round alone (see ``AsyncRound/handoffs``), and a `.weak` one's is held
  /// until it returns (``AsyncRound/held``). It ends with the error of the last round once
  /// it met a module in a layer made anew ``timesMetAnew`` times, once a slot lost its value
  /// twice, or after ``mostRounds``.
  func makingAsyncModules<Value: Sendable>(
    on actor: (any Actor)?,
    _ resolve: @escaping @Sendable () throws(ResolutionError) -> Value
  ) async throws(ResolutionError) -> Value {
    var made: [(slot: ObjectIdentifier, value: Handed<Any>)] = []
    let held = Locked<[Handed<Any>]>([])
    // Once a factory has run for it, the resolution goes on as one begun before a close since,
    // in the container it resolves from and in the one the factory made its module in.
    var making = AsyncMaking.current
    let going = Locked(true)
    // A task that a round started may hold the round: it keeps nothing past the return.
    defer {
      going.withLock { $0 = false }
      held.withLock { $0 = [] }
    }
    // Per type asked for, the last round's meeting with it and how often it was met anew (see
    // below); per slot, its scope's generation when it last lost a value; and the rounds in all.
    var lastMet: [ObjectIdentifier: AsyncPending] = [:]
    var timesMetAnew: [ObjectIdentifier: Int] = [:]
    var lostIn: [ObjectIdentifier: UInt?] = [:]
    var tried = 0
    // Where a factory caught a module's absence, and the round gave up on making it: the
    // slots whose factories failed, and the types given up on, with the errors to end with.
    var failed: [ObjectIdentifier: ResolutionError] = [:]
    var givenUp: [ObjectIdentifier: ResolutionError] = [:]
    while true {
      tried += 1
      let round = AsyncRound(
        handoffs: made, held: held, standing: (Set(failed.keys), Set(givenUp.keys)))
      // With the absence of an async module that a factory met and caught, if any.
      let attempt = { @Sendable [making] () -> (Result<Value, ResolutionError>, ResolutionError?) in
        Self.$asyncMaking.withValue(making) {
          Self.$asyncRound.withValue(round) {
            defer { round.end() }
            let trace = ResolutionTrace.current
            let before = trace.asyncMisses
            let outcome = Result(catching: resolve)
            return (outcome, trace.asyncMisses == before ? nil : round.missToMake())
          }
        }
      }
      let (outcome, caught) =
        if let actor { await Self.run(on: actor, attempt) } else { attempt() }
      // A value made without a module whose error a factory caught, and not kept, is made again
      // once that module is made, as where the error reached here; where that is given up on,
      // once more with it standing.
      let error: ResolutionError
      switch outcome {
      case .success(let made):
        guard let caught else { return made }
        error = caught
      case .failure(let failure):
        guard let pending = failure.pending else { throw failure }
        // One a factory caught before, of another slot, is made first: what was made without
        // it and not kept may be what lost the one that came through.
        let first = caught.flatMap { $0.pending?.slot == pending.slot ? nil : $0 }
        error = first ?? failure
      }
      let pending = error.pending!
      // A caught one is never standing (`AsyncRound.missToMake()`).
      if let failure = failed[pending.slot] ?? givenUp[pending.key] { throw failure }
      // A module is met anew in a slot that never held a value, outside this container and
      // those it falls through to, after a round met it in another such container, whose slot
      // it left untaken, as when the factory makes anew the layer it resolves from: met so twice, it
      // would be again. A factory whose path changes once something it awaited is made meets
      // other modules, or finds them in the layers it resolves from. A slot that lost the value
      // it handed this round before it was asked for again, as to a decorator that fails on
      // it, for the second time with no reset of its scope in between, would lose it again (a
      // value made across a reset is not counted as handed: see `take()`); one that lost it to
      // another task's reset is made again, however often.
      let before = lastMet.updateValue(pending, forKey: pending.key)
      if pending.absence == .notMadeYet, let before, before.container !== pending.container,
        !before.wasTakenSince(), isLayerOfItsOwn(pending.container),
        isLayerOfItsOwn(before.container)
      {
        timesMetAnew[pending.key, default: 0] += 1
      }
      let metAnew = timesMetAnew[pending.key] == Self.timesMetAnew
      let lost = pending.absence == .notKept && pending.wasLostThisRound
      let lostAgain = lost && lostIn[pending.slot] == pending.generation
      if lost { lostIn[pending.slot] = pending.generation }
      if metAnew || lostAgain || tried == Self.mostRounds {
        var fields = error.storage.fields
        fields.pending?.gaveUp = tried == Self.mostRounds ? .rounds : lostAgain ? .lost : .metAnew
        // Run again without it, once, where a factory caught its absence: it makes and keeps its
        // module without it, where this run kept nothing made so. One that lets it through, or
        // the last round, ends the resolution.
        guard pending.wasCaught, tried < Self.mostRounds else { throw ResolutionError(fields) }
        givenUp[pending.key] = ResolutionError(fields)
        continue
      }
      // Its errors name where it was asked for, as a synchronous module's do, not where this
      // resolution began.
      do {
        if let value = try await pending.make(error.storage.fields.site) {
          made.append((pending.slot, Handed(value)))
        }
      } catch {
        // Likewise.
        guard pending.wasCaught else { throw error }
        failed[pending.slot] = error
      }
      let containers = (making?.containers ?? []) + [self, pending.container]
      making = AsyncMaking(
        containers: containers, going: going, depth: making?.depth ?? 0, asker: making?.asker)
    }
  }

  /// Whether `container` is neither this one nor one it falls through to: one a factory may
  /// have made anew.
  private func isLayerOfItsOwn(_ container: Dependencies) -> Bool {
    !sequence(first: self, next: \.parent).contains { $0 === container }
  }
}
