import Foundation

struct StubCatalog: CatalogModuleType {
  let stored: [String]
  func titles() -> [String] { stored }
}

/// Analytics that remembers what it was told, from any thread.
final class RecordingAnalytics: AnalyticsModuleType {
  private let lock = NSLock()
  private var recorded: [String] = []

  var events: [String] { lock.withLock { recorded } }

  func track(_ event: String) {
    lock.withLock { recorded.append(event) }
  }
}

// `lock` guards `recorded`, its only mutable state.
extension RecordingAnalytics: @unchecked Sendable {}

/// How many times an observation's `onChange` ran; it may run on any thread.
final class ChangeCount {
  private let lock = NSLock()
  private var recorded = 0

  var count: Int { lock.withLock { recorded } }

  func record() {
    lock.withLock { recorded += 1 }
  }
}

// `lock` guards `recorded`, its only mutable state.
extension ChangeCount: @unchecked Sendable {}
