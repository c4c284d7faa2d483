import Shank

// The app's module list as the "Shank in an app" article writes it, with its contexts.

protocol LogType {
  func log(_ line: String)
}

struct LiveCatalog: CatalogModuleType {
  func titles() -> [String] { ["Live"] }
}

struct PreviewCatalog: CatalogModuleType {
  func titles() -> [String] { ["Preview"] }
}

final class VerboseLog: LogType {
  func log(_ line: String) { print(line) }
}

enum AppDependencies {
  static var modules: [Module] {
    [
      Module { LiveCatalog() as CatalogModuleType },
      Module { PreviewCatalog() as CatalogModuleType }.when(.previews),
      Module { StubCatalog(stored: ["Stub"]) as CatalogModuleType }.when(
        .launchArgument("-stubCatalog")),
      Module(scope: .singleton) { VerboseLog() as LogType }.when(
        .debug, .environmentVariable("VERBOSE")),
    ]
  }
}
