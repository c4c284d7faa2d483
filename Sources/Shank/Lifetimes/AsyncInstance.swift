// The instance an async factory made, waiting for its module's provider, and its attempts.

/// One container's slot for a module with an `async` factory.
///
/// The module's provider is an ordinary one whose synchronous factory is ``take()``: it gives
/// what ``make(in:at:taken:generation:route:asked:depth:)`` left here, and otherwise throws, so that a
/// synchronous resolution before anything made it fails with
/// ``ResolutionError/Reason/notMadeYet(registeredAt:)``. `start()` and `resolveAsync` catch
/// that error, await ``make(in:at:taken:generation:route:asked:depth:)`` and resolve again, through the same
/// provider, which keeps, decorates and disposes of the value as usual.
///
/// A shared module's value waits here until the provider takes it, and its factory runs once
/// however many ask at the same time. A ``Scope/unique`` module's provider keeps nothing, so
/// each `resolveAsync` makes its own value and hands it to its own resolution (see
/// ``AsyncRound/handoffs``).
final class AsyncInstance<Value>: Sendable {
  /// The module's factory, isolation, `onClose` handler and site.
  let recipe: Handed<AsyncRecipe<Value>>
  /// Whether the provider keeps what it takes, so one value serves everyone who waited.
  let shares: Bool
  /// The slot, and how many values the provider has taken from it: a resolution that found
  /// nothing before a value was taken finds it kept when it tries again, so it makes no other.
  /// With the round of `makingAsyncModules` that was last handed a value from it.
  let state = Locked((state: State.empty, taken: UInt(0), handedIn: UInt64(0)))

  enum State {
    case empty
    /// The factory is running; everyone who asks awaits this attempt.
    case making(Task<Void, any Error>, Attempt)
    /// Made by `attempt`, and not yet taken by the provider.
    case made(Handed<Made>, by: Attempt)
  }

  /// A value the factory made, and how long the factory took: the resolution that takes it
  /// counts that in its event's duration, as it would count a synchronous factory's.
  struct Made {
    let value: Value
    let nanoseconds: UInt64
  }

  init(_ recipe: AsyncRecipe<Value>) {
    self.recipe = Handed(recipe)
    shares = recipe.scope.kind != .unique
  }

  /// The provider's synchronous factory: the value made for this resolution, else the error
  /// that says to make it first. On a ``Dependencies/verify()`` thread, makes it, waiting.
  func take() throws -> Value {
    let trace = ResolutionTrace.current
    if !shares, let handed = handedOn(where: { _ in true }) {
      state.withLock { $0.taken &+= 1 }
      return value(of: handed.value as! Made, on: trace)
    }
    // The provider whose factory this is, which the trace has innermost.
    let provider = trace.innermost
    let (made, taken) = state.withLock { slot -> ((Handed<Made>, Attempt)?, UInt) in
      guard case .made(let value, let attempt) = slot.state else { return (nil, slot.taken) }
      slot.state = .empty
      slot.taken &+= 1
      return ((value, attempt), slot.taken)
    }
    if let (made, attempt) = made {
      guard attempt.generation != provider?.cachedGeneration else {
        if let round = AsyncRound.current { state.withLock { $0.handedIn = round.number } }
        return value(of: made.value, on: trace)
      }
      // Made across a reset, it goes, as a synchronous factory's instance would, only to a
      // resolution that awaited its attempt since before the reset (see `make`). One more
      // reset, which drops nothing, since the provider keeps nothing while its factory runs,
      // makes the provider hand it on without keeping it. Anyone else makes a new one.
      guard handedOn(where: { $0 as? Attempt === attempt }) != nil else {
        dispose(made)
        return try take()
      }
      // Not counted as handed to this round: what it loses so, another task's reset took.
      _ = provider?.reset()
      return value(of: made.value, on: trace)
    }
    // The keys that led here, as asked for, this module's last (its provider, running this
    // factory, is on the trace): the path of a cycle that making it would close, and the name
    // of its errors.
    let chain = trace.askedChain(from: 0)
    let route = chain.map(\.keyDescription)
    // Its factory's resolutions are nested in the factories running here, this one's too (a
    // list is no factory), and in those this task's are.
    let depth = AsyncMaking.observedDepth + chain.count { $0.role != .collector }
    // A contribution was asked for by its list, which the loop then goes through first, as
    // a synchronous one's does, and which its factory's error names.
    let closing = provider.flatMap { trace.reader(of: $0) }?.role == .collector ? 2 : 1
    if let path = cycle(closedBy: route.map(\.description), closing: closing) {
      throw WaitGraph.Cycle(path: path, closedBy: route.last { $0.description == path.last })
    }
    // `verify()` blocks its own thread, never one of the cooperative pool; but a main-actor
    // factory cannot run while `verify()` holds the main thread.
    let mainActorHeld = recipe.value.isolation === MainActor.shared && trace.actsAsMainActor
    if trace.inspection != nil, !mainActorHeld, !isReadByAnAsyncFactoryItself(on: trace),
      !refusesAsARead(on: trace)
    {
      return try makeWaiting(in: Dependencies.current, as: route[route.count - 1])
    }
    let container = Dependencies.current
    let generation = provider?.cachedGeneration
    let asked = AsyncPending.Asked(
      key: route[route.count - closing], isContribution: closing == 2,
      by: provider.flatMap { trace.asker(besides: $0) })
    let absence: AsyncPending.Absence =
      mainActorHeld && trace.inspection != nil
      ? .mainActorHeld : shares && taken > 0 ? .notKept : .notMadeYet
    let wasTakenSince = { @Sendable [state] in state.withLock { $0.taken } != taken }
    let round = AsyncRound.current?.number ?? 0
    let lostThisRound = shares && round != 0 && state.withLock { $0.handedIn } == round
    throw AsyncPending(
      site: recipe.value.site, slot: ObjectIdentifier(self), container: container, absence: absence,
      isEager: provider?.isEager == true, isKept: shares,
      key: ObjectIdentifier(chain[chain.count - 1].keyType),
      generation: generation,
      wasLostThisRound: lostThisRound, wasTakenSince: wasTakenSince, asked: asked,
      isInRound: round != 0
    ) { site throws(ResolutionError) in
      try await self.make(
        in: container, at: site, taken: taken, generation: generation, route: route,
        asked: asked, depth: depth)
    }
  }

