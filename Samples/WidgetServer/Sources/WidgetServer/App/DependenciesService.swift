import Logging
import ServiceLifecycle
import Shank

/// Closes the container the server resolves from once the server has stopped.
///
/// Hummingbird runs the services it is given before its own HTTP server and, on SIGTERM or
/// SIGINT, stops them in reverse: the server first, waiting for the requests in flight, then
/// this service, which closes ``Dependencies/current`` so that the `onClose` handlers run (the
/// database's closes it).
struct DependenciesService: Service {
  /// Where to say that the container closed.
  let logger: Logger

  func run() async throws {
    // Waits until graceful shutdown is triggered; a cancelled wait ends the same way.
    try? await gracefulShutdown()
    await Dependencies.current.close()
    logger.info("dependencies closed")
  }
}
