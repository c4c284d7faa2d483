import Foundation
import Shank
import Testing

@testable import WidgetApp

@Suite("flags")
struct FlagTests {
  @Test("--mock swaps in the mock widget module: canned catalog, nothing written")
  func mock() async {
    let app = TestApp()
    #expect(
      await app.run("--mock", "list").output == [
        "Widgets (production, mock)", "  m1  Mock gear", "  m2  Mock sprocket",
      ])
    #expect(await app.run("add", "Kept nowhere", "--mock").exitCode == 0)
    #expect(!FileManager.default.fileExists(atPath: app.folder.path))
  }

  @Test("--staging selects the module registered as \"staging\", with its own catalog and store")
  func staging() async {
    let app = TestApp()
    #expect(await app.run("--staging", "list").output.last == "  w9  Prototype lever (beta)")
    #expect(
      await app.run("--staging", "add", "Trial").output.first?.hasPrefix(#"Added w10 "Trial""#)
        == true)
    #expect(
      FileManager.default.fileExists(
        atPath: app.folder.appendingPathComponent("widgets-staging.json").path))
    #expect(await app.run("list").output.last == "  w3  Flywheel")
  }

  @Test("--analytics adds the optional module, which the command then finds")
  func analytics() async {
    let app = TestApp()
    #expect(await app.run("--analytics", "show", "w1").output.last == "analytics: widget_shown")
    #expect(await app.run("--analytics", "add", "Tracked").output.last == "analytics: widget_added")
  }

  @Test("the analytics batch is sent by its onClose, when the run's container closes")
  func analyticsSentOnClose() async throws {
    let console = RecordingConsole()
    let invocation = try Invocation(parsing: ["--analytics", "list"])
    let container = Dependencies { CompositionRoot.modules(for: invocation, console: console) }
    let tracker = container.resolve(AnalyticsModuleType.self).component()
    tracker.track("first")
    tracker.track("second")
    #expect(console.output.isEmpty)
    await container.close()
    #expect(console.output == ["analytics: first, second"])
  }

  @Test("--trace prints the resolutions the command made, after its output")
  func trace() async {
    let run = await TestApp().run("--trace", "show", "w1")
    #expect(run.exitCode == 0)
    #expect(run.output.first == "w1  Gear")
    // Observers see every thread: tests running in parallel may add lines of their own.
    let traced = run.output.filter { $0.hasPrefix("trace: ") }
    #expect(
      traced.contains {
        $0.hasPrefix("trace: WidgetModuleType (.unique) made in ")
          && $0.hasSuffix(" depth 0, at WidgetApp/CommandRunner.swift:39")
      })
    #expect(
      traced.contains {
        $0.hasPrefix("trace: AppModuleType (.singleton) made in ")
          && $0.contains(" at WidgetApp/WidgetModule.swift:")
      })
    #expect(await TestApp().run("show", "w1").output.allSatisfy { !$0.hasPrefix("trace: ") })
  }

  @Test("without --analytics the optional @Inject reads nil, and nothing is tracked")
  func noAnalytics() async {
    let run = await TestApp().run("show", "w1")
    #expect(run.exitCode == 0)
    #expect(!run.text.contains("analytics"))
  }

  @Test("flags combine and may come after the command")
  func combined() async {
    let run = await TestApp().run("list", "--staging", "--mock", "--analytics")
    #expect(
      run.output == [
        "Widgets (staging, mock)", "  m1  Mock gear", "  m2  Mock sprocket",
        "analytics: widgets_listed",
      ])
  }
}
