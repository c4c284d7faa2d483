// Makes and keeps one key's instances, as its scope says.

import _ShankAtomics

/// Makes and, as its scope says, keeps the instances of one key.
@usableFromInline
final class Provider<Value>: Registration {
  /// Makes an alias's instance from what it reads through to, for a resolution asked for at a
  /// site and started in a container.
  typealias Conversion = (SourceSite, Dependencies) throws(ResolutionError) -> Value

  /// The module's own factory, called directly: a wrapping closure would cost a call, and its
  /// context would be retained and released by every thread on every resolution.
  @usableFromInline let make: (() throws -> Value)?
  private let conversion: Conversion?
  /// Runs when the owner drops a kept instance: the module's `onClose`.
  private let onClose: ((Value) async -> Void)?
  private let lock: Lock?
  /// Published once a `.singleton` is made; its instance is then read without the creation
  /// lock, after one atomic load. Only singletons have one.
  @usableFromInline let made: OnceFlag?
  /// A made singleton that may be read from any thread with no check: nonisolated.
  @usableFromInline let isNonisolatedSingleton: Bool
  /// A unique module's own factory: nothing to keep or read through.
  @usableFromInline let isPlain: Bool
  /// Whether the factory is bound to an actor, so every resolution checks it is on it.
  @usableFromInline let isIsolated: Bool
  /// A `.singleton` instance, written once under `lock` before `made` is published and read
  /// without `lock` after. A pointer, so a read copies the value and never an `Optional`, and
  /// so that making a provider needs no `Optional<Value>` metadata.
  @exclusivity(unchecked) @usableFromInline var kept: UnsafeMutablePointer<Value>?
  /// A `.cached` instance, which `reset` drops without taking `lock`.
  private let cached: CachedInstance<Value>?
  /// A `.weak` instance, read and written under `lock`. Boxed, so that only a `.weak` provider
  /// pays for a weak reference.
  private let weakStored: WeakReference?

  /// The provider an alias reads through to, which keeps the instances it shares.
  private let upstream: Registration?
  /// The scope this provider keeps instances by: an alias keeps none of its own, it reads
  /// through to the provider it aliases.
  private var keepingScope: Scope { upstream == nil ? scope : .unique }

  /// A module's provider, which ``Module`` keeps as its recipe.
  ///
  /// A unique one keeps nothing, so every container it is registered in shares it. Any other
  /// is only a template: each container registers a copy with a lock and an instance of its
  /// own (see `register(into:)`).
  @usableFromInline
  convenience init(
    name: String?, scope: Scope, site: SourceSite, isolation: (any Actor)?, isEager: Bool,
    onClose: ((Value) async -> Void)?, factory: @escaping () throws -> Value
  ) {
    self.init(
      name: name, scope: scope, upstream: nil, site: site, isolation: isolation, isEager: isEager,
      make: factory, conversion: nil, onClose: onClose, keepsInstances: false)
  }

  /// An alias: a provider that converts what `upstream` makes and keeps nothing itself.
  convenience init(
    readingThrough upstream: Registration, site: SourceSite,
    conversion: @escaping Conversion
  ) {
    self.init(
      name: upstream.name, scope: upstream.scope, upstream: upstream, site: site,
      isolation: upstream.isolation, isEager: upstream.isEager, make: nil,
      conversion: conversion, onClose: nil, keepsInstances: true)
  }

  /// Makes a provider. `keepsInstances` says whether it is registered in a container, rather
  /// than a template for one, and so needs a lock and a once-flag when its scope shares.
  required init(
    name: String?, scope: Scope, upstream: Registration?, site: SourceSite,
    isolation: (any Actor)?, isEager: Bool, make: (() throws -> Value)?,
    conversion: Conversion?, onClose: ((Value) async -> Void)?, keepsInstances: Bool
  ) {
    // Matched rather than compared, so that making a provider never copies a scope.
    var keepsNothing = upstream != nil
    var isSingleton = false
    var isWeak = false
    var isCached = false
    if upstream == nil {
      switch scope.kind {
      case .unique: keepsNothing = true
      case .singleton: isSingleton = true
      case .weak: isWeak = true
      case .cached: isCached = true
      }
    }
    self.make = make
    self.conversion = conversion
    self.onClose = onClose
    self.upstream = upstream
    self.made = keepsInstances && isSingleton ? OnceFlag() : nil
    self.isNonisolatedSingleton = isSingleton && isolation == nil
    self.isPlain = keepsNothing && upstream == nil && make != nil
    self.isIsolated = isolation != nil
    self.lock = keepsInstances && !keepsNothing ? Lock() : nil
    self.weakStored = keepsInstances && isWeak ? WeakReference() : nil
    self.cached = keepsInstances && isCached ? CachedInstance() : nil
    super.init(
      type: Value.self, name: name, scope: scope, site: site, isolation: isolation,
      isEager: isEager)
  }

