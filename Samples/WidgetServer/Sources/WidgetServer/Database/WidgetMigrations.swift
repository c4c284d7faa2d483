import GRDB

/// The database's schema, one migration at a time.
enum WidgetMigrations {
  /// Every migration, in order; GRDB runs those a database has not run yet.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: widgets") { db in
      try db.create(table: "widget") { table in
        table.autoIncrementedPrimaryKey("id")
        table.column("name", .text).notNull()
        table.column("quantity", .integer).notNull()
      }
    }
    return migrator
  }
}
