/// What an observed resolution notes before it makes or finds its instance, to tell the
/// observers once it has.
///
/// Begun and delivered in calls of their own (see "Stack depth" in ARCHITECTURE.md).
struct PendingEvent {
  /// Kept alive by the table the resolution found it in.
  private let registration: Unretained<Registration>
  private let depth: Int
  /// When it began, on a clock that also counts the time of the async factories whose values
  /// this thread's resolutions took (``ResolutionTrace/awaitedNanoseconds``): one field, so
  /// that an observed resolution's frame grows no larger.
  private let start: UInt64

  /// Notes the start of a resolution of `registration`; `nil` while this thread delivers an
  /// event, since what an observer resolves is not observed.
  @inline(never)
  init?(for registration: Unretained<Registration>) {
    let trace = ResolutionTrace.current
    guard !trace.isDelivering else { return nil }
    // What resolutions before an outermost one made and never told is stale; what was made
    // before a nested one began is not its own, and is noted no deeper than it began.
    if trace.depth == 0 {
      trace.madeWhileObserved.removeAll(keepingCapacity: true)
    } else {
      for index in trace.madeWhileObserved.indices {
        trace.madeWhileObserved[index].depth = min(
          trace.madeWhileObserved[index].depth, trace.depth)
      }
    }
    self.registration = registration
    depth = (trace.depth == 0 ? 0 : trace.runningFactories.count) + AsyncMaking.observedDepth
    start = Platform.monotonicNanoseconds &+ trace.awaitedNanoseconds
  }

  /// Notes that this thread made and kept an instance of `registration`, for the event of the
  /// resolution that did: whether an instance was kept when it began says nothing of a thread
  /// that waited for another to make it, and asking would take the creation lock. What an
  /// observer makes is not observed, so it notes nothing.
  static func noteMade(_ registration: Registration) {
    let trace = ResolutionTrace.current
    guard !trace.isDelivering else { return }
    trace.madeWhileObserved.append((ObjectIdentifier(registration), trace.depth))
  }

  /// Whether this thread made the instance of `resolved`, taking the note off: a unique
  /// module's always, a `.weak` one's unless it gave the instance someone holds.
  ///
  /// Only a note deeper than the trace is now, as the resolution began, is its own: a
  /// resolution nested in the one that made the instance, a decorator's reading it, found it
  /// kept.
  private static func wasMade(_ resolved: Registration, on trace: ResolutionTrace) -> Bool {
    if case .unique = resolved.scope.kind { return true }
    let keeper = ObjectIdentifier(resolved.keeper)
    guard
      let index = trace.madeWhileObserved.lastIndex(where: {
        $0.keeper == keeper && $0.depth > trace.depth
      })
    else { return false }
    trace.madeWhileObserved.remove(at: index)
    return true
  }

  /// Tells every observer of the resolution, which finished now.
  @inline(never)
  func deliver(askedForAt site: SourceSite) {
    let trace = ResolutionTrace.current
    let duration = Platform.monotonicNanoseconds &+ trace.awaitedNanoseconds &- start
    let resolved = registration.takeUnretainedValue()
    trace.deliveringAt = trace.depth
    defer { trace.deliveringAt = nil }
    ResolutionObservation.deliver(
      ResolutionEvent(
        scope: resolved.scope, madeInstance: Self.wasMade(resolved, on: trace),
        durationNanoseconds: duration, onMainThread: trace.isMainThread, depth: depth,
        resolved: .key(resolved.keyType, name: resolved.name), askedAt: .site(site)))
  }
}
