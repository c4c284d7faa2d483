// An observation of resolutions, and every observer installed in the process.

/// An observer installed with ``Dependencies/observe(_:)``; ``cancel()`` removes it.
///
/// The observer stays installed until it is cancelled, whether or not this value is kept.
public final class ResolutionObservation: Sendable {
  private let handler: @Sendable (ResolutionEvent) -> Void

  /// Installs `handler`. Resolution looks at ``Switches/isObserving`` alone, one relaxed load,
  /// and takes the slow path only while some observer is installed.
  init(_ handler: @escaping @Sendable (ResolutionEvent) -> Void) {
    self.handler = handler
    Self.installed.withLock {
      $0.append(self)
      Switches.setObserving(true)
    }
  }

  /// Removes the observer. It sees no event that starts after this returns; calling it again
  /// does nothing.
  public func cancel() {
    Self.installed.withLock { installed in
      installed.removeAll { $0 === self }
      Switches.setObserving(!installed.isEmpty)
    }
  }

  /// Hands `event` to every observer installed.
  static func deliver(_ event: ResolutionEvent) {
    for observation in installed.withLock({ $0 }) { observation.handler(event) }
  }

  /// The observers of the whole process, kept until they are cancelled.
  private static let installed = Locked<[ResolutionObservation]>([])
}
