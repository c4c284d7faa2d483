// A shared module's instance whose decoration waits for an async module not made yet.

/// An instance of a shared module whose decoration met an async module not made yet: what the
/// decorators before that one made of it, the decorator to go on from (the first, where they
/// caught the module's absence and the instance is kept undecorated), the resets before it
/// was made, and its `onClose`'s entry in its owner's disposals, where a close or a reset
/// that drops it runs the handler. A reference: a field of a generic type, or an optional
/// tuple, would cost every provider made and freed a call into the runtime.
final class Unfinished {
  let value: Any
  let next: Int
  let generation: UInt
  let disposal: UInt?

  init(value: Any, next: Int, generation: UInt, disposal: UInt?) {
    (self.value, self.next, self.generation, self.disposal) = (value, next, generation, disposal)
  }
}
