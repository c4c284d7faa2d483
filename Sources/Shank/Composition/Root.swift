// The built root: published for lock-free reads, freed once no resolution reads it.

/// The container that ``Dependencies/build()`` promoted, swapped atomically, and the roots it
/// replaced until no thread reads them.
///
/// A resolution reads the root without a lock or a retain: it loads the address into its
/// thread's hazard slot (``Hazard``) and clears the slot when it is done. A replaced
/// root is released only once no registered slot holds it: right away in `build()`, or, while
/// some thread still reads it, by a task that looks again shortly after, so that readers
/// never do more than clear their slot. Its instances are then disposed of with it.
@usableFromInline
final class Root: Sendable {
  @usableFromInline static let shared = Root()

  private let state = Locked(State())

  private struct State {
    /// The built root, whose address ``Hazard`` publishes.
    var container: Dependencies?
    /// Replaced roots that some thread's hazard slot still held when last looked at.
    var retired: [Dependencies] = []
    /// Whether a task is looking again for `retired` roots that no thread reads any more.
    var isPolling = false
    /// The hazard slot of every thread that ever resolved and is still running.
    var slots: [Hazard.Slot] = []

    /// Removes and returns the retired roots that no hazard slot holds. Called after the
    /// store of the new root that retired them: a reader that loaded one before that store
    /// has it in its slot by now, and a reader after it loads the new root.
    mutating func takeUnread() -> [Dependencies] {
      var unread: [Dependencies] = []
      retired.removeAll { container in
        let address = Unretained(container).address
        guard !slots.contains(where: { $0.load() == address }) else { return false }
        unread.append(container)
        return true
      }
      return unread
    }
  }

  /// The built root, if any, loaded into this thread's hazard slot; `container` keeps it
  /// alive until no slot holds it.
  @inlinable
  static var protectedLatest: Unretained<Dependencies>? {
    Unretained(address: Hazard.protectLatestRoot())
  }

  /// Whether a container was ever built, which the message of a miss tells.
  var isBuilt: Bool { state.withLock { $0.container != nil } }

  /// Makes `container` the root; the one it replaces is released once no thread reads it.
  func replace(with container: Dependencies) {
    let (unread, startsPolling): ([Dependencies], Bool) = state.withLock { state in
      guard container !== state.container else { return ([], false) }
      if let replaced = state.container { state.retired.append(replaced) }
      state.container = container
      Hazard.publishLatestRoot(Unretained(container).address)
      let unread = state.takeUnread()
      let startsPolling = !state.retired.isEmpty && !state.isPolling
      if startsPolling { state.isPolling = true }
      return (unread, startsPolling)
    }
    if startsPolling {
      Task.detached(priority: .background) { await self.releaseUnreadUntilNoneAreLeft() }
    }
    // Released outside the lock: a container's instances may resolve, or build, as they go.
    withExtendedLifetime(unread) {}
  }

  /// Releases the replaced roots that no thread reads now, and keeps looking, a little less
  /// often each time, while some are still read: a reader never has to say it is done.
  private func releaseUnreadUntilNoneAreLeft() async {
    var pause: UInt64 = 1_000_000
    while true {
      try? await Task.sleep(nanoseconds: pause)
      let (unread, isDone): ([Dependencies], Bool) = state.withLock { state in
        let unread = state.takeUnread()
        if state.retired.isEmpty { state.isPolling = false }
        return (unread, state.retired.isEmpty)
      }
      withExtendedLifetime(unread) {}
      if isDone { return }
      pause = min(pause * 2, 64_000_000)
    }
  }

  /// Registers the hazard slot of the calling thread, which resolves for the first time.
  func register(_ slot: Hazard.Slot) {
    state.withLock { $0.slots.append(slot) }
  }

  /// Forgets the hazard slot of a thread that is ending.
  func unregister(_ slot: Hazard.Slot) {
    state.withLock { $0.slots.removeAll { $0 == slot } }
  }
}
