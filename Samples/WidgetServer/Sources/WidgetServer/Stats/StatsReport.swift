import Hummingbird

/// `GET /stats`: the counters beside what the database holds.
///
/// The request asking is itself in an open scope, so `scopesOpened` is `scopesClosed + 1`
/// when no other request is in flight.
struct StatsReport: ResponseCodable, Equatable {
  var widgetsCreated: Int
  var widgetsDeleted: Int
  var widgetRows: Int
  var scopesOpened: Int
  var scopesClosed: Int
}
