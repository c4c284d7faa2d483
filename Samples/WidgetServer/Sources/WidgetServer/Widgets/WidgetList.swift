import Hummingbird

/// A page of widgets: `{"widgets": […], "next": 42}`; `next` is the `after` of the next page,
/// absent on the last.
struct WidgetList: ResponseCodable, Sendable {
  /// The page's widgets, by id.
  var widgets: [Widget]
  /// The `after` of the next page; `nil` on the last.
  var next: Int64?
}
