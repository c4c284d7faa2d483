// A monotonic clock for durations, without Foundation.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The clock that times factories, for ``StartReport`` and ``ResolutionEvent``: nanoseconds
/// that never go back, read without Foundation.
enum MonotonicClock {
  /// Nanoseconds since an arbitrary start.
  static var now: UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
