extension Dependencies {
  /// Installs `handler`, which sees every resolution of a registered module from then on, in
  /// every container, until the returned ``Observation`` is cancelled.
  ///
  /// ```swift
  /// let observation = Dependencies.observe { event in
  ///   if event.madeInstance, event.onMainThread, event.durationNanoseconds > 16_000_000 {
  ///     print("a factory took a frame on the main thread: \(event)")
  ///   }
  /// }
  /// // …
  /// observation.cancel()
  /// ```
  ///
  /// Each event is delivered synchronously, on the resolving thread, after the resolution
  /// returns: a nested resolution's event comes before the one of the factory that asked for
  /// it. Resolutions made by the handler itself are not observed. With no observer installed,
  /// resolution pays one relaxed load for this.
  ///
  /// > Note: An ``Inject`` property's reads after its first are not resolutions: they return the
  /// > kept value and are not observed.
  ///
  /// - Parameter handler: Called with each ``ResolutionEvent``; keep it short, it runs inside
  ///   the resolution's caller.
  /// - Returns: The observation, which ``Observation/cancel()`` removes.
  public static func observe(_ handler: @escaping @Sendable (ResolutionEvent) -> Void)
    -> Observation
  {
    Observation(id: Root.shared.observers.add(handler))
  }

  /// The instance for `T`, with an event for the observers once it is made or found.
  @usableFromInline
  func observedValue<T>(
    _ type: T.Type, registration: Unmanaged<Registration>, site: SourceSite
  ) throws(ResolutionError) -> T {
    let trace = ResolutionTrace.current
    guard !trace.isDelivering else {
      return try made(T.self, by: registration, at: site)
    }
    let resolved = registration.takeUnretainedValue()
    let wasKept = resolved.hasKeptInstance
    let depth = trace.depth
    let start = Observers.now
    let instance = try made(T.self, by: registration, at: site)
    let duration = Observers.now &- start
    trace.isDelivering = true
    defer { trace.isDelivering = false }
    Root.shared.observers.deliver(
      ResolutionEvent(
        key: resolved.description, scope: resolved.scope, madeInstance: !wasKept,
        durationNanoseconds: duration, onMainThread: trace.isMainThread, depth: depth,
        site: site.description))
    return instance
  }

  /// What `registration`, a provider of `T`, gives a resolution asked for at `site`.
  func made<T>(_ type: T.Type, by registration: Unmanaged<Registration>, at site: SourceSite)
    throws(ResolutionError) -> T
  {
    try Unmanaged<Provider<T>>.fromOpaque(registration.toOpaque()).takeUnretainedValue()
      .anyInstance(at: site, from: self)
  }
}
