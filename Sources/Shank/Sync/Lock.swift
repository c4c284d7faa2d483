// The one lock type: a mutex over the platform's own, with the state it guards beside it.
//
// Sound because the primitive is made once, in place, in a `ManagedBuffer`'s tail, which
// never moves (both primitives depend on their address), is touched only through the
// platform's own lock calls below, and is destroyed only in `deinit`, when no thread can hold
// it. The state, the buffer's header, is reached only inside `withLock`, while the lock is
// held; but for a `CreationLock`'s, one word touched only through `_ShankAtomics`' atomic
// calls and never through `withLock`, which holds a thread's identity, compared and never
// dereferenced. A lock made with room has that many bytes more after the primitive, from the
// next `UInt` boundary (`roomOffset`), which the lock never touches: they are its owner's (a
// singleton's `OnceBox`, see Once.swift). On Darwin it is `os_unfair_lock`, checked against
// `<os/lock.h>` and Apple's documentation
// (developer.apple.com/documentation/os/os_unfair_lock_lock, …_trylock, …_unlock):
// `os_unfair_lock_t` is `struct os_unfair_lock_s *`, `os_unfair_lock_lock` and
// `os_unfair_lock_unlock` return `void`, `os_unfair_lock_trylock` returns `bool`, all since
// macOS 10.12 and iOS 10 (below this package's floor); `os_unfair_lock()` is
// `OS_UNFAIR_LOCK_INIT`, and the lock needs no destroy call. Elsewhere it is a default
// `pthread_mutex_t`. Not one `pthread_mutex_t` everywhere: on Darwin it is fair, so a lock
// handed over under contention costs a context switch that the unfair lock avoids.

import _ShankAtomics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// State that threads share, reached only while holding the lock that guards it.
///
/// `Synchronization.Mutex` needs macOS 15 and iOS 18; this keeps the package's older floor.
/// The state and the platform primitive share one allocation, the primitive in a
/// `ManagedBuffer`'s tail, so nothing ever takes `&` of a stored lock. Like `Mutex`, the state
/// goes in and out only as `sending` values, so a type that keeps its mutable state in a
/// `Locked` is `Sendable` without an unchecked conformance of its own.
@usableFromInline
struct Locked<State> {
  #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
  #else
    @usableFromInline typealias Primitive = pthread_mutex_t
  #endif

  @usableFromInline
  final class Buffer: ManagedBuffer<State, Primitive> {
    deinit {
      #if !canImport(Darwin)
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
      #endif
    }
  }

  @usableFromInline let buffer: Buffer

  /// A lock guarding `state`, with `room` bytes after the primitive, uninitialized, for
  /// its owner to keep something beside the lock in the same allocation.
  init(_ state: sending State, room: Int = 0) {
    let stride = MemoryLayout<Primitive>.stride
    let bytes = Self.roomOffset + room
    let made = Buffer.create(minimumCapacity: (bytes + stride - 1) / stride) { _ in state }
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

  /// The room after the primitive (see ``init(_:room:)``): stable while the lock lives, and
  /// aligned for `UInt`s.
  @inlinable @inline(__always)
  var room: UnsafeMutableRawPointer {
    buffer.withUnsafeMutablePointerToElements { UnsafeMutableRawPointer($0) + Self.roomOffset }
  }

  /// Where the room starts after the primitive: its size rounded up to a `UInt`'s alignment,
  /// since `os_unfair_lock` is 4 bytes. The primitive itself starts on a `UInt` boundary
  /// where the state is a `UInt`, as a `CreationLock`'s is: the buffer's header is an object
  /// header and the state.
  @inlinable
  static var roomOffset: Int {
    let alignment = MemoryLayout<UInt>.alignment
    return (MemoryLayout<Primitive>.stride + alignment - 1) / alignment * alignment
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

  /// Runs `body` with the state, holding the lock.
  @inlinable
  func withLock<Result, Failure: Error>(
    _ body: (inout sending State) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock()
    defer { unlock() }
    return try body(&buffer.header)
  }
}

// The primitive is only touched through the platform's own lock calls, and the state only
// under the lock, handed in and out as `sending` values.
extension Locked: @unchecked Sendable {}

/// A shared instance's creation lock, with a word beside it that names the thread holding it,
/// for ``WaitGraph`` to follow, which reads it without the lock (see there why that is enough).
@usableFromInline
typealias CreationLock = Locked<UInt>

extension Locked where State == UInt {
  /// A creation lock that no thread holds, with `room` bytes for its owner after it.
  init(room: Int = 0) { self.init(0, room: room) }

  /// The word that names `thread` as a holder: never 0.
  static func holder(_ thread: ResolutionTrace) -> UInt {
    Unretained(thread).address
  }

  /// The word of the thread that holds the lock to make the instance, or 0.
  var holder: UInt {
    buffer.withUnsafeMutablePointerToHeader { _shank_load_acquiring($0) }
  }

  /// Names `thread` as the maker, or no one; only by the thread that holds the lock.
  func setHolder(_ thread: Unretained<ResolutionTrace>?) {
    let word = thread?.address ?? 0
    buffer.withUnsafeMutablePointerToHeader { _shank_store_releasing($0, word) }
  }
}
