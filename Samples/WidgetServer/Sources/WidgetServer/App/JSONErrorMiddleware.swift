import Hummingbird

/// Turns every error a route throws into a JSON response: `{"error": {"message": "…"}}`.
///
/// Hummingbird's ``HTTPError`` with a message already answers so; this gives the same shape to
/// the others: an unknown route, an oversized body, and anything unexpected, which is logged
/// and answered with 500.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as HTTPError where error.body != nil {
      return try error.response(from: request, context: context)
    } catch let error as any HTTPResponseError {
      let answer = HTTPError(error.status, message: error.status.reasonPhrase)
      return try answer.response(from: request, context: context)
    } catch {
      context.logger.error("request failed: \(String(reflecting: error))")
      let answer = HTTPError(.internalServerError, message: "Internal Server Error")
      return try answer.response(from: request, context: context)
    }
  }
}
