// A word read and written atomically, over the C atomics of `_ShankAtomics`.

import _ShankAtomics

/// One machine word read and written atomically, at a stable address of its own.
///
/// `Synchronization.Atomic` needs macOS 15 and iOS 18, so the operations come from a small C
/// header, the same on every platform. The word sits in a `ManagedBuffer`'s tail, so nothing
/// ever takes `&` of a stored property.
@usableFromInline
struct AtomicWord {
  @usableFromInline
  final class Storage: ManagedBuffer<Void, UInt> {}

  @usableFromInline let storage: Storage

  /// A word holding `value`.
  init(_ value: UInt) {
    let made = Storage.create(minimumCapacity: 1) { _ in }
    made.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
    storage = unsafeDowncast(made, to: Storage.self)
  }

  /// The value, and everything written before the store that wrote it.
  @inlinable var acquiring: UInt {
    storage.withUnsafeMutablePointerToElements { _shank_load_acquiring($0) }
  }

  /// Stores `value` after everything written before it.
  func storeReleasing(_ value: UInt) {
    storage.withUnsafeMutablePointerToElements { _shank_store_releasing($0, value) }
  }
}

// The word is only touched through the atomic operations above.
extension AtomicWord: @unchecked Sendable {}
