/// Which thread waits for which shared instance, to turn a cross-thread cycle into an error.
///
/// Thread A making singleton X asks for Y while thread B, making Y, asks for X: each holds
/// what the other waits for. Only a thread that finds a creation lock busy comes here, so the
/// uncontended path never touches this lock.
final class WaitGraph: Sendable {
  static let shared = WaitGraph()

  private struct Edges {
    /// The registrations being made, each with the thread making it: a short list, since
    /// only instances being made right now are in it, which every first resolution of a
    /// shared instance adds to and takes from, so searched rather than hashed.
    var owners: [(made: ObjectIdentifier, by: Node<ResolutionTrace>)] = []
    /// The registration each blocked thread waits for.
    var waits: [ObjectIdentifier: Node<Registration>] = [:]

    /// The thread making `registration`, if one is.
    func owner(of registration: ObjectIdentifier) -> ResolutionTrace? {
      owners.last { $0.made == registration }?.by.object
    }
  }

  /// A thread's trace, or a registration, as the graph keeps it.
  fileprivate struct Node<Object: AnyObject> {
    let object: Object
  }

  private let edges = Locked(Edges())

  /// Records that `trace`'s thread is making `registration`.
  func own(_ registration: Registration, by trace: ResolutionTrace?) {
    let made = ObjectIdentifier(registration)
    let owner = trace.map(Node.init)
    edges.withLock {
      if let owner {
        $0.owners.append((made, owner))
      } else if let index = $0.owners.lastIndex(where: { $0.made == made }) {
        $0.owners.remove(at: index)
      }
    }
  }

  /// Records that `trace`'s thread will block on `registration`, unless that closes a cycle.
  func wait(
    for registration: Registration, by thread: ResolutionTrace, site: SourceSite
  ) throws(ResolutionError) {
    let trace = Node(object: thread)
    let awaited = Node(object: registration)
    let cycle: [String]? = edges.withLock {
      // Each thread along the way holds what the one before it waits for.
      var holders: [(thread: ResolutionTrace, holds: Registration)] = []
      var waitedFor = awaited.object
      while let holder = $0.owner(of: ObjectIdentifier(waitedFor)),
        holders.count < $0.owners.count
      {
        holders.append((holder, waitedFor))
        if holder === trace.object { return Self.path(around: holders).map(\.description) }
        guard let next = $0.waits[ObjectIdentifier(holder)] else { break }
        waitedFor = next.object
      }
      $0.waits[ObjectIdentifier(trace.object)] = awaited
      return nil
    }
    if let cycle {
      throw ResolutionError(.cycle(path: cycle), key: registration.keyDescription, site: site)
    }
  }

  /// Records that `trace`'s thread no longer waits.
  func stopWaiting(_ trace: ResolutionTrace) {
    edges.withLock { _ = $0.waits.removeValue(forKey: ObjectIdentifier(trace)) }
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
extension WaitGraph.Node: @unchecked Sendable {}
