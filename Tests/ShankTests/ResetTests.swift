import Dispatch
import Foundation
import Shank
import Testing

/// `reset` from inside factories and across threads: it never waits for a factory, so it
/// can never close a wait cycle.
@Suite struct ResetTests {
  @Test func aFactoryThatResetsItsOwnScopeGetsItsInstanceAndTheNextResolutionMakesANewOne()
    async throws
  {
    let dependencies = Dependencies {
      Module(scope: .cached("session")) { () -> Service in
        Dependencies.current.reset(.cached("session"))
        return ServiceImpl()
      }
    }
    let made = Collector<Int>()
    let finished = await onThreads(1) { _ in
      made.append(dependencies.resolve(Service.self).serial)
      made.append(dependencies.resolve(Service.self).serial)
    }
    try #require(finished, "a factory that resets its own scope hung")
    let serials = made.all
    #expect(serials.count == 2)
    // The reset came after the first instance was asked for, so that one is not kept.
    #expect(serials.first != serials.last)
  }

  @Test func aResetFromASingletonFactoryDoesNotWaitForACachedFactoryThatWaitsForIt()
    async throws
  {
    let singletonStarted = DispatchSemaphore(value: 0)
    let cachedStarted = DispatchSemaphore(value: 0)
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        singletonStarted.signal()
        cachedStarted.wait()
        // Give the other thread time to block on this singleton's creation lock.
        Thread.sleep(forTimeInterval: 0.05)
        Dependencies.current.reset(.cached("screen"))
        return ServiceImpl()
      }
      Module(scope: .cached("screen")) { () -> OtherService in
        cachedStarted.signal()
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
    }
    let finished = await onThreads(2) { index in
      if index == 0 {
        _ = dependencies.resolve(Service.self)
      } else {
        singletonStarted.wait()
        _ = dependencies.resolve(OtherService.self)
      }
    }
    #expect(finished, "reset waited for a factory that waited for the resetting thread")
  }

  @Test func aResetThatLandsWhileAnInstanceIsMadeKeepsThatInstanceOut() async throws {
    let inFactory = DispatchSemaphore(value: 0)
    let resetDone = DispatchSemaphore(value: 0)
    let calls = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("session")) { () -> Service in
        if calls.increment() == 1 {
          inFactory.signal()
          resetDone.wait()
        }
        return ServiceImpl()
      }
    }
    let first = Collector<Int>()
    let finished = await onThreads(2) { index in
      if index == 0 {
        first.append(dependencies.resolve(Service.self).serial)
      } else {
        inFactory.wait()
        dependencies.reset(.cached("session"))
        resetDone.signal()
      }
    }
    try #require(finished)
    let again = dependencies.resolve(Service.self)
    #expect(first.all.count == 1)
    #expect(again.serial != first.all.first)
    #expect(dependencies.resolve(Service.self) === again)
  }
}
