/// One instance's `onClose` handler, bound to the instance and to the isolation its factory
/// was registered from.
struct Disposal: Sendable {
  let isolation: (any Actor)?
  private let handler: Handed<() async -> Void>

  init(isolation: (any Actor)?, handler: @escaping () async -> Void) {
    self.isolation = isolation
    self.handler = Handed(handler)
  }

  /// Runs every handler in `disposals`, in order, each on its isolation, after the one before
  /// has returned.
  static func runAll(_ disposals: [Disposal]) async {
    for disposal in disposals { await run(disposal.handler.value, on: disposal.isolation) }
  }

  private static func run(_ handler: () async -> Void, on isolation: isolated (any Actor)?) async {
    await handler()
  }

  /// Runs `disposals` in order on a task of their own, for callers that cannot wait: detached,
  /// so that no override or scope of the code that dropped the instances is current in them.
  static func runLater(_ disposals: [Disposal]) {
    guard !disposals.isEmpty else { return }
    Task.detached { await runAll(disposals) }
  }

  /// Starts running `disposals` in order on a task of their own, as ``runLater(_:)`` does,
  /// for `run`: the handlers, and every task they start, work for it (see ``WaitGraph``), so
  /// that one awaiting what the caller waiting for `run` makes is told of the cycle.
  static func start(
    _ disposals: [Disposal], for run: any AnyObject & Sendable
  ) -> Task<Void, Never> {
    Task.detached { await WaitGraph.run(holding: run, inherited: true) { await runAll(disposals) } }
  }
}
