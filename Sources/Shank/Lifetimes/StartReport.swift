/// What ``Dependencies/start(fileID:line:)`` made: each eager module, how long its factory
/// took and where it ran, slowest first.
///
/// It prints as a table:
///
/// ```
/// Started 3 eager modules in 41.870 ms:
///   DatabaseModuleType   40.112 ms  a background thread
///   RouterModuleType      1.350 ms  the main actor
///   AnalyticsModuleType   0.081 ms  a background thread
/// ```
public struct StartReport: Sendable, CustomStringConvertible {
  /// One eager module that was made.
  public struct Entry: Sendable, Hashable {
    /// The module's key, as messages write it.
    public let key: String
    /// The module's scope.
    public let scope: Scope
    /// How long making it took, in nanoseconds: its factory, and the factories it resolved.
    public let durationNanoseconds: UInt64
    /// Where it ran: `the main actor`, another actor's type (in full where it is named
    /// `MainActor`), or `a background thread`.
    public let ranOn: String
  }

  /// The modules made, slowest first.
  public let entries: [Entry]
  /// How long the whole start took, in nanoseconds; less than the sum of the entries when
  /// modules were made at the same time.
  public let durationNanoseconds: UInt64

  /// The report as a table, slowest first.
  public var description: String {
    let count = entries.count == 1 ? "1 eager module" : "\(entries.count) eager modules"
    var lines = [
      "Started \(count) in \(ResolutionEvent.milliseconds(durationNanoseconds))\(entries.isEmpty ? "" : ":")"
    ]
    let width = entries.map(\.key.count).max() ?? 0
    let times = entries.map { ResolutionEvent.milliseconds($0.durationNanoseconds) }
    let timeWidth = times.map(\.count).max() ?? 0
    for (entry, time) in zip(entries, times) {
      let key = entry.key + String(repeating: " ", count: width - entry.key.count)
      let padded = String(repeating: " ", count: timeWidth - time.count) + time
      lines.append("  \(key)  \(padded)  \(entry.ranOn)")
    }
    return lines.joined(separator: "\n")
  }
}
