// Runs an async factory for `verify()` on the inspection thread itself.

import Dispatch

/// The executor that a ``Dependencies/verify()`` thread lends to an async factory it needs,
/// running its jobs itself while it waits for it.
///
/// `verify()` is synchronous, and so is the thread it makes modules on: an async factory it
/// needs cannot be awaited there. Run on the cooperative pool instead, it could wait forever
/// for a thread, when as many callers as the pool has threads are blocked in `verify()`. So
/// the inspection thread runs the factory's jobs, and blocks only itself.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class InspectionExecutor: TaskExecutor {
  private let ready = DispatchSemaphore(value: 0)
  private let jobs = Locked<[UnownedJob]>([])

  func enqueue(_ job: UnownedJob) {
    jobs.withLock { $0.append(job) }
    ready.signal()
  }

  /// Runs the jobs enqueued here, on this thread, until ``finish()``.
  ///
  /// Each signal is one job enqueued or the finish, so a wake that finds no job left was
  /// woken by the finish.
  func run() {
    while true {
      ready.wait()
      guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// Lets ``run()`` return once the jobs enqueued so far have run.
  func finish() {
    ready.signal()
  }
}
