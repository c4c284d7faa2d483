// The environment, the monotonic clock and the main-thread test, from each platform's C library.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if !canImport(Darwin) && canImport(Foundation)
  import class Foundation.Thread
#endif

/// What the rest of Shank asks the operating system, so that the files that ask need no branch
/// per platform.
///
/// `getenv` and `clock_gettime(CLOCK_MONOTONIC, …)` are POSIX and read alike everywhere; only
/// the main-thread test differs. No Apple machine builds this package, so each Apple-only call
/// says which declaration it was checked against.
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
  static var isMainThread: Bool {
    #if canImport(Darwin)
      // `int pthread_main_np(void)`, "returns non-zero if the current thread is the main
      // thread": <pthread.h> in apple/darwin-libpthread (include/pthread/pthread.h), macOS 10.4
      // and iOS 2.0. Not compiled here: no Apple machine builds this package.
      pthread_main_np() != 0
    #elseif canImport(Foundation)
      // No POSIX call tells the main thread (Linux's `gettid() == getpid()` is a GNU extension
      // that Swift's Glibc module does not declare); Foundation's `Thread` keeps the answer.
      Thread.isMainThread
    #else
      // No main-thread test here: only main-queue blocks count as the main actor.
      false
    #endif
  }
}
