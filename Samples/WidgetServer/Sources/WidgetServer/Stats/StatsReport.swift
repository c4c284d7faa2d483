import Hummingbird

/// `GET /stats`: the counters beside what the database holds.
///
/// The request asking is itself in an open scope, so `scopesOpened` is `scopesClosed + 1`
/// when no other request is in flight.
struct StatsReport: ResponseCodable, Equatable {
  /// Widgets the server created.
  var widgetsCreated: Int
  /// Widgets the server deleted.
  var widgetsDeleted: Int
  /// Rows of the `widget` table.
  var widgetRows: Int
  /// Request scopes opened, this request's included.
  var scopesOpened: Int
  /// Request scopes closed.
  var scopesClosed: Int
}
