// The one once-word: empty, then claimed by one writer, then published for good.
//
// Sound because the word only ever moves empty → claimed → published, the move to claimed is
// a compare-exchange that one thread alone wins, and that thread writes what the word guards
// before its releasing store of published. Every other thread reads what the word guards only
// after an acquiring load has seen published, so it sees everything written before that store.

import _ShankAtomics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value's publication, read with one acquiring load and no lock on any platform.
///
/// Either a flag of its own (``init()``: a `.singleton` provider claims it with its creation
/// lock), or the word-level operations on a word that sits beside the value it guards in one
/// allocation (a ``OnceCell``).
@usableFromInline
struct OnceFlag {
  @usableFromInline static let empty: UInt = 0
  @usableFromInline static let claimed: UInt = 1
  @usableFromInline static let published: UInt = 2

  /// The word of a flag of its own. `Synchronization.Atomic` needs macOS 15 and iOS 18; a
  /// `ManagedBuffer`'s tail gives the word a stable address without `&` of a stored property.
  @usableFromInline
  final class Word: ManagedBuffer<Void, UInt> {}

  @usableFromInline let word: Word

  /// An empty flag of its own.
  @usableFromInline init() {
    word = unsafeDowncast(Word.create(minimumCapacity: 1) { _ in }, to: Word.self)
    word.withUnsafeMutablePointerToElements { $0.initialize(to: Self.empty) }
  }

  /// Whether the value is published, and so safe to read from any thread.
  @inlinable var isSet: Bool {
    word.withUnsafeMutablePointerToElements { Self.isSet(at: $0) }
  }

  /// Publishes what the writer stored before this call; the writer's own claim (a lock) made
  /// it the only one.
  @usableFromInline func publish() {
    word.withUnsafeMutablePointerToElements { Self.publish(at: $0) }
  }

  /// Whether the word at `word` is published.
  @inlinable @inline(__always)
  static func isSet(at word: UnsafeMutablePointer<UInt>) -> Bool {
    _shank_load_acquiring(word) == published
  }

  /// Moves the word at `word` from empty to claimed: `true` for the one caller that did.
  static func claim(at word: UnsafeMutablePointer<UInt>) -> Bool {
    _shank_compare_exchange_acquiring(word, empty, claimed)
  }

  /// Publishes what the claiming thread wrote before this call.
  static func publish(at word: UnsafeMutablePointer<UInt>) {
    _shank_store_releasing(word, published)
  }

  /// Returns once another thread's claim of the word at `word` is published. The claimer
  /// writes one value and publishes it without waiting for anything, so this yields rather
  /// than blocks; `sched_yield` is POSIX `<sched.h>` on Linux and Darwin alike.
  static func waitUntilSet(at word: UnsafeMutablePointer<UInt>) {
    while !isSet(at: word) { sched_yield() }
  }
}

// The word is only touched through the atomic operations above.
extension OnceFlag: @unchecked Sendable {}
