// `Dependencies.observe(_:)`: installs an observer of resolutions.

extension Dependencies {
  /// Installs `handler`, which sees every resolution of a registered module from then on, in
  /// every container, until the returned ``ResolutionObservation`` is cancelled.
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
  /// Each event is delivered synchronously, on the resolving thread, once the resolution is
  /// done and before it returns to its caller: a nested resolution's event comes before the one
  /// of the factory that asked for it. Resolutions made by the handler itself are not observed.
  /// With no observer installed, resolution pays one relaxed load for this.
  ///
  /// > Note: An ``Inject`` property's reads after its first are not resolutions: they return the
  /// > kept value and are not observed.
  ///
  /// - Parameter handler: Called with each ``ResolutionEvent``; keep it short, it runs inside
  ///   the resolution's caller.
  /// - Returns: The observation, which ``ResolutionObservation/cancel()`` removes.
  public static func observe(_ handler: @escaping @Sendable (ResolutionEvent) -> Void)
    -> ResolutionObservation
  {
    ResolutionObservation(handler)
  }
}
