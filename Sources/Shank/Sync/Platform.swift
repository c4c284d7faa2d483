// What Shank asks the operating system and the Swift runtime: the environment, the monotonic
// clock, the main thread, the calling thread's stack, a thread with a fresh stack, and whether
// code runs on an actor.
//
// Sound because the stack's bounds and position are only compared with addresses, never
// dereferenced; a symbol looked up by name is cast to the signature its header declares (cited
// where it is cast) and used only when found; an actor's executor is read as the two words
// of the runtime's `SerialExecutorRef`, which an `UnownedSerialExecutor` holds and nothing
// else, and they are only compared or passed back to the runtime; and a fresh stack's thread
// reads its job through the address of a local of the calling thread, which waits in
// `pthread_join` until that thread has ended.

import _ShankAtomics

import class Foundation.Thread

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What the rest of Shank asks the operating system and the Swift runtime, so that the files
/// that ask need no branch per platform.
///
/// `getenv` and `clock_gettime(CLOCK_MONOTONIC, …)` are POSIX and read alike everywhere.
@usableFromInline
enum Platform {
  /// The value of the environment variable `name`, or `nil` when it is not set.
  static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Nanoseconds since an arbitrary start, that never go back.
  ///
  /// `CLOCK_MONOTONIC` is POSIX; on Apple platforms it counts on while the system sleeps, as
  /// the clock_gettime(3) page of Xcode's man pages says.
  static var monotonicNanoseconds: UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Whether the calling thread is the process's main thread.
  ///
  /// No POSIX call tells the main thread (Linux's `gettid() == getpid()` is a GNU extension
  /// that Swift's Glibc module does not declare); Foundation's `Thread` keeps the answer on
  /// every platform, and `verify()` needs Foundation's threads anyway.
  static var isMainThread: Bool {
    Thread.isMainThread
  }

  /// Whether the calling code runs on `actor`, or `nil` when only a check that stops the
  /// program could tell.
  ///
  /// No public API asks without stopping: `preconditionIsolated` traps, and on Linux the
  /// runtime's own check traps first, with a message that drops the caller's. The runtime asked
  /// not to trap answers instead (`_shank_is_current_executor`, whose definition cites the
  /// runtime's headers); it is `nil` where an older Apple system's runtime cannot be asked. Its
  /// `false` is final for a default actor, whose executor has no implementation word (the
  /// runtime's `SerialExecutorRef::forDefaultActor`); an executor of the app's own may still
  /// say yes in its `checkIsolated`, which only the trapping check calls, so that is `nil`. An
  /// actor that runs on the main actor's executor is asked as the main actor is.
  static func isRunning(on actor: any Actor) -> Bool? {
    typealias Words = (identity: UInt, implementation: UInt)
    let executor = unsafeBitCast(actor.unownedExecutor, to: Words.self)
    if executor == unsafeBitCast(MainActor.sharedUnownedExecutor, to: Words.self) {
      return MainActorCheck.isOnMainActor
    }
    let identity = UnsafeRawPointer(bitPattern: executor.identity)
    switch _shank_is_current_executor(identity, executor.implementation) {
    case 1: return true
    case 0 where executor.implementation == 0: return false
    default: return nil
    }
  }

  /// How far down its stack the calling frame is: the address of one of its locals.
  @inlinable @inline(__always)
  static func stackPosition() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }

  /// The lowest address and size of the calling thread's stack.
  static func currentThreadStack() -> (low: UInt, size: UInt)? {
    #if canImport(Darwin)
      // `size_t pthread_get_stacksize_np(pthread_t)` and
      // `void* pthread_get_stackaddr_np(pthread_t)`: <pthread.h> in apple/darwin-libpthread
      // (include/pthread/pthread.h), macOS 10.4, iOS 2.0.
      // The header does not say which end the address is; Apple's libc takes it as the top, the
      // highest address, and the bottom as that less the size (`thread_stack_pcs`, as quoted in
      // a boostorg/stacktrace issue). Not compiled here: no Apple machine builds this package.
      let thread = pthread_self()
      let size = UInt(pthread_get_stacksize_np(thread))
      let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
      guard size > 0, high > size else { return nil }
      return (high - size, size)
    #elseif canImport(Glibc) || canImport(Musl)
      // Declared only under _GNU_SOURCE, which Swift's C module for the C library leaves out,
      // so it is looked up by name.
      guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
      typealias Attributes = UnsafeMutablePointer<pthread_attr_t>
      typealias GetAttributes = @convention(c) (pthread_t, Attributes) -> Int32
      let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
      var attributes = pthread_attr_t()
      guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
      defer { pthread_attr_destroy(&attributes) }
      var address: UnsafeMutableRawPointer?
      var size = 0
      guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > 0
      else { return nil }
      return (UInt(bitPattern: address), UInt(size))
    #else
      return nil
    #endif
  }

  /// Runs `body` on a new thread, and waits for it: for work that may need more stack than
  /// the calling thread has left. Runs it here if no thread can be started.
  ///
  /// Not generic, so that calling it makes no type's metadata for the first time: in a debug
  /// build that alone can take kilobytes of stack.
  static func onFreshStack(_ body: () -> Void) {
    withoutActuallyEscaping(body) { body in
      var job = body
      withUnsafeMutablePointer(to: &job) { job in
        #if canImport(Darwin)
          // `pthread_create` takes `pthread_t _Nullable * _Nonnull` (<pthread.h>,
          // apple/darwin-libpthread): there `pthread_t` is a pointer, in glibc an integer.
          var thread: pthread_t?
        #else
          var thread = pthread_t()
        #endif
        // A closure, not `runFreshStackJob` itself: it converts to the start routine whether
        // that takes an optional pointer, as in glibc, or a nonnull one, as swift-nio's
        // NIOPosix/ThreadPosix.swift, built on macOS, declares it for Apple platforms. The
        // open-source <pthread.h> (apple/darwin-libpthread) reads
        // `void * _Nullable (* _Nonnull)(void * _Nullable)` for Swift; not built here to tell.
        guard pthread_create(&thread, nil, { runFreshStackJob($0) }, job) == 0 else {
          return body()
        }
        // `body` runs on the new thread only, and this one goes on once that thread has ended.
        #if canImport(Darwin)
          pthread_join(thread!, nil)
        #else
          pthread_join(thread, nil)
        #endif
      }
    }
  }
}

/// Runs the closure at `raw`, which `onFreshStack` hands its thread; never `nil`.
private func runFreshStackJob(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  raw!.assumingMemoryBound(to: (() -> Void).self).pointee()
  return nil
}
