import Logging

/// What one request's code shares: its id, its logger, and who called.
protocol RequestModuleType: Sendable {
  /// The request's id, also sent back as the `x-request-id` header.
  var id: String { get }
  /// A logger whose metadata carries the request's id and caller.
  var logger: Logger { get }
  /// Who sent the request: the peer's address, or `unknown`.
  var caller: String { get }
  /// Ends the request: its scope is closing.
  func finish()
}

/// One request's module, made by ``RequestScopeMiddleware`` and kept as a singleton of the
/// request's scope, so that everything resolved in the request shares it.
struct RequestModule: RequestModuleType {
  let id: String
  let logger: Logger
  let caller: String
  /// Where the closing of the scope is counted.
  let stats: ServerStats

  init(id: String, caller: String, logger: Logger, stats: ServerStats) {
    self.id = id
    self.caller = caller
    var logger = logger
    logger[metadataKey: "request.id"] = "\(id)"
    logger[metadataKey: "caller"] = "\(caller)"
    self.logger = logger
    self.stats = stats
  }

  func finish() {
    stats.scopeClosed()
  }
}
