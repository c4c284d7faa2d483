/// One run of a shared async module's factory, as the ``WaitGraph`` knows it: what the run's
/// task holds, and what those who await it wait for. One per run, so that a wait recorded for a
/// run that has ended, until its waiter resumes, names nothing that anyone holds.
/// A cycle through it names the module as each of its waiters asked for it (``WaitGraph/Wait``).
final class Attempt: Sendable {
  /// The resets of a `.cached` module's scope that came before the run began.
  let generation: UInt?
  /// The key that asked for the module as the run began: for a contribution, the list that
  /// gathered it, where a cycle through that list is entered.
  let askedBy: String?

  init(generation: UInt?, askedBy: String?) {
    self.generation = generation
    self.askedBy = askedBy
  }
}
