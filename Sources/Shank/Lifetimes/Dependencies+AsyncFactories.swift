// Making the instances of async factories, for `start()` and `resolveAsync`.

extension Dependencies {
  /// Runs `resolve`, a synchronous resolution, on `actor` (here, when it is `nil`), until it
  /// no longer meets an async module that is not made yet: each one it meets is made, and the
  /// resolution runs again.
  ///
  /// The resolution itself stays the one path every resolution takes; only the making of an
  /// async module's value happens here, in between. What a unique module's factory made is
  /// handed to the next attempt alone (see ``AsyncHandoffs``).
  func makingAsyncModules<Value: Sendable>(
    on actor: (any Actor)?, at site: SourceSite,
    _ resolve: @escaping @Sendable () throws(ResolutionError) -> Value
  ) async throws(ResolutionError) -> Value {
    let attempt = { @Sendable () -> Result<Value, ResolutionError> in Result(catching: resolve) }
    let handoffs = AsyncHandoffs()
    let outcome = await AsyncHandoffs.$current.withValue(handoffs) {
      () async -> Result<Value, ResolutionError> in
      while true {
        handoffs.rewind()
        let outcome = if let actor { await Self.run(on: actor, attempt) } else { attempt() }
        guard case .failure(let error) = outcome, let pending = error.pending else {
          return outcome
        }
        do throws(ResolutionError) {
          if let made = try await pending.instance.make(
            in: pending.container, at: site, taken: pending.taken)
          {
            handoffs.add(made, for: pending.instance)
          }
        } catch {
          return .failure(error)
        }
      }
    }
    return try outcome.get()
  }
}
