import GRDB
import Hummingbird

/// One widget: a row of the `widget` table, and the JSON the API answers with.
struct Widget: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord,
  ResponseCodable
{
  /// The row's id; `nil` until it is inserted.
  var id: Int64?
  /// What the widget is called; never empty.
  var name: String
  /// How many there are; never negative.
  var quantity: Int

  /// Takes the id SQLite gave the new row.
  mutating func didInsert(_ inserted: InsertionSuccess) {
    id = inserted.rowID
  }
}
