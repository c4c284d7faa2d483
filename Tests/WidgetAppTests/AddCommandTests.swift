import Foundation
import Shank
import Testing

@testable import WidgetApp

@Suite("add")
struct AddCommandTests {
  @Test("writes a real JSON file, and list then shows the widget")
  func addThenList() async throws {
    let app = TestApp()
    let added = await app.run("add", "Blue gear")
    let file = app.folder.appendingPathComponent("widgets.json")
    #expect(added.exitCode == 0)
    #expect(added.output == [#"Added w4 "Blue gear" to \#(file.path)"#])

    let saved = try Widget.decodeList(from: Data(contentsOf: file))
    #expect(saved.map(\.name) == ["Blue gear"])
    #expect(await app.run("list").output.last == "  w4  Blue gear (added)")
  }

  @Test("records the time from the app module's clock")
  func usesTheSharedClock() async {
    let app = TestApp()
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let store = MockWidgetStore()
    await app.run("add", "Dated") {
      Module(scope: .singleton) {
        AppModule(
          configuration: AppConfiguration(storeFolder: app.folder), clock: FixedClock(date: date))
          as AppModuleType
      }
      Module { MockWidgetModule(store: store) as WidgetModuleType }
    }
    #expect(store.widgets == [Widget(id: "w3", name: "Dated", added: date)])
  }

  @Test("IDs keep counting after the highest one")
  func nextID() async {
    let app = TestApp()
    await app.run("add", "One")
    let second = await app.run("add", "Two")
    #expect(second.output.first?.hasPrefix(#"Added w5 "Two""#) == true)
  }
}
