// The instance an async factory made, waiting for the module's provider to take it.

import Dispatch

/// One container's slot for a module with an `async` factory.
///
/// The module's provider is an ordinary one whose synchronous factory is ``take()``: it gives
/// what ``make(in:at:)`` left here, and otherwise throws, so that a synchronous resolution
/// before anything made it fails with ``ResolutionError/Reason/notMadeYet(registeredAt:)``.
/// `start()` and `resolveAsync` catch that error, await ``make(in:at:)`` and resolve again,
/// through the same provider, which keeps, decorates and disposes of the value as usual.
///
/// A shared module's value waits here until the provider takes it, and its factory runs once
/// however many ask at the same time. A ``Scope/unique`` module's provider keeps nothing, so
/// each `resolveAsync` makes its own value and hands it to its own resolution (see
/// ``AsyncHandoffs``).
final class AsyncInstance<Value>: AsyncMaking {
  private let factory: () async throws -> Value
  private let isolation: (any Actor)?
  private let onClose: ((Value) async -> Void)?
  let key: KeyDescription
  let site: SourceSite
  /// Whether the provider keeps what it takes, so one value serves everyone who waited.
  private let shares: Bool
  private let lock = Lock()
  private var state = State.empty

  private enum State {
    case empty
    /// The factory is running; everyone who asks awaits this attempt.
    case making(Task<Void, any Error>)
    /// Made, and not yet taken by the provider.
    case made(Value)
  }

  init(
    factory: @escaping () async throws -> Value, isolation: (any Actor)?,
    onClose: ((Value) async -> Void)?, key: KeyDescription, site: SourceSite, shares: Bool
  ) {
    self.factory = factory
    self.isolation = isolation
    self.onClose = onClose
    self.key = key
    self.site = site
    self.shares = shares
  }

  /// The provider's synchronous factory: the value made for this resolution, else the error
  /// that says to make it first. On a ``Dependencies/verify()`` thread, makes it, waiting.
  func take() throws -> Value {
    if let handed = AsyncHandoffs.current?.take(for: self) { return handed as! Value }
    let made: Value? = lock.withLock {
      guard case .made(let value) = state else { return nil }
      state = .empty
      return value
    }
    if let made { return made }
    let trace = ResolutionTrace.current
    // `verify()` blocks its own thread, never one of the cooperative pool; but a main-actor
    // factory cannot run while `verify()` holds the main thread.
    if trace.inspection != nil, !(isolation === MainActor.shared && trace.actsAsMainActor) {
      return try makeWaiting(in: Dependencies.current)
    }
    throw AsyncPending(instance: self, container: Dependencies.current)
  }

  /// Runs the factory for a resolution asked for at `site`, with `container` current in it.
  ///
  /// Returns the value for a unique module, which the caller hands to its own resolution; for
  /// a shared one, leaves it here for the provider and returns `nil`.
  func make(in container: Dependencies, at site: SourceSite) async throws(ResolutionError)
    -> Any?
  {
    guard shares else {
      do {
        return try await Self.run(factory, on: isolation, in: container).value
      } catch {
        throw failure(error, at: site)
      }
    }
    let attempt = lock.withLock { () -> Task<Void, any Error>? in
      switch state {
      case .made: return nil
      case .making(let task): return task
      case .empty:
        let task = Task { try await self.runOnce(in: container) }
        state = .making(task)
        return task
      }
    }
    do {
      try await attempt?.value
    } catch {
      throw failure(error, at: site)
    }
    return nil
  }

  /// The one attempt everyone waiting shares: leaves the value here, or the slot empty for
  /// the next caller to try again.
  private func runOnce(in container: Dependencies) async throws {
    do {
      let made = try await Self.run(factory, on: isolation, in: container)
      lock.withLock { state = .made(made.value) }
    } catch {
      lock.withLock { state = .empty }
      throw error
    }
  }

