// `start()`: makes the eager modules, concurrently where their isolation allows.

extension Dependencies {
  /// Makes this container's eager modules, those registered with `eager: true`, and reports
  /// how long each took.
  ///
  /// ```swift
  /// let dependencies = Dependencies {
  ///   Module(scope: .singleton, eager: true) { DatabaseModule() as DatabaseModuleType }
  ///   Module(scope: .singleton, eager: true) { RouterModule() as RouterModuleType }
  ///   Module(scope: .singleton, eager: true) { AnalyticsModule() as AnalyticsModuleType }
  /// }
  /// dependencies.build()
  /// let report = try await dependencies.start()
  /// print(report)  // slowest first
  /// ```
  ///
  /// Modules whose factories are not bound to an actor are made at the same time, on tasks of
  /// their own; one that resolves another eager module waits for it, as any resolution does,
  /// and one whose factory reads a main-actor module fails there, as off the main actor: register
  /// it from main-actor code to make it on the main actor.
  /// A module registered from main-actor code is made on the main actor, and one registered
  /// from another actor on that actor. A module with an `async` factory is awaited at the same
  /// time as the others, and so is any async module that an eager module's factory resolves
  /// with `resolveOrThrow`. ``build()`` alone makes nothing eagerly.
  ///
  /// Called on an override layer, such as ``current`` in a test with a `.dependencies` trait,
  /// it also makes the eager modules of the override layers under it that no layer over them
  /// replaces: a suite's trait, under a test's own.
  ///
  /// > Note: `eager` keeps its meaning only for ``Scope/singleton`` and ``Scope/cached(_:)``
  /// > modules, which the container keeps. Any other eager module is made and dropped, which
  /// > checks that it can be made; ``verify()`` reports it.
  ///
  /// - Parameters:
  ///   - fileID: The file that starts, for diagnostics; leave it to its default.
  ///   - line: The line that starts, for diagnostics; leave it to its default.
  /// - Returns: What was made, slowest first.
  /// - Throws: The ``ResolutionError`` of the first eager module, in registration order, that
  ///   could not be made; the others are made all the same. On a closed container, the error
  ///   that says so, before anything is made.
  public func start(fileID: StaticString = #fileID, line: UInt = #line)
    async throws(ResolutionError)
    -> StartReport
  {
    let site = SourceSite(fileID: fileID, line: line)
    let eager = eagerModules
    guard !isClosed else {
      let key =
        eager.first?.keyDescription ?? KeyDescription(typeName: "its eager modules", name: nil)
      throw ResolutionError(.closed(container: origin.description), key: key, site: site)
    }
    let began = Platform.monotonicNanoseconds
    // The caller awaits every module's task, so it waits for what they wait for: a factory
    // that starts the container it is made in is told of the cycle.
    let holder = WaitGraph.holding
    let outcomes = await withTaskGroup(of: (Int, Result<StartReport.Entry, ResolutionError>).self) {
      group in
      for (index, registration) in eager.enumerated() {
        let module = Handed(registration)
        group.addTask {
          await WaitGraph.run(holding: holder, inherited: false) {
            (index, await self.make(module, at: site))
          }
        }
      }
      var outcomes = [Result<StartReport.Entry, ResolutionError>?](
        repeating: nil, count: eager.count)
      for await (index, outcome) in group { outcomes[index] = outcome }
      return outcomes
    }
    // In registration order, so that the error thrown is the first module's.
    let entries = try outcomes.map { outcome throws(ResolutionError) in try outcome!.get() }
    return StartReport(
      entries: entries.sorted { $0.durationNanoseconds > $1.durationNanoseconds },
      durationNanoseconds: Platform.monotonicNanoseconds &- began)
  }

  /// The modules that ``start(fileID:line:)`` makes, in registration order, each once: a module
  /// registered under several types with `as:` is one instance.
  ///
  /// An override layer's are also those of the open override layers under it that no layer
  /// over them replaces: a test with a trait of its own cannot reach its suite trait's layer.
  private var eagerModules: [Registration] {
    let reached =
      origin.isOverrideLayer
      ? sequence(first: self, next: \.parent).prefix { $0.origin.isOverrideLayer && !$0.isClosed }
        .count : 1
    var seen: Set<ObjectIdentifier> = []
    return visibleRegistrations(inTop: reached).map(\.registration).filter {
      $0.isEager && seen.insert(ObjectIdentifier($0.keeper)).inserted
    }
  }

  /// Makes `registration` on its isolation, and any async module it needs first, timing it.
  private func make(_ module: Handed<Registration>, at site: SourceSite) async
    -> Result<StartReport.Entry, ResolutionError>
  {
    let started = Platform.monotonicNanoseconds
    let registration = module.value
    let isolation = isolation(ofResolving: registration.type, registeredAs: registration)
    do throws(ResolutionError) {
      try await makingAsyncModules(on: isolation) { () throws(ResolutionError) in
        // An outermost resolution like any other: observers see it, as `slowValue` tells them.
        let pending = Switches.isObserving ? PendingEvent(for: Unretained(module.value)) : nil
        _ = try module.value.inspectedInstance(at: site, from: self)
        pending?.deliver(askedForAt: site)
      }
    } catch {
      return .failure(error)
    }
    return .success(
      StartReport.Entry(
        key: registration.description, scope: registration.scope,
        durationNanoseconds: Platform.monotonicNanoseconds &- started,
        ranOn: Self.place(isolation)))
  }

  /// Where a factory bound to `isolation` runs, in a report's words.
  private static func place(_ isolation: (any Actor)?) -> String {
    guard let isolation else { return "a background thread" }
    return isolation === MainActor.shared
      ? "the main actor" : KeyDescription.name(ofActor: isolation)
  }
}
