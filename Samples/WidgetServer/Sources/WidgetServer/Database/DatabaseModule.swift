import GRDB

/// The database: one per process, opened and migrated at launch, closed at shutdown.
protocol DatabaseModuleType: Sendable {
  /// The widgets, as rows of the database.
  func component() -> WidgetRepository
  /// Where the database is, for the log: a path, or `:memory:`.
  var path: String { get }
  /// Closes the database; what was written is on disk.
  func close() async
}

/// A SQLite database through GRDB: a `DatabasePool` on a file (WAL: reads run side by side,
/// writes one at a time), or a `DatabaseQueue` in memory for tests.
struct DatabaseModule: DatabaseModuleType {
  private let writer: any DatabaseWriter
  let path: String

  /// Opens the database at `location` and migrates it to the current schema.
  init(location: DatabaseLocation) throws {
    if let path = try location.resolvedPath() {
      var configuration = Configuration()
      configuration.label = "widgets"
      writer = try DatabasePool(path: path, configuration: configuration)
      self.path = path
    } else {
      writer = try DatabaseQueue()
      path = ":memory:"
    }
    try WidgetMigrations.migrator.migrate(writer)
  }

  func component() -> WidgetRepository { SQLiteWidgetRepository(writer: writer) }

  func close() async {
    // Waits for the statements in flight, then closes every connection.
    try? await writer.barrierWriteWithoutTransaction { _ in }
    try? writer.close()
  }
}
