// The thread `verify()` and `graph()` run a factory on, so a trap in it becomes a report.

import Dispatch

import class Foundation.Thread

/// What making one module for ``Dependencies/verify()`` or ``Dependencies/graph()`` found.
enum InspectedModule {
  /// The module was made; its value's type, its `@Inject` properties, and whether it was made
  /// only once a `.unique` async module it needs was, a synchronous read of it failing (see
  /// ``InspectionThread/make(_:in:asARead:)``).
  case made(
    valueType: Any.Type, injections: [(property: String, requirement: Requirement)],
    readFails: Bool = false)
  /// Making it failed.
  case failed(ResolutionError)
  /// Making it hit one of Shank's other stops, such as a misused `reset`, with this message.
  case stopped(String)
}

/// A module that ``InspectionThread`` makes: the registration at `position` in the order of the
/// container `layer` containers down, resolved from the one `resolvedFrom` down.
struct InspectionTarget {
  let layer: Int
  let position: Int
  let resolvedFrom: Int
}

/// Makes every module of a container once, on a thread of its own, for inspection.
///
/// A factory that calls `resolve()` or reads an `@Inject` that cannot resolve would stop the
/// program. Here that thread reports the failure as the module's outcome and parks for good
/// instead, and making goes on from the next module on a new thread. The modules are made in
/// a private copy of the container: a parked thread may hold the creation locks of the
/// instances it was making, so the copy it used is dropped with it, and the container's own
/// instances are never touched.
///
/// A factory that never returns, one waiting for the main queue while `verify()` holds the main
/// thread, say, is waited for as long as `Dependencies.verificationPatience` says; it is then that module's problem,
/// making goes on from the next module on a new thread, and the thread left behind stops
/// without a word if it ever goes on.
final class InspectionThread: Sendable {
  private struct State {
    let targets: [InspectionTarget]
    var outcomes: [InspectedModule?]
    /// The index of the module being made.
    var making = 0
    /// The thread verification waits for while it makes modules, named by the first module it
    /// makes (each thread starts after every module its predecessors were given), or `nil`
    /// once it is parked, gone or given up on. A thread not named here records nothing.
    var waitedFor: Int?
    /// What stopped once the module being made had its outcome, as its instance, or the copy,
    /// was freed: a deinit; with that module, or `nil` for the copy, once every one was made.
    var whileFreeing: [(module: Int?, outcome: InspectedModule)] = []
    /// The container inspected, until verification returns: kept here rather than by a
    /// thread's closure, which is released only some time after the thread ends.
    var original: Dependencies?
  }

  private let state: Locked<State>
  private let progress = DispatchSemaphore(value: 0)
  private let actsAsMainActor = MainActorCheck.isOnMainActor
  /// Whether each module is made first as a synchronous read would (see ``make(_:in:asARead:)``):
  /// for `verify()`, which reports what such a read meets, not `graph()`.
  private let checksReads: Bool

  private init(_ original: Dependencies, targets: [InspectionTarget], checksReads: Bool) {
    self.checksReads = checksReads
    state = Locked(
      State(
        targets: targets, outcomes: Array(repeating: nil, count: targets.count),
        original: original))
  }

