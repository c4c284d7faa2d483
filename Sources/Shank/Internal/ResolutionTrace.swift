#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The registrations whose factories are running on this thread, innermost last.
///
/// Factories are synchronous, so a thread-local stack sees every nested resolution; a key
/// that is already on it is a cycle, reported as a path instead of recursing until the stack
/// overflows. Every unique resolution passes through here, so the frames are a raw buffer of
/// unretained references: each registration is kept alive by the resolution using it.
@usableFromInline
final class ResolutionTrace {
  // Only this trace's own thread ever touches these, so no exclusivity checks are needed.
  @exclusivity(unchecked) @usableFromInline var depth = 0
  @exclusivity(unchecked) @usableFromInline var capacity = 16
  @exclusivity(unchecked) @usableFromInline var frames: UnsafeMutablePointer<Unmanaged<Registration>>

  private init() {
    frames = .allocate(capacity: capacity)
  }

  deinit {
    frames.deallocate()
  }

  /// The registrations on the stack, outermost first.
  var stack: [Registration] { (0..<depth).map { frames[$0].takeUnretainedValue() } }

  /// This thread's trace, made on first use and released when the thread ends.
  @usableFromInline
  static var current: ResolutionTrace {
    if let raw = pthread_getspecific(threadKey) {
      return Unmanaged<ResolutionTrace>.fromOpaque(raw).takeUnretainedValue()
    }
    let trace = ResolutionTrace()
    pthread_setspecific(threadKey, Unmanaged.passRetained(trace).toOpaque())
    return trace
  }

  /// Pushes `registration`, or throws the cycle it would close.
  @inlinable
  func enter(_ registration: Registration, at site: SourceSite) throws(ResolutionError) {
    let frame = Unmanaged.passUnretained(registration)
    for index in 0..<depth where frames[index].toOpaque() == frame.toOpaque() {
      throw cycleError(closedBy: registration, from: index, at: site)
    }
    if depth == capacity { grow() }
    frames[depth] = frame
    depth += 1
  }

  /// Pops the innermost registration.
  @inlinable
  func leave() {
    depth -= 1
  }

  /// Throws the cycle that resolving `registration` here would close, if any.
  func checkNoCycle(closedBy registration: Registration, site: SourceSite) throws(ResolutionError) {
    guard let start = stack.lastIndex(where: { $0 === registration }) else { return }
    throw cycleError(closedBy: registration, from: start, at: site)
  }

  @usableFromInline
  func cycleError(closedBy registration: Registration, from start: Int, at site: SourceSite)
    -> ResolutionError
  {
    let path = (stack[start...] + [registration]).map(\.description)
    return ResolutionError(.cycle(path: path), key: registration.keyDescription, site: site)
  }

  @usableFromInline
  func grow() {
    let larger = UnsafeMutablePointer<Unmanaged<Registration>>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: frames, count: depth)
    frames.deallocate()
    frames = larger
    capacity *= 2
  }

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { Unmanaged<ResolutionTrace>.fromOpaque($0).release() }
    #else
      pthread_key_create(&key) { raw in
        guard let raw else { return }
        Unmanaged<ResolutionTrace>.fromOpaque(raw).release()
      }
    #endif
    return key
  }()
}

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
