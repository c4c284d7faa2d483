// Whether this thread runs the main actor, asked without trapping.

import Dispatch

/// Whether code runs on the main actor, asked without trapping.
///
/// `MainActor.preconditionIsolated` only traps, and on Linux it does so through
/// `dispatch_assert_queue`, which drops Shank's message. The main actor runs either on the
/// main thread or, once the main thread parks in `dispatchMain()` (as test runners on Linux
/// do), in blocks of the main queue on a worker thread; a queue-specific key tells those apart.
enum MainActorCheck {
  @inline(__always)
  static var isOnMainActor: Bool {
    let trace = ResolutionTrace.current
    return trace.isMainThread || trace.actsAsMainActor
      || DispatchQueue.getSpecific(key: mainQueueKey) != nil
  }

  private static let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()
}
