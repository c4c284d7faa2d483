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

  /// A `reset` that would stop the program inside a factory is, under `verify()`, a problem
  /// of the module being made.
  @Test func aResetThatWouldStopInsideAFactoryIsAVerificationProblem() async {
    await #expect(processExitsWith: .success) {
      let dependencies = Dependencies {
        Module { () -> Service in
          Dependencies.current.reset(.cached("sesion"))  // misspelled
          return ServiceImpl()
        }
        Module(scope: .cached("session")) { OtherServiceImpl() as OtherService }
      }
      do throws(VerificationError) {
        try dependencies.verify()
        preconditionFailure("verify() passed")
      } catch {
        precondition(error.problems.count == 1, "\(error.problems)")
      }
    }
  }

  /// The private copy `verify()` makes, and every instance made in it, is released on
  /// verify's own thread, never on the caller's thread in the caller's context.
  @Test func verifyReleasesItsCopyOnItsOwnThreadNotTheCallers() throws {
    let onCaller = Counter()
    let released = Counter()
    for _ in 0..<500 {
      let caller = pthread_self()
      let dependencies = Dependencies {
        Module(scope: .singleton) { () -> Service in
          ReleaseRecorder {
            released.increment()
            if pthread_equal(pthread_self(), caller) != 0 { onCaller.increment() }
          }
        }
      }
      try dependencies.verify()
    }
    #expect(released.value == 500)
    #expect(
      onCaller.value == 0, "\(onCaller.value) of 500 copies were released on the caller's thread")
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

  // MARK: Aliases
}

/// Attacks on the same changes that held up, kept for the coverage they add.
@Suite struct AttackCoverageTests {
  // MARK: Names

  // MARK: Factories

  // MARK: verify()

  @Test func thePrivateCopyOfAPartlyReplacedAliasModuleKeepsExactlyTheWinners() throws {
    let made = Collector<String>()
    let dependencies = Dependencies {
      Module(scope: .singleton, as: AttackAlpha.self, AttackBeta.self) { () -> AttackAlphaBeta in
        made.append("alpha and beta")
        return AttackAlphaBeta()
      }
      Module(scope: .singleton) { () -> AttackBeta in
        made.append("beta only")
        return AttackBetaOnly()
      }
      // Every type replaced: the module must not be made at all.
      Module(as: Service.self, OtherService.self) { () -> ServiceImpl in
        made.append("replaced")
        return ServiceImpl()
      }
      Module { MockService() as Service }
      Module { OtherServiceImpl() as OtherService }
      // A value that conforms only to the type that was replaced: not a problem.
      Module(as: AttackAlpha.self, Router.self) { AttackAlphaBeta() }
      Module { Router(service: ServiceImpl()) }
    }
    try dependencies.verify()
    #expect(made.all.sorted() == ["beta only"])
    #expect(
      dependencies.graph().nodes.map(\.label) == [
        "AttackBeta · .singleton", "Service", "OtherService", "AttackAlpha", "Router",
      ])
    #expect(dependencies.resolve(AttackBeta.self) is AttackBetaOnly)
  }

  @Test func verifyFromSixThreadsAtOnceGivesEachTheSameAnswer() async {
    let dependencies = Dependencies {
      scenarioModules
      Module("failing") { () -> Service in
        _ = Dependencies.resolve(NeverRegistered.self)
        return ServiceImpl()
      }
      Module(scope: .singleton) { ServiceImpl() as Service }
    }
    let counts = Collector<Int>()
    let finished = await onThreads(6) { _ in
      for _ in 0..<5 {
        do throws(VerificationError) {
          try dependencies.verify()
          counts.append(0)
        } catch {
          counts.append(error.problems.count)
        }
      }
    }
    #expect(finished)
    #expect(counts.all.count == 30)
    #expect(Set(counts.all) == [1])
  }

  @Test func verifyAndGraphLeaveNothingOfTheirCopyAlive() throws {
    let box = WeakBox()
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        box.container = Dependencies.current
        let made = ServiceImpl()
        box.made = made
        return made
      }
    }
    try dependencies.verify()
    #expect(box.container == nil)
    #expect(box.made == nil)
    _ = dependencies.graph()
    #expect(box.container == nil)
    #expect(box.made == nil)
  }

  @Test func verifyOfALayerOverABuiltRootMakesNoneOfTheRootsSingletons() async {
    await #expect(processExitsWith: .success) {
      let made = Counter()
      Dependencies {
        Module(scope: .singleton) { () -> Service in
          made.increment()
          return ServiceImpl()
        }
        Module { Router(service: Dependencies.resolve()) }
      }.build()
      try! Dependencies.withOverrides {
        Module { () -> OtherService in
          _ = Dependencies.resolve(Router.self)
          return OtherServiceImpl()
        }
      } operation: {
        try Dependencies.current.verify()
      }
      precondition(made.value == 1, "verify() made the copy's singleton \(made.value) times")
      _ = Dependencies.resolve(Service.self)
      precondition(made.value == 2, "the root's own singleton was made by verify()")
    }
  }

  @MainActor @Test func verifyOnTheMainActorMakesChainsThatCrossIsolation() throws {
    let dependencies = Dependencies {
      Module { MainActorModule() }
      nonisolatedSingletonNeedingTheMainActorModule()
      Module { () -> OtherService in
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
    }
    try dependencies.verify()
  }

  @Test func graphListsEveryModuleWhenFactoriesFail() {
    let dependencies = Dependencies {
      scenarioModules
      Module("a") { () -> Service in
        _ = Dependencies.resolve(NeverRegistered.self)
        return ServiceImpl()
      }
      Module("b") { () throws -> Service in throw ConfigurationMissing(key: "b") }
      Module(scope: .singleton) { () -> OtherService in
        _ = Dependencies.resolve(Service.self, name: "a")
        return OtherServiceImpl()
      }
    }
    #expect(dependencies.graph().nodes.count == 8)
  }

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

final class AttackBetaOnly: Numbered, AttackBeta {}

final class ReleaseRecorder: Service, @unchecked Sendable {
  let serial = 0
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}

/// A cached instance whose release resets its scope and resolves from it again.
final class ResetsWhenReleased: Numbered, Service {
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}

@MainActor final class MainActorModule {}

/// A singleton registered from nonisolated code whose factory needs a main-actor module.
nonisolated func nonisolatedSingletonNeedingTheMainActorModule() -> Module {
  Module(scope: .singleton) { () -> Service in
    _ = Dependencies.resolve(MainActorModule.self)
    return ServiceImpl()
  }
}
