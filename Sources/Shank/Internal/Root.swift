import _ShankAtomics

/// The container that ``Dependencies/build()`` promoted, swapped atomically, and the roots it
/// replaced until no thread reads them.
///
/// A resolution reads the root without a lock or a retain: it loads the address into its
/// thread's hazard slot (`_shank_protect`) and clears the slot when it is done. A replaced
/// root is released only once no registered slot holds it, either right away in `build()` or
/// when the last thread reading it finishes; its instances are then disposed with it.
@usableFromInline
final class Root {
  @usableFromInline static let shared = Root()

  private let lock = Lock()
  /// The built root, which `latest` addresses.
  private var container: Dependencies?
  /// Replaced roots that some thread's hazard slot still held when last looked at.
  private var retired: [Dependencies] = []
  /// The hazard slot of every thread that ever resolved and is still running.
  private var slots: [UnsafeMutablePointer<UInt>] = []
  /// The built root's address, or 0; `container` keeps it alive.
  @usableFromInline let latest = AtomicWord(0)
  /// 1 while `retired` is not empty, so that a reader finishing knows to look.
  @usableFromInline let hasRetired = AtomicWord(0)
  /// Whether any task ever installed overrides (1) or not (0); until then resolution skips the
  /// task-local read. A task that inherits overrides was created after they were installed,
  /// so it sees this set.
  @usableFromInline let overridesInstalled = AtomicWord(0)
  /// 1 while an observer from ``Dependencies/observe(_:)`` is installed.
  @usableFromInline let observed: AtomicWord
  /// The observers, which set `observed`.
  let observers: Observers

  private init() {
    let observed = AtomicWord(0)
    self.observed = observed
    observers = Observers(flag: observed)
  }

  /// Whether ``Dependencies/overrides`` may hold a layer for some task.
  @inlinable
  var mayHaveOverrides: Bool {
    overridesInstalled.relaxed != 0
  }

  func noteOverridesInstalled() {
    overridesInstalled.storeRelaxed(1)
  }

  /// Makes `container` the root; the one it replaces is released once no thread reads it.
  func replace(with container: Dependencies) {
    let unread: [Dependencies] = lock.withLock {
      guard container !== self.container else { return [] }
      if let replaced = self.container { retired.append(replaced) }
      self.container = container
      latest.storeSequential(UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque()))
      return takeUnread()
    }
    // Released outside the lock: a container's instances may resolve, or build, as they go.
    withExtendedLifetime(unread) {}
  }

  /// Clears this thread's hazard slot, and releases the replaced roots no thread reads now.
  @inlinable
  func stopReading() {
    _shank_clear_hazard()
    if hasRetired.relaxed != 0 { releaseUnread() }
  }

  @usableFromInline
  func releaseUnread() {
    let unread = lock.withLock { takeUnread() }
    withExtendedLifetime(unread) {}
  }

  /// Registers the hazard slot of the calling thread, which resolves for the first time.
  func register(_ slot: UnsafeMutablePointer<UInt>) {
    lock.withLock { slots.append(slot) }
  }

  /// Forgets the hazard slot of a thread that is ending.
  func unregister(_ slot: UnsafeMutablePointer<UInt>) {
    lock.withLock { slots.removeAll { $0 == slot } }
  }

  /// Removes and returns the retired roots that no hazard slot holds. Called under `lock`,
  /// after the store of `latest` that retired them: a reader that loaded one before that
  /// store has it in its slot by now, and a reader after it loads the new root.
  private func takeUnread() -> [Dependencies] {
    guard !retired.isEmpty else { return [] }
    var read: Set<UInt> = []
    for slot in slots {
      let address = _shank_load_sequential(slot)
      if address != 0 { read.insert(address) }
    }
    var unread: [Dependencies] = []
    retired.removeAll { container in
      let address = UInt(bitPattern: Unmanaged.passUnretained(container).toOpaque())
      guard !read.contains(address) else { return false }
      unread.append(container)
      return true
    }
    hasRetired.storeRelaxed(retired.isEmpty ? 0 : 1)
    return unread
  }
}

// `container`, `retired` and `slots` are only touched under `lock`; readers reach the root
// through `latest` and their hazard slot alone.
extension Root: @unchecked Sendable {}
