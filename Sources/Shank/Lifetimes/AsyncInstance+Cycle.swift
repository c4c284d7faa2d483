// The cycles that asking for an async module closes, which waiting for it would never end.

extension AsyncInstance {
  /// The cycle that asking for the module closes where its own factory runs in this task, and
  /// asked, through the synchronous factories that `route` names, for it again: waiting for
  /// that factory would never end. The path starts at the last `closing` keys of `route`, the
  /// module's own and, for a contribution, its list's before it, where that list also asked
  /// for it as its making began, as a synchronous cycle's does.
  func cycle(closedBy route: [String], closing: Int = 1) -> [String]? {
    let runs = UniqueRun.ofThisTask
    let after: ArraySlice<UniqueRun>
    let askedBy: String?
    if shares {
      guard case .making(_, let attempt) = state.withLock({ $0.state }) else { return nil }
      guard WaitGraph.holding === attempt else {
        // Awaiting the attempt closes a cycle if what this task works for is what the attempt
        // waits for, through any number of others. Only asked: this task does not wait, so no
        // other may find it waiting.
        do throws(WaitGraph.Cycle) {
          _ = try WaitGraph.shared.recordWaitOfThisTask(
            for: attempt, via: route.dropLast(), as: route[route.count - 1], keeping: false)
          return nil
        } catch {
          return error.path
        }
      }
      // The attempt runs in a task of its own: every unique run of this task came after.
      after = runs[...]
      askedBy = attempt.askedBy
    } else {
      guard let run = runs.firstIndex(where: { $0.slot == ObjectIdentifier(self) }) else {
        return nil
      }
      after = runs[(run + 1)...]
      askedBy = runs[run].route.dropLast().last
    }
    // Entered through another key, as a dictionary's, the loop starts at the module.
    let closing = askedBy == route.dropLast().last ? closing : 1
    let loop = route.suffix(closing)
    return loop + after.flatMap(\.route) + route.dropLast(closing) + [loop[loop.startIndex]]
  }
}
