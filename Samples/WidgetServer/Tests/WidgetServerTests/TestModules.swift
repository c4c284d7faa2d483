import Shank

@testable import WidgetServer

/// The modules each test runs over: the server's, with the database in memory.
enum TestModules {
  /// The server's modules, then a database of the test's own in memory, which replaces the
  /// file the server would open. The `.dependencies` trait gives each test its own layer, so
  /// its own database: tests run in parallel without seeing each other's widgets.
  @ModuleBuilder
  static var modules: [Module] {
    AppDependencies.modules(database: .temporaryFolder)
    Module(scope: .singleton, eager: true, onClose: closeDatabase) {
      try DatabaseModule(location: .inMemory) as DatabaseModuleType
    }
  }

  private static let closeDatabase: @Sendable (DatabaseModuleType) async -> Void = {
    await $0.close()
  }
}
