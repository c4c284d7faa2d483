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
      var path = [registration]
      var owner = owners[ObjectIdentifier(registration)]
      while let current = owner, path.count <= owners.count + 1 {
        if current === trace {
          return path
        }
        guard let next = waits[ObjectIdentifier(current)] else { break }
        path.append(next)
        owner = owners[ObjectIdentifier(next)]
      }
      waits[ObjectIdentifier(trace)] = registration
      return nil
    }
    if let cycle {
      let names = ([trace.stack.last].compactMap { $0 } + cycle).map(\.description)
      throw ResolutionError(.cycle(path: names), key: registration.keyDescription, site: site)
    }
  }

  /// Records that `trace`'s thread no longer waits.
  func stopWaiting(_ trace: ResolutionTrace) {
    lock.withLock { _ = waits.removeValue(forKey: ObjectIdentifier(trace)) }
  }
}

// `owners` and `waits` are only touched under `lock`.
extension WaitGraph: @unchecked Sendable {}
