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
  /// Whether this thread is handing an event to observers, whose own resolutions are then not
  /// observed: an observer that resolves would otherwise observe itself without end. Only this
  /// trace's thread touches it.
  var isDelivering = false
  /// The registrations whose instances this thread made while observed resolutions ran, and
  /// whose events have not yet said so; only this trace's thread touches it.
  var madeWhileObserved: [ObjectIdentifier] = []
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
    while index > framesUnderAsyncFactory,
      frames[index - 1].registration === frames[index].registration
    {
      index -= 1
    }
    return (frames[index].container, index < depth - 1 ? frames[depth - 1].container : nil)
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
    let address = StackBounds.position()
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
  /// where the registration is on the trace from `first` on; out of line, as a repeated
  /// registration is rare.
  ///
  /// An alias makes and keeps nothing itself: resolved from another container, as a layer's
  /// decorator resolving it from underneath does, it only reads through again, and a loop in
  /// what it reads through to meets that registration's own frame or creation lock.
  @usableFromInline @inline(never)
  func checkCycle(
    closedBy registration: Registration, from container: Dependencies, at site: SourceSite,
    onTraceFrom first: Int
  ) throws(ResolutionError) {
    let frame = Frame(registration, container)
    let closes =
      !registration.isAlias
      || (first..<depth).contains {
        frames[$0].registration === frame.registration && frames[$0].container === frame.container
      }
    if closes { throw cycleError(closedBy: registration, at: site) }
  }

  /// The cycle that resolving `registration` again would close: out of line, so that
  /// ``enterNested(_:from:at:address:)``, which every nested resolution runs, stays small
  /// enough to inline and keeps a small frame in a debug build.
  ///
  /// Each module on the path is named as the one before it asked for it, the first as the last:
  /// one loop reads the same from whichever of its keys it was entered.
  @usableFromInline
  func cycleError(closedBy registration: Registration, at site: SourceSite) -> ResolutionError {
    let path = askedPath(from: registration, to: registration)
    let closing = path[path.count - 1]
    return ResolutionError(
      .cycle(path: ([closing] + path.dropFirst()).map(\.description)),
      key: closing.keyDescription, site: site)
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

  /// The error for a resolution of `registration` refused because the stack is nearly full.
  @usableFromInline
  func tooDeepError(resolving registration: Registration, at site: SourceSite) -> ResolutionError {
    var error: ResolutionError?
    // Made on a thread of its own: describing a type for the first time can search every
    // conformance in the process, and a debug build makes a generic type's metadata the first
    // time it is used; either can take more stack than this thread has left. This thread waits
    // meanwhile, so its frames hold still.
    StackBounds.onFreshStack {
      // Named as asked for: a list, not the contribution it was making; the alias, not its
      // target.
      let asked = reader(of: registration) ?? registration
      var factories = runningFactories
      // The alias of the provider refused: its factory is the one that does not run.
      if factories.last?.isAlias(of: registration) == true { factories.removeLast() }
      let chain = factories.prefix(5).map(\.description)
      error = ResolutionError(
        .tooDeep(depth: factories.count, chain: chain), key: asked.keyDescription, site: site)
    }
    return error!
  }

  /// The keys whose factories are running on this thread, outermost first, each as it was
  /// asked for (see ``askedChain(from:)``); a list is no factory.
  var runningFactories: [Registration] { askedChain(from: 0).filter { $0.role != .collector } }

  /// The registrations on the stack from frame `start`, outermost first, each as it was asked
  /// for: an alias in place of the provider it reads through to, whose frame follows the
  /// alias's, and a factory that installs an override once, though its frame repeats.
  func askedChain(from start: Int) -> [Registration] {
    var chain: [Registration] = []
    for index in start..<depth {
      let registration = frames[index].registration.takeUnretainedValue()
      if let last = chain.last, last === registration || last.isAlias(of: registration) {
        continue
      }
      chain.append(registration)
    }
    return chain
  }

  /// The chain from `held`'s outermost frame, or from `held` if it has none, to `next`, which
  /// this thread asks for now, as it asks for it: through the alias on top, if that reads
  /// through to `next`.
  func askedPath(from held: Registration, to next: Registration) -> [Registration] {
    let start = (0..<depth).first { frames[$0].registration.takeUnretainedValue() === held }
    let chain = start.map(askedChain(from:)) ?? [held]
    return chain[chain.count - 1].isAlias(of: next) ? chain : chain + [next]
  }

  /// What reads through to `registration`, whose resolution runs innermost on this thread or is
  /// about to: the alias it was asked for as, or the list that gathers it as a contribution.
  func reader(of registration: Registration) -> Registration? {
    var index = depth - 1
    if index >= 0, frames[index].registration.takeUnretainedValue() === registration {
      index -= 1
    }
    guard index >= 0 else { return nil }
    let reader = frames[index].registration.takeUnretainedValue()
    return reader.role == .collector || reader.isAlias(of: registration) ? reader : nil
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
