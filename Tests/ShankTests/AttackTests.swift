import Dispatch
import Foundation
import Shank
import Testing

/// An adversarial review of the changes since fe2f0e4: equal names as one key, `current` inside
/// factories and throwing factories, `verify()` on its own thread in a private copy, cached
/// instances that `reset` never waits for, and `reset`'s traps.
///
/// The first suite holds the problems the review found that are fixed: each failed at 6696279.
/// The second holds attacks that held up and add coverage.
@Suite struct AttackRegressionTests {

  // MARK: verify() on its own thread

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

  // MARK: Aliases
}

/// Attacks on the same changes that held up, kept for the coverage they add.
@Suite struct AttackCoverageTests {
  // MARK: Names

  // MARK: Factories

  // MARK: verify()

  // MARK: reset

  @Test func resetRacingResolutionOfCachedAliasesNeitherHangsNorRaces() async {
    let dependencies = Dependencies {
      Module(scope: .cached("s"), as: AttackAlpha.self, AttackBeta.self) { AttackAlphaBeta() }
      Module(scope: .cached("s")) { ServiceImpl() as Service }
    }
    let finished = await onThreads(4) { index in
      for _ in 0..<2_000 {
        if index == 0 {
          dependencies.reset(.cached("s"))
        } else {
          let alpha = dependencies.resolve(AttackAlpha.self)
          let service = dependencies.resolve(Service.self)
          _ = (alpha, service)
        }
      }
    }
    #expect(finished)
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

  @Test func resetMatchesACachedScopeNameSpelledDifferently() {
    let dependencies = Dependencies {
      Module(scope: .cached("caf\u{E9}")) { ServiceImpl() as Service }
    }
    let first = dependencies.resolve(Service.self)
    dependencies.reset(.cached("cafe\u{301}"))
    #expect(dependencies.resolve(Service.self) !== first)
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
}

// MARK: - Fixtures

/// A cached instance whose release resets its scope and resolves from it again.
final class ResetsWhenReleased: Numbered, Service {
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}
