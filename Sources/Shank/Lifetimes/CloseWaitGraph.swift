/// Which closing runs wait for which, so that a close never waits for a run that waits for it.
///
/// A run is the task that runs one container's `onClose` handlers, named by its
/// ``Disposals``. A handler that closes another container waits for that container's run;
/// if that run already waits for the handler's own, directly or through other runs, neither
/// would ever end. Only a close from inside a handler comes here.
final class CloseWaitGraph: Sendable {
  static let shared = CloseWaitGraph()

  /// For each run that waits, the runs it waits for, with how many of its waits are on each:
  /// a handler may close several containers at once, or the same one twice.
  private let waits = Locked<[ObjectIdentifier: [ObjectIdentifier: Int]]>([:])

  /// Records that `waiter` waits for `run`, unless `run` is `waiter` or waits for it, through
  /// any number of runs; returns whether it recorded the wait.
  ///
  /// The check and the record are one step under the lock, so of two runs that close each
  /// other at the same time, the second to come here sees the first's wait and does not wait.
  func wait(_ waiter: Disposals, for run: Disposals) -> Bool {
    let waiter = ObjectIdentifier(waiter)
    let run = ObjectIdentifier(run)
    return waits.withLock {
      if Self.reaches(waiter, from: run, in: $0) { return false }
      $0[waiter, default: [:]][run, default: 0] += 1
      return true
    }
  }

  /// Records that `waiter` no longer waits for `run`, once.
  func stopWaiting(_ waiter: Disposals, for run: Disposals) {
    let waiter = ObjectIdentifier(waiter)
    let run = ObjectIdentifier(run)
    waits.withLock {
      guard var runs = $0[waiter], let count = runs[run] else { return }
      runs[run] = count > 1 ? count - 1 : nil
      $0[waiter] = runs.isEmpty ? nil : runs
    }
  }

  /// Whether `start` is `target` or waits for it through `waits`.
  private static func reaches(
    _ target: ObjectIdentifier, from start: ObjectIdentifier,
    in waits: [ObjectIdentifier: [ObjectIdentifier: Int]]
  ) -> Bool {
    var seen: Set<ObjectIdentifier> = []
    var pending = [start]
    while let run = pending.popLast() {
      if run == target { return true }
      guard seen.insert(run).inserted, let next = waits[run] else { continue }
      pending += next.keys
    }
    return false
  }
}
