import Shank
import Testing

/// `verify()` of modules registered from main-actor code, as an app target with default
/// main-actor isolation registers every module.
@Suite struct MainActorVerificationTests {
  @Test func verifyOnTheMainActorMakesMainActorModulesAndChecksConsumers() throws {
    try Dependencies { appModules(analytics: false) }.verify(consumers: WidgetViewController())
  }

  @Test func aMainActorFactoryThatResolvesAMissingKeyIsAProblemNotAStoppedProgram() throws {
    let dependencies = Dependencies {
      appModules(analytics: false)
      Module { ReportModule(analytics: Dependencies.resolve()) as ReportModule }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(error.problems.count == 1)
    #expect(
      error.problems.first?.description.hasPrefix(
        "ReportModule could not be made: Shank cannot resolve AnalyticsModuleType; asked for at MainActorTests/VerificationTests.swift:14"
      ) == true)
  }

  @Test func onTheMainActorAMainActorAsyncModuleIsReportedNotMadeAndWhy() throws {
    let line = #line + 2
    let dependencies = Dependencies {
      Module(scope: .singleton) { () async -> SessionModuleType in SessionModule() }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    let site = "MainActorTests/VerificationTests.swift:\(line)"
    #expect(
      error.problems.map(\.description) == [
        "SessionModuleType could not be made: Shank cannot resolve SessionModuleType synchronously: its factory is async and bound to the main actor, which verify() holds, so it cannot await it; asked for at \(site); it was registered at \(site) with an async factory; check it in an async test instead, with try await dependencies.start() or await Dependencies.resolveAsync(SessionModuleType.self)"
      ])
  }

  /// `graph()` on the main actor cannot make a main-actor async module either: the module is
  /// a node all the same, with no edges, where `verify()` says why.
  @Test func onTheMainActorGraphShowsAMainActorAsyncModuleItCannotMake() {
    let graph = Dependencies {
      Module(scope: .singleton) { () async -> SessionModuleType in SessionModule() }
    }.graph()
    #expect(graph.nodes.map(\.typeName) == ["SessionModuleType"])
    #expect(graph.edges.isEmpty)
  }

  /// Off the main actor, `verify()` reports a main-actor async module as it reports a
  /// synchronous one there.
  @Test func offTheMainActorAMainActorAsyncModuleIsReportedNotMade() async {
    let dependencies = Dependencies {
      Module(scope: .singleton) { () async -> SessionModuleType in SessionModule() }
    }
    let problems = await verifyOffTheMainActor(dependencies)
    #expect(problems.count == 1)
    #expect(problems.first?.contains("off the main actor") == true)
  }

  @Test func offTheMainActorMainActorModulesAreReportedNotMade() async throws {
    let dependencies = Dependencies { Module { ReportModule(analytics: AnalyticsModule()) } }
    let problems = await verifyOffTheMainActor(dependencies)
    #expect(problems.count == 1)
    #expect(problems.first?.contains("off the main actor") == true)
  }
}

/// A module whose factory needs analytics.
struct ReportModule {
  let analytics: AnalyticsModuleType
}

@concurrent nonisolated func verifyOffTheMainActor(_ dependencies: Dependencies) async -> [String] {
  do {
    try dependencies.verify()
    return []
  } catch {
    return error.problems.map(\.description)
  }
}
