import Shank

/// The server's composition root: every module the process shares, and those of one request.
///
/// Its functions are nonisolated, as a server's launch code is, so each factory runs on the
/// NIO thread or task that resolves it. Registered from the top-level code of `main.swift`
/// instead, every factory would be bound to the main actor and a request thread resolving one
/// would stop the program: that is why the root is a type of its own, as it is in an app.
enum AppDependencies {
  /// The process's modules, over the database at `database`.
  ///
  /// The database is a singleton made eagerly, by ``Dependencies/start(fileID:line:)`` before
  /// the server accepts connections, which migrates it; the container's `close()` at shutdown
  /// closes it.
  @ModuleBuilder
  static func modules(database: DatabaseLocation) -> [Module] {
    Module(scope: .singleton, eager: true, onClose: closeDatabase) {
      try DatabaseModule(location: database) as DatabaseModuleType
    }
    Module(scope: .singleton) { StatsModule() as StatsModuleType }
    // Unique: made in each request's scope, so it injects that request's module.
    Module { WidgetModule() as WidgetModuleType }
  }

  /// The modules of one request's scope, which ``RequestScopeMiddleware`` opens and closes.
  @ModuleBuilder
  static func requestModules(_ request: RequestModule) -> [Module] {
    Module(scope: .singleton, onClose: closeRequest) { request as RequestModuleType }
  }

  /// Closes the database once the server has stopped, when the root closes.
  private static let closeDatabase: @Sendable (DatabaseModuleType) async -> Void = {
    await $0.close()
  }

  /// Ends a request: counts its scope closed.
  private static let closeRequest: @Sendable (RequestModuleType) async -> Void = {
    $0.finish()
  }
}
