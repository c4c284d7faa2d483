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
  /// @concurrent func refresh() async {
  ///   let app = await Dependencies.resolveAsync(AppModuleType.self)
  ///   await app.reload()
  /// }
  /// ```
  ///
  /// A module registered from nonisolated code is resolved right here, with no hop.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out. It crosses from
  ///     the module's actor to this code, so it must be `Sendable`, as a main-actor class is.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  public static func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) async -> T {
    await current.resolveAsync(type, name: name, fileID: fileID, line: line)
  }

  /// Resolves a module from this container on the actor it was registered from.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; it must be `Sendable` to cross from the module's actor.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  public func resolveAsync<T: Sendable>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) async -> T {
    let lookedUp = (T.self as? OptionalMarker.Type)?.wrappedType ?? T.self
    guard let actor = registration(for: Key(lookedUp, name: name))?.isolation else {
      return resolve(type, name: name, fileID: fileID, line: line)
    }
    return await Self.run(on: actor) {
      self.resolve(type, name: name, fileID: fileID, line: line)
    }
  }

  /// Runs `body` on `actor`; an `await` from anywhere else hops there first.
  static func run<Result: Sendable>(
    on actor: isolated any Actor, _ body: @Sendable () -> Result
  ) -> Result {
    body()
  }
}