  /// The instance for a resolution asked for at `site` and started in `container`.
  @inlinable
  func instance(at site: SourceSite, from container: Dependencies) throws(ResolutionError) -> Value
  {
    if isNonisolatedSingleton, made.unsafelyUnwrapped.isSet {
      return kept.unsafelyUnwrapped.pointee
    }
    guard isPlain else { return try produce(at: site, from: container) }
    return try makePlain(at: site, from: container)
  }

  /// A plain module's new instance: the factory called directly.
  @inlinable
  func makePlain(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Value
  {
    let trace = try enterPlain(at: site, from: container)
    defer { trace.leave() }
    do {
      return try make.unsafelyUnwrapped()
    } catch {
      throw failure(error, at: site)
    }
  }

  /// The instance, decorated as `container` and the containers underneath say: for the paths
  /// that take no care of depth, such as contributions and verification.
  ///
  /// `Dependencies.slowValue` chooses among the same three itself, since this frame would stay
  /// on the stack through every nested resolution; and a plain module's decorating is kept off
  /// ``makePlain(at:from:)``, where each temporary would cost depth on the undecorated path.
  func anyInstance(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Value
  {
    guard isPlain else { return try produce(at: site, from: container) }
    guard container.decorates else { return try makePlain(at: site, from: container) }
    return try makeDecorated(at: site, from: container)
  }

  /// A plain module's new instance, decorated as `container` and those underneath say.
  @usableFromInline
  func makeDecorated(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Value
  {
    let trace = try enterPlain(at: site, from: container)
    defer { trace.leave() }
    do {
      return try container.decorated(make.unsafelyUnwrapped(), at: site)
    } catch {
      throw failure(error, at: site)
    }
  }

  /// Checks a plain module's isolation and puts it on this thread's trace, which it returns.
  @inlinable
  func enterPlain(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Unmanaged<ResolutionTrace>
  {
    if isIsolated { try checkIsolation(at: site) }
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    return trace
  }

  /// The factory's value; what it throws becomes a ``ResolutionError``.
  @inlinable
  func callFactory(at site: SourceSite) throws(ResolutionError) -> Value {
    do {
      return try make.unsafelyUnwrapped()
    } catch {
      throw failure(error, at: site)
    }
  }

  /// A factory's error as a ``ResolutionError``: one from a resolution inside it as it is, so
  /// that the outermost caller sees the first thing that failed; any other wrapped.
  @usableFromInline
  func failure(_ error: any Error, at site: SourceSite) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    if let pending = error as? AsyncPending {
      return ResolutionError(pending, key: keyDescription, site: site)
    }
    return ResolutionError(
      .factoryFailed(error: String(describing: error)), key: keyDescription, site: site)
  }

  /// Everything but the plain path: checks the isolation on every resolution, and makes a
  /// shared instance once, in the container that owns it, decorated there as it is made.
  ///
  /// What comes before and after the factory is done in calls that return before it runs: in
  /// a debug build, this frame stays on the stack through every nested resolution, and each of
  /// its temporaries takes room there. For the same reason decorated and undecorated instances
  /// share it: an undecorated owner has no decorators underneath either.
  @usableFromInline
  func produce(at site: SourceSite, from container: Dependencies) throws(ResolutionError) -> Value {
    if isKeptUnder(decorating: container) { return try decorated(at: site, over: container) }
    if isNonisolatedSingleton, made.unsafelyUnwrapped.isSet {
      return kept.unsafelyUnwrapped.pointee
    }
    // An alias or a list keeps nothing and takes no lock: read through from here, since
    // `claim`'s frame, large for what it does, would stay on the stack through what it reads.
    if lock == nil { return try readThrough(at: site, from: container) }
    var generation: UInt = 0
    if let done = try claim(at: site, from: container, generation: &generation) { return done }
    defer { finishMaking() }
    do {
      return try keep(make.unsafelyUnwrapped(), madeIn: generation, at: site)
    } catch {
      throw failure(error, at: site)
    }
  }

  /// Whether `container` decorates, and an owner underneath it keeps this provider's instances.
  private func isKeptUnder(decorating container: Dependencies) -> Bool {
    guard container.decorates, lock != nil, let owner else { return false }
    return owner !== container
  }

  /// The instance the owner underneath `container` keeps, decorated as the owner made it,
  /// wrapped once more by the layers in between, which keep what they made.
  private func decorated(at site: SourceSite, over container: Dependencies)
    throws(ResolutionError) -> Value
  {
    let owner = owner.unsafelyUnwrapped
    // Read before the instance: a reset in between then only makes the decoration kept for
    // an older generation, which the next resolution decorates anew.
    let generation = cachedGeneration
    let value = try produce(at: site, from: owner)
    // On the trace, so that a decorator resolving what it decorates is a cycle, not a
    // recursion until the stack runs out.
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    return try container.decorated(
      value, keptBy: self, generation: generation, in: owner, at: site)
  }

  /// Checks the isolation, then gives what needs no making: an alias's value, or the kept
  /// instance. Otherwise returns `nil` with the creation lock held, this thread waited for as
  /// the maker and the owner's factory on the trace, which `finishMaking()` undoes, and sets
  /// `generation` to keep a `.cached` instance by.
  private func claim(
    at site: SourceSite, from container: Dependencies, generation: inout UInt
  ) throws(ResolutionError) -> Value? {
    try checkIsolation(at: site)
    guard let lock, let owner else { return try run(at: site, from: container, trace: .current) }
    let trace = ResolutionTrace.current
    try acquire(lock, trace: trace, site: site)
    if let cached {
      let current = cached.current
      if let kept = current.value {
        lock.unlock()
        return kept
      }
      generation = current.generation
    } else if let kept = keptInstance() {
      lock.unlock()
      return kept
    }
    // A resolution that waited for the lock while the owner closed makes nothing: the owner
    // would dispose of the instance as soon as it was made.
    if owner.isClosedToThisThread {
      lock.unlock()
      throw owner.closedError(Value.self, name: name, closed: owner, site: site)
    }
    WaitGraph.shared.own(self, by: trace)
    // Made by its owner, which its factory sees as `current`, so an override layer that
    // happened to be active at the first resolution never ends up inside a shared instance.
    do {
      try trace.enter(self, from: owner, at: site)
    } catch {
      WaitGraph.shared.own(self, by: nil)
      lock.unlock()
      throw error
    }
    return nil
  }

  /// Undoes what `claim` did, once the factory has run or failed.
  private func finishMaking() {
    ResolutionTrace.unretainedCurrent.leave()
    WaitGraph.shared.own(self, by: nil)
    lock.unsafelyUnwrapped.unlock()
  }

  override func inspectedInstance(
    at site: SourceSite, from container: Dependencies
  ) throws(ResolutionError) -> Any {
    try anyInstance(at: site, from: container)
  }

  /// Registers a module's provider: itself when unique, else a copy of its own, made through
  /// `Self` so that the generic type is not looked up again.
  override func register(into registrations: inout RegistrationList) {
    // Only a module's own provider is registered, never an alias, so `isPlain` here means
    // that it keeps nothing.
    guard !isPlain else { return registrations.append(sharedBy: self) }
    let copy = Self(
      name: name, scope: scope, upstream: nil, site: site, isolation: isolation,
      isEager: isEager, make: make, conversion: nil, onClose: onClose, keepsInstances: true)
    copy.role = role
    registrations.append(made: copy)
  }

  override var keeper: Registration { upstream?.keeper ?? self }

  override var cachedGeneration: UInt? { cached?.generation }

  override var hasOnClose: Bool { onClose != nil || upstream?.hasOnClose == true }

  override func adopt(by container: Dependencies) {
    // Only a provider that keeps instances makes them in its owner. A unique one may be shared
    // by several containers at once, so it is never written.
    if lock != nil { super.adopt(by: container) }
    upstream?.adopt(by: container)
  }

  override func reset() -> (order: UInt, disposal: Disposal)? {
    if let upstream { return upstream.reset() }
    guard let id = cached?.reset(), let disposal = owner?.disposals.remove(id) else { return nil }
    return (id, disposal)
  }

  /// What a provider that keeps nothing gives: checks the isolation, then runs.
  private func readThrough(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try checkIsolation(at: site)
    return try run(at: site, from: container, trace: .current)
  }

  private func run(
    at site: SourceSite, from container: Dependencies, trace: ResolutionTrace
  ) throws(ResolutionError) -> Value {
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    let value =
      make != nil ? try callFactory(at: site) : try conversion.unsafelyUnwrapped(site, container)
    guard container.decorates else { return value }
    return try container.decorated(value, at: site)
  }

  /// Takes the creation lock, or reports the cycle that waiting for it would deadlock on.
  private func acquire(_ lock: Lock, trace: ResolutionTrace, site: SourceSite)
    throws(ResolutionError)
  {
    if lock.tryLock() { return }
    try trace.checkNoCycle(closedBy: self, site: site)
    try WaitGraph.shared.wait(for: self, by: trace, site: site)
    lock.lock()
    WaitGraph.shared.stopWaiting(trace)
  }

  deinit {
    kept?.deinitialize(count: 1).deallocate()
  }

  private func keptInstance() -> Value? {
    switch keepingScope.kind {
    case .weak: weakStored?.object.flatMap { $0 as? Value }
    case .unique, .singleton, .cached: kept?.pointee
    }
  }

  /// Keeps `value`, just made, as the scope says, once its owner has decorated it; returns
  /// what it kept.
  private func keep(_ value: Value, madeIn generation: UInt, at site: SourceSite)
    throws(ResolutionError) -> Value
  {
    var value = value
    if let owner, owner.decorates { value = try owner.decorated(value, at: site) }
    if _shank_is_observing() != 0 { PendingEvent.noteMade(self) }
    guard let cached else {
      keep(value)
      return value
    }
    // A reset landed while the factory ran: the instance goes to its caller only, dropped
    // as the reset dropped the one before it.
    if !cached.keep(value, madeIn: generation, dispose: { addDisposal(of: value) }) {
      dispose(value)
    }
    return value
  }

  /// Runs `value`'s `onClose` on a task of its own: nothing keeps it.
  private func dispose(_ value: Value) {
    guard let onClose else { return }
    Disposal.runLater([Disposal(isolation: isolation) { await onClose(value) }])
  }

  /// Adds `value`'s `onClose` to its owner's list, returning the entry's id. Once the owner is
  /// closed, it runs the handler at once instead: the instance was dropped as it was kept.
  private func addDisposal(of value: Value) -> UInt? {
    guard let onClose, let owner else { return nil }
    let disposal = Disposal(isolation: isolation) { await onClose(value) }
    guard let id = owner.disposals.add(disposal) else {
      Disposal.runLater([disposal])
      return nil
    }
    return id
  }

  private func keep(_ value: Value) {
    switch keepingScope.kind {
    case .unique: break
    case .weak:
      // A value type has no identity to share: `.weak` then makes one per resolution.
      if Swift.type(of: value as Any) is AnyObject.Type { weakStored?.object = value as AnyObject }
    case .singleton:
      kept = UnsafeMutablePointer.boxingOnItsOwnCacheLine(value)
      made.unsafelyUnwrapped.publish()
      _ = addDisposal(of: value)
    case .cached:
      break  // kept by `cached`
    }
  }

  /// Lets the factory run only on the actor it was registered from.
  ///
  /// The main actor is checked without trapping, so the error can carry Shank's message;
  /// another actor can only be asserted, by the runtime's own check.
  @usableFromInline
  func checkIsolation(at site: SourceSite) throws(ResolutionError) {
    guard let isolation else { return }
    if isolation === MainActor.shared {
      if !MainActorCheck.isOnMainActor { throw isolationError(actor: "MainActor", at: site) }
    } else if ResolutionTrace.current.inspection != nil {
      // `verify()` never stops the program: it cannot be on another actor, so it reports.
      throw isolationError(actor: "\(Swift.type(of: isolation))", at: site)
    } else {
      isolation.preconditionIsolated(
        isolationError(actor: "\(Swift.type(of: isolation))", at: site).description,
        file: site.fileID, line: site.line)
    }
  }

  private func isolationError(actor: String, at site: SourceSite) -> ResolutionError {
    ResolutionError(
      .wrongIsolation(actor: actor, registeredAt: self.site.description), key: keyDescription,
      site: site)
  }
}

// `kept` and `weakStored` are written under `lock`; a singleton's `kept` is read without it
// only after `made` publishes it. The factory runs only once `checkIsolation` has passed.
extension Provider: @unchecked Sendable {}