  /// What `made` holds; the time its factory took counts in the events of the resolutions that
  /// run on `trace` now.
  private func value(of made: Made, on trace: ResolutionTrace) -> Value {
    // What an observer resolves is not observed, nor counted in the event it is handed.
    if !trace.isDelivering { trace.awaitedNanoseconds &+= made.nanoseconds }
    return made.value
  }

  /// Takes the first value handed to this resolution for this slot that `matches`: a unique
  /// module's value, or a shared one's attempt awaited, of which a resolution that went round
  /// several times holds many, only the one that made the value counting.
  private func handedOn(where matches: (Any) -> Bool) -> Handed<Any>? {
    AsyncRound.current?.handoffs.withLock { values in
      values.firstIndex { $0.slot == ObjectIdentifier(self) && matches($0.value.value) }
        .map { values.remove(at: $0).value }
    }
  }

  /// Runs the factory for a resolution asked for at `site`, with `container` current in it.
  ///
  /// Returns the value for a unique module, which the caller hands to its own resolution; for
  /// a shared one, leaves it here for the provider. A shared one's factory does not run when
  /// the provider took a value since the resolution found the slot empty with `taken` values
  /// taken: trying again finds that value kept. A `.cached` one's attempt remembers the
  /// `generation` of the provider when the resolution found the slot empty; the caller gets
  /// the attempt it awaited if that is its own generation, and may then take a value made
  /// across a reset since (see ``take()``). A caller that the attempt waits for, through
  /// closes (see ``WaitGraph``), is told of the cycle rather than waiting. `route`, the keys
  /// the synchronous resolution asked for, outermost first, ends with this module's as asked
  /// for, which names its errors; it is the resolution's part of the cycle's path.
  func make(
    in container: Dependencies, at site: SourceSite, taken: UInt, generation: UInt?,
    route: [KeyDescription], asked: AsyncPending.Asked, depth: Int
  ) async throws(ResolutionError) -> Any? {
    let key = route[route.count - 1]
    let via = route.dropLast().map(\.description)
    do {
      guard shares else {
        return try await runUnique(
          in: container, route: route.map(\.description), as: key, depth: depth)
      }
      let making = try state.withLock {
        slot throws(ResolutionError) -> (
          task: Task<Void, any Error>, attempt: Attempt, wait: WaitGraph.Wait?
        )? in
        switch slot.state {
        case .made: return nil
        case .making(let task, let attempt):
          do throws(WaitGraph.Cycle) {
            let wait = try WaitGraph.shared.recordWaitOfThisTask(
              for: attempt, via: via, as: key.description)
            return (task, attempt, wait)
          } catch {
            throw ResolutionError(.cycle(path: error.path), key: key, site: site)
          }
        case .empty where slot.taken != taken: return nil
        case .empty:
          let attempt = Attempt(generation: generation, askedBy: via.last)
          // Recorded before the attempt starts, which waits for nothing yet, so this never
          // throws, and so that the attempt sees it.
          let wait = try? WaitGraph.shared.recordWaitOfThisTask(
            for: attempt, via: via, as: key.description)
          // The one attempt everyone waiting shares: leaves the value here, or the slot empty
          // for the next caller to try again.
          let task = Task {
            try await WaitGraph.run(holding: attempt, inherited: false) {
              do {
                let made = try await Self.run(
                  self.recipe, on: self.recipe.value.isolation, in: container, depth: depth,
                  as: key)
                self.state.withLock { $0.state = .made(made, by: attempt) }
              } catch {
                self.state.withLock { $0.state = .empty }
                throw error
              }
            }
          }
          slot.state = .making(task, attempt)
          return (task, attempt, wait)
        }
      }
      guard let making else { return nil }
      defer { if let wait = making.wait { WaitGraph.shared.remove(wait) } }
      try await making.task.value
      return making.attempt.generation == generation ? making.attempt : nil
    } catch {
      let factory = recipe.value.site
      throw ResolutionError.thrown(
        error,
        by: asked.isContribution
          ? .contribution(registeredAt: factory) : .factory(registeredAt: factory),
        for: asked.key, askedBy: asked.by, at: site)
    }
  }

