import Foundation
import Shank
import Testing

@testable import WidgetApp

@Suite("flags")
struct FlagTests {
  @Test("--mock swaps in the mock widget module: canned catalog, nothing written")
  func mock() {
    let app = TestApp()
    #expect(
      app.run("--mock", "list").output == [
        "Widgets (production, mock)", "  m1  Mock gear", "  m2  Mock sprocket",
      ])
    #expect(app.run("add", "Kept nowhere", "--mock").exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: app.folder.path))
  }

  @Test("--staging selects the module registered as \"staging\", with its own catalog and store")
  func staging() {
    let app = TestApp()
    #expect(app.run("--staging", "list").output.last == "  w9  Prototype lever (beta)")
    #expect(
      app.run("--staging", "add", "Trial").output.first?.hasPrefix(#"Added w10 "Trial""#) == true)
    #expect(
      FileManager.default.fileExists(
        atPath: app.folder.appendingPathComponent("widgets-staging.json").path))
    #expect(app.run("list").output.last == "  w3  Flywheel")
  }

  @Test("--analytics adds the optional module, which the command then finds")
  func analytics() {
    let app = TestApp()
    #expect(app.run("--analytics", "show", "w1").output.last == "analytics: widget_shown")
    #expect(app.run("--analytics", "add", "Tracked").output.last == "analytics: widget_added")
  }

  @Test("without --analytics the optional @Inject reads nil, and nothing is tracked")
  func noAnalytics() {
    let run = TestApp().run("show", "w1")
    #expect(run.exitCode == 0)
    #expect(!run.text.contains("analytics"))
  }

  @Test("flags combine and may come after the command")
  func combined() {
    let run = TestApp().run("list", "--staging", "--mock", "--analytics")
    #expect(
      run.output == [
        "Widgets (staging, mock)", "  m1  Mock gear", "  m2  Mock sprocket",
        "analytics: widgets_listed",
      ])
  }
}
