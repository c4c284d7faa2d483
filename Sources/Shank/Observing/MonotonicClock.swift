// A monotonic clock for durations, without Foundation.

/// The clock that times factories, for ``StartReport`` and ``ResolutionEvent``: nanoseconds
/// that never go back, read without Foundation.
enum MonotonicClock {
  /// Nanoseconds since an arbitrary start.
  static var now: UInt64 { Platform.monotonicNanoseconds }
}
