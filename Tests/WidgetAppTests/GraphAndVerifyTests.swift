import Shank
import Testing

@testable import WidgetApp

@Suite("graph and verify")
struct GraphAndVerifyTests {
  @Test("graph prints the module graph as Mermaid")
  func graph() async {
    let run = await TestApp().run("graph")
    #expect(run.exitCode == 0)
    #expect(run.output.first == "flowchart LR")
    #expect(run.output.contains("  WidgetModuleType -->|app| AppModuleType"))
    #expect(run.output.contains("  WidgetModuleType_staging -->|app| AppModuleType"))
    #expect(!run.text.contains("AnalyticsModuleType"))
  }

  @Test("the graph shows the analytics module only when the flag adds it")
  func graphWithAnalytics() async {
    #expect(await TestApp().run("--analytics", "graph").text.contains("AnalyticsModuleType"))
  }

  @Test(
    "verify passes for the app as shipped, with every flag",
    arguments: [
      [], ["--mock"], ["--analytics"], ["--staging", "--mock", "--analytics"],
    ])
  func verify(flags: [String]) async {
    let run = await TestApp().run(arguments: ["verify"] + flags)
    #expect(run.exitCode == 0)
    #expect(run.output.first?.hasPrefix("Verified: ") == true)
  }

  @Test("verify reports a module whose @Inject nothing registers, and exits 1")
  func verifyFails() async {
    let run = await TestApp().run("verify") {
      Module { ReportsModule() as ReportsModuleType }
    }
    #expect(run.exitCode == 1)
    #expect(run.output.isEmpty)
    #expect(
      run.errors.first?.contains("ReportsModuleType needs PrinterModuleType in property") == true)
  }
}

/// A module that injects something the app never registers, for verify to catch.
protocol ReportsModuleType {}
protocol PrinterModuleType {}
struct ReportsModule: ReportsModuleType {
  @Inject private var printer: PrinterModuleType
}
