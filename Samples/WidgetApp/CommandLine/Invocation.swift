import Foundation

/// A parsed command line: the command, and the flags that shape the composition root.
struct Invocation: Equatable {
  var command: Command = .list
  /// Whether a command was named; with none, the listing ends with a hint of the others.
  var namesCommand = false
  var storeFolder = Invocation.defaultStoreFolder
  var environment = Environment.production
  var usesMocks = false
  var tracksAnalytics = false
  /// Whether to print every resolution the run makes, from `Dependencies.observe`.
  var traces = false

  /// A folder that outlives the run, so `add` and then `list` show the new widget.
  static var defaultStoreFolder: URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("WidgetApp", isDirectory: true)
  }

  init() {}

  /// Reads flags anywhere on the line and one command with its argument.
  init(parsing arguments: [String]) throws(UsageError) {
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
      command = .help
      return
    }
    var words: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--staging": environment = .staging
      case "--mock": usesMocks = true
      case "--analytics": tracksAnalytics = true
      case "--trace": traces = true
      case "--store": storeFolder = try Self.folder(remaining.popFirst())
      case _ where argument.hasPrefix("--store="):
        storeFolder = try Self.folder(String(argument.dropFirst(8)))
      case _ where argument.hasPrefix("-") && argument.count > 1:
        throw UsageError(message: "unknown flag \(argument)")
      default: words.append(argument)
      }
    }
    if let name = words.first {
      command = try Self.command(name, arguments: Array(words.dropFirst()))
      namesCommand = true
    }
  }

  private static func folder(_ path: String?) throws(UsageError) -> URL {
    guard let path, !path.isEmpty, !path.hasPrefix("--") else {
      throw UsageError(message: "--store needs a folder, as in: --store ./widgets")
    }
    return URL(fileURLWithPath: path, isDirectory: true)
  }

  private static func command(_ name: String, arguments: [String]) throws(UsageError) -> Command {
    switch name {
    case "list":
      try none(arguments, after: name)
      return .list
    case "graph":
      try none(arguments, after: name)
      return .graph
    case "verify":
      try none(arguments, after: name)
      return .verify
    case "help": return .help
    case "show":
      return .show(
        id: try one(arguments, after: name, usage: "show needs a widget ID, as in: show w1"))
    case "add":
      return .add(
        name: try one(arguments, after: name, usage: "add needs a NAME, as in: add \"Blue gear\""))
    default: throw UsageError(message: "unknown command \"\(name)\"")
    }
  }

  private static func none(_ arguments: [String], after command: String) throws(UsageError) {
    if let extra = arguments.first {
      throw UsageError(message: "\(command) takes no argument, but got \"\(extra)\"")
    }
  }

  private static func one(_ arguments: [String], after command: String, usage: String)
    throws(UsageError) -> String
  {
    guard let value = arguments.first?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      throw UsageError(message: usage)
    }
    if arguments.count > 1 {
      throw UsageError(
        message:
          "\(command) takes one argument, but got \(arguments.count); quote a name with spaces")
    }
    // A line break would split the widget's line in every list after.
    if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      throw UsageError(message: "\(command) takes text on one line, without control characters")
    }
    return value
  }
}
