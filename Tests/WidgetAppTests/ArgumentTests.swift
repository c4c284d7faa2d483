import Testing

@testable import WidgetApp

@Suite("arguments")
struct ArgumentTests {
  @Test(
    "bad arguments give one line on stderr and exit code 2, never a trap",
    arguments: [
      ["frobnicate"], ["show"], ["add"], ["add", "  "], ["add", "a\nb"], ["show", "w1", "w2"],
      ["list", "extra"],
      ["--bogus"], ["--store"], ["-x", "list"],
    ])
  func badArguments(_ arguments: [String]) async {
    let run = await TestApp().run(arguments: arguments)
    #expect(run.exitCode == 2)
    #expect(run.output.isEmpty)
    #expect(run.errors.count == 1)
    #expect(run.errors.first?.hasPrefix("WidgetApp: ") == true)
    #expect(run.errors.first?.hasSuffix("(see WidgetApp --help)") == true)
  }

  @Test("the messages say what is wrong")
  func messages() async {
    #expect(
      await TestApp().run("frobnicate").errors == [
        #"WidgetApp: unknown command "frobnicate" (see WidgetApp --help)"#
      ])
    #expect(
      await TestApp().run("--bogus").errors == [
        "WidgetApp: unknown flag --bogus (see WidgetApp --help)"
      ])
    #expect(
      await TestApp().run("show").errors == [
        "WidgetApp: show needs a widget ID, as in: show w1 (see WidgetApp --help)"
      ])
    #expect(
      await TestApp().run("add", "a\nb").errors == [
        "WidgetApp: add takes text on one line, without control characters (see WidgetApp --help)"
      ])
  }

  @Test(
    "--help, -h and help print the commands and flags",
    arguments: [["--help"], ["-h"], ["help"], ["list", "--help"]])
  func help(_ arguments: [String]) async {
    let run = await TestApp().run(arguments: arguments)
    #expect(run.exitCode == 0)
    #expect(run.text == HelpText.text)
    #expect(
      run.text == """
        WidgetApp: a small widget catalog, wired with Shank.

        Usage: WidgetApp [flags] [command]

        Commands:
          list            List the catalog and your local widgets (the default)
          show ID         Show one widget
          add NAME        Add a widget to your local store
          graph           Print the module graph as Mermaid text
          verify          Check that every module's @Inject resolves

        Flags:
          --store FOLDER  Keep the JSON store in FOLDER (default: WidgetApp in the temporary folder, kept between runs)
          --staging       Use the "staging" widget module, registered under that name
          --analytics     Add the optional analytics module
          --mock          Swap in the mock store and remote
          --trace         Print every resolution the command made, as it happened
          -h, --help      Show this help
        """)
  }

  @Test("parsing reads flags anywhere, and --store both ways")
  func parsing() async throws {
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
  func defaults() async throws {
    let invocation = try Invocation(parsing: [])
    #expect(invocation.command == .list && !invocation.namesCommand)
    #expect(invocation.storeFolder == Invocation.defaultStoreFolder)
  }
}
