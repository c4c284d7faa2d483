/// Where widgets are kept.
protocol WidgetRepository: Sendable {
  /// Up to `limit` widgets whose id is above `id`, by id.
  func list(after id: Int64, limit: Int) async throws -> [Widget]
  /// The widget with `id`, or `nil`.
  func widget(id: Int64) async throws -> Widget?
  /// Adds a widget and returns it with its new id.
  func create(_ draft: WidgetDraft) async throws -> Widget
  /// Replaces the widget with `id`; `nil` when there is none.
  func update(id: Int64, with draft: WidgetDraft) async throws -> Widget?
  /// Deletes the widget with `id`; whether there was one.
  func delete(id: Int64) async throws -> Bool
  /// How many widgets there are.
  func count() async throws -> Int
}
