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
    self.init(modules: modules(), over: parent, site: SourceSite(fileID: fileID, line: line))
  }

  /// Closes the container: runs the `onClose` handlers of the instances it keeps, newest
  /// first, each on its factory's isolation, and returns when the last has returned.
  ///
  /// From then on, resolving from this container, or from a child over it, throws a
  /// ``ResolutionError`` that says it was closed and where it was made. An instance that
  /// someone still holds stays alive and usable for as long as they hold it; its handler has
  /// run. The instances themselves are freed with the container, when the last reference to
  /// it goes. Closing again runs nothing: it returns once the first close's handlers have run.
  ///
  /// The handlers run on a task of their own, so that each runs to its end even when the task
  /// that closes the container is cancelled, and so that no override or scope of the caller is
  /// current in them. A handler that closes this container again, directly or through the
  /// handlers of other containers it closes, does not wait for itself.
  ///
  /// > Note: A container dropped without `close()` still runs its handlers when it is freed,
  /// > on a task of their own. An instance that a factory, already running when `close()` was
  /// > called, makes afterwards is disposed of as soon as it is made, on a task of its own:
  /// > `close()` may return before that handler has run. Closing the empty stand-in that
  /// > ``current`` gives before anything is built does nothing.
  public func close() async {
    // The stand-in resolution reads before anything is built is shared by every caller.
    guard !isUnbuilt else { return }
    table.setState(RegistrationTable.closedBit)
    keptDecorations?.removeAll()
    await disposals.close()?.value
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
  /// > resolving from it then throws.
  ///
  /// - Parameters:
  ///   - modules: The scope's own modules.
  ///   - isolation: The caller's isolation, which `operation` keeps; leave it to its default.
  ///   - fileID: The file that opens the scope, for diagnostics; leave it to its default.
  ///   - line: The line that opens the scope, for diagnostics; leave it to its default.
  ///   - operation: The code that runs in the scope.
  /// - Returns: What `operation` returns.
  public static func withScope<Result>(
    @ModuleBuilder _ modules: () -> [Module],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    Root.noteOverridesInstalled()
    let scope = Dependencies(
      modules: modules(), over: current, site: SourceSite(fileID: fileID, line: line))
    let result: Result
    do {
      result = try await $overrides.withValue(scope, operation: operation, isolation: isolation)
    } catch {
      await scope.close()
      throw error
    }
    await scope.close()
    return result
  }

  /// The closed container that a resolution from here meets first, if any: this one, or one
  /// that misses fall through to.
  var closedContainer: Dependencies? {
    var container: Dependencies? = self
    while let current = container {
      if current.isClosed { return current }
      container = current.parent
    }
    return nil
  }

  /// The error for resolving `T` and `name` from here once `closed` was closed.
  func closedError<T>(_ type: T.Type, name: String?, closed: Dependencies, site: SourceSite)
    -> ResolutionError
  {
    let which = closed === self ? "" : "a container it falls through to, "
    return ResolutionError(
      .closed(container: which + closed.origin), key: KeyDescription(T.self, name: name),
      site: site)
  }

  /// Where the container came from, for messages: `made at File.swift:12`.
  var origin: String { Self.origin(of: site) }

  /// Where a container made at `site` came from, for messages; `nil` is an override layer.
  static func origin(of site: SourceSite?) -> String {
    site.map { "made at \($0)" } ?? "an override layer"
  }
}
