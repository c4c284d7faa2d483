import Foundation

/// Where the app writes: the terminal in the app, a buffer in tests.
protocol Console {
  /// Writes a line of regular output.
  func print(_ line: String)
  /// Writes a line of error output.
  func printError(_ line: String)
}

/// The terminal: standard output and standard error.
struct StandardConsole: Console {
  func print(_ line: String) {
    Swift.print(line)
  }

  func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
