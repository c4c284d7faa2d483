/// Collects events. A real app would send them to a server; the sample shows them.
final class AnalyticsTracker {
  private(set) var events: [String] = []

  func track(_ event: String) {
    events.append(event)
  }

  /// Sends the events collected, here to `console`, and starts a new batch.
  func flush(to console: Console) {
    guard !events.isEmpty else { return }
    console.print("analytics: \(events.joined(separator: ", "))")
    events = []
  }
}
