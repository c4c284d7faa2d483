import Dispatch
import Foundation
import Shank
import Testing

/// `reset` from inside factories, from a `deinit`, during `verify()` and across threads: it
/// never waits for a factory, so it can never close a wait cycle; and the scopes it matches.
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

  /// A cached factory resets its own scope in the middle of its run while the async form of
  /// reset, awaited from another thread meanwhile, resets the same scope: both return, and
  /// neither keeps the instance made while they ran.
  @Test func anAsyncResetWhileAFactoryResetsTheSameScopeReturns() async throws {
    let inFactory = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let closed = Counter()
    let calls = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("screen"), onClose: { _ in closed.increment() }) { () -> Service in
        guard calls.increment() == 1 else { return ServiceImpl() }
        inFactory.signal()
        _ = release.wait(timeout: .now() + 30)
        Dependencies.current.reset(.cached("screen"))
        return ServiceImpl()
      }
    }
    let serials = Collector<Int>()
    let resetReturned = Collector<Bool>()
    let finished = await onThreads(2, timeout: 120) { index in
      if index == 0 {
        serials.append(dependencies.resolve(Service.self).serial)
        return
      }
      guard inFactory.wait(timeout: .now() + 30) == .success else { return }
      let returned = DispatchSemaphore(value: 0)
      Task.detached {
        await dependencies.reset(.cached("screen"))
        returned.signal()
      }
      release.signal()
      resetReturned.append(returned.wait(timeout: .now() + 60) == .success)
    }
    try #require(finished, "the resolution or the async reset hung")
    let serial = try #require(serials.all.first)
    #expect(resetReturned.all == [true])
    // Neither reset kept the instance made while they ran.
    #expect(dependencies.resolve(Service.self).serial != serial)
    #expect(closed.value == 0)
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

  @Test func resetMatchesACachedScopeNameSpelledDifferently() {
    let dependencies = Dependencies {
      Module(scope: .cached("caf\u{E9}")) { ServiceImpl() as Service }
    }
    let first = dependencies.resolve(Service.self)
    dependencies.reset(.cached("cafe\u{301}"))
    #expect(dependencies.resolve(Service.self) !== first)
  }

  @Test func handlersRunOnceEachNewestInstanceFirstAcrossResetsAndClose() async {
    let closed = Collector<String>()
    let scopes: [(name: String, scope: Scope)] = [
      ("a", .cached("one")), ("b", .cached("two")), ("c", .singleton), ("d", .cached("one")),
      ("e", .cached("two")),
    ]
    let dependencies = Dependencies {
      for (name, scope) in scopes {
        Module(name, scope: scope, onClose: { _ in closed.append(name) }) {
          ServiceImpl() as Service
        }
      }
    }
    for name in ["e", "a", "c", "b", "d"] { _ = dependencies.resolve(Service.self, name: name) }
    await dependencies.reset(.cached("one"))
    #expect(closed.all == ["d", "a"])
    _ = dependencies.resolve(Service.self, name: "a")
    await dependencies.reset(.cached("two"))
    #expect(closed.all == ["d", "a", "b", "e"])
    _ = dependencies.resolve(Service.self, name: "e")
    await dependencies.close()
    #expect(closed.all == ["d", "a", "b", "e", "e", "a", "c"])
  }

  /// Taking each instance's handler out of its container's list is constant time, so this
  /// reset takes a fraction of a second where scanning the list for each took seconds.
  @Test func resettingAHundredThousandCachedInstancesRunsEachHandlerOnce() async {
    let count = 100_000
    let closed = Counter()
    let dependencies = Dependencies {
      for index in 0..<count {
        Module("\(index)", scope: .cached("page"), onClose: { _ in closed.increment() }) {
          ServiceImpl() as Service
        }
      }
    }
    for index in 0..<count { _ = dependencies.resolve(Service.self, name: "\(index)") }
    await dependencies.reset(.cached("page"))
    #expect(closed.value == count)
  }

  /// Replacing a cached module by a later one, the documented way to override, leaves its
  /// scope resettable: a log-out in such a test must not stop the program.
  @Test func resetOfACachedScopeWhoseModuleWasReplacedDoesNotStop() async {
    await #expect(processExitsWith: .success) {
      let dependencies = Dependencies {
        Module(scope: .cached("session")) { ServiceImpl() as Service }
        Module { MockService() as Service }  // the test's override
      }
      _ = dependencies.resolve(Service.self)
      dependencies.reset(.cached("session"))
    }
  }

  @Test func aResetThatMatchesNoScopeKeepsItsMessageOnOneLine() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let dependencies = Dependencies {
        Module(scope: .cached("log\nout")) { ServiceImpl() as Service }
      }
      dependencies.reset(.cached("sign\nout"))
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        #"Shank: reset(.cached("sign\nout")) at ShankTests/ResetTests.swift:"#),
      "\(stderr)")
    #expect(stderr.contains(#"cached scopes registered: .cached("log\nout")"#), "\(stderr)")
  }

  @Test func aCachedFactoryThatResetsAnotherCachedScopeNeverHangs() async {
    let dependencies = Dependencies {
      Module(scope: .cached("a")) { () -> Service in
        Dependencies.current.reset(.cached("b"))
        return ServiceImpl()
      }
      Module(scope: .cached("b")) { () -> OtherService in
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
    }
    let finished = await onThreads(4) { index in
      for round in 0..<200 {
        _ = dependencies.resolve(OtherService.self)
        if (round + index) % 3 == 0 { dependencies.reset(.cached("a")) }
      }
    }
    #expect(finished)
  }

  @Test func aCachedInstanceWhoseDeinitResetsAndResolvesItsScopeAgainNeverHangs() async {
    let box = WeakBox()
    let dependencies = Dependencies {
      Module(scope: .cached("s")) { () -> Service in
        ResetsWhenReleased {
          box.container?.reset(.cached("s"))
          _ = box.container?.resolve(OtherService.self)
        }
      }
      Module(scope: .cached("s")) { OtherServiceImpl() as OtherService }
    }
    box.container = dependencies
    let finished = await onThreads(2) { _ in
      for _ in 0..<100 {
        _ = dependencies.resolve(Service.self)
        dependencies.reset(.cached("s"))
      }
    }
    #expect(finished)
  }

  @Test func aResetDuringVerifyTouchesOnlyTheContainer() async {
    let inFactory = DispatchSemaphore(value: 0)
    let resetDone = DispatchSemaphore(value: 0)
    let calls = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("s")) { () -> Service in
        if calls.increment() == 2 {  // verify()'s
          inFactory.signal()
          resetDone.wait()
        }
        return ServiceImpl()
      }
    }
    let first = dependencies.resolve(Service.self)
    let finished = await onThreads(2) { index in
      if index == 0 {
        try! dependencies.verify()
      } else {
        inFactory.wait()
        dependencies.reset(.cached("s"))
        resetDone.signal()
      }
    }
    #expect(finished)
    #expect(dependencies.resolve(Service.self) !== first)
  }

  @Test func resetRacingResolutionOfCachedAliasesNeitherHangsNorRaces() async {
    let dependencies = Dependencies {
      Module(scope: .cached("s"), as: AliasAlpha.self, AliasBeta.self) { AliasAlphaBeta() }
      Module(scope: .cached("s")) { ServiceImpl() as Service }
    }
    let finished = await onThreads(4) { index in
      for _ in 0..<2_000 {
        if index == 0 {
          dependencies.reset(.cached("s"))
        } else {
          let alpha = dependencies.resolve(AliasAlpha.self)
          let service = dependencies.resolve(Service.self)
          _ = (alpha, service)
        }
      }
    }
    #expect(finished)
  }
}

// MARK: - Fixtures

/// A cached instance whose release resets its scope and resolves from it again.
final class ResetsWhenReleased: Numbered, Service {
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}
