// `resolveAsync`: resolution from async code, on the module's actor.

extension Dependencies {
  /// Resolves a module from ``current`` on the actor it was registered from, hopping there
  /// when this code runs elsewhere.
  ///
  /// A module registered from main-actor code (every module of an app target built with
  /// default `MainActor` isolation) is made only on the main actor. Synchronous resolution off
  /// the main actor stops the program with a message that says so; from async code, this
  /// hops instead:
  ///
  /// ```swift
  /// @concurrent func syncInBackground() async {
  ///   let sync = await Dependencies.resolveAsync(SyncModuleType.self)
  ///   await sync.sync()
  /// }
  /// ```
  ///
  /// A module registered from nonisolated code is resolved right here, with no hop. A module
  /// whose factory is `async` is made first, once per container when its scope shares it (see
  /// ``resolveAsyncOrThrow(_:name:isolation:fileID:line:)-swift.type.method``).
  ///
  /// > Note: A ``Scope/unique`` module's async factory runs in the calling task, so it sees
  /// > that task's cancellation; if it throws then, as `Task.sleep` and `URLSession` do, this
  /// > stops the program. In a task that may be cancelled, such as SwiftUI's `.task`, call
  /// > ``resolveAsyncOrThrow(_:name:isolation:fileID:line:)-swift.type.method``, which throws
  /// > it. A shared module's factory runs in a task of its own, which no caller cancels.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out. It crosses from
  ///     the module's actor to this code, so it must be `Sendable`, as a main-actor class is.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - isolation: The actor this code runs on, where a module registered from nonisolated
  ///     code is resolved; leave it to its default, the caller's.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  public static func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) async -> T {
    await current.resolveAsync(type, name: name, isolation: isolation, fileID: fileID, line: line)
  }

  /// Resolves a module from this container on the actor it was registered from.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; it must be `Sendable` to cross from the module's actor.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - isolation: The actor this code runs on, where a module registered from nonisolated
  ///     code is resolved; leave it to its default, the caller's.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  public func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) async -> T {
    do {
      return try await resolveAsyncOrThrow(
        type, name: name, isolation: isolation, fileID: fileID, line: line)
    } catch {
      Self.stop(error, at: SourceSite(fileID: fileID, line: line))
    }
  }

  /// Resolves a module from ``current`` on the actor it was registered from, making it first
  /// when its factory is `async`, and throwing instead of stopping the program.
  ///
  /// ```swift
  /// let database = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; it must be `Sendable` to cross from the module's actor.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - isolation: The actor this code runs on, where a module registered from nonisolated
  ///     code is resolved; leave it to its default, the caller's.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` as ``resolveOrThrow(_:name:fileID:line:)-swift.type.method``
  ///   does; when an async factory throws, every caller that waited for that attempt gets its
  ///   error, and the next call runs the factory again.
  public static func resolveAsyncOrThrow<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) async throws(ResolutionError) -> T {
    try await current.resolveAsyncOrThrow(
      type, name: name, isolation: isolation, fileID: fileID, line: line)
  }

  /// Resolves a module from this container on the actor it was registered from, making it
  /// first when its factory is `async`, and throwing instead of stopping the program.
  ///
  /// A shared module with an `async` factory is made once per container, however many ask at
  /// the same time; every caller waiting for an attempt that fails gets its error, and the
  /// next call tries again. Any async module that the module's own synchronous factory
  /// resolves is made the same way first; an async factory awaits `resolveAsync` for those it
  /// needs.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; it must be `Sendable` to cross from the module's actor.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - isolation: The actor this code runs on, where a module registered from nonisolated
  ///     code is resolved; leave it to its default, the caller's.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` as ``resolveOrThrow(_:name:fileID:line:)-swift.method`` does.
  public func resolveAsyncOrThrow<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID, line: UInt = #line
  ) async throws(ResolutionError) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    let lookedUp = (T.self as? SugaredType.Type)?.wrappedType ?? T.self
    // A module registered from nonisolated code is resolved where the caller runs, as a
    // synchronous resolution there would be: its factory may read the caller's actor's modules.
    let actor =
      self.isolation(ofResolving: lookedUp, registeredAs: registration(for: lookedUp, name: name))
      ?? isolation
    return try await makingAsyncModules(on: actor) { () throws(ResolutionError) in
      try self.value(T.self, name: name, site: site)
    }
  }

  /// Runs `body` on `actor`; an `await` from anywhere else hops there first.
  static func run<Result: Sendable>(
    on actor: isolated any Actor, _ body: @Sendable () -> Result
  ) -> Result {
    body()
  }
}
