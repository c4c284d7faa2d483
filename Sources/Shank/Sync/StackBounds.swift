// This thread's stack bounds, and the reserve below which no factory may start. The
// platform calls that find them are `Platform`'s.

/// Where a thread's stack ends, so that a chain of factories too deep for it stops with a
/// message instead of overflowing into the guard page.
@usableFromInline
struct StackBounds {
  /// The lowest address of the stack, which grows down; 0 when it could not be found.
  @usableFromInline let low: UInt
  /// How much of the stack, above `low`, no factory may start in; 0 when it could not be found.
  ///
  /// The reserve is what is left for the last factory Shank lets start: its own frames up to
  /// the resolution it asks for next, then everything that reports the refusal, down to the
  /// throw, which a test framework or debugger may hook, and its first casts. In a debug build
  /// under Swift Testing that takes up to 16 KiB. So a stack keeps a 32nd of itself, at least
  /// 24 KiB and at most 64 KiB: a 512 KiB thread still holds over 200 nested resolutions in a
  /// debug build, and a larger one leaves factories more room of their own.
  @usableFromInline let reserve: UInt

  /// The calling thread's.
  init() {
    guard let (low, size) = Platform.currentThreadStack() else {
      (low, reserve) = (0, 0)
      return
    }
    self.low = low
    reserve = min(max(size / 32, 24 << 10), 64 << 10)
  }

  /// Whether a factory may not start at `address`, on this stack or off it.
  ///
  /// One subtraction and one comparison: an address below the stack wraps around to far above
  /// the reserve, as one above it is. AddressSanitizer, to catch a use after return, keeps
  /// locals off the stack; their addresses are then never in the reserve, and the sanitizer
  /// reports an overflow itself.
  @inlinable
  func isInReserve(_ address: UInt) -> Bool {
    address &- low < reserve
  }

  /// Whether less than 128 KiB is left below this point of the stack these are the bounds of.
  var hasLittleRoom: Bool {
    low != 0 && Platform.stackPosition() &- low < 128 << 10
  }

  /// `body`'s result, worked out on a fresh stack when less than 128 KiB is left on this one,
  /// whose bounds these are: an error's text, written where a chain of factories that fits
  /// ends, can take more than the reserve leaves (the runtime writing a type's name for the
  /// first time takes tens of KiB).
  func withRoom<Result>(_ body: () -> Result) -> Result {
    guard hasLittleRoom else { return body() }
    var result: Result?
    Platform.onFreshStack { result = body() }
    return result!
  }
}
