// The containers async factories make modules in for a task, which a close does not stop.

/// The containers that async factories make modules in for this task, which a close since does
/// not stop here (see ``Dependencies/isClosedToThisThread``): while a factory runs, the one it
/// makes its module in; while a `resolveAsync` or `start()` goes on once a factory has run for
/// it, the container it resolves from and those its factories made their modules in.
///
/// Task-local, so a task that a factory starts inherits it; but it counts only while the
/// factory or the resolution goes on, so such a task that outlives it finds a closed container
/// closed, as a thread that a synchronous factory starts does.
struct AsyncMaking: Sendable {
  let containers: [Dependencies]
  /// Whether the factory or the resolution goes on.
  let going: Locked<Bool>
  /// How many resolutions the factory's resolutions are nested in, which observers are told
  /// (``ResolutionEvent/depth``): the asking ones and the async module's own, above this task.
  let depth: Int
  /// The module whose async factory runs, which asks for what this task resolves outside any
  /// synchronous factory: the module being made that its errors name.
  let asker: ResolutionTrace.Asker?

  /// This task's, while it goes on.
  static var current: AsyncMaking? {
    guard let making = Dependencies.asyncMaking, making.going.withLock({ $0 }) else { return nil }
    return making
  }

  /// Runs `body`, the async factory of `asker`, making in `containers`, `depth` resolutions
  /// deep, for this task, until it returns. Nonisolated, so that the making ends as `body`
  /// returns, on the shared pool, not once the actor of an actor-bound factory, which may be
  /// busy, has taken its caller back.
  static func run<Value>(
    in containers: [Dependencies], depth: Int, asker: ResolutionTrace.Asker,
    _ body: () async throws -> Value
  ) async rethrows -> Value {
    let making = AsyncMaking(
      containers: containers, going: Locked(true), depth: depth, asker: asker)
    defer { making.going.withLock { $0 = false } }
    return try await Dependencies.$asyncMaking.withValue(making, operation: body)
  }
}

extension Dependencies {
  /// What ``AsyncMaking/current`` reads: the ``Inject`` properties a module declares while its
  /// async factory runs read from the container it is made in, as those of a synchronous
  /// factory's module read from the container on the resolution trace.
  @TaskLocal static var asyncMaking: AsyncMaking?
}

extension AsyncMaking {
  /// What the async factory this task runs for, while it runs, adds to the depth of a
  /// resolution: a task it started that outlives it adds nothing. Read only once an async
  /// factory has run, which installs an override layer: a task-local read costs an observed
  /// resolution more than the rest of its event.
  static var observedDepth: Int {
    Switches.mayHaveOverrides ? current?.depth ?? 0 : 0
  }
}
