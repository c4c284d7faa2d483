import Hummingbird
import Logging
import Shank

/// Builds the server for `arguments`: registers its modules as the root, then the application.
///
/// This is where a Hummingbird app sets itself up, so it is where the modules are registered.
/// The function is nonisolated, and so are the modules it registers.
func buildApplication(_ arguments: some AppArguments) async throws -> some ApplicationProtocol {
  Dependencies { AppDependencies.modules(database: arguments.databaseLocation) }.build()
  return buildApplication(hostname: arguments.hostname, port: arguments.port)
}

/// Builds the application over ``Dependencies/current``: the root when the server runs, a
/// test's overrides in a test.
///
/// Before the server accepts connections, it starts the current container, which makes the
/// eager modules (the database, migrated); after the server has stopped, the
/// ``DependenciesService`` closes it.
func buildApplication(hostname: String = "127.0.0.1", port: Int = 8080)
  -> some ApplicationProtocol
{
  let logger = Logger(label: "WidgetServer")
  let router = Router(context: WidgetRequestContext.self)
  // Outermost first: every request runs in its scope, and every error it throws inside
  // becomes a JSON response there, with the request's id.
  router.add(middleware: RequestScopeMiddleware())
  router.add(middleware: JSONErrorMiddleware())
  WidgetController().addRoutes(to: router.group("widgets"))
  router.get("stats") { _, _ in try await StatsController().stats() }
  var app = Application(
    router: router,
    configuration: .init(address: .hostname(hostname, port: port), serverName: "WidgetServer"),
    logger: logger)
  app.beforeServerStarts {
    let report = try await Dependencies.current.start()
    let database = Dependencies.resolve(DatabaseModuleType.self)
    logger.info("database at \(database.path)\n\(report)")
  }
  app.addServices(DependenciesService(logger: logger))
  return app
}
