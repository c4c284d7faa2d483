import HTTPTypes
import Hummingbird
import Shank

/// Runs every request in a scope of its own: a child container with the request's module,
/// closed, and its `onClose` handlers awaited, when the response is ready.
struct RequestScopeMiddleware<Context: RequestContext & RemoteAddressRequestContext>:
  RouterMiddleware
{
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let stats = Dependencies.resolve(StatsModuleType.self).component()
    let module = RequestModule(
      id: context.id, caller: context.remoteAddress?.description ?? "unknown",
      logger: context.logger, stats: stats)
    stats.scopeOpened()
    return try await Dependencies.withScope {
      AppDependencies.requestModules(module)
    } operation: {
      let scope = Dependencies.resolve(RequestModuleType.self)
      var response = try await next(request, context)
      response.headers[Self.requestID] = scope.id
      return response
    }
  }

  /// The header that carries the request's id back.
  private static var requestID: HTTPField.Name { HTTPField.Name("x-request-id")! }
}
