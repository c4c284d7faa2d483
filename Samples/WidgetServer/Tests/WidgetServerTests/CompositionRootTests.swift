import Foundation
import Shank
import ShankTesting
import Testing

@testable import WidgetServer

/// The composition root as the server builds it.
struct CompositionRootTests {
  /// Every module of the process and of a request's scope can be made, and what each injects
  /// is registered.
  @Test func theRootAndARequestScopeVerify() throws {
    let root = Dependencies { TestModules.modules }
    let request = RequestModule(
      id: "r", caller: "test", logger: .init(label: "test"), stats: .init())
    let scope = Dependencies(over: root) { AppDependencies.requestModules(request) }
    try scope.verify()
  }

  /// `start()` opens and migrates the database before the server serves; closing the root
  /// closes it: SQLite removes the write-ahead log when the last connection closes.
  @Test func startMigratesTheDatabaseAndCloseClosesIt() async throws {
    let path = try #require(try DatabaseLocation.temporaryFolder.resolvedPath())
    let root = Dependencies { AppDependencies.modules(database: .file(path)) }
    let report = try await root.start()
    #expect(report.entries.map(\.key) == ["DatabaseModuleType"])
    let database = try root.resolveOrThrow(DatabaseModuleType.self)
    _ = try await database.component().create(WidgetDraft(name: "Gear", quantity: 1))
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    await root.close()
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    let reopened = try DatabaseModule(location: .file(path))
    #expect(try await reopened.component().count() == 1)
    await reopened.close()
  }

  /// A file database keeps its widgets from one process to the next.
  @Test func aFileDatabaseKeepsItsWidgets() async throws {
    let path = try #require(try DatabaseLocation.temporaryFolder.resolvedPath())
    let first = try DatabaseModule(location: .file(path))
    _ = try await first.component().create(WidgetDraft(name: "Gear", quantity: 1))
    await first.close()
    let second = try DatabaseModule(location: .file(path))
    #expect(try await second.component().count() == 1)
    await second.close()
  }
}
