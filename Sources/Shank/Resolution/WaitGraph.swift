// Who waits for whom: threads making shared instances, closing runs and async attempts.

/// Who waits for whom, to refuse a wait that would never end rather than deadlock.
///
/// Two kinds of waits come here, and only those that would block: a thread that finds a
/// shared instance's creation lock busy, and a task that awaits a container's closing run (see
/// ``Disposals/close()``) or a shared async module's attempt (see
/// ``AsyncInstance/make(in:at:taken:generation:route:asked:depth:)``) while it runs one of them itself (``holding``).
/// Thread A making singleton X asks for Y while thread B, making Y, asks for X; a handler of
/// container C closes D while one of D's closes C; an async factory closes C, whose handler
/// asks for that factory's module: each holds what the other waits for. A thread that holds a
/// creation lock itself, because a factory resolves the instance it is making, finds the cycle
/// at the first word it reads; a handler that closes its own container, at its own run.
///
/// Who makes an instance is not recorded here but in its ``CreationLock``'s holder word, which
/// the maker sets and clears without this lock, and which a waiter reads under it. That is
/// enough to find every cycle, and never to report one that is not there:
/// - A thread sets the word of what it holds before it registers its own wait, under this
///   lock. So of the threads in a deadlock, the last one to register, whose registration
///   closes the cycle, reads, after taking this lock, every other one's words and waits.
/// - A word read here names a thread that may since have let go of the instance; but a chain
///   goes on past a thread only where that thread waits, and it cleared the word before it
///   registered that wait, which the reader then sees: a stale holder ends the chain. A thread
///   always reads its own latest write, so a reader never takes an old word for its own.
///
/// A run or an attempt holds only itself, and may wait for several at once, or for the same one
/// twice.
final class WaitGraph: Sendable {
  static let shared = WaitGraph()

  /// The closing run or async attempt the current task works for, whose waits are recorded.
  ///
  /// A run's handlers and every task they start work for the run. An attempt's factory works
  /// for it in the attempt's own task alone: a task it starts and does not await must not be
  /// refused for what the attempt waits for.
  static var holding: (any AnyObject & Sendable)? {
    guard let held else { return nil }
    guard let task = held.task else { return held.holder }
    return withUnsafeCurrentTask { $0?.hashValue } == task ? held.holder : nil
  }

  /// Runs `body` working for `holder`, if any, in this task alone where `inherited` is false.
  ///
  /// A child task that its starter awaits works for what the starter works for (its
  /// ``holding``): a wait that `start()` records in the task of an eager module is its caller's.
  static func run<Value: Sendable>(
    holding holder: (any AnyObject & Sendable)?, inherited: Bool,
    _ body: () async throws -> Value
  ) async rethrows -> Value {
    guard let holder else { return try await body() }
    let task = inherited ? nil : withUnsafeCurrentTask { $0?.hashValue }
    return try await $held.withValue((holder, task), operation: body)
  }

  /// What ``holding`` reads, with the task that set it where its tasks do not inherit it.
  @TaskLocal private static var held: (holder: any AnyObject & Sendable, task: Int?)?

  /// One wait: `waiter` waits for `awaited` until whoever holds it lets go.
  struct Wait {
    /// The waiting thread's word (``CreationLock/holder(_:)``), or the address of the run or
    /// attempt that waits.
    let waiter: UInt
    /// The registration whose instance is being made, or the closing run (a ``Disposals``) or
    /// async attempt (an ``Attempt``).
    let awaited: AnyObject
    /// The registration's creation lock, whose word names its holder; `nil` for a run.
    var lock: CreationLock?
    /// The waiting thread, whose stack a cycle's path runs through; `nil` for a task.
    var thread: ResolutionTrace?
    /// For a task, the factories its holder went through on the way to `awaited`: the unique
    /// async modules it runs, then the synchronous ones that asked.
    var route: [String] = []
    /// For a task waiting for an attempt, the key it asked for the attempt's module by: one
    /// attempt serves askers of each of the module's types.
    var asked: String?

    /// What `awaited` is, as a cycle's path names it: as the waiter asked for it.
    var awaitedKey: String { asked ?? String(describing: awaited) }

    /// Who holds `awaited` now: the thread making the instance, or the run or attempt itself.
    var holder: UInt { lock?.holder ?? UInt(bitPattern: ObjectIdentifier(awaited)) }
  }