  /// Runs a unique module's factory in the asking task, as one more run of that task's chain,
  /// which ``take()`` reads: a factory that asks for its own module, through any number of
  /// unique ones, is told of the cycle there rather than running again without end. A task
  /// the factory starts is no part of the chain, as for an ``Attempt``.
  private func runUnique(
    in container: Dependencies, route: [String], as key: KeyDescription, depth: Int
  ) async throws -> Made {
    let runs = UniqueRun.ofThisTask
    let run = UniqueRun(
      slot: ObjectIdentifier(self), task: UniqueRun.thisTask, going: Locked(true), route: route)
    defer { run.going.withLock { $0 = false } }
    return try await Dependencies.$uniqueAsyncRuns.withValue(runs + [run]) {
      try await Self.run(
        recipe, on: recipe.value.isolation, in: container, depth: depth, as: key
      ).value
    }
  }

  /// Runs `recipe`'s factory on `isolation`, its own, with `container` current, as a synchronous
  /// factory runs with the container that makes it current, its resolutions observed `depth`
  /// deep.
  static func run(
    _ recipe: Handed<AsyncRecipe<Value>>, on isolation: isolated (any Actor)?,
    in container: Dependencies, depth: Int, as key: KeyDescription
  ) async throws -> Handed<Made> {
    Switches.noteOverridesInstalled()
    // No handoffs reach the factory: an attempt sets them only while it runs, and it
    // is synchronous.
    let asker = ResolutionTrace.Asker(key: key, registeredAt: recipe.value.site, isDecorator: false)
    return try await Dependencies.overrides.withValue(Dependencies.Layer(container)) {
      try await AsyncMaking.run(in: [container], depth: depth, asker: asker) {
        let began = Platform.monotonicNanoseconds
        let value = try await recipe.value.factory()
        return Handed(Made(value: value, nanoseconds: Platform.monotonicNanoseconds &- began))
      }
    }
  }

  /// Runs `value`'s `onClose` on a task of its own: nothing keeps it. Only where its scope
  /// keeps instances, as the provider would have disposed of it.
  private func dispose(_ made: Handed<Made>) {
    guard recipe.value.scope.keepsInstances, let onClose = recipe.value.onClose else { return }
    let handler = Handed(onClose)
    Disposal.runLater([
      Disposal(isolation: recipe.value.isolation) { await handler.value(made.value.value) }
    ])
  }

  deinit {
    // Made and never taken, as when the container closed meanwhile: disposed of all the same.
    guard case .made(let made, _) = state.withLock({ $0.state }) else { return }
    dispose(made)
  }
}
