// The words that resolution reads with no lock: the process's switches, the built root with
// each thread's hazard slot, and each thread's trace; Swift calls over `_ShankAtomics`.
//
// Sound because each word is touched only through `_ShankAtomics`' atomic calls. The switches
// only choose a path and guard no data, so relaxed order is enough. The root word and the
// hazard slots follow `_shank_protect`'s handshake: a reader stores what it loaded into its
// slot and reloads (both sequentially consistent) until the two agree; `Root` stores a new root
// and then scans every registered slot, so either the reader sees the new root or `Root` sees
// the old one held. A slot lives as long as its thread: it is registered when the thread first
// resolves and unregistered by the thread's key destructor, before the thread's storage goes.
// The trace slot holds one retain of the thread's trace, given back by that destructor alone.
//
// How these orderings fit the rest is in "Memory ordering, in one place" in ARCHITECTURE.md.

import _ShankAtomics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Process-wide switches that every resolution reads with one relaxed load, and that are set
/// rarely: plain C globals, so a read checks no lazy initialization.
@usableFromInline
enum Switches {
  /// Whether some observer of resolutions is installed.
  @inlinable @inline(__always)
  static var isObserving: Bool { _shank_is_observing() != 0 }

  static func setObserving(_ isObserving: Bool) {
    _shank_set_observing(isObserving ? 1 : 0)
  }

  /// Whether ``Dependencies/overrides`` may hold a layer for some task: until a task installs
  /// overrides or a scope, resolution skips the task-local read. A task that inherits one was
  /// created after it was installed, so it sees this set.
  @inlinable @inline(__always)
  static var mayHaveOverrides: Bool { _shank_may_have_overrides() != 0 }

  static func noteOverridesInstalled() {
    _shank_note_overrides_installed()
  }
}

/// The built root's address, and the hazard slot through which each thread reads it without a
/// lock or a retain (see ``Root``).
@usableFromInline
enum Hazard {
  /// The built root's address, or 0, loaded into this thread's slot: `Root` frees no root that
  /// a slot holds.
  @inlinable @inline(__always)
  static func protectLatestRoot() -> UInt {
    _shank_protect(_shank_latest_root_address())
  }

  /// What this thread's slot holds: 0, or the root an outer read of this thread reads.
  @inlinable @inline(__always)
  static var held: UInt { _shank_hazard() }

  /// Puts back what the slot held before a read began.
  @inlinable @inline(__always)
  static func restore(_ saved: UInt) {
    _shank_restore_hazard(saved)
  }

  /// Makes `address` the built root; the caller then scans the slots.
  static func publishLatestRoot(_ address: UInt) {
    _shank_store_sequential(_shank_latest_root_address(), address)
  }

  /// One thread's slot, as `Root` keeps it while the thread runs.
  struct Slot: Equatable {
    fileprivate let word: UnsafeMutablePointer<UInt>

    /// The calling thread's.
    static var current: Slot { Slot(word: _shank_hazard_address()) }

    /// The root address the slot's thread is reading, or 0.
    func load() -> UInt {
      _shank_load_sequential(word)
    }
  }
}

/// Each thread's ``ResolutionTrace``, in a C thread-local: read in a couple of instructions,
/// where `pthread_getspecific` is a call.
@usableFromInline
enum ThreadTrace {
  /// This thread's trace, if it has one; the thread keeps it alive until it ends.
  @inlinable @inline(__always)
  static var current: Unretained<ResolutionTrace>? {
    guard let raw = _shank_trace() else { return nil }
    return Unretained(.fromOpaque(raw))
  }

  /// Makes `trace` this thread's, released when the thread ends, and registers the thread's
  /// hazard slot, which the root's replacement looks at from then on.
  static func install(_ trace: ResolutionTrace) -> Unretained<ResolutionTrace> {
    let retained = Unmanaged.passRetained(trace)
    pthread_setspecific(key, retained.toOpaque())
    _shank_set_trace(retained.toOpaque())
    Root.shared.register(.current)
    return Unretained(retained)
  }

  /// Undoes `install` on a thread that is ending.
  private static func end(_ raw: UnsafeMutableRawPointer?) {
    // Never nil: POSIX calls a key's destructor only for a value that is set.
    guard let raw else { return }
    Root.shared.unregister(.current)
    _shank_set_trace(nil)
    Unmanaged<ResolutionTrace>.fromOpaque(raw).release()
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    // Apple's <pthread.h> declares the destructor `void (* _Nullable)(void *)` inside
    // `assume_nonnull` (apple/darwin-libpthread, include/pthread/pthread.h): Swift passes it a
    // nonnull pointer there, as swift-nio's NIOPosix/ThreadPosix.swift has it, and an optional
    // one on glibc. `end` takes an optional, which both convert to.
    pthread_key_create(&key) { end($0) }
    return key
  }()
}

// A slot's word is touched only through `_ShankAtomics`' atomic calls, and lives as long as
// its thread, which unregisters the slot before it ends (see `ThreadTrace.end`).
extension Hazard.Slot: @unchecked Sendable {}
