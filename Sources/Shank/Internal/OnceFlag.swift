#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if !canImport(Darwin)
  import Synchronization
#endif

/// A value's publication: empty, then claimed by one writer, then published for good.
///
/// A reader that sees it published may read the value the writer stored before publishing.
/// `Synchronization.Atomic` needs macOS 15 and iOS 18, so on Apple platforms the state is read
/// under a lock; elsewhere reading it is a single acquiring load.
@usableFromInline
final class OnceFlag {
  @usableFromInline static let empty: UInt8 = 0
  @usableFromInline static let claimed: UInt8 = 1
  @usableFromInline static let published: UInt8 = 2

  #if canImport(Darwin)
    private let lock = Lock()
    private var state = OnceFlag.empty
  #else
    @usableFromInline let state = Atomic<UInt8>(OnceFlag.empty)
  #endif

  @usableFromInline init(published: Bool = false) {
    if published { publish() }
  }

  /// Whether the value was published.
  @inlinable var isSet: Bool {
    #if canImport(Darwin)
      load() == Self.published
    #else
      state.load(ordering: .acquiring) == Self.published
    #endif
  }

  /// Makes the caller the one writer, if nobody claimed it yet.
  func claim() -> Bool {
    #if canImport(Darwin)
      lock.withLock {
        guard state == Self.empty else { return false }
        state = Self.claimed
        return true
      }
    #else
      state.compareExchange(expected: Self.empty, desired: Self.claimed, ordering: .acquiring)
        .exchanged
    #endif
  }

  /// Publishes what the writer stored.
  @usableFromInline func publish() {
    #if canImport(Darwin)
      lock.withLock { state = Self.published }
    #else
      state.store(Self.published, ordering: .releasing)
    #endif
  }

  /// Waits the moment it takes the one writer to store and publish.
  func waitUntilPublished() {
    while !isSet { sched_yield() }
  }

  #if canImport(Darwin)
    @usableFromInline func load() -> UInt8 { lock.withLock { state } }
  #endif
}

// On Apple platforms `state` is only touched under `lock`; elsewhere it is an atomic.
extension OnceFlag: @unchecked Sendable {}
