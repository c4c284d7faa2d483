// The installed observers, and the flag that resolution checks with one relaxed load.

/// The observers installed with ``Dependencies/observe(_:)``.
///
/// Resolution looks at ``Switches/isObserving`` alone, one relaxed load, and takes the slow path only
/// while some observer is installed.
final class Observers {
  typealias Handler = @Sendable (ResolutionEvent) -> Void

  private let lock = Lock()
  private var handlers: [(id: UInt, handler: Handler)] = []
  private var nextID: UInt = 0

  func add(_ handler: @escaping Handler) -> UInt {
    lock.withLock {
      nextID &+= 1
      handlers.append((nextID, handler))
      Switches.setObserving(true)
      return nextID
    }
  }

  func remove(_ id: UInt) {
    lock.withLock {
      handlers.removeAll { $0.id == id }
      Switches.setObserving(!handlers.isEmpty)
    }
  }

  /// Hands `event` to every observer, on this thread, outside the lock.
  func deliver(_ event: ResolutionEvent) {
    for entry in lock.withLock({ handlers }) { entry.handler(event) }
  }
}

// `handlers` and `nextID` are only touched under `lock`.
extension Observers: @unchecked Sendable {}
