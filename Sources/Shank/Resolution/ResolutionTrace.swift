// Each thread's stack of resolutions in progress: cycles, depth and the making container.

/// The registrations whose factories are running on this thread, innermost last.
///
/// Factories are synchronous, so a thread-local stack sees every nested resolution; a key
/// that is already on it is a cycle, reported as a path instead of recursing until the stack
/// overflows. Every unique resolution passes through here, so the frames are a
/// ``ThreadStack`` of unretained references: each registration and container is kept alive by
/// the resolution using it.
@usableFromInline
final class ResolutionTrace {
  /// A factory running on this thread: what it makes, and the container resolution started in.
  @usableFromInline
  struct Frame: BitwiseCopyable {
    @usableFromInline let registration: Unretained<Registration>
    @usableFromInline let container: Unretained<Dependencies>

    @inlinable
    init(_ registration: Registration, _ container: Dependencies) {
      self.registration = Unretained(registration)
      self.container = Unretained(container)
    }
  }

  /// The running factories, innermost last; only this trace's own thread touches them.
  @usableFromInline let frames = ThreadStack<Frame>(capacity: 16)
  /// Whether this is the main thread, asked once: Foundation's answer costs a call each time.
  lazy var isMainThread = Platform.isMainThread
  /// The ``verify()`` run this thread makes modules for, which takes over a failure that
  /// would otherwise stop the program.
  var inspection: InspectionThread?
  /// Which of the inspection's threads this is: one it stopped waiting for records nothing.
  var inspectionThread = 0
  /// Whether the inspection makes a module as a synchronous read would, which makes no
  /// `.unique` async module (``AsyncInstance/refusesAsARead(on:)``), and whether it refused one.
  var makesAsARead = false
  var refusedAsARead = false
  /// How long the async factories took whose values this thread's resolutions took, in all:
  /// an observed resolution's event counts what was added while it ran.
  var awaitedNanoseconds: UInt64 = 0
  /// On a ``verify()`` thread, how many frames are under the async factory whose jobs run
  /// here while its synchronous resolution waits: they make nothing for it, which resolves from
  /// its task's container as it does anywhere else.
  var framesUnderAsyncFactory = 0
  /// Whether this thread stands in for the main actor, which waits for it: a ``verify()``
  /// called on the main actor makes main-actor modules here.
  var actsAsMainActor = false
  /// The depth at which this thread hands an event to observers, if it does: their own
  /// resolutions are then not observed (an observer that resolves would otherwise observe itself
  /// without end), and the factories under it asked for none of them. Only this trace's thread
  /// touches it.
  var deliveringAt: Int?
  /// Whether this thread is handing an event to observers (see ``deliveringAt``).
  var isDelivering: Bool { deliveringAt != nil }
  /// The registrations whose instances this thread made while observed resolutions ran, each
  /// with the trace's depth as it did, and whose events have not yet said so; only this
  /// trace's thread touches it.
  var madeWhileObserved: [(keeper: ObjectIdentifier, depth: Int)] = []
  /// The decorator running on this thread, with the depth it runs at: over the frame of what
  /// it decorates, which is no longer being made, so what it asks for, it asks for.
  var decorator: (registration: Unretained<Registration>, depth: Int)?
  /// How many errors of async modules not made yet this thread's resolutions met: a round of
  /// `start()` or `resolveAsync` makes such a module though a factory caught its error
  /// (``AsyncRound/caughtMiss(since:)``, ``Dependencies/makingAsyncModules(on:_:)``), which
  /// the round keeps (``AsyncRound/misses``).
  var asyncMisses: UInt = 0
  /// This thread's stack, found once, when the thread first resolves.
  @usableFromInline let stackBounds = StackBounds()

  private init() {}

  deinit {
    frames.free()
  }

  /// How many frames are on the stack.
  @inlinable var depth: Int { frames.count }

  /// Whether a factory running on this thread makes its instance in `container`, or was
  /// resolved from it.
  static func isMaking(in container: Dependencies) -> Bool {
    guard let trace = ThreadTrace.current else { return false }
    let wanted = Unretained(container)
    return trace.read { trace in
      (0..<trace.depth).contains { trace.frames[$0].container === wanted }
    }
  }

  /// The container the innermost running factory on this thread makes its instance in, if a
  /// factory is running: ``Dependencies/current`` there.
  ///
  /// An ``Inject`` property declared while a factory runs binds to it too, so a module resolves
  /// its own injections from the container that made it. Unretained: the resolution running
  /// the factory holds the container.
  var makingContainer: Unretained<Dependencies>? {
    depth > framesUnderAsyncFactory ? frames[depth - 1].container : nil
  }

