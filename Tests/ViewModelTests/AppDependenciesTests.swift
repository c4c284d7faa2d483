import Shank
import Testing

/// The article's module list: what a `swift test` run of a debug build registers.
@Suite struct AppDependenciesTests {
  @Test func aTestRunOfADebugBuildRegistersTheLiveCatalogAndTheVerboseLog() throws {
    let dependencies = Dependencies { AppDependencies.modules }
    try dependencies.verify()
    #expect((dependencies.resolve() as CatalogModuleType).titles() == ["Live"])
    #if DEBUG
      #expect(dependencies.graph().nodes.map(\.typeName) == ["CatalogModuleType", "LogType"])
    #else
      #expect(dependencies.graph().nodes.map(\.typeName) == ["CatalogModuleType"])
    #endif
  }
}
