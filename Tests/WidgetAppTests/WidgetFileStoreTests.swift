import Foundation
import Testing

@testable import WidgetApp

@Suite("WidgetFileStore")
struct WidgetFileStoreTests {
  let app = TestApp()
  var file: URL { app.folder.appendingPathComponent("widgets.json") }

  @Test("a store with no file yet is empty")
  func empty() throws {
    #expect(try WidgetFileStore(file: file).load().isEmpty)
  }

  @Test("what it saves, it loads, dates included")
  func roundTrip() throws {
    let store = WidgetFileStore(file: file)
    let widgets = [
      Widget(id: "w4", name: "Blue gear", added: Date(timeIntervalSince1970: 1_700_000_000))
    ]
    try store.save(widgets)
    #expect(try store.load() == widgets)
  }

  @Test("a damaged file is a one-line error from the command line, not a trap")
  func damaged() async throws {
    try FileManager.default.createDirectory(at: app.folder, withIntermediateDirectories: true)
    try Data("not json".utf8).write(to: file)
    let run = await app.run("list")
    #expect(run.exitCode == 1)
    #expect(run.errors.count == 1)
    #expect(run.errors.first?.hasPrefix("WidgetApp: cannot read \(file.path)") == true)
  }
}
