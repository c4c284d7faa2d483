import ArgumentParser
import Hummingbird

/// `swift run WidgetServer`: serves the widget API until SIGTERM or SIGINT.
@main
struct WidgetServerCommand: AsyncParsableCommand, AppArguments {
  static let configuration = CommandConfiguration(
    commandName: "WidgetServer",
    abstract: "A JSON API for widgets over SQLite, wired with Shank.")

  @Option(name: .long, help: "The address to listen on.")
  var hostname = "127.0.0.1"

  @Option(name: .long, help: "The port to listen on.")
  var port = 8080

  @Option(name: .long, help: "The SQLite file; a new one in a temporary folder when left out.")
  var database: String?

  /// Where the database lives, as the options say.
  var databaseLocation: DatabaseLocation {
    database.map(DatabaseLocation.file) ?? .temporaryFolder
  }

  func run() async throws {
    let app = try await buildApplication(self)
    try await app.runService()
  }
}
