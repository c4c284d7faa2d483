import Shank

/// Answers `GET /stats` from the process's counters and the database.
struct StatsController {
  @Inject private var stats: StatsModuleType
  @Inject private var database: DatabaseModuleType

  /// The counters, read before the rows are counted.
  func stats() async throws -> StatsReport {
    let counters = stats.component()
    // Read the counters first: a widget created in between is then a row without a count,
    // never a count without a row.
    let created = counters.widgetsCreated
    let deleted = counters.widgetsDeleted
    let closed = counters.scopesClosed
    let opened = counters.scopesOpened
    return StatsReport(
      widgetsCreated: created, widgetsDeleted: deleted,
      widgetRows: try await database.component().count(), scopesOpened: opened,
      scopesClosed: closed)
  }
}
