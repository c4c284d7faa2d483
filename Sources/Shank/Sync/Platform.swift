// The environment and the monotonic clock, from the C library, and the main-thread test.

import class Foundation.Thread

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What the rest of Shank asks the operating system, so that the files that ask need no branch
/// per platform.
///
/// `getenv` and `clock_gettime(CLOCK_MONOTONIC, …)` are POSIX and read alike everywhere.
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
}
