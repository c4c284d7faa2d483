/// The process's counters.
protocol StatsModuleType: Sendable {
  /// The counters, one instance per container that registers the module as a singleton.
  func component() -> ServerStats
}

/// Keeps one ``ServerStats`` for as long as its container.
struct StatsModule: StatsModuleType {
  private let stats = ServerStats()

  func component() -> ServerStats { stats }
}
