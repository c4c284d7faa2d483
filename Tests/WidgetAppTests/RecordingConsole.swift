@testable import WidgetApp

/// Keeps what the app prints, for the test to read.
final class RecordingConsole: Console {
  private(set) var output: [String] = []
  private(set) var errors: [String] = []

  func print(_ line: String) {
    output += line.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  func printError(_ line: String) {
    errors.append(line)
  }
}
