/// An observer installed with ``Dependencies/observe(_:)``; ``cancel()`` removes it.
///
/// The observer stays installed until it is cancelled, whether or not this value is kept.
public final class ResolutionObservation: Sendable {
  let id: UInt

  init(id: UInt) {
    self.id = id
  }

  /// Removes the observer. It sees no event that starts after this returns; calling it again
  /// does nothing.
  public func cancel() {
    Root.shared.observers.remove(id)
  }
}
