// Making an async module's value on a `verify()` thread, which waits for it.

import Dispatch

extension AsyncInstance {
  /// Whether an async factory's own synchronous resolution on `trace` asks for this unique
  /// module, outside a round of `resolveAsync`: at run time nothing makes it there, so
  /// `verify()` does not either. Read through a synchronous factory, it is that factory's
  /// doing, which `verify()` cannot tell from its own making.
  func isReadByAnAsyncFactoryItself(on trace: ResolutionTrace) -> Bool {
    guard !shares, AsyncMaking.current != nil, AsyncRound.current == nil else { return false }
    return trace.askedChain(from: trace.framesUnderAsyncFactory).count { $0.role != .collector }
      == 1
  }

  /// Whether a `verify()` thread that makes a module as a synchronous read would asks for this
  /// unique module through unique modules alone, outside any async factory: at run time
  /// nothing made it there, so the read fails. Notes the refusal on `trace`.
  func refusesAsARead(on trace: ResolutionTrace) -> Bool {
    guard !shares, trace.makesAsARead, AsyncMaking.current == nil,
      (0..<trace.depth).allSatisfy({
        trace.frames[$0].registration.read { $0.scope.kind == .unique }
      })
    else { return false }
    trace.refusedAsARead = true
    return true
  }

  /// Makes the value on this thread, blocked until the factory has run on its isolation: a
  /// nonisolated factory's jobs run on this thread (see ``InspectionExecutor``).
  func makeWaiting(in container: Dependencies, as key: KeyDescription) throws -> Value {
    let outcome = Locked<Result<Handed<Made>, any Error>?>(nil)
    let make: @Sendable () async -> Void = { [recipe] in
      do {
        // Its resolutions run over the waiting one's frames, which count their depth.
        let made = try await Self.run(
          recipe, on: recipe.value.isolation, in: container, depth: 0, as: key)
        outcome.withLock { $0 = .success(made) }
      } catch {
        outcome.withLock { $0 = .failure(error) }
      }
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      let executor = InspectionExecutor()
      Task(executorPreference: executor) {
        await make()
        executor.finish()
      }
      // The factory's jobs run here, over the frames of the resolution waiting for them.
      let trace = ResolutionTrace.current
      let under = trace.framesUnderAsyncFactory
      trace.framesUnderAsyncFactory = trace.depth
      defer { trace.framesUnderAsyncFactory = under }
      executor.run()
    } else {
      let done = DispatchSemaphore(value: 0)
      Task {
        await make()
        done.signal()
      }
      done.wait()
    }
    // The task set it before it finished, which is what ended the wait.
    return try outcome.withLock { $0 }!.get().value.value
  }
}
