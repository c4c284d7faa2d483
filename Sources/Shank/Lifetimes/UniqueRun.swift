// A unique async module's factory running in a task, and the chain of them in each task.

/// A unique async module's factory running in a task, for the chain that tells a factory
/// asking for its own module of the cycle.
struct UniqueRun: Sendable {
  let slot: ObjectIdentifier
  let task: Int?
  /// Whether the run goes on. A task is known by its address, which the runtime gives again
  /// once it ends, maybe to a task that inherited the chain: only a run still going counts.
  let going: Locked<Bool>
  /// The factories that led from the run before, or from the start of the task, to this one,
  /// then its own key.
  let route: [String]

  static var thisTask: Int? { withUnsafeCurrentTask { $0?.hashValue } }

  /// The runs of this task that still go, outermost first.
  static var ofThisTask: [UniqueRun] {
    let task = thisTask
    return Dependencies.uniqueAsyncRuns.filter { $0.task == task && $0.going.withLock { $0 } }
  }
}

extension Dependencies {
  /// The unique async modules whose factories run in this task or the tasks it was started
  /// from, outermost first (see ``AsyncInstance/runUnique(in:route:)``).
  @TaskLocal static var uniqueAsyncRuns: [UniqueRun] = []
}
