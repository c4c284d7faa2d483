import Hummingbird
import Shank

/// The routes under `/widgets`: list, get, create, update, delete.
///
/// Each handler resolves the widget module in the request's scope, which
/// ``RequestScopeMiddleware`` opened around it.
struct WidgetController<Context: RequestContext> {
  /// Adds the widget routes to `group`, the `/widgets` group.
  func addRoutes(to group: RouterGroup<Context>) {
    group
      .get(use: list)
      .get(":id", use: get)
      .post(use: create)
      .put(":id", use: update)
      .delete(":id", use: delete)
  }

  /// `GET /widgets?after=0&limit=50`
  @Sendable func list(_ request: Request, context: Context) async throws -> WidgetList {
    let after = request.uri.queryParameters.get("after", as: Int64.self) ?? 0
    let limit = request.uri.queryParameters.get("limit", as: Int.self) ?? 50
    return try await service().list(after: after, limit: limit)
  }

  /// `GET /widgets/{id}`
  @Sendable func get(_ request: Request, context: Context) async throws -> Widget {
    try await service().widget(id: context.parameters.require("id", as: Int64.self))
  }

  /// `POST /widgets` with `{"name": …, "quantity": …}`: 201 and the widget.
  @Sendable func create(_ request: Request, context: Context) async throws
    -> EditedResponse<Widget>
  {
    let draft = try await request.decode(as: WidgetDraft.self, context: context)
    return EditedResponse(status: .created, response: try await service().create(draft))
  }

  /// `PUT /widgets/{id}` with `{"name": …, "quantity": …}`.
  @Sendable func update(_ request: Request, context: Context) async throws -> Widget {
    let id = try context.parameters.require("id", as: Int64.self)
    let draft = try await request.decode(as: WidgetDraft.self, context: context)
    return try await service().update(id: id, with: draft)
  }

  /// `DELETE /widgets/{id}`: 204.
  @Sendable func delete(_ request: Request, context: Context) async throws -> HTTPResponse.Status {
    try await service().delete(id: context.parameters.require("id", as: Int64.self))
    return .noContent
  }

  /// The request's widget service, from its scope.
  private func service() -> WidgetService {
    Dependencies.resolve(WidgetModuleType.self).component()
  }
}
