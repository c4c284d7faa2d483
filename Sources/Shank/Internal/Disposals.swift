/// The `onClose` handlers of the instances a container keeps, in the order they were made.
///
/// Closing the container seals the list and takes every handler, newest first; an instance
/// kept after that, by a factory that was already running, is disposed of at once.
final class Disposals {
  private let lock = Lock()
  private var entries: [(id: UInt, disposal: Disposal)] = []
  private var nextID: UInt = 0
  private var isSealed = false
  /// The task running the handlers taken by the first ``close()``, which later calls await.
  private var closing: Task<Void, Never>?

  /// Adds `disposal`, returning the id that ``remove(_:)`` takes, or `nil` once sealed.
  func add(_ disposal: Disposal) -> UInt? {
    lock.withLock {
      guard !isSealed else { return nil }
      nextID &+= 1
      entries.append((nextID, disposal))
      return nextID
    }
  }

  /// Takes out the disposal added as `id`, if it is still here.
  func remove(_ id: UInt) -> Disposal? {
    lock.withLock {
      guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
      return entries.remove(at: index).disposal
    }
  }

  /// Seals the list and runs every handler, newest first, on a task that every call returns:
  /// the first call starts it, later ones wait for the same run; `nil` when there is nothing
  /// to wait for.
  ///
  /// A detached task, so that a handler runs to its end even when the task that closes the
  /// container was cancelled, and sees no override or scope of whoever closed it. A handler
  /// that closes this container again, itself or through another container's handlers, gets
  /// `nil`: waiting for the run it is part of would never end.
  func close() -> Task<Void, Never>? {
    let chain = Self.closing
    let me = ObjectIdentifier(self)
    if chain.contains(me) { return nil }
    return lock.withLock {
      if let closing { return closing }
      let disposals = takeAll()
      // Nothing to run: no task to start and await, for the scopes that keep nothing.
      guard !disposals.isEmpty else { return nil }
      let task = Task.detached {
        await Self.$closing.withValue(chain.union([me])) { await Disposal.runAll(disposals) }
      }
      closing = task
      return task
    }
  }

  /// The lists whose handlers the current task is running, for ``close()`` to tell a handler
  /// that closes its own container.
  @TaskLocal private static var closing: Set<ObjectIdentifier> = []

  /// Seals the list and takes every disposal, newest first.
  func seal() -> [Disposal] {
    lock.withLock { takeAll() }
  }

  /// Seals the list and takes every disposal, newest first. Called under `lock`.
  private func takeAll() -> [Disposal] {
    isSealed = true
    defer { entries = [] }
    return entries.reversed().map(\.disposal)
  }
}

// `entries`, `nextID`, `isSealed` and `closing` are only touched under `lock`.
extension Disposals: @unchecked Sendable {}