  /// The outcome of making each of `targets` in `dependencies`, in their order, and what
  /// stopped as what they made was freed, if anything did.
  ///
  /// Called on the main actor, main-actor factories run on the inspection thread while the
  /// caller waits for it, so that no other main-actor code runs meanwhile.
  static func inspect(
    _ dependencies: Dependencies, making targets: [InspectionTarget], checkingReads: Bool
  ) -> (outcomes: [InspectedModule], whileFreeing: [(module: Int?, outcome: InspectedModule)]) {
    let count = targets.count
    let run = InspectionThread(dependencies, targets: targets, checksReads: checkingReads)
    let patience = Dependencies.verificationPatience
    let (seconds, attoseconds) = patience.components
    let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    // The first module with no outcome: outcomes are recorded in order, so it only moves on,
    // and a wait for each of many modules does not look at every one before it again.
    var next = 0
    while true {
      let isMaking = run.state.withLock { state in
        while next < count, state.outcomes[next] != nil { next += 1 }
        return state.waitedFor != nil
      }
      // Done once every module has an outcome and the thread has dropped its copy.
      if next == count && !isMaking { break }
      if !isMaking { run.start(at: next) }
      // Patience is for each factory: the thread signals each module it is done with.
      if run.progress.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
        run.stopWaiting(after: patience)
      }
    }
    return run.state.withLock {
      $0.original = nil
      return ($0.outcomes.map { $0! }, $0.whileFreeing)
    }
  }

  /// Gives up on the thread making a module that took longer than `patience`: that module's
  /// outcome says so, and the thread records nothing more. Unless it finished meanwhile.
  private func stopWaiting(after patience: Duration) {
    state.withLock {
      // A thread signals under the lock, so either it has, and the signal is taken here, or
      // it will find itself no longer waited for, and will not.
      guard progress.wait(timeout: .now()) == .timedOut else { return }
      $0.waitedFor = nil
      // Once every module has its outcome, only the copy was being freed.
      guard $0.making < $0.outcomes.count, $0.outcomes[$0.making] == nil else { return }
      $0.outcomes[$0.making] = .stopped(
        "its factory did not return within \(patience); it may wait for something "
          + "verify() holds, such as the main queue when verify() runs on the main actor")
    }
  }

  /// Runs `body` under the lock if the calling thread is still the one verification waits for.
  private func ifStillWaitedFor(_ thread: Int, _ body: (inout State) -> Void) -> Bool {
    state.withLock {
      guard thread == $0.waitedFor else { return false }
      body(&$0)
      return true
    }
  }

  /// Makes the modules from `first` on, on a new thread.
  private func start(at first: Int) {
    // `making` is set here too, so that a thread that has not even started when patience
    // runs out is reported on the module it was started for.
    state.withLock {
      $0.making = first
      $0.waitedFor = first
    }
    let started = Thread { [self] in
      let trace = ResolutionTrace.current
      trace.inspection = self
      trace.inspectionThread = first
      trace.actsAsMainActor = actsAsMainActor
      makeEach(from: first)
      trace.inspection = nil
      _ = ifStillWaitedFor(first) {
        $0.waitedFor = nil
        progress.signal()
      }
    }
    started.stackSize = 8 << 20
    started.start()
  }

  /// Makes the modules from `first` on, in a copy of the container that this thread makes,
  /// so that nothing of it is released on the caller's thread. The copy and what it made are
  /// released on return, before the caller is told, so that `verify()` returns with nothing
  /// of it left alive.
  private func makeEach(from first: Int) {
    // A thread that starts only after verification returned is no longer waited for.
    // The original is not kept past the copy: a thread parked on a failure keeps its copy.
    let targets = state.withLock { $0.targets }
    guard let copy = state.withLock({ $0.original })?.privateCopy() else { return }
    let layers = Array(sequence(first: copy, next: \.parent))
    for index in first..<targets.count {
      guard ifStillWaitedFor(first, { $0.making = index }) else { return }
      let target = targets[index]
      let registration = layers[target.layer].table.order[target.position].takeUnretainedValue()
      let (outcome, instance) = Self.make(
        registration, in: layers[target.resolvedFrom], asARead: checksReads)
      // Freed once its outcome is recorded: a deinit that stops then is what stopped while
      // freeing, not the module's outcome.
      let recorded = withExtendedLifetime(instance) {
        ifStillWaitedFor(first) {
          $0.outcomes[index] = outcome
          progress.signal()
        }
      }
      guard recorded else { return }
    }
    _ = ifStillWaitedFor(first) { $0.making = targets.count }
  }

  /// Makes `registration`'s module, `asARead`, as a synchronous read would, which makes no
  /// `.unique` async module that it needs through `.unique` modules alone; where that fails
  /// with the absence of one, again, waiting for it, and says so.
  private static func make(
    _ registration: Registration, in copy: Dependencies, asARead: Bool
  ) -> (InspectedModule, Any?) {
    let trace = ResolutionTrace.current
    (trace.makesAsARead, trace.refusedAsARead) = (asARead, false)
    defer { trace.makesAsARead = false }
    do {
      let instance = try registration.inspectedInstance(at: registration.site, from: copy)
      let injections = injectionPoints(of: instance)
      let valueType = type(of: instance as Any)
      return (.made(valueType: valueType, injections: injections, readFails: !asARead), instance)
    } catch {
      // Only the absence itself: a factory that caught it and failed otherwise fails so in
      // `resolveAsync` too.
      guard asARead, trace.refusedAsARead, case .notMadeYet = error.reason else {
        return (.failed(error), nil)
      }
      return make(registration, in: copy, asARead: false)
    }
  }

  /// Records `outcome` for the module being made, or, once it has one, as what stopped while
  /// the copy was freed, and parks this thread for good.
  func abandon(_ outcome: InspectedModule) -> Never {
    _ = ifStillWaitedFor(ResolutionTrace.current.inspectionThread) {
      let making = $0.making < $0.outcomes.count ? $0.making : nil
      if let making, $0.outcomes[making] == nil {
        $0.outcomes[making] = outcome
      } else {
        $0.whileFreeing.append((making, outcome))
      }
      $0.waitedFor = nil
      progress.signal()
    }
    let never = DispatchSemaphore(value: 0)
    while true { never.wait() }
  }
}
