import Foundation
import Shank

/// What `--trace` prints: the resolutions the run made, from `Dependencies.observe`.
///
/// Observers see every thread, so the log only collects, under a lock, and the command line
/// prints it once the command has run.
final class TraceLog: Sendable {
  private let lines = Mutex()
  private let observation: ResolutionObservation

  /// Starts observing.
  init() {
    let lines = self.lines
    observation = Dependencies.observe { event in lines.append("trace: \(event)") }
  }

  /// Stops observing and returns what was seen, in order.
  nonisolated func finish() -> [String] {
    observation.cancel()
    return lines.all
  }

  /// The lines, behind a lock; any thread's observer appends to it.
  private nonisolated final class Mutex: @unchecked Sendable {
    // `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
      lock.withLock { lines.append(line) }
    }

    var all: [String] { lock.withLock { lines } }
  }
}
