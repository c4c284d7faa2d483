import Hummingbird
import Logging

/// The widget API's rules, over a repository, for one request.
struct WidgetService {
  let repository: WidgetRepository
  /// The request's logger, with its id and caller.
  let logger: Logger
  let stats: ServerStats

  /// The most widgets one page holds.
  static let maximumPageSize = 100

  func list(after id: Int64, limit: Int) async throws -> WidgetList {
    let size = min(max(limit, 1), Self.maximumPageSize)
    let widgets = try await repository.list(after: id, limit: size)
    return WidgetList(widgets: widgets, next: widgets.count == size ? widgets.last?.id : nil)
  }

  func widget(id: Int64) async throws -> Widget {
    guard let widget = try await repository.widget(id: id) else { throw Self.notFound(id) }
    return widget
  }

  func create(_ draft: WidgetDraft) async throws -> Widget {
    let widget = try await repository.create(try draft.validated())
    stats.widgetCreated()
    logger.debug("created widget \(widget.id ?? 0)")
    return widget
  }

  func update(id: Int64, with draft: WidgetDraft) async throws -> Widget {
    guard let widget = try await repository.update(id: id, with: try draft.validated()) else {
      throw Self.notFound(id)
    }
    return widget
  }

  func delete(id: Int64) async throws {
    guard try await repository.delete(id: id) else { throw Self.notFound(id) }
    stats.widgetDeleted()
    logger.debug("deleted widget \(id)")
  }

  private static func notFound(_ id: Int64) -> HTTPError {
    HTTPError(.notFound, message: "No widget has the id \(id).")
  }
}
