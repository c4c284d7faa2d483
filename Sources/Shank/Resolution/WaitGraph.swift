/// Which thread waits for which shared instance, to turn a cross-thread cycle into an error.
///
/// Thread A making singleton X asks for Y while thread B, making Y, asks for X: each holds
/// what the other waits for. Only a thread that finds a creation lock busy comes here, so the
/// uncontended path never touches this lock.
final class WaitGraph {
  static let shared = WaitGraph()

  private let lock = Lock()
  private var owners: [ObjectIdentifier: ResolutionTrace] = [:]
  private var waits: [ObjectIdentifier: Registration] = [:]

  /// Records that `trace`'s thread is making `registration`.
  func own(_ registration: Registration, by trace: ResolutionTrace?) {
    lock.withLock { owners[ObjectIdentifier(registration)] = trace }
  }

  /// Records that `trace`'s thread will block on `registration`, unless that closes a cycle.
  func wait(
    for registration: Registration, by trace: ResolutionTrace, site: SourceSite
  ) throws(ResolutionError) {
    let cycle: [Registration]? = lock.withLock {
      // Each thread along the way holds what the one before it waits for.
      var holders: [(thread: ResolutionTrace, holds: Registration)] = []
      var waitedFor = registration
      while let holder = owners[ObjectIdentifier(waitedFor)], holders.count < owners.count {
        holders.append((holder, waitedFor))
        if holder === trace { return Self.path(around: holders) }
        guard let next = waits[ObjectIdentifier(holder)] else { break }
        waitedFor = next
      }
      waits[ObjectIdentifier(trace)] = registration
      return nil
    }
    if let cycle {
      throw ResolutionError(
        .cycle(path: cycle.map(\.description)), key: registration.keyDescription, site: site)
    }
  }

  /// Records that `trace`'s thread no longer waits.
  func stopWaiting(_ trace: ResolutionTrace) {
    lock.withLock { _ = waits.removeValue(forKey: ObjectIdentifier(trace)) }
  }

  /// The cycle that `holders` close: each holds what the one before it waits for, and the
  /// last, the caller, holds what the first waits for. It runs from what the caller holds,
  /// through every thread's factories, back to it.
  ///
  /// The graph knows only the key each thread holds and the key it waits for; the factories
  /// between the two are on that thread's stack. Every holder but the caller is blocked, and
  /// its stack is read under `lock`, which it took after its last push and takes again before
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

// `owners` and `waits` are only touched under `lock`.
extension WaitGraph: @unchecked Sendable {}
