// An observation of resolutions, and every observer installed in the process.

/// An observer installed with ``Dependencies/observe(_:)``; ``cancel()`` removes it.
///
/// The observer stays installed until it is cancelled, whether or not this value is kept.
public final class ResolutionObservation: Sendable {
  typealias Handler = @Sendable (ResolutionEvent) -> Void

  let id: UInt

  /// Installs `handler`. Resolution looks at ``Switches/isObserving`` alone, one relaxed load,
  /// and takes the slow path only while some observer is installed.
  init(_ handler: @escaping Handler) {
    id = Self.installed.withLock {
      $0.nextID &+= 1
      $0.handlers.append(($0.nextID, handler))
      Switches.setObserving(true)
      return $0.nextID
    }
  }

  /// Removes the observer. It sees no event that starts after this returns; calling it again
  /// does nothing.
  public func cancel() {
    Self.installed.withLock { state in
      state.handlers.removeAll { $0.id == id }
      Switches.setObserving(!state.handlers.isEmpty)
    }
  }

  /// Hands `event` to every observer installed.
  static func deliver(_ event: ResolutionEvent) {
    for entry in installed.withLock({ $0.handlers }) { entry.handler(event) }
  }

  private struct Installed {
    var handlers: [(id: UInt, handler: Handler)] = []
    var nextID: UInt = 0
  }

  /// The observers of the whole process.
  private static let installed = Locked(Installed())
}
