// The check that a factory or a decorator runs only on the actor it was registered from.

extension Registration {
  /// Lets the factory or decorator run only on the actor it was registered from.
  ///
  /// Nonisolated registrations, most of them, pass with one load and no call. The main actor
  /// and other actors are checked without trapping, so the error can carry Shank's message;
  /// an actor with an executor of the app's own, or any actor on a runtime that cannot be
  /// asked, can only be asserted, by the runtime's own check.
  @inlinable @inline(__always)
  final func checkIsolation(at site: SourceSite) throws(ResolutionError) {
    if isBound { try checkBoundIsolation(at: site) }
  }

  /// ``checkIsolation(at:)`` for a registration bound to an actor.
  @usableFromInline
  final func checkBoundIsolation(at site: SourceSite) throws(ResolutionError) {
    if isMainActorOnly {
      if !MainActorCheck.isOnMainActor { throw isolationError(at: site) }
      return
    }
    guard let isolation else { return }
    switch Platform.isRunning(on: isolation) {
    case true?: return
    // Off the actor; or not known, on a `verify()` thread, which never stops the program and
    // cannot be on another actor, so it reports.
    case false?,
      nil where ResolutionTrace.current.inspection != nil:
      throw isolationError(at: site)
    case nil:
      isolation.preconditionIsolated(
        isolationError(at: site).description, file: site.fileID, line: site.line)
    }
  }

  /// The error of a resolution asked for at `site` off the registration's actor, named by
  /// the key it was asked for: an alias's, or the list's for a contribution, whose advice to
  /// resolve it from async code then holds.
  final func isolationError(at site: SourceSite) -> ResolutionError {
    let trace = ResolutionTrace.current
    let key = trace.reader(of: self)?.keyDescription ?? keyDescription
    let actor = isMainActorOnly ? "MainActor" : isolation.map(KeyDescription.name(ofActor:)) ?? ""
    var fields = ResolutionError.Fields(
      reason: .wrongIsolation(actor: actor, registeredAt: self.site.description), key: key,
      site: site)
    // The module being made when it was asked for runs off the actor: the way out is where
    // that one runs. A decorator is asked for by no one: it wraps what is being made.
    if role == .decorator {
      fields.thrower = .decorator(registeredAt: self.site)
    } else {
      fields.askingFactory = trace.asker(besides: self)
    }
    return ResolutionError(fields)
  }
}
