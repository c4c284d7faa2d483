import Foundation

/// Keeps widgets in a JSON file, creating its folder on the first save.
struct WidgetFileStore: WidgetStoreType {
  let file: URL

  var location: String { file.path }

  func load() throws -> [Widget] {
    guard FileManager.default.fileExists(atPath: file.path) else { return [] }
    do {
      return try Widget.decodeList(from: Data(contentsOf: file))
    } catch {
      throw StoreError(message: "cannot read \(file.path): \(error.localizedDescription)")
    }
  }

  func save(_ widgets: [Widget]) throws {
    do {
      let folder = file.deletingLastPathComponent()
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Widget.encodeList(widgets).write(to: file, options: .atomic)
    } catch {
      throw StoreError(message: "cannot write \(file.path): \(error.localizedDescription)")
    }
  }

  /// A store failure in one line, for the command line's error message.
  struct StoreError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
  }
}
