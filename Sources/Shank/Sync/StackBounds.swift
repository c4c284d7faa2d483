// This thread's stack bounds, and running a closure on a fresh stack.
//
// Sound because the bounds are only compared with addresses, never dereferenced;
// `pthread_getattr_np` is looked up by name and cast to the signature glibc and musl declare;
// and a fresh stack's thread reads `body` through the address of a local of the calling
// thread, which waits in `pthread_join` until that thread has ended.

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
    guard let (low, size) = Self.currentThreadStack() else {
      (low, reserve) = (0, 0)
      return
    }
    self.low = low
    reserve = min(max(size / 32, 24 << 10), 64 << 10)
  }

  /// How far down its stack the calling frame is: the address of one of its locals.
  @inlinable @inline(__always)
  static func position() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
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

  /// The lowest address and size of the calling thread's stack.
  private static func currentThreadStack() -> (low: UInt, size: UInt)? {
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

  /// Whether less than 128 KiB is left below this point of the stack these are the bounds of.
  var hasLittleRoom: Bool {
    low != 0 && Self.position() &- low < 128 << 10
  }

  /// `body`'s result, worked out on a fresh stack when less than 128 KiB is left on this one,
  /// whose bounds these are: an error's text, written where a chain of factories that fits
  /// ends, can take more than the reserve leaves (the runtime writing a type's name for the
  /// first time takes tens of KiB).
  func withRoom<Result>(_ body: () -> Result) -> Result {
    guard hasLittleRoom else { return body() }
    var result: Result?
    Self.onFreshStack { result = body() }
    return result!
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

/// Runs the closure at `raw`, which `StackBounds.onFreshStack` hands its thread; never `nil`.
private func runFreshStackJob(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  raw!.assumingMemoryBound(to: (() -> Void).self).pointee()
  return nil
}
