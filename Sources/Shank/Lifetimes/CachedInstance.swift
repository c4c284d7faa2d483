/// A `.cached` module's kept instance, guarded apart from its creation lock.
///
/// ``Dependencies/reset(_:)`` takes only this lock, which is never held while a factory runs,
/// so a reset never waits for a factory: neither one reset from inside that factory, nor one
/// whose factory, on another thread, waits for the resetting thread. A reset that lands while
/// an instance is being made bumps the generation, and the maker then hands its instance to
/// its own caller without keeping it.
final class CachedInstance<Value> {
  private let lock = Lock()
  private var kept: Value?
  /// The kept instance's entry in its container's ``Disposals``, if its module has `onClose`.
  private var disposal: UInt?
  private var resets: UInt = 0

  /// The kept instance and how many resets came before it, or before the next one made, read
  /// under the lock.
  var current: (value: Value?, generation: UInt) {
    lock.withLock { (kept, resets) }
  }

  /// Keeps `value`, unless a reset came after `generation` was read; when it keeps it, records
  /// the disposal that `dispose` adds, under the same lock, so that no reset can come between.
  /// Returns whether it kept it: one it did not is dropped as soon as it is made.
  func keep(_ value: Value, madeIn generation: UInt, dispose: () -> UInt?) -> Bool {
    // What was kept before is released outside the lock, as `reset` says.
    let (stale, isKept): (Value?, Bool) = lock.withLock {
      guard resets == generation else { return (nil, false) }
      disposal = dispose()
      defer { kept = value }
      return (kept, true)
    }
    withExtendedLifetime(stale) {}
    return isKept
  }

  /// Drops the kept instance; returns the id of its disposal, if it has one.
  func reset() -> UInt? {
    let (dropped, disposal): (Value?, UInt?) = lock.withLock {
      resets &+= 1
      defer {
        kept = nil
        self.disposal = nil
      }
      return (kept, self.disposal)
    }
    // Released outside the lock: the instance's deinit may resolve, or reset again.
    withExtendedLifetime(dropped) {}
    return disposal
  }
}

// `kept`, `disposal` and `resets` are only touched under `lock`.
extension CachedInstance: @unchecked Sendable {}
