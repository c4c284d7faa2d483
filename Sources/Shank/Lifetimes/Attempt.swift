/// One run of a shared async module's factory, as the ``WaitGraph`` knows it: what the run's
/// task holds, and what those who await it wait for. One per run, so that a wait recorded for a
/// run that has ended, until its waiter resumes, names nothing that anyone holds.
/// A cycle through it names the module as each of its waiters asked for it (``WaitGraph/Wait``).
final class Attempt: Sendable {
  /// The resets of a `.cached` module's scope that came before the run began.
  let generation: UInt?
  /// The value the run made, which every resolution that awaited it keeps until it returns
  /// (`makingAsyncModules` holds the attempt): a `.weak` module's value,
  /// which nothing else may hold, lives on until such a resolution has taken it.
  let made = Locked<Handed<Any>?>(nil)

  init(generation: UInt?) {
    self.generation = generation
  }
}