  /// A wait refused: the path of the cycle it would have closed. Also what
  /// ``AsyncInstance/take()`` throws where the module's own factory, running in this task,
  /// asked for it again, which the provider reports for its key.
  struct Cycle: Error {
    let path: [String]
    /// The key that closed the loop, which names the error, where it is not the key of the
    /// resolution that throws: a contribution's, asked for by a list it is no key of.
    var closedBy: KeyDescription? = nil
  }

  /// Every wait recorded and not yet over.
  private let waits = Locked([Wait]())

  /// Records `wait`, unless the holder of what it waits for waits, through any number of
  /// waits, for what its waiter holds; then returns the cycle's path. Records nothing unless
  /// `keeping`: a wait only asked about is seen by no one else.
  ///
  /// The check and the record are one step under the lock, so of two waits that close a cycle
  /// at the same time, the second to come here sees the first.
  func record(_ wait: Wait, keeping: Bool = true) -> [String]? {
    waits.withLock { waits in
      var paths = [[wait]]
      var seen: Set<UInt> = []
      while let path = paths.popLast() {
        let holder = path[path.count - 1].holder
        if holder == wait.waiter {
          guard wait.thread == nil else { return Self.path(around: path) }
          // Each holder went through its route to what it waits for, held by the next.
          let steps = (path.dropFirst() + [wait]).flatMap { $0.route + [$0.awaitedKey] }
          return [wait.awaitedKey] + steps
        }
        guard seen.insert(holder).inserted else { continue }
        paths += waits.filter { $0.waiter == holder }.map { path + [$0] }
      }
      if keeping { waits.append(wait) }
      return nil
    }
  }

  /// Records that the run or attempt the current task works for (``holding``) waits for the
  /// run or attempt `awaited`, and returns the wait, for ``remove(_:)`` once it is over; `nil`
  /// when the task works for none, whose waits cannot close a cycle. `via` is the synchronous
  /// factories that asked for `awaited`, outermost first, and `asked` the key they asked by.
  ///
  /// - Throws: The cycle, recording nothing, when waiting would never end.
  func recordWaitOfThisTask(
    for awaited: AnyObject, via: [String] = [], as asked: String? = nil, keeping: Bool = true
  ) throws(Cycle) -> Wait? {
    guard let waiter = Self.holding else { return nil }
    let wait = Wait(
      waiter: UInt(bitPattern: ObjectIdentifier(waiter)), awaited: awaited,
      route: UniqueRun.ofThisTask.flatMap(\.route) + via, asked: asked)
    if let path = record(wait, keeping: keeping) { throw Cycle(path: path) }
    return wait
  }

  /// Records that `wait` is over, once.
  func remove(_ wait: Wait) {
    waits.withLock { waits in
      guard
        let index = waits.firstIndex(where: {
          $0.waiter == wait.waiter && $0.awaited === wait.awaited
        })
      else { return }
      waits.remove(at: index)
    }
  }

  /// The cycle that `waits` close: each waits for what the next one's thread holds, and the
  /// last for what the first one's holds. It runs from what the caller, the first, holds,
  /// through every thread's factories, back to it, each named as the one before asked for it
  /// and the first as the last (see ``ResolutionTrace/cycleError(closedBy:onTraceFrom:at:)``).
  ///
  /// The graph knows only the key each thread holds and the key it waits for; the factories
  /// between the two are on that thread's stack. Every thread but the caller is blocked, and
  /// its stack is read under the graph's lock, which it took after its last push and takes
  /// again before it resolves anything more, so the read does not race with its own resolution.
  /// Every wait in a thread's cycle is a thread's: a thread's word is its trace's address and a
  /// task's that of the run or attempt it holds, so no chain passes from one kind to the other.
  private static func path(around waits: [Wait]) -> [String] {
    var held = waits[waits.count - 1].awaited as! Registration
    var path: [Registration] = []
    for wait in waits {
      let awaited = wait.awaited as! Registration
      path += wait.thread!.askedPath(from: held, to: awaited).dropFirst()
      held = awaited
    }
    return ([path[path.count - 1]] + path).map(\.description)
  }
}

// A trace is read only under the graph's lock, while its thread is blocked (see
// `path(around:)`); a registration, a run or an attempt only for its identity and its
// description, constants.
extension WaitGraph.Wait: @unchecked Sendable {}
