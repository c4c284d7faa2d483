import Foundation
import Shank
import Testing

@testable import WidgetApp

@Suite("list")
struct ListCommandTests {
  @Test("with no arguments, lists the catalog and hints at the other commands")
  func noArguments() async {
    let run = await TestApp().run()
    #expect(run.exitCode == 0)
    #expect(
      run.output == [
        "Widgets (production)",
        "  w1  Gear",
        "  w2  Sprocket",
        "  w3  Flywheel",
        "",
        "Try `swift run WidgetApp show w1`, or: add NAME · graph · verify · --help",
      ])
    #expect(run.errors.isEmpty)
  }

  @Test("named, it lists without the hint")
  func named() async {
    let run = await TestApp().run("list")
    #expect(run.exitCode == 0)
    #expect(run.output.last == "  w3  Flywheel")
  }

  @Test("shows the remote's catalog and the store's widgets, both swapped for mocks")
  func mockedStoreAndRemote() async {
    let store = MockWidgetStore(widgets: [Widget(id: "w5", name: "Saved", added: Date())])
    let remote = MockWidgetRemote(widgets: [Widget(id: "w1", name: "Served")])
    let run = await TestApp().run("list") {
      Module { MockWidgetModule(store: store, remote: remote) as WidgetModuleType }
    }
    #expect(run.output == ["Widgets (production)", "  w1  Served", "  w5  Saved (added)"])
  }

  @Test("a catalog the server does not serve is a one-line error")
  func remoteFails() async {
    let run = await TestApp().run("list") {
      // Swap the client the shared AppModule holds; the real WidgetModule fetches through it.
      Module(scope: .singleton) {
        AppModule(
          configuration: AppConfiguration(storeFolder: Invocation.defaultStoreFolder),
          client: LocalHTTPClient(routes: [:])) as AppModuleType
      }
    }
    #expect(run.exitCode == 1)
    #expect(run.errors == ["WidgetApp: GET /api/widgets failed: 404 Not Found"])
  }
}
