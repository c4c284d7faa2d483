import Observation
import Shank
import ShankTesting
import Testing

@MainActor
@Suite struct WidgetListModelTests {
  @Test(.dependencies { Module { StubCatalog(stored: ["Anvil", "Bolt"]) as CatalogModuleType } })
  func loadChangesTheTrackedTitles() {
    let model = WidgetListModel()
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
      WidgetListModel().load()
    }
    #expect(analytics.events == ["widgets loaded: 1"])
  }
}
