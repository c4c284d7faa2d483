/// What `--help` prints.
enum HelpText {
  static let text = """
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
    """
}
