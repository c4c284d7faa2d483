import Foundation

/// Where the SQLite database lives.
enum DatabaseLocation: Sendable, Equatable {
  /// A file at this path, made when missing.
  case file(String)
  /// A new file in a new temporary folder: the default of `swift run WidgetServer`.
  case temporaryFolder
  /// In memory, gone with the process: each test's own.
  case inMemory

  /// The path of the file, making the temporary folder; `nil` in memory.
  func resolvedPath() throws -> String? {
    switch self {
    case .file(let path):
      return path
    case .temporaryFolder:
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("WidgetServer-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      return folder.appendingPathComponent("widgets.sqlite").path
    case .inMemory:
      return nil
    }
  }
}
