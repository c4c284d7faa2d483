// Resolution's entry points and the one path they share, from lookup to provider.

extension Dependencies {
  /// Resolves a module from ``current``, for initializers and function bodies.
  ///
  /// ```swift
  /// let widgets: WidgetModuleType = Dependencies.resolve()
  /// let sample = Dependencies.resolve(SampleModuleType.self, name: "abc")
  /// let analytics = Dependencies.resolve(AnalyticsModuleType?.self)  // nil when absent
  /// ```
  ///
  /// When nothing is registered under the type and name, this stops the program with a
  /// ``ResolutionError`` message that says where it was asked for; for an optional `T` it gives
  /// `nil` instead. `nil` means absent, not broken: a module registered under the wrapped type
  /// that cannot be made (its factory throws, or its async factory has not run) stops the
  /// program all the same.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  @inlinable
  public static func resolve<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    // Borrowed, not retained: a retain per resolution would make threads contend for the
    // root's reference count.
    let (container, saved) = unretainedCurrentForReading
    defer { Hazard.restore(saved) }
    do {
      return try container.borrow { container throws(ResolutionError) in
        try container.value(T.self, name: name, site: site)
      }
    } catch {
      stop(error, at: site)
    }
  }

  /// Resolves a module from ``current``, throwing instead of stopping the program.
  ///
  /// ```swift
  /// do {
  ///   let widgets = try Dependencies.resolveOrThrow(WidgetModuleType.self)
  /// } catch {
  ///   print(error)  // names the type, the name, where it was asked for, and near misses
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` when the key is missing, a factory closes a cycle, the
  ///   module is bound to an actor and this code is not on it, or factories resolving one
  ///   another have nearly filled this thread's stack. A module bound to an actor with an
  ///   executor of its own, resolved off it, stops the program in the runtime's check instead:
  ///   only that check asks the executor.
  @inlinable
  public static func resolveOrThrow<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(ResolutionError) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    // Borrowed, not retained: a retain per resolution would make threads contend for the
    // root's reference count.
    let (container, saved) = unretainedCurrentForReading
    defer { Hazard.restore(saved) }
    return try container.borrow { container throws(ResolutionError) in
      try container.value(T.self, name: name, site: site)
    }
  }

  /// Resolves a module from this container.
  ///
  /// The same as ``resolve(_:name:fileID:line:)-swift.type.method`` but reading this
  /// container, whether or not it was built.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  @inlinable
  public func resolve<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    do {
      return try value(T.self, name: name, site: site)
    } catch {
      Self.stop(error, at: site)
    }
  }

  /// Resolves a module from this container, throwing instead of stopping the program.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` when the key is missing, a factory closes a cycle, the
  ///   module is bound to an actor and this code is not on it, or factories resolving one
  ///   another have nearly filled this thread's stack. A module bound to an actor with an
  ///   executor of its own, resolved off it, stops the program in the runtime's check instead:
  ///   only that check asks the executor.
  @inlinable
  public func resolveOrThrow<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(ResolutionError) -> T {
    try value(T.self, name: name, site: SourceSite(fileID: fileID, line: line))
  }

  /// The instance for `T` and `name`; the one path every resolution takes.
  @inlinable @inline(__always)
  func value<T>(_ type: T.Type, name: String?, site: SourceSite) throws(ResolutionError) -> T {
    let found = unretainedRegistration(for: ObjectIdentifier(T.self), name: name)
    // The state word read through `slots`: `table.state` would copy the whole table into this
    // frame in a debug build, which every nested resolution keeps (see "Stack depth" in
    // ARCHITECTURE.md).
    guard let registration = found, table.slots.loadRelaxed(RegistrationTable.stateIndex) == 0,
      !Switches.isObserving
    else { return try slowValue(T.self, name: name, site: site, found: found) }
    // Borrowed, not retained: the tables of this container and those under it keep the
    // registration alive, and a retain on every resolution would make threads contend for its
    // reference count.
    return try registration.downcast(to: Provider<T>.self).borrow {
      provider throws(ResolutionError) in try provider.instance(at: site, from: self)
    }
  }

  /// The registration for `type` and `name`, here or in the containers this one is layered
  /// over, unretained: their tables keep it alive.
  @inlinable
  func unretainedRegistration(for type: ObjectIdentifier, name: String?) -> Unretained<
    Registration
  >? {
    if let found = table.unretainedRegistration(for: type, name: name) { return found }
    return parent?.openRegistration(for: type, name: name)
  }

  /// The registration for `type` and `name` here or underneath, unless the container that
  /// registers it was closed: a closed layer that does not register the key, or whose
  /// collector adds nothing to it, is passed over.
  ///
  /// A loop, not a recursion, so that any number of layers takes no stack.
  @usableFromInline
  func openRegistration(for type: ObjectIdentifier, name: String?) -> Unretained<Registration>? {
    // Unretained: each layer keeps the one under it alive, and a retain per layer would make
    // threads contend for the parent's reference count.
    var layer = Unretained(self)
    while true {
      let (found, next) = layer.read { layer in
        (
          layer.table.unretainedRegistration(for: type, name: name),
          layer.parent.map(Unretained.init)
        )
      }
      if let found {
        guard layer.read({ $0.isClosedToThisThread }) else { return found }
        if layer.read({ $0.answers(found) }) { return nil }
      }
      guard let next else { return nil }
      layer = next
    }
  }

  /// Whether `found`, in this closed container's table, answers its key, or adds nothing to
  /// it and is passed over. Out of line: the walk's loop is hot, a closed layer is not.
  @inline(never)
  func answers(_ found: Unretained<Registration>) -> Bool {
    found.read { $0.answersItsKey(in: table) }
  }

  /// ``current``, unretained, and what this thread's hazard slot held before, which the caller
  /// puts back with ``Hazard/restore(_:)`` once it is done with the container.
  ///
  /// Reading the built root puts it in the slot, so that no `build()` frees it meanwhile. A
  /// factory's container is held by the resolution running it, an override layer by the
  /// task-local, and a root already in the slot by the outer resolution that put it there: a
  /// resolution nested in it reads the same root, whatever was built meanwhile.
  @inlinable
  static var unretainedCurrentForReading: (Unretained<Dependencies>, saved: UInt) {
    // The usual case, kept small enough to inline: no factory running, no override, no outer
    // read of the root on this thread.
    if Hazard.held == 0, let trace = ThreadTrace.current, trace.read({ $0.depth == 0 }),
      !Switches.mayHaveOverrides
    {
      return (Root.protectedLatest ?? Unretained(unbuilt), 0)
    }
    return unretainedCurrentForReadingSlowly()
  }

  /// ``unretainedCurrentForReading`` in every other case.
  @usableFromInline
  static func unretainedCurrentForReadingSlowly() -> (Unretained<Dependencies>, saved: UInt) {
    let held = Hazard.held
    if let trace = ThreadTrace.current {
      if let making = trace.read({ $0.makingContainer }) { return (making, held) }
    } else {
      ResolutionTrace.makeCurrent()
    }
    if Switches.mayHaveOverrides, let layer = overrides.get().container {
      return (Unretained(layer), held)
    }
    if let outer = Unretained<Dependencies>(address: held) { return (outer, held) }
    return (Root.protectedLatest ?? Unretained(unbuilt), 0)
  }

  /// Stops the program with `error`'s message, pointing the report at the asking line; on a
  /// ``verify()`` thread, reports the error as the module's problem instead.
  @usableFromInline
  static func stop(_ error: ResolutionError, at site: SourceSite) -> Never {
    let trace = ResolutionTrace.current
    trace.inspection?.abandon(.failed(error))
    // Reporting a crash can take more stack than the end of a deep chain leaves: stopped from
    // a thread of its own, the message is sure to be written.
    if trace.stackBounds.hasLittleRoom {
      Platform.onFreshStack { stop(error.description, as: .failed(error), at: site) }
    }
    stop(error.description, as: .failed(error), at: site)
  }

  /// Stops the program with `message` at `site`, the one way Shank stops it; on a
  /// ``verify()`` thread, records `outcome` as the problem of the module being made instead.
  static func stop(_ message: String, as outcome: InspectedModule, at site: SourceSite) -> Never {
    ResolutionTrace.current.inspection?.abandon(outcome)
    // `fatalError`, not `preconditionFailure`: the message and the caller's line are reported
    // in release builds too.
    fatalError(message, file: site.fileID, line: site.line)
  }

  /// A resolution that is not a plain hit: observed, decorated, from a closed container, or a
  /// miss; `found` is what ``value(_:name:site:)`` looked up.
  @usableFromInline
  func slowValue<T>(
    _ type: T.Type, name: String?, site: SourceSite, found: Unretained<Registration>?
  ) throws(ResolutionError) -> T {
    guard !isClosedToThisThread, let registration = found else {
      return try missing(T.self, name: name, site: site)
    }
    // Observed, the event is told once the instance is made, and not if making it threw.
    var pending = Switches.isObserving ? PendingEvent(for: registration) : nil
    defer { pending?.deliver(askedForAt: site) }
    // Borrowed, as in ``value(_:name:site:)``: the tables keep it alive. The instance is made
    // straight into the result: a copy would cost a call to its type's value witnesses.
    do {
      return try registration.downcast(to: Provider<T>.self).borrow {
        provider throws(ResolutionError) in try provider.resolve(at: site, from: self)
      }
    } catch {
      pending = nil
      throw error
    }
  }

  /// The miss path, and a closed container's: an optional `T` looks up its wrapped type; an
  /// empty list is the list of no contributions; anything else is an error.
  ///
  /// A `T?` resolves `T` from here, a level of its chain: what else a miss does is out of line,
  /// so that this frame stays small (see "Stack depth" in ARCHITECTURE.md).
  @usableFromInline
  func missing<T>(_ type: T.Type, name: String?, site: SourceSite) throws(ResolutionError) -> T {
    guard !isClosedToThisThread, closedLayer(answering: T.self, name: name) == nil,
      let answer = try (T.self as? SugaredType.Type)?.answerMiss(in: self, name: name, site: site)
    else { return try unanswered(T.self, name: name, site: site) }
    return answer as! T
  }

  /// A miss that nothing answers: from a closed container, the layer under it that registers
  /// the key, else the error.
  @inline(never)
  private func unanswered<T>(_ type: T.Type, name: String?, site: SourceSite)
    throws(ResolutionError) -> T
  {
    if isClosedToThisThread { return try valueAfterClose(T.self, name: name, site: site) }
    if let closed = closedLayer(answering: T.self, name: name) {
      throw closedError(KeyDescription(T.self, name: name), closed: closed, site: site)
    }
    throw notRegistered(T.self, name: name, site: site)
  }
}
