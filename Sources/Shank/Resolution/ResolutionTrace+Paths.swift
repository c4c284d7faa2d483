// How a thread's trace names what runs on it: a cycle's path, a refused chain, an alias.

extension ResolutionTrace {
  /// The cycle that resolving `registration` again closes, from its frame at `start`.
  ///
  /// Each module on the path is named as the one before it asked for it, the first as the last:
  /// one loop reads the same from whichever of its keys it was entered.
  func cycleError(
    closedBy registration: Registration, onTraceFrom start: Int, at site: SourceSite
  ) -> ResolutionError {
    let loop = path(askedChain(from: start), to: registration)
    let closing = loop[loop.count - 1]
    return ResolutionError(
      .cycle(path: ([closing] + loop.dropFirst()).map(\.description)),
      key: closing.keyDescription, site: site)
  }

  /// The error for a resolution of `registration` refused because the stack is nearly full.
  @usableFromInline
  func tooDeepError(resolving registration: Registration, at site: SourceSite) -> ResolutionError {
    var error: ResolutionError?
    // Made on a thread of its own: describing a type for the first time can search every
    // conformance in the process, and a debug build makes a generic type's metadata the first
    // time it is used; either can take more stack than this thread has left. This thread waits
    // meanwhile, so its frames hold still.
    Platform.onFreshStack {
      // Named as asked for: a list, not the contribution it was making; the alias, not its
      // target.
      let asked = reader(of: registration) ?? registration
      let running = askedChain(from: 0)
      // A factory is named as it was asked for, a contribution by its list, as its errors are:
      // its own key resolves nothing.
      var factories = running.indices.filter { running[$0].role != .collector }.map { index in
        index > 0 && running[index - 1].role == .collector ? running[index - 1] : running[index]
      }
      // The alias of the provider refused: its factory is the one that does not run.
      if factories.last?.isAlias(of: registration) == true { factories.removeLast() }
      let chain = factories.prefix(5).map(\.description)
      error = ResolutionError(
        .tooDeep(depth: factories.count, chain: chain), key: asked.keyDescription, site: site)
    }
    return error!
  }

  /// What runs innermost on this thread, asking for what is resolved now: the running
  /// decorator, where no factory that `isAsker` accepts runs over it (override layers and lists
  /// it opened on the way are none), else the innermost such factory, else the module whose
  /// async factory this task runs; never one under an observer's resolution, which it did not
  /// ask for, nor under an async factory run on a ``Dependencies/verify()`` thread.
  func asker(_ isAsker: (Registration) -> Bool) -> Asker? {
    let floor = max(deliveringAt ?? 0, framesUnderAsyncFactory)
    if let decorator, decorator.depth > floor, decorator.depth <= depth,
      (decorator.depth..<depth).allSatisfy({ index in
        let registration = frames[index].registration.takeUnretainedValue()
        return isOverride(frame: index) || registration.role == .collector || !isAsker(registration)
      })
    {
      // Named as it was asked for: through the alias under it, if one reads through to it.
      let decorated = frames[decorator.depth - 1].registration.takeUnretainedValue()
      let under =
        decorator.depth > 1 ? frames[decorator.depth - 2].registration.takeUnretainedValue() : nil
      let asked = under.flatMap { $0.isAlias(of: decorated) ? $0 : nil } ?? decorated
      return Asker(
        key: asked.keyDescription, registeredAt: decorator.registration.read(\.site),
        isDecorator: true)
    }
    let factory = askedChain(from: floor).last { $0.role != .collector && isAsker($0) }
    guard let factory else { return deliveringAt == nil ? AsyncMaking.current?.asker : nil }
    return Asker(key: factory.keyDescription, registeredAt: factory.site, isDecorator: false)
  }

  /// What runs innermost on this thread, asking for `registration`: as ``asker(_:)``, past
  /// `registration` itself and any alias reading through to it.
  func asker(besides registration: Registration) -> Asker? {
    asker { $0 !== registration && !$0.isAlias(of: registration) }
  }

  /// A module being made, or a decorator running, that asked for a key: where it is registered,
  /// and, for a decorator, the key whose instance it decorates.
  struct Asker: Sendable {
    let key: KeyDescription
    let registeredAt: SourceSite
    let isDecorator: Bool
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
    return path(start.map(askedChain(from:)) ?? [held], to: next)
  }

  /// `chain`, then `next`, unless the alias on top of `chain` reads through to it.
  private func path(_ chain: [Registration], to next: Registration) -> [Registration] {
    chain[chain.count - 1].isAlias(of: next) ? chain : chain + [next]
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
