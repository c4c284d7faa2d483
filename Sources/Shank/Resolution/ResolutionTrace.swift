// Each thread's stack of resolutions in progress: cycles, depth and the making container.

import _ShankAtomics

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
/// unretained references: each registration and container is kept alive by the resolution
/// using it.
@usableFromInline
final class ResolutionTrace {
  /// A factory running on this thread: what it makes, and the container resolution started in.
  @usableFromInline
  struct Frame {
    @usableFromInline let registration: Unmanaged<Registration>
    @usableFromInline let container: Unmanaged<Dependencies>

    @inlinable
    init(_ registration: Registration, _ container: Dependencies) {
      self.registration = .passUnretained(registration)
      self.container = .passUnretained(container)
    }
  }

  // Only this trace's own thread ever touches these, so no exclusivity checks are needed.
  @exclusivity(unchecked) @usableFromInline var depth = 0
  @exclusivity(unchecked) @usableFromInline var capacity = 16
  @exclusivity(unchecked) @usableFromInline var frames: UnsafeMutablePointer<Frame>
  /// Whether this is the main thread, asked once: Foundation's answer costs a call each time.
  lazy var isMainThread = MainActorCheck.isMainThread
  /// The ``verify()`` run this thread makes modules for, which takes over a failure that
  /// would otherwise stop the program.
  var inspection: InspectionThread?
  /// Which of the inspection's threads this is: one it stopped waiting for records nothing.
  var inspectionThread = 0
  /// Whether this thread stands in for the main actor, which waits for it: a ``verify()``
  /// called on the main actor makes main-actor modules here.
  var actsAsMainActor = false
  /// Whether this thread is handing an event to observers, whose own resolutions are then not
  /// observed: an observer that resolves would otherwise observe itself without end. Only this
  /// trace's thread touches it, as `depth`.
  @exclusivity(unchecked) var isDelivering = false
  /// The registrations whose instances this thread made while observed resolutions ran, and
  /// whose events have not yet said so; only this trace's thread touches it.
  @exclusivity(unchecked) var madeWhileObserved: [Unmanaged<Registration>] = []
  /// This thread's stack, found once, when the thread first resolves.
  @usableFromInline let stackBounds = StackBounds()

  private init() {
    frames = .allocate(capacity: capacity)
  }

  deinit {
    frames.deallocate()
  }

  /// The registrations on the stack, outermost first.
  var stack: [Registration] { (0..<depth).map { frames[$0].registration.takeUnretainedValue() } }

  /// The container the innermost running factory on this thread makes its instance in, if a
  /// factory is running: ``Dependencies/current`` there.
  ///
  /// An ``Inject`` property declared while a factory runs binds to it too, so a module resolves
  /// its own injections from the container that made it. Unretained: the resolution running
  /// the factory holds the container.
  @inlinable
  static var unretainedMakingContainer: Unmanaged<Dependencies>? {
    guard let raw = _shank_trace() else { return nil }
    return makingContainer(of: raw)
  }

  /// Whether a factory running on this thread makes its instance in `container`, or was
  /// resolved from it.
  static func isMaking(in container: Dependencies) -> Bool {
    guard let raw = _shank_trace() else { return false }
    let wanted = Unmanaged.passUnretained(container).toOpaque()
    return Unmanaged<ResolutionTrace>.fromOpaque(raw)._withUnsafeGuaranteedRef { trace in
      (0..<trace.depth).contains { trace.frames[$0].container.toOpaque() == wanted }
    }
  }

