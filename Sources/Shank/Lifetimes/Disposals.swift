/// The `onClose` handlers of the instances a container keeps, in the order they were made.
///
/// Closing the container seals the list and takes every handler, newest first; an instance
/// kept after that, by a factory that was already running, is disposed of at once.
@usableFromInline
final class Disposals: Sendable {
  private struct State {
    /// By id, which grows with every addition: a reset takes any entry out in constant time,
    /// and sealing sorts them back into order, once.
    var entries: [UInt: Disposal] = [:]
    var nextID: UInt = 0
    var isSealed = false
    /// The task running the handlers taken by the first ``close()``, which later calls await.
    var run: Task<Void, Never>?

    /// Seals the list and takes every disposal, newest first.
    mutating func takeAll() -> [Disposal] {
      isSealed = true
      defer { entries = [:] }
      return entries.sorted { $0.key > $1.key }.map(\.value)
    }
  }

  private let state = Locked(State())

  /// Adds `disposal`, returning the id that ``remove(_:)`` takes, or `nil` once sealed.
  func add(_ disposal: Disposal) -> UInt? {
    state.withLock {
      guard !$0.isSealed else { return nil }
      $0.nextID &+= 1
      $0.entries[$0.nextID] = disposal
      return $0.nextID
    }
  }

  /// Takes out the disposal added as `id`, if it is still here.
  func remove(_ id: UInt) -> Disposal? {
    state.withLock { $0.entries.removeValue(forKey: id) }
  }

  /// Seals the list and runs every handler, newest first, on a task of their own, and returns
  /// once they have run: the first call starts the task, later ones wait for the same run.
  ///
  /// A detached task, so that a handler runs to its end even when the task that closes the
  /// container was cancelled, and sees no override or scope of whoever closed it.
  ///
  /// A call from inside a handler or an async factory does not wait when this run waits for
  /// that handler's run or that factory's attempt, directly or through other runs and attempts
  /// (see ``WaitGraph``): a handler that closes its own container, two containers whose
  /// handlers close each other, however their closes began, or a factory that closes a
  /// container whose handler awaits the factory's module. Waiting would never end.
  @usableFromInline
  func close() async {
    guard let started = start() else { return }
    await started.run.value
    if let wait = started.wait { WaitGraph.shared.remove(wait) }
  }

  /// The run for ``close()`` to wait for, started by the first call, with its wait recorded;
  /// `nil` when there is nothing to run or waiting would never end.
  private func start() -> (run: Task<Void, Never>, wait: WaitGraph.Wait?)? {
    state.withLock {
      if let run = $0.run {
        do { return (run, try WaitGraph.shared.recordWaitOfThisTask(for: self)) } catch {
          return nil
        }
      }
      let disposals = $0.takeAll()
      // Nothing to run: no task to start and await, for the scopes that keep nothing.
      guard !disposals.isEmpty else { return nil }
      // Recorded before the run starts, so that its handlers see it. A run that has not
      // started waits for nothing, so this never throws.
      let wait = try? WaitGraph.shared.recordWaitOfThisTask(for: self)
      let run = Disposal.start(disposals, for: self)
      $0.run = run
      return (run, wait)
    }
  }

  /// Seals the list and takes every disposal, newest first.
  func seal() -> [Disposal] {
    state.withLock { $0.takeAll() }
  }
}

extension Disposals: CustomStringConvertible {
  /// The run as a cycle through it reads: a handler's wait began at a `close()`.
  @usableFromInline var description: String { "close()" }
}
