/// The optional analytics feature.
protocol AnalyticsModuleType {
  func component() -> AnalyticsTracker
}

/// Registered only with `--analytics`. A singleton, so every command tracks into one tracker.
struct AnalyticsModule: AnalyticsModuleType {
  private let tracker = AnalyticsTracker()

  func component() -> AnalyticsTracker { tracker }
}
