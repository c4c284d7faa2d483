// A module's instance, or a closure over one, as it crosses from one thread or task to another.

/// A module's instance, or what holds or closes over one (its recipe or registration, its
/// factory, its `onClose` handler, its decoration), on its way from the thread or task that
/// has it to the one that uses it.
///
/// The one place where Shank vouches for a value the compiler cannot check: it hands these
/// between threads exactly as it hands out the instances its providers keep.
@usableFromInline
struct Handed<Value> {
  @usableFromInline let value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}

// A module registered from an actor is made, used and disposed of on that actor alone, which
// every provider checks; one registered from nonisolated code is shared by whichever threads
// resolve it, as `Module`'s Important note tells its author. A recipe is written only before
// its module is shared; a registration's own state is behind its creation lock and once-flag.
extension Handed: @unchecked Sendable {}
