/// Which thread waits for which shared instance, to turn a cycle into an error, not a deadlock.
///
/// Thread A making singleton X asks for Y while thread B, making Y, asks for X: each holds
/// what the other waits for. Only a thread that finds a creation lock busy comes here, so the
/// uncontended path never touches this lock; a thread that holds that lock itself, because a
/// factory resolves the instance it is making, finds the cycle at the first word it reads.
///
/// Who makes an instance is not recorded here but in its ``CreationLock``'s holder word, which
/// the maker sets and clears without this lock, and which a waiter reads under it. That is
/// enough to find every cycle, and never to report one that is not there:
/// - A thread sets the word of what it holds before it registers its own wait, under this
///   lock. So of the threads in a deadlock, the last one to register, whose registration
///   closes the cycle, reads, after taking this lock, every other one's words and waits.
/// - A word read here names a thread that may since have let go of the instance; but a chain
///   goes on past a thread only where that thread waits, and it cleared the word before it
///   registered that wait, which the reader then sees: a stale holder ends the chain. A thread
///   always reads its own latest write, so a reader never takes an old word for its own.
final class WaitGraph: Sendable {
  static let shared = WaitGraph()

  /// What a blocked thread waits for: a registration, and its creation lock.
  fileprivate struct Wait {
    let thread: ResolutionTrace
    let registration: Registration
    let lock: CreationLock
  }

  /// What each blocked thread waits for, by its trace's ``CreationLock/holder(_:)`` word.
  private let waits = Locked([UInt: Wait]())

  /// Records that `thread` will block on `registration`, whose creation lock is `lock`, unless
  /// that closes a cycle.
  func wait(
    for registration: Registration, lock: CreationLock, by thread: ResolutionTrace,
    site: SourceSite
  ) throws(ResolutionError) {
    let awaited = Wait(thread: thread, registration: registration, lock: lock)
    let cycle: [String]? = waits.withLock { waits in
      // Each thread along the way holds what the one before it waits for.
      var holders: [(thread: ResolutionTrace, holds: Registration)] = []
      var next = awaited
      while holders.count <= waits.count {
        let holder = next.lock.holder
        if holder == CreationLock.holder(thread) {
          holders.append((awaited.thread, next.registration))
          return Self.path(around: holders).map(\.description)
        }
        guard let blocked = waits[holder] else { break }
        holders.append((blocked.thread, next.registration))
        next = blocked
      }
      waits[CreationLock.holder(thread)] = awaited
      return nil
    }
    if let cycle {
      throw ResolutionError(.cycle(path: cycle), key: registration.keyDescription, site: site)
    }
  }

  /// Records that `trace`'s thread no longer waits.
  func stopWaiting(_ trace: ResolutionTrace) {
    waits.withLock { _ = $0.removeValue(forKey: CreationLock.holder(trace)) }
  }

  /// The cycle that `holders` close: each holds what the one before it waits for, and the
  /// last, the caller, holds what the first waits for. It runs from what the caller holds,
  /// through every thread's factories, back to it.
  ///
  /// The graph knows only the key each thread holds and the key it waits for; the factories
  /// between the two are on that thread's stack. Every holder but the caller is blocked, and
  /// its stack is read under the graph's lock, which it took after its last push and takes again before
  /// it resolves anything more, so the read does not race with its own resolution.
  private static func path(
    around holders: [(thread: ResolutionTrace, holds: Registration)]
  ) -> [Registration] {
    let caller = holders[holders.count - 1]
    var path = [caller.holds]
    for ((thread, held), awaited) in zip([caller] + holders.dropLast(), holders.map(\.holds)) {
      let stack = thread.stack
      if let start = stack.lastIndex(where: { $0 === held }) {
        path += stack[(start + 1)...]
      }
      path.append(awaited)
    }
    return path
  }
}

// A trace is read only under the graph's lock, while its thread is blocked in `wait` (see
// `path(around:)`); a registration only for its identity and its key, which are constants.
extension WaitGraph.Wait: @unchecked Sendable {}
