import Shank
import Testing

/// The original Shank's scenario, reproduced: module protocols with overloaded `component()`
/// functions, a named module, a consumer that injects a module and builds from it.
///
/// Each test layers the scenario's modules with `withOverrides`, so the process-global root
/// is never touched; `scenarioWorksFromABuiltRoot` does the original's `build()` in a child
/// process.
@Suite struct ScenarioTests {
  private func withScenario<Result>(_ body: () throws -> Result) rethrows -> Result {
    try Dependencies.withOverrides {
      scenarioModules
    } operation: {
      try body()
    }
  }

  @Test func workerCombinesStoreAndRemote() {
    withScenario {
      let widgets: WidgetModuleType = Dependencies.resolve()
      let worker: WidgetWorkerType = widgets.component()
      #expect(worker.fetch(id: 3) == "|MediaRealmStore.3||MediaNetworkRemote.3|")
    }
  }

  @Test func overloadedComponentsAreChosenByTheirReturnType() {
    withScenario {
      let widgets = Dependencies.resolve(WidgetModuleType.self)
      let store: WidgetRemoteStore = widgets.component()
      let remote: WidgetRemote = widgets.component()
      #expect(store.fetch(id: 5) == "|MediaRealmStore.5|")
      #expect(remote.fetch(id: 5) == "|MediaNetworkRemote.5|")
    }
  }

  @Test func sampleModuleIsRegisteredUnnamedAndNamed() {
    withScenario {
      #expect(Dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()")
      #expect(
        Dependencies.resolve(SampleModuleType.self, name: "abc").test() == "SampleModule.test()123")
    }
  }

  @Test func aLocalContainerResolvesTheScenarioWithoutBeingBuilt() {
    let dependencies = Dependencies { scenarioModules }
    #expect(dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()")
    #expect(
      dependencies.resolve(SampleModuleType.self, name: "abc").test() == "SampleModule.test()123")
  }

  @Test func consumerInjectsTheModuleAndBuildsItsWorkerLazily() {
    withScenario {
      let controller = WidgetViewController()
      #expect(controller.fetch(id: 3) == "|MediaRealmStore.3||MediaNetworkRemote.3|")
      #expect(controller.sampleTest() == "SampleModule.test()")
      #expect(controller.namedSampleTest() == "SampleModule.test()123")
    }
  }

  @Test func injectedClassModuleIsTheSameInstanceOnTwoReads() {
    withScenario {
      let controller = WidgetViewController()
      let first = controller.someClass
      let second = controller.someClass
      #expect(first === second)
      // The module is registered `.unique`: the sameness comes from `@Inject`'s cache.
      #expect(
        Dependencies.resolve(SomeClassModuleType.self)
          !== Dependencies.resolve(SomeClassModuleType.self))
    }
  }

  @Test func nestedModuleReadsItsParentModule() {
    withScenario {
      let app: AppModuleType = Dependencies.resolve()
      let widgets: WidgetModuleType = Dependencies.resolve()
      let otherWidgets: WidgetModuleType = Dependencies.resolve()
      let http: HTTPServiceType = widgets.component()
      let otherHTTP: HTTPServiceType = otherWidgets.component()
      // The parent is a singleton that keeps the HTTP client: every feature shares it.
      #expect(http === app.component())
      #expect(otherHTTP === http)
    }
  }

  @Test func scenarioWorksFromABuiltRoot() async {
    await #expect(processExitsWith: .success) {
      Dependencies { scenarioModules }.build()
      let controller = WidgetViewController()
      precondition(controller.fetch(id: 3) == "|MediaRealmStore.3||MediaNetworkRemote.3|")
      precondition(controller.sampleTest() == "SampleModule.test()")
      precondition(controller.namedSampleTest() == "SampleModule.test()123")
      precondition(controller.someClass === controller.someClass)
      let widgets: WidgetModuleType = Dependencies.resolve()
      let http: HTTPServiceType = widgets.component()
      precondition(http === Dependencies.resolve(AppModuleType.self).component())
    }
  }
}