  /// The container the innermost running factory makes its instance in, beneath the override
  /// layers it opened since (``enterOverride(_:)``, whose frames repeat its registration), and
  /// the innermost of those layers, if any.
  var makingContainerAndOverride:
    (container: Unretained<Dependencies>, override: Unretained<Dependencies>?)?
  {
    guard depth > framesUnderAsyncFactory else { return nil }
    var index = depth - 1
    while index > framesUnderAsyncFactory, isOverride(frame: index) { index -= 1 }
    return (frames[index].container, index < depth - 1 ? frames[depth - 1].container : nil)
  }

  /// Whether the frame at `index` is one that ``enterOverride(_:)`` pushed: it repeats the
  /// registration under it from a layer that is not underneath that frame's container. A repeat
  /// from underneath is a resolution of its own (see ``checkCycle(closedBy:from:at:onTraceFrom:)``).
  func isOverride(frame index: Int) -> Bool {
    frames[index - 1].registration === frames[index].registration
      && !frames[index].container.takeUnretainedValue().isUnderneath(
        frames[index - 1].container.takeUnretainedValue())
  }

  /// The registration whose factory runs innermost on this thread, if a factory is running.
  var innermost: Registration? {
    depth > 0 ? frames[depth - 1].registration.takeUnretainedValue() : nil
  }

  /// This thread's trace, made on first use and released when the thread ends.
  static var current: ResolutionTrace { unretainedCurrent.takeUnretainedValue() }

  /// This thread's trace, unretained: the thread keeps it alive until it ends.
  @inlinable
  static var unretainedCurrent: Unretained<ResolutionTrace> {
    if let trace = ThreadTrace.current { return trace }
    return makeCurrent()
  }

  /// Makes this thread's trace, released when the thread ends.
  @usableFromInline
  @discardableResult
  static func makeCurrent() -> Unretained<ResolutionTrace> {
    ThreadTrace.install(ResolutionTrace())
  }

  /// Pushes `registration`, resolved from `container`, or throws the cycle it would close.
  ///
  /// An outermost resolution, the usual one, can close no cycle and always has a free frame:
  /// only its stack is checked, inline. A nested one takes ``enterNested(_:from:at:)``.
  @inlinable @inline(__always)
  func enter(
    _ registration: Registration, from container: Dependencies, at site: SourceSite
  ) throws(ResolutionError) {
    // Every nested factory starts here, so refusing one that would start too low turns a
    // stack overflow, which kills the thread without a word, into an error that names the chain.
    let address = Platform.stackPosition()
    guard depth == 0, !stackBounds.isInReserve(address) else {
      return try enterNested(registration, from: container, at: site, address: address)
    }
    frames.pushOntoEmpty(Frame(registration, container))
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
    for index in 0..<depth where frames[index].registration === frame.registration {
      try checkCycle(closedBy: registration, from: container, at: site, onTraceFrom: index)
      break
    }
    frames.push(frame)
  }

  /// Throws the cycle that resolving `registration` from `container` closes, if it closes one,
  /// where the registration is on the trace from `first` on; out of line, as a repeat is rare.
  ///
  /// A repeat from a container underneath every one the registration is on the trace from
  /// closes no cycle: a layer's decorator may resolve what it decorates from a layer under it,
  /// which never runs that decorator, and such repeats end at the bottom layer. Any other
  /// repeat does, named from the innermost frame it repeats.
  @usableFromInline @inline(never)
  func checkCycle(
    closedBy registration: Registration, from container: Dependencies, at site: SourceSite,
    onTraceFrom first: Int
  ) throws(ResolutionError) {
    let repeated = Unretained(registration)
    for index in (first..<depth).reversed() where frames[index].registration === repeated {
      if !container.isUnderneath(frames[index].container.takeUnretainedValue()) {
        throw cycleError(closedBy: registration, onTraceFrom: index, at: site)
      }
    }
  }

  /// Pops the innermost registration.
  @inlinable
  func leave() {
    frames.pop()
  }

  /// Makes `layer` the container the running factory resolves from, until ``leave()``, when
  /// a factory is running: an override the factory installs must win over the container
  /// making its instance. Returns whether it did.
  ///
  /// The frame repeats the running factory's registration, so resolving that registration
  /// inside is still the cycle it is.
  func enterOverride(_ layer: Dependencies) -> Bool {
    guard depth > framesUnderAsyncFactory else { return false }
    frames.push(Frame(frames[depth - 1].registration.takeUnretainedValue(), layer))
    return true
  }

}

extension Unretained where Object == ResolutionTrace {
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
  @inlinable @inline(__always)
  func leave() {
    read { $0.leave() }
  }
}
