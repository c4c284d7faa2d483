import Observation
import Shank
import ShankTesting
import Testing

@MainActor
@Suite struct CatalogListModelTests {
  @Test(.dependencies { Module { StubCatalog(stored: ["Anvil", "Bolt"]) as CatalogModuleType } })
  func loadChangesTheTrackedTitles() {
    let model = CatalogListModel()
    let changes = ChangeCount()
    let tracked = withObservationTracking {
      model.titles
    } onChange: {
      changes.record()
    }
    #expect(tracked.isEmpty)
    #expect(changes.count == 0)

    model.load()

    #expect(changes.count == 1)
    #expect(model.titles == ["Anvil", "Bolt"])
  }

  @Test(.dependencies { Module { StubCatalog(stored: ["Anvil"]) as CatalogModuleType } })
  func loadReadsOptionalModulesThatTheTestAdds() {
    let analytics = RecordingAnalytics()
    Dependencies.withOverrides {
      Module { analytics as AnalyticsModuleType }
    } operation: {
      CatalogListModel().load()
    }
    #expect(analytics.events == ["widgets loaded: 1"])
  }

  /// The article's preview: the model loads inside the overrides, and keeps what it read.
  @Test func aModelLoadedInsideOverridesKeepsTheirModules() {
    let model = Dependencies.withOverrides {
      AppDependencies.modules
      Module { PreviewCatalog() as CatalogModuleType }
    } operation: {
      let model = CatalogListModel()
      model.load()
      return model
    }
    model.load()
    #expect(model.titles == ["Preview"])
  }

  /// The article's warning: a model that first reads its modules after the overrides ended
  /// finds none, here where no root is built.
  @Test func aModelLoadedAfterTheOverridesEndedDoesNotSeeThem() async {
    await #expect(processExitsWith: .failure) {
      let model = await MainActor.run {
        Dependencies.withOverrides {
          Module { PreviewCatalog() as CatalogModuleType }
        } operation: {
          CatalogListModel()
        }
      }
      await model.load()
    }
  }
}
