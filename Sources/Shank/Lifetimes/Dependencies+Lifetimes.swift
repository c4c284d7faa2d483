// Child containers, `withScope`, `close()`, and what a closed container still resolves.

extension Dependencies {
  /// Makes a child container: its modules over `parent`'s, for a session, a screen or a job.
  ///
  /// ```swift
  /// let session = Dependencies(over: .current) {
  ///   Module(scope: .singleton, onClose: { await $0.signOut() }) {
  ///     SessionModule(user: user) as SessionModuleType
  ///   }
  /// }
  /// let profile: ProfileModuleType = session.resolve()  // misses fall through to the parent
  /// await session.close()                              // signs out; resolving now throws
  /// ```
  ///
  /// What the child does not register, it resolves from `parent`, which it keeps alive. Its
  /// shared instances are its own, made by it and disposed of by ``close()``: a
  /// ``Scope/singleton`` registered here is one per child.
  ///
  /// - Parameters:
  ///   - parent: The container misses fall through to, usually ``current``.
  ///   - fileID: The file that makes the container, for diagnostics; leave it to its default.
  ///   - line: The line that makes the container, for diagnostics; leave it to its default.
  ///   - modules: The child's own modules, written with ``ModuleBuilder``.
  public convenience init(
    over parent: Dependencies, fileID: StaticString = #fileID, line: UInt = #line,
    @ModuleBuilder _ modules: () -> [Module]
  ) {
    self.init(
      modules: modules(), over: parent, origin: .made(at: SourceSite(fileID: fileID, line: line)))
  }

  /// Closes the container: runs the `onClose` handlers of the instances it keeps, newest
  /// first, each on its factory's isolation, and returns when the last has returned.
  ///
  /// From then on, resolving a module it registers, from it or from a child over it, throws a
  /// ``ResolutionError`` that says it was closed and where it was made. A key it does not
  /// register resolves from the nearest open container underneath, so an instance it made can
  /// still read its ``Inject`` properties. A factory already running when it closes runs to its
  /// end, and what it makes is disposed of at once. An instance that someone still holds
  /// stays alive and usable for as long as they hold it; its handler has run. The instances
  /// themselves are freed with the container, when the last reference to it goes. Closing
  /// again runs nothing: it returns once the first close's handlers have run.
  ///
  /// The handlers run on a task of their own, so that each runs to its end even when the task
  /// that closes the container is cancelled, and so that no override or scope of the caller is
  /// current in them. A `close()` called from a handler does not wait where waiting would
  /// never end: for its own container, or for a container whose handlers wait, directly or
  /// through other containers' handlers, for the handler's own. So two containers whose
  /// handlers close each other both close, even when two tasks close them at the same time.
  ///
  /// > Note: A container dropped without `close()` still runs its handlers when it is freed,
  /// > on a task of their own. An instance that a factory, already running when `close()` was
  /// > called, makes afterwards is disposed of as soon as it is made, on a task of its own:
  /// > `close()` may return before that handler has run. Closing the empty stand-in that
  /// > ``current`` gives before anything is built does nothing.
  public func close() async {
    await seal()?.close()
  }

  /// Closes the container to resolution, and returns the handlers for ``close()`` to run, or
  /// `nil` when it has none: then there is nothing to run or wait for, and no task to start.
  @usableFromInline
  func seal() -> Disposals? {
    // The stand-in resolution reads before anything is built is shared by every caller.
    guard !isUnbuilt else { return nil }
    table.setState(RegistrationTable.closedBit)
    keptDecorations?.removeAll()
    return disposals
  }

  /// Whether ``close()`` was called on this container.
  public var isClosed: Bool { table.state & RegistrationTable.closedBit != 0 }

  /// Runs `operation` in a child of ``current`` made of `modules`, and closes it when the
  /// operation ends, normally or by throwing.
  ///
  /// ```swift
  /// try await Dependencies.withScope {
  ///   Module(scope: .singleton) { RequestModule(request) as RequestModuleType }
  /// } operation: {
  ///   try await handle(request)  // @Inject and resolve() see the request's modules
  /// }
  /// ```
  ///
  /// Inside `operation`, ``Inject`` and ``resolve(_:name:fileID:line:)-swift.type.method`` read
  /// the scope first, then what was current outside it. Like overrides, the scope is
  /// task-local: child tasks see it, other tasks never do. The scope's ``close()`` is awaited
  /// before this returns, so every `onClose` handler has run by then.
  ///
  /// > Note: A `Task { }` started inside that outlives the operation finds the scope closed:
  /// > resolving one of the scope's own modules then throws.
  ///
  /// - Parameters:
  ///   - modules: The scope's own modules.
  ///   - isolation: The caller's isolation, which `operation` keeps; leave it to its default.
  ///   - fileID: The file that opens the scope, for diagnostics; leave it to its default.
  ///   - line: The line that opens the scope, for diagnostics; leave it to its default.
  ///   - operation: The code that runs in the scope.
  /// - Returns: What `operation` returns.
  @inlinable
  public static func withScope<Result>(
    @ModuleBuilder _ modules: () -> [Module],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    // Inlined, so that entering a scope adds no async frame of its own between the caller and
    // the task-local's: a task allocation and two executor checks fewer.
    let scope = layer(modules(), site: SourceSite(fileID: fileID, line: line))
    let result: Result
    // Sealed here rather than by `close()`, which, being async, would cost two hops to the
    // generic executor and back even for a scope that kept no handler.
    do {
      result = try await overrides.withValue(
        Layer(scope), operation: operation, isolation: isolation)
    } catch {
      await scope.seal()?.close()
      throw error
    }
    await scope.seal()?.close()
    return result
  }

