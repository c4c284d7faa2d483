import Testing

@testable import WidgetApp

@Suite("arguments")
struct ArgumentTests {
  @Test(
    "bad arguments give one line on stderr and exit code 2, never a trap",
    arguments: [
      ["frobnicate"], ["show"], ["add"], ["add", "  "], ["show", "w1", "w2"], ["list", "extra"],
      ["--bogus"], ["--store"], ["-x", "list"],
    ])
  func badArguments(_ arguments: [String]) {
    let run = TestApp().run(arguments: arguments)
    #expect(run.exitCode == 2)
    #expect(run.output.isEmpty)
    #expect(run.errors.count == 1)
    #expect(run.errors.first?.hasPrefix("WidgetApp: ") == true)
    #expect(run.errors.first?.hasSuffix("(see WidgetApp --help)") == true)
  }

  @Test("the messages say what is wrong")
  func messages() {
    #expect(
      TestApp().run("frobnicate").errors == [
        #"WidgetApp: unknown command "frobnicate" (see WidgetApp --help)"#
      ])
    #expect(
      TestApp().run("--bogus").errors == ["WidgetApp: unknown flag --bogus (see WidgetApp --help)"])
    #expect(
      TestApp().run("show").errors == [
        "WidgetApp: show needs a widget ID, as in: show w1 (see WidgetApp --help)"
      ])
  }

  @Test(
    "--help, -h and help print the commands and flags",
    arguments: [["--help"], ["-h"], ["help"], ["list", "--help"]])
  func help(_ arguments: [String]) {
    let run = TestApp().run(arguments: arguments)
    #expect(run.exitCode == 0)
    #expect(run.text == HelpText.text)
    for word in [
      "list", "show ID", "add NAME", "graph", "verify", "--store PATH", "--staging", "--analytics",
      "--mock",
    ] {
      #expect(run.text.contains(word))
    }
  }

  @Test("parsing reads flags anywhere, and --store both ways")
  func parsing() throws {
    let invocation = try Invocation(parsing: [
      "--mock", "add", "Blue gear", "--store=/tmp/x", "--staging",
    ])
    #expect(invocation.command == .add(name: "Blue gear"))
    #expect(invocation.namesCommand)
    #expect(invocation.usesMocks && !invocation.tracksAnalytics)
    #expect(invocation.environment == .staging)
    #expect(invocation.storeFolder.path == "/tmp/x")
    #expect(try Invocation(parsing: ["--store", "/tmp/y"]).storeFolder.path == "/tmp/y")
  }

  @Test("no arguments means list, with the default store folder")
  func defaults() throws {
    let invocation = try Invocation(parsing: [])
    #expect(invocation.command == .list && !invocation.namesCommand)
    #expect(invocation.storeFolder == Invocation.defaultStoreFolder)
  }
}
