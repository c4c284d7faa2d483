import GRDB

/// The widgets in SQLite. GRDB's async methods suspend the request's task while a connection of
/// its own runs the statement, so no NIO thread waits on the disk.
struct SQLiteWidgetRepository: WidgetRepository {
  let writer: any DatabaseWriter

  func list(after id: Int64, limit: Int) async throws -> [Widget] {
    try await writer.read { db in
      try Widget.filter(Column("id") > id).order(Column("id")).limit(limit).fetchAll(db)
    }
  }

  func widget(id: Int64) async throws -> Widget? {
    try await writer.read { db in try Widget.fetchOne(db, key: id) }
  }

  func create(_ draft: WidgetDraft) async throws -> Widget {
    try await writer.write { db in
      try Widget(id: nil, name: draft.name, quantity: draft.quantity).inserted(db)
    }
  }

  func update(id: Int64, with draft: WidgetDraft) async throws -> Widget? {
    try await writer.write { db in
      let widget = Widget(id: id, name: draft.name, quantity: draft.quantity)
      guard try Widget.exists(db, key: id) else { return nil }
      try widget.update(db)
      return widget
    }
  }

  func delete(id: Int64) async throws -> Bool {
    try await writer.write { db in try Widget.deleteOne(db, key: id) }
  }

  func count() async throws -> Int {
    try await writer.read { db in try Widget.fetchCount(db) }
  }
}
