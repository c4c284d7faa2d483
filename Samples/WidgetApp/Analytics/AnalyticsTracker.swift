/// Collects events. A real app would send them to a server; the sample shows them.
final class AnalyticsTracker {
  private(set) var events: [String] = []

  func track(_ event: String) {
    events.append(event)
  }
}
