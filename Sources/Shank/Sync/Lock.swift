// The one lock type: a mutex over the platform's own.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A mutual-exclusion lock whose platform primitive lives at a stable address.
///
/// `Synchronization.Mutex` needs macOS 15 and iOS 18; this keeps the package's older floor.
/// The primitive sits in a `ManagedBuffer`'s tail, so nothing ever takes `&` of a stored lock.
@usableFromInline
final class Lock {
  #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  private final class Buffer: ManagedBuffer<Void, Primitive> {
    deinit {
      #if !canImport(Darwin)
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
      #endif
    }
  }

  private let buffer: Buffer

  @usableFromInline
  init() {
    let made = Buffer.create(minimumCapacity: 1) { _ in }
    buffer = unsafeDowncast(made, to: Buffer.self)
    buffer.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
      #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
      #endif
    }
  }

  @usableFromInline
  func lock() {
    buffer.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
      #else
        _ = pthread_mutex_lock(primitive)
      #endif
    }
  }

  /// Takes the lock only if no other thread holds it.
  func tryLock() -> Bool {
    buffer.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        os_unfair_lock_trylock(primitive)
      #else
        pthread_mutex_trylock(primitive) == 0
      #endif
    }
  }

  @usableFromInline
  func unlock() {
    buffer.withUnsafeMutablePointerToElements { primitive in
      #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
      #else
        _ = pthread_mutex_unlock(primitive)
      #endif
    }
  }

  @inlinable
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

// The primitive is only touched through the platform's own lock calls.
extension Lock: @unchecked Sendable {}