  /// Whether a resolution on this thread finds this container closed: it was closed, and no
  /// factory it started before the close is still running here, nor an async factory it
  /// started for this task (``AsyncMaking``). Such a factory runs to its end, resolving what it
  /// needs as before, so that a close never stops it halfway.
  var isClosedToThisThread: Bool {
    isClosed && !isMakingHere
  }

  /// Out of line, so that an open container's check stays one load on every resolution.
  @inline(never)
  private var isMakingHere: Bool {
    ResolutionTrace.isMaking(in: self)
      || AsyncMaking.current?.containers.contains { $0 === self } == true
  }

  /// A resolution from a closed container: a key it registers answers "closed", and so does a
  /// key that a closed container underneath registers; any other key resolves from the nearest
  /// open container underneath, so an instance kept from before the close can still read its
  /// ``Inject`` properties.
  func valueAfterClose<T>(_ type: T.Type, name: String?, site: SourceSite)
    throws(ResolutionError) -> T
  {
    var layer = self
    while layer.isClosedToThisThread {
      if layer.registers(T.self, name: name) {
        throw closedError(KeyDescription(T.self, name: name), closed: layer, site: site)
      }
      guard let next = layer.parent else {
        throw closedError(KeyDescription(T.self, name: name), closed: self, site: site)
      }
      layer = next
    }
    return try layer.value(T.self, name: name, site: site)
  }

  /// Whether this container's own table answers `T` and `name`, or, for an optional `T`, its
  /// wrapped type, which a miss of `T` resolves.
  func registers<T>(_ type: T.Type, name: String?) -> Bool {
    if let found = table.registration(for: ObjectIdentifier(T.self), name: name) {
      return found.answersItsKey(in: table)
    }
    guard let wrapped = (T.self as? SugaredType.Type)?.wrappedType,
      let found = table.registration(for: ObjectIdentifier(wrapped), name: name)
    else { return false }
    return found.answersItsKey(in: table)
  }

  /// The first container, from this one down, whose own table registers `type` and `name`,
  /// open or closed, with what it registers there.
  func layer(registering type: ObjectIdentifier, name: String?)
    -> (container: Dependencies, registration: Registration)?
  {
    for layer in sequence(first: self, next: \.parent) {
      if let found = layer.table.registration(for: type, name: name) { return (layer, found) }
    }
    return nil
  }

  /// The first layer, from here down, that answers `type` and `name`, if it is closed to this
  /// thread: a closed layer that adds nothing to the key is passed over, as
  /// ``openRegistration(for:name:)`` passes it.
  func closedLayer(answering type: Any.Type, name: String?) -> Dependencies? {
    for layer in sequence(first: self, next: \.parent) {
      guard let found = layer.table.registration(for: ObjectIdentifier(type), name: name) else {
        continue
      }
      guard layer.isClosedToThisThread else { return nil }
      if found.answersItsKey(in: layer.table) { return layer }
    }
    return nil
  }

  /// The error for resolving `key` from here once `closed` was closed.
  func closedError(_ key: KeyDescription, closed: Dependencies, site: SourceSite)
    -> ResolutionError
  {
    let which = closed === self ? "" : "a container it falls through to, "
    return ResolutionError(
      .closed(container: which + closed.origin.description), key: key, site: site)
  }

  /// Where a container was made, and as what: what a message says of it.
  enum Origin: Sendable, CustomStringConvertible {
    /// By an initializer, or a `withScope`, at the site.
    case made(at: SourceSite)
    /// By ``Dependencies/withOverrides(_:fileID:line:operation:)`` or a test trait.
    case overrideLayer(madeAt: SourceSite)
    /// ``Dependencies/unbuilt``, which no one made.
    case standIn

    var isOverrideLayer: Bool {
      if case .overrideLayer = self { return true }
      return false
    }

    var description: String {
      switch self {
      case .made(let site): "made at \(site)"
      case .overrideLayer(let site): "an override layer made at \(site)"
      case .standIn: "the empty one that stands in before build()"
      }
    }
  }
}
