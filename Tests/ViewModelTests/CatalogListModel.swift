import Observation
import Shank

// An app's view model as the "Shank in an app" article writes it. This file imports
// Observation beside Shank, so it compiles only while no public Shank type hides a module.

protocol CatalogModuleType {
  func titles() -> [String]
}

protocol AnalyticsModuleType {
  func track(_ event: String)
}

/// A view model whose modules are injected: Observation ignores them, it tracks `titles`.
@Observable @MainActor final class CatalogListModel {
  @ObservationIgnored @Inject private var catalog: CatalogModuleType
  @ObservationIgnored @Inject private var analytics: AnalyticsModuleType?
  private(set) var titles: [String] = []

  func load() {
    titles = catalog.titles()
    analytics?.track("widgets loaded: \(titles.count)")
  }
}