  /// Makes the value on this thread, blocked until the factory has run on its isolation: a
  /// nonisolated factory's jobs run on this thread (see ``InspectionExecutor``).
  private func makeWaiting(in container: Dependencies) throws -> Value {
    let outcome = Outcome()
    let run = UncheckedFactory(factory)
    let isolation = isolation
    let make: @Sendable () async -> Void = {
      do {
        outcome.result = .success(try await Self.run(run.factory, on: isolation, in: container))
      } catch {
        outcome.result = .failure(error)
      }
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      let executor = InspectionExecutor()
      Task(executorPreference: executor) {
        await make()
        executor.finish()
      }
      executor.run()
    } else {
      let done = DispatchSemaphore(value: 0)
      Task {
        await make()
        done.signal()
      }
      done.wait()
    }
    return try outcome.result.unsafelyUnwrapped.get().value
  }

  /// Runs `factory` on `isolation` with `container` current, as a synchronous factory runs
  /// with the container that makes it current.
  private static func run(
    _ factory: () async throws -> Value, on isolation: isolated (any Actor)?,
    in container: Dependencies
  ) async throws -> Made<Value> {
    Root.noteOverridesInstalled()
    // Nothing handed to the resolution that started the attempt is the factory's to take.
    return try await AsyncHandoffs.$current.withValue(nil) {
      try await Dependencies.$overrides.withValue(container) {
        try await Dependencies.$asyncMaker.withValue(container) { Made(try await factory()) }
      }
    }
  }

  /// What the factory threw, as a ``ResolutionError`` asked for at `site`.
  private func failure(_ error: any Error, at site: SourceSite) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    return ResolutionError(.factoryFailed(error: String(describing: error)), key: key, site: site)
  }

  deinit {
    // Made and never taken, as when the container closed meanwhile: disposed of all the same.
    guard case .made(let value) = state, let onClose else { return }
    Disposal.runLater([Disposal(isolation: isolation) { await onClose(value) }])
  }

  /// Where a blocked `verify()` thread finds what the factory gave.
  fileprivate final class Outcome {
    var result: Result<Made<Value>, any Error>?
  }

  /// The factory, handed to the task that runs it for `verify()`.
  fileprivate struct UncheckedFactory {
    let factory: () async throws -> Value

    init(_ factory: @escaping () async throws -> Value) {
      self.factory = factory
    }
  }
}

/// A value an async factory made, on its way to the provider that keeps it.
struct Made<Value> {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// A slot whose value is not made yet, as ``ResolutionError`` carries it to `resolveAsync`.
protocol AsyncMaking: AnyObject, Sendable {
  /// Runs the factory; gives the value for a unique module, `nil` for a shared one.
  func make(in container: Dependencies, at site: SourceSite) async throws(ResolutionError) -> Any?
}

/// What ``AsyncInstance/take()`` throws when nothing is made: the slot to make, and the
/// container to make it in. The provider turns it into a ``ResolutionError`` for its key.
struct AsyncPending: Error, Sendable {
  let instance: any AsyncMaking
  let container: Dependencies
  let registeredAt: SourceSite

  init<Value>(instance: AsyncInstance<Value>, container: Dependencies) {
    self.instance = instance
    self.container = container
    self.registeredAt = instance.site
  }
}

// `state` is read and written under `lock`. The value crosses from the task that made it to
// the provider that takes it, as a synchronous factory's value crosses to the threads that
// share it; a factory bound to an actor runs there, and its provider hands the value out only
// on that actor.
extension AsyncInstance: @unchecked Sendable {}

// Made on the factory's isolation and read by the one caller that awaited it, after the task.
extension Made: @unchecked Sendable {}

// Written by the task before it lets the waiting thread go, read by that thread after.
extension AsyncInstance.Outcome: @unchecked Sendable {}

// Called only by the one task it is handed to, on the factory's own isolation.
extension AsyncInstance.UncheckedFactory: @unchecked Sendable {}

extension Dependencies {
  /// The container an async factory running in this task makes its module for: the
  /// ``Inject`` properties the module declares read from it, as those of a synchronous
  /// factory's module read from the container on the resolution trace.
  @TaskLocal static var asyncMaker: Dependencies?
}
