import Hummingbird

/// A page of widgets: `{"widgets": […], "next": 42}`; `next` is the `after` of the next page,
/// absent on the last.
struct WidgetList: ResponseCodable, Sendable {
  var widgets: [Widget]
  var next: Int64?
}
