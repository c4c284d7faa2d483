/// What an observed resolution notes before it makes or finds its instance, to tell the
/// observers once it has.
///
/// Begun and delivered in calls of their own, so that the resolving frame, which in a debug
/// build stays on the stack through every resolution nested in the factory, holds only this.
struct PendingEvent {
  private let registration: Unmanaged<Registration>
  private let wasKept: Bool
  private let depth: Int
  private let start: UInt64

  /// Notes the start of a resolution of `registration`; `nil` while this thread delivers an
  /// event, since what an observer resolves is not observed.
  @inline(never)
  init?(for registration: Unmanaged<Registration>) {
    let trace = ResolutionTrace.current
    guard !trace.isDelivering else { return nil }
    self.registration = registration
    wasKept = registration._withUnsafeGuaranteedRef { $0.hasKeptInstance }
    depth = trace.depth
    start = Observers.now
  }

  /// Tells every observer of the resolution, which finished now.
  @inline(never)
  func deliver(askedForAt site: SourceSite) {
    let duration = Observers.now &- start
    let trace = ResolutionTrace.current
    let resolved = registration.takeUnretainedValue()
    trace.isDelivering = true
    defer { trace.isDelivering = false }
    Root.shared.observers.deliver(
      ResolutionEvent(
        key: resolved.description, scope: resolved.scope, madeInstance: !wasKept,
        durationNanoseconds: duration, onMainThread: trace.isMainThread, depth: depth,
        site: site.description))
  }
}
