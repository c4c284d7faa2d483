/// The container that ``Dependencies/build()`` promoted, swapped atomically.
///
/// Every container ever built is kept alive, so a reader that loaded the old root a moment
/// before a swap can never hold a released one; that is what lets the read be a single atomic
/// load.
@usableFromInline
final class Root {
  @usableFromInline static let shared = Root()

  private let lock = Lock()
  private var built: [ObjectIdentifier: Dependencies] = [:]
  /// The latest built root's address, or 0; `built` keeps it alive.
  @usableFromInline let latest = AtomicWord(0)
  /// Whether any task ever installed overrides (1) or not (0); until then resolution skips the
  /// task-local read. A task that inherits overrides was created after they were installed,
  /// so it sees this set.
  @usableFromInline let overridesInstalled = AtomicWord(0)

  /// Whether ``Dependencies/overrides`` may hold a layer for some task.
  @inlinable
  var mayHaveOverrides: Bool {
    overridesInstalled.relaxed != 0
  }

  func noteOverridesInstalled() {
    overridesInstalled.storeRelaxed(1)
  }

  /// The built root, or `nil` when nothing was built; `built` keeps it alive.
  @inlinable
  var unretainedContainer: Unmanaged<Dependencies>? {
    UnsafeRawPointer(bitPattern: latest.acquiring).map { Unmanaged.fromOpaque($0) }
  }

  func replace(with container: Dependencies) {
    lock.withLock {
      built[ObjectIdentifier(container)] = container
      let address = Unmanaged.passUnretained(container).toOpaque()
      latest.storeReleasing(UInt(bitPattern: address))
    }
  }
}

// `built` is only touched under `lock`; `latest` points into `built`, which keeps it alive.
extension Root: @unchecked Sendable {}
