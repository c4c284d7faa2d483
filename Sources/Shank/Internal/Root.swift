#if !canImport(Darwin)
  import Synchronization
#endif

/// The container that ``Dependencies/build()`` promoted, swapped atomically.
///
/// Every container ever built is kept alive, so a reader that loaded the old root a moment
/// before a swap can never hold a released one; that is what lets the read be a single atomic
/// load (on Apple platforms, where `Atomic` needs macOS 15, an uncontended lock).
@usableFromInline
final class Root {
  @usableFromInline static let shared = Root()

  private let lock = Lock()
  private var built: [ObjectIdentifier: Dependencies] = [:]
  #if canImport(Darwin)
    private var latest: Unmanaged<Dependencies>?
  #else
    @usableFromInline let latest = Atomic<Unmanaged<Dependencies>?>(nil)
    /// Whether any task ever installed overrides; until then resolution skips the task-local
    /// read. A task that inherits overrides was created after they were installed, so it sees
    /// this set.
    @usableFromInline let overridesInstalled = Atomic<Bool>(false)
  #endif

  /// Whether ``Dependencies/overrides`` may hold a layer for some task.
  @inlinable
  var mayHaveOverrides: Bool {
    #if canImport(Darwin)
      true
    #else
      overridesInstalled.load(ordering: .relaxed)
    #endif
  }

  func noteOverridesInstalled() {
    #if !canImport(Darwin)
      overridesInstalled.store(true, ordering: .relaxed)
    #endif
  }

  /// The built root, or `nil` when nothing was built; `built` keeps it alive.
  @inlinable
  var unretainedContainer: Unmanaged<Dependencies>? {
    #if canImport(Darwin)
      load()
    #else
      latest.load(ordering: .acquiring)
    #endif
  }

  #if canImport(Darwin)
    @usableFromInline func load() -> Unmanaged<Dependencies>? { lock.withLock { latest } }
  #endif

  func replace(with container: Dependencies) {
    lock.withLock {
      built[ObjectIdentifier(container)] = container
      #if canImport(Darwin)
        latest = Unmanaged.passUnretained(container)
      #else
        latest.store(Unmanaged.passUnretained(container), ordering: .releasing)
      #endif
    }
  }
}

// `built` (and on Apple platforms `latest`) is only touched under `lock`; elsewhere `latest`
// is an atomic whose pointee `built` keeps alive.
extension Root: @unchecked Sendable {}