  /// Whether no factory is running on the thread of the trace at `raw`.
  @inlinable
  static func isIdle(_ raw: UnsafeMutableRawPointer) -> Bool {
    Unmanaged<ResolutionTrace>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.depth == 0 }
  }

  /// The making container of the trace at `raw`; see ``unretainedMakingContainer``.
  @inlinable
  static func makingContainer(of raw: UnsafeMutableRawPointer) -> Unmanaged<Dependencies>? {
    Unmanaged<ResolutionTrace>.fromOpaque(raw)._withUnsafeGuaranteedRef { trace in
      trace.depth > 0 ? trace.frames[trace.depth - 1].container : nil
    }
  }

  /// This thread's trace, made on first use and released when the thread ends.
  static var current: ResolutionTrace { unretainedCurrent.takeUnretainedValue() }

  /// This thread's trace, unretained: the thread keeps it alive until it ends.
  @inlinable
  static var unretainedCurrent: Unmanaged<ResolutionTrace> {
    if let raw = _shank_trace() { return .fromOpaque(raw) }
    return makeCurrent()
  }

  /// Makes this thread's trace, which the thread's key releases when the thread ends, and
  /// registers the thread's hazard slot, which the root's replacement looks at from then on.
  @usableFromInline
  @discardableResult
  static func makeCurrent() -> Unmanaged<ResolutionTrace> {
    let trace = Unmanaged.passRetained(ResolutionTrace())
    pthread_setspecific(threadKey, trace.toOpaque())
    _shank_set_trace(trace.toOpaque())
    Root.shared.register(_shank_hazard_address())
    return trace
  }

  /// Undoes `makeCurrent()` on a thread that is ending.
  private static func endCurrent(_ raw: UnsafeMutableRawPointer?) {
    // Never nil: POSIX calls a key's destructor only for a value that is set.
    guard let raw else { return }
    Root.shared.unregister(_shank_hazard_address())
    _shank_set_trace(nil)
    Unmanaged<ResolutionTrace>.fromOpaque(raw).release()
  }

  /// Pushes `registration`, resolved from `container`, or throws the cycle it would close.
  ///
  /// An outermost resolution, the usual one, can close no cycle and always has a free frame:
  /// only its stack is checked, inline. A nested one takes ``enterNested(_:from:at:)``.
  @inlinable @inline(__always)
  func enter(
    _ registration: Registration, from container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) {
    // A local's address is how far down the stack this resolution is. Every nested factory
    // starts here, so refusing one that would start too low turns a stack overflow, which
    // kills the thread without a word, into an error that names the chain.
    var marker: UInt8 = 0
    let address = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    guard depth == 0, !stackBounds.isInReserve(address) else {
      return try enterNested(registration, from: container, at: site, address: address)
    }
    frames[0] = Frame(registration, container)
    depth = 1
  }

  /// ``enter(_:from:at:)`` for every resolution but an outermost one with room on its stack.
  @usableFromInline
  func enterNested(
    _ registration: Registration, from container: Dependencies, at site: SourceSite,
    address: UInt
  ) throws(ResolutionError) {
    if stackBounds.isInReserve(address) {
      throw tooDeepError(resolving: registration, at: site)
    }
    let frame = Frame(registration, container)
    for index in 0..<depth
    where frames[index].registration.toOpaque() == frame.registration.toOpaque() {
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

  /// Makes `layer` the container the running factory resolves from, until ``leave()``, when
  /// a factory is running: an override the factory installs must win over the container
  /// making its instance. Returns whether it did.
  ///
  /// The frame repeats the running factory's registration, so resolving that registration
  /// inside is still the cycle it is.
  func enterOverride(_ layer: Dependencies) -> Bool {
    guard depth > 0 else { return false }
    if depth == capacity { grow() }
    frames[depth] = Frame(frames[depth - 1].registration.takeUnretainedValue(), layer)
    depth += 1
    return true
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

  /// The error for a resolution of `registration` refused because the stack is nearly full.
  @usableFromInline
  func tooDeepError(resolving registration: Registration, at site: SourceSite) -> ResolutionError {
    var error: ResolutionError?
    // Made on a thread of its own: describing a type for the first time can search every
    // conformance in the process, and a debug build makes a generic type's metadata the first
    // time it is used; either can take more stack than this thread has left.
    StackBounds.onFreshStack {
      let factories = runningFactories
      let chain = factories.prefix(5).map(\.description)
      error = ResolutionError(
        .tooDeep(depth: factories.count, chain: chain), key: registration.keyDescription,
        site: site)
    }
    return error!
  }

  /// The keys whose factories are running on this thread, outermost first, each as it was
  /// asked for: an alias's key rather than that of the provider it reads through to.
  ///
  /// Not every frame is a factory: an alias reads through to the provider it aliases, which
  /// has a frame of its own, a `[P]` list resolves its contributions, and an override that a
  /// factory installs repeats the factory's frame.
  var runningFactories: [Registration] {
    var factories: [Registration] = []
    var alias: Registration?
    for index in 0..<depth {
      let registration = frames[index].registration
      if index > 0, frames[index - 1].registration.toOpaque() == registration.toOpaque() {
        continue
      }
      let resolved = registration.takeUnretainedValue()
      if resolved.runsFactory {
        factories.append(alias.flatMap { $0.keeper === resolved ? $0 : nil } ?? resolved)
        alias = nil
      } else {
        alias = resolved
      }
    }
    return factories
  }

  @usableFromInline
  func grow() {
    let larger = UnsafeMutablePointer<Frame>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: frames, count: depth)
    frames.deallocate()
    frames = larger
    capacity *= 2
  }

  private static let threadKey: pthread_key_t = {
    var key = pthread_key_t()
    // Apple's <pthread.h> declares the destructor `void (* _Nullable)(void *)` inside
    // `assume_nonnull` (apple/darwin-libpthread, include/pthread/pthread.h): Swift passes it a
    // nonnull pointer there, as swift-nio's NIOPosix/ThreadPosix.swift has it, and an optional
    // one on glibc. `endCurrent` takes an optional, which both convert to.
    pthread_key_create(&key) { endCurrent($0) }
    return key
  }()
}

extension Unmanaged where Instance == ResolutionTrace {
  /// Pushes `registration` on this unretained trace; see ``ResolutionTrace/enter(_:from:at:)``.
  ///
  /// Borrows the trace only for the push, so that the factory that runs next is called from
  /// the caller's own frame rather than from inside a closure.
  @inlinable
  func enter(
    _ registration: Registration, from container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) {
    try borrow { trace throws(ResolutionError) in
      try trace.enter(registration, from: container, at: site)
    }
  }

  /// Pops the innermost registration of this unretained trace.
  @inlinable
  func leave() {
    _withUnsafeGuaranteedRef { $0.leave() }
  }
}
