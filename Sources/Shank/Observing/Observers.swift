// The installed observers, and the flag that resolution checks with one relaxed load.

/// The observers installed with ``Dependencies/observe(_:)``.
///
/// Resolution looks at ``Switches/isObserving`` alone, one relaxed load, and takes the slow path only
/// while some observer is installed.
final class Observers: Sendable {
  typealias Handler = @Sendable (ResolutionEvent) -> Void

  private struct State {
    var handlers: [(id: UInt, handler: Handler)] = []
    var nextID: UInt = 0
  }

  private let state = Locked(State())

  func add(_ handler: @escaping Handler) -> UInt {
    state.withLock {
      $0.nextID &+= 1
      $0.handlers.append(($0.nextID, handler))
      Switches.setObserving(true)
      return $0.nextID
    }
  }

  func remove(_ id: UInt) {
    state.withLock { state in
      state.handlers.removeAll { $0.id == id }
      Switches.setObserving(!state.handlers.isEmpty)
    }
  }

  func deliver(_ event: ResolutionEvent) {
    for entry in state.withLock({ $0.handlers }) { entry.handler(event) }
  }
}
