import Shank
import ShankTesting
import Testing

@testable import WidgetApp

/// The trait in a test target built without default isolation, testing an app target built
/// with it, as a new app and its test target are set up.
///
/// `CompositionRoot.modules` is a main-actor static property here: `.dependencies { }` cannot
/// read it, since a trait is evaluated off the main actor. `.mainActorDependencies { }` lists
/// the modules on the main actor before each test.
@Suite(.mainActorDependencies { CompositionRoot.modules })
struct MainActorDependenciesTraitTests {
  @MainActor
  @Test func aMainActorTestResolvesTheAppsModules() throws {
    let production: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self).component()
    let staging: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self, name: "staging")
      .component()
    #expect(try production.catalog().count == 3)
    #expect(try staging.catalog().last == Widget(id: "w9", name: "Prototype lever (beta)"))
  }

  @Test func aNonisolatedTestReachesThemOnTheMainActor() async throws {
    let names = try await MainActor.run {
      let remote: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self).component()
      return try remote.catalog().map(\.name)
    }
    #expect(names.count == 3)
  }

  @MainActor
  @Test(.mainActorDependencies { Module { MockWidgetModule() as WidgetModuleType } })
  func aTestsOwnTraitLayersOverTheSuites() throws {
    let remote: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self).component()
    #expect(try remote.catalog().map(\.id) == ["m1", "m2"])
    let staging: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self, name: "staging")
      .component()
    #expect(
      try staging.catalog().last == Widget(id: "w9", name: "Prototype lever (beta)"),
      "the suite's modules are still underneath")
  }

  @Test(.mainActorDependencies { Module("probe") { MockWidgetModule() as WidgetModuleType } })
  func aModuleWrittenInTheBuilderIsAMainActorModule() async throws {
    let reason = try #require(await reasonResolvingProbeOffTheMainActor())
    // The line is the one Swift Testing's macro gives the trait's expansion; the file is ours.
    guard case .wrongIsolation(let actor, let registeredAt) = reason else {
      Issue.record("resolved off the main actor with \(reason)")
      return
    }
    #expect(actor == "MainActor")
    #expect(registeredAt.hasPrefix("PlainTestTargetTests/MainActorDependenciesTraitTests.swift:"))
  }

  @Test(.dependencies { Module { Tally() as TallyType } })
  func theNonisolatedTraitKeepsNonisolatedFactories() async {
    #expect(await countOffTheMainActor() == 1)
  }
}

/// Why resolving the "probe" module from a background thread fails, or `nil` if it succeeds.
@concurrent
func reasonResolvingProbeOffTheMainActor() async -> ResolutionError.Reason? {
  do {
    _ = try Dependencies.resolveOrThrow(WidgetModuleType.self, name: "probe")
    return nil
  } catch {
    return error.reason
  }
}

/// Resolves a nonisolated module synchronously from a background thread.
@concurrent
func countOffTheMainActor() async -> Int {
  Dependencies.resolve(TallyType.self).next()
}

protocol TallyType {
  func next() -> Int
}

/// A module with no isolation, as a plain test target declares one.
final class Tally: TallyType {
  private var count = 0

  func next() -> Int {
    count += 1
    return count
  }
}
