import Foundation

/// One widget: from the catalog, or added locally (then it has an `added` date).
struct Widget: Codable, Equatable {
  let id: String
  let name: String
  var added: Date?

  /// Reads a JSON array of widgets, as the store and the remote both keep them.
  static func decodeList(from data: Data) throws -> [Widget] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode([Widget].self, from: data)
  }

  /// Writes widgets as a readable JSON array.
  static func encodeList(_ widgets: [Widget]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(widgets)
  }
}
