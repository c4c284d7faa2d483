import Foundation
import Shank
import Testing

@testable import WidgetApp

@Suite("show")
struct ShowCommandTests {
  @Test("shows a catalog widget")
  func catalogWidget() async {
    let run = await TestApp().run("show", "w2")
    #expect(run.exitCode == 0)
    #expect(run.output == ["w2  Sprocket", "    from the production catalog"])
  }

  @Test("a missing ID is a one-line error and exit code 1")
  func missing() async {
    let run = await TestApp().run("show", "w99")
    #expect(run.exitCode == 1)
    #expect(run.output.isEmpty)
    #expect(run.errors == [#"WidgetApp: no widget with ID "w99" (see WidgetApp list)"#])
  }

  @Test("shows a stored widget with the date the store recorded")
  func storedWidget() async {
    let added = Date(timeIntervalSince1970: 1_700_000_000)
    let store = MockWidgetStore(widgets: [Widget(id: "w4", name: "Blue gear", added: added)])
    let run = await TestApp().run("show", "w4") {
      Module {
        MockWidgetModule(store: store, remote: MockWidgetRemote(widgets: [])) as WidgetModuleType
      }
    }
    #expect(
      run.output == [
        "w4  Blue gear", "    added 2023-11-14T22:13:20Z, kept in memory (--mock keeps nothing)",
      ])
  }
}
