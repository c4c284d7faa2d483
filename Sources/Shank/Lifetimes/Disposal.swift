/// One instance's `onClose` handler, bound to the instance and to the isolation its factory
/// was registered from.
struct Disposal {
  let isolation: (any Actor)?
  let handler: () async -> Void

  /// Runs the handler on its isolation.
  func run() async {
    await Self.run(handler, on: isolation)
  }

  private static func run(_ handler: () async -> Void, on isolation: isolated (any Actor)?) async {
    await handler()
  }

  /// Runs every handler in `disposals`, in order, each after the one before has returned.
  static func runAll(_ disposals: [Disposal]) async {
    for disposal in disposals { await disposal.run() }
  }

  /// Runs `disposals` in order on a task of their own, for callers that cannot wait: detached,
  /// so that no override or scope of the code that dropped the instances is current in them.
  static func runLater(_ disposals: [Disposal]) {
    guard !disposals.isEmpty else { return }
    Task.detached { await runAll(disposals) }
  }
}

// The handler and the instance it captured are only used by the one task that runs it, on
// the isolation the module's factory runs on.
extension Disposal: @unchecked Sendable {}
