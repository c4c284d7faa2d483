import Hummingbird
import Logging

/// The widget API's rules, over a repository, for one request.
struct WidgetService {
  /// Where the widgets are: the database's repository.
  let repository: WidgetRepository
  /// The request's logger, with its id and caller.
  let logger: Logger
  /// Where creations and deletions are counted.
  let stats: ServerStats

  /// The most widgets one page holds.
  static let maximumPageSize = 100

  /// A page of up to `limit` widgets (1 to 100) after the id `id`.
  func list(after id: Int64, limit: Int) async throws -> WidgetList {
    let size = min(max(limit, 1), Self.maximumPageSize)
    let widgets = try await repository.list(after: id, limit: size)
    return WidgetList(widgets: widgets, next: widgets.count == size ? widgets.last?.id : nil)
  }

  /// The widget with `id`; a 404 when there is none.
  func widget(id: Int64) async throws -> Widget {
    guard let widget = try await repository.widget(id: id) else { throw Self.notFound(id) }
    return widget
  }

  /// Validates `draft` and adds it as a new widget.
  func create(_ draft: WidgetDraft) async throws -> Widget {
    let widget = try await repository.create(try draft.validated())
    stats.widgetCreated()
    logger.debug("created widget \(widget.id ?? 0)")
    return widget
  }

  /// Validates `draft` and replaces the widget with `id` by it; a 404 when there is none.
  func update(id: Int64, with draft: WidgetDraft) async throws -> Widget {
    guard let widget = try await repository.update(id: id, with: try draft.validated()) else {
      throw Self.notFound(id)
    }
    return widget
  }

  /// Deletes the widget with `id`; a 404 when there is none.
  func delete(id: Int64) async throws {
    guard try await repository.delete(id: id) else { throw Self.notFound(id) }
    stats.widgetDeleted()
    logger.debug("deleted widget \(id)")
  }

  private static func notFound(_ id: Int64) -> HTTPError {
    HTTPError(.notFound, message: "No widget has the id \(id).")
  }
}
