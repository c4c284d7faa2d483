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
  /// An override that a factory installs with `withOverrides` is what its operation resolves
  /// from, over the container making the factory's instance.
  @Test func withOverridesInsideAFactoryIsSeenByItsOperation() throws {
    let dependencies = Dependencies {
      Module { () -> Router in
        let service = Dependencies.withOverrides {
          Module { MockService() as Service }
        } operation: {
          Dependencies.resolve(Service.self)
        }
        return Router(service: service)
      }
      Module { ServiceImpl() as Service }
    }
    #expect(try dependencies.resolveOrThrow(Router.self).service is MockService)
  }

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

  /// Scalars whose spellings differ but compare equal, or nearly so: every non-ASCII scalar
  /// canonically equal to ASCII (U+212A, U+037E, U+1FEF), precomposed and decomposed letters,
  /// Hangul syllables and jamo, grapheme joiners, compatibility-only lookalikes.
  static let alphabet: [String] = [
    "K", "\u{212A}", "e", "\u{301}", "\u{E9}", ";", "\u{37E}", "`", "\u{1FEF}", "\u{300}",
    "\u{340}", "A", "\u{212B}", "\u{C5}", "\u{30A}", "\u{1100}", "\u{1161}", "\u{AC00}", "\r",
    "\n", "\u{200D}", "\u{1F469}", "a", "\u{0}", "\u{FB01}", "\u{1E30}", "\u{327}", "\u{323}",
    "\u{1E0B}", "\u{1E0D}", "d", "\u{307}", "\u{2126}", "\u{3A9}",
  ]

  @Test(arguments: 0..<3)
  func randomNamesThatCompareEqualAreOneKeyAndTheLastWins(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let names = (0..<4_000).map { _ in
      (0..<Int(random.next() % 7)).map { _ in
        Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
      }.joined()
    }
    // The same names again, round-tripped through Foundation and cut out of longer strings.
    var registered = names
    for name in names.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
      registered.append(String(NSString(string: name)))
      registered.append(String(("<" + name + ">").dropFirst().dropLast()))
    }
    let dependencies = Dependencies {
      for (index, name) in registered.enumerated() { Module(name) { index } }
    }
    var winner: [String: Int] = [:]
    for (index, name) in registered.enumerated() { winner[name] = index }
    var wrong: [String] = []
    for name in Set(registered)
    where try dependencies.resolveOrThrow(Int.self, name: name) != winner[name] {
      wrong.append(name)
    }
    #expect(wrong.isEmpty, "\(wrong.map { Array($0.unicodeScalars) })")
    #expect(dependencies.graph().nodes.count == winner.count)
  }

  @Test func aHundredThousandRegistrationsWithEquivalentPairs() throws {
    let count = 100_000
    let dependencies = Dependencies {
      for index in 0..<count {
        switch index % 3 {
        case 0: Module("caf\u{E9}\(index / 3)") { index }
        case 1: Module("cafe\u{301}\(index / 3)") { index }
        default: Module("\u{212A}elvin\(index)") { index }
        }
      }
    }
    for index in stride(from: 0, to: count, by: 97) {
      let pair = index / 3
      #expect(try dependencies.resolveOrThrow(Int.self, name: "caf\u{E9}\(pair)") == pair * 3 + 1)
      #expect(try dependencies.resolveOrThrow(Int.self, name: "cafe\u{301}\(pair)") == pair * 3 + 1)
      if index % 3 == 2 {
        #expect(try dependencies.resolveOrThrow(Int.self, name: "Kelvin\(index)") == index)
      }
    }
  }

  @Test func emptyAndMissingNamesAreDifferentKeys() throws {
    let dependencies = Dependencies {
      Module { 1 }
      Module("") { 2 }
      Module(String(repeating: "\u{212A}", count: 10_000)) { 3 }
    }
    #expect(try dependencies.resolveOrThrow(Int.self) == 1)
    #expect(try dependencies.resolveOrThrow(Int.self, name: "") == 2)
    #expect(
      try dependencies.resolveOrThrow(Int.self, name: String(repeating: "K", count: 10_000)) == 3)
  }

  @Test func equivalentNamesInALayerOverABuiltRootThroughInjectVerifyAndGraph() async {
    await #expect(processExitsWith: .success) {
      Dependencies {
        Module("\u{212A}ey-caf\u{E9}") { ServiceImpl() as Service }
        Module("\u{212A}ey-caf\u{E9}", scope: .singleton) { OtherServiceImpl() as OtherService }
      }.build()
      Dependencies.withOverrides {
        Module("Key-cafe\u{301}") { MockService() as Service }
      } operation: {
        let consumer = EquivalentNameConsumer()
        precondition(consumer.service is MockService)
        precondition(consumer.other is OtherServiceImpl)
        let graph = Dependencies.current.graph()
        precondition(graph.nodes.count == 2, "\(graph.nodes)")
        try! Dependencies.current.verify(consumers: consumer)
      }
    }
  }

  @Test func aNearMissUnderAnEquivalentNameIsTheSameName() {
    let dependencies = Dependencies { Module("caf\u{E9}") { ServiceImpl() as Service } }
    let error = resolutionError {
      try dependencies.resolveOrThrow(OtherService.self, name: "cafe\u{301}")
    }
    #expect(error?.nearMisses == ["Service named \"caf\u{E9}\": the same name, another type"])
  }

  // MARK: Factories

  @Test func currentAcrossUniqueSingletonUniqueThroughTwoLayers() {
    let seen = Collector<String>()
    func current() -> ObjectIdentifier { ObjectIdentifier(Dependencies.current) }
    let (outer, inner) = Dependencies.withOverrides {
      Module { () -> Router in
        seen.append("U1 \(current())")
        _ = Dependencies.resolve(OtherService.self)
        seen.append("U1 again \(current())")
        return Router(service: Dependencies.resolve())
      }
      Module(scope: .singleton) { () -> OtherService in
        seen.append("S \(current())")
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
      Module { () -> Service in
        seen.append("U2 \(current())")
        return ServiceImpl()
      }
    } operation: { () -> (ObjectIdentifier, ObjectIdentifier) in
      let outer = current()
      return Dependencies.withOverrides {
        Module { () -> Service in
          seen.append("mock \(current())")
          return MockService()
        }
      } operation: { () -> (ObjectIdentifier, ObjectIdentifier) in
        #expect(Dependencies.resolve(Router.self).service is MockService)
        return (outer, current())
      }
    }
    #expect(
      seen.all == [
        "U1 \(inner)", "S \(outer)", "U2 \(outer)", "U1 again \(inner)", "mock \(inner)",
      ])
  }

  /// Two threads fail one singleton in turn (the second waits on the first's creation lock and
  /// the wait graph), then it is made once and every thread reads the same instance.
  @Test func aSingletonThatThrowsOnTwoThreadsIsMadeOnceAfterwards() async throws {
    let attempts = Counter()
    let gate = DispatchSemaphore(value: 0)
    let dependencies = Dependencies {
      Module(scope: .singleton) { () throws -> Service in
        let attempt = attempts.increment()
        if attempt == 1 { gate.wait() }
        if attempt <= 2 { throw ConfigurationMissing(key: "\(attempt)") }
        return ServiceImpl()
      }
    }
    let failures = Counter()
    let finished = await onThreads(2) { index in
      if index == 1 {
        Thread.sleep(forTimeInterval: 0.05)
        gate.signal()
      }
      if (try? dependencies.resolveOrThrow(Service.self)) == nil { failures.increment() }
    }
    #expect(finished)
    #expect(failures.value == 2)
    let made = try dependencies.resolveOrThrow(Service.self).serial
    let everyone = await onThreads(8) { _ in
      precondition(dependencies.resolve(Service.self).serial == made)
    }
    #expect(everyone)
    #expect(attempts.value == 3)
  }

  @Test func cachedAndWeakAliasesKeepNothingWhenTheirFactoryThrows() throws {
    let attempts = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("s"), as: Service.self, OtherService.self) { () throws -> AttackBoth in
        if attempts.increment() == 1 { throw ConfigurationMissing(key: "cached") }
        return AttackBoth()
      }
      Module(scope: .weak, as: AttackAlpha.self, AttackBeta.self) { () throws -> AttackAlphaBeta in
        if attempts.increment() == 3 { throw ConfigurationMissing(key: "weak") }
        return AttackAlphaBeta()
      }
    }
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(OtherService.self) }
    let service = try dependencies.resolveOrThrow(Service.self)
    #expect(try dependencies.resolveOrThrow(OtherService.self).serial == service.serial)
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(AttackBeta.self) }
    let alpha = try dependencies.resolveOrThrow(AttackAlpha.self)
    #expect(try dependencies.resolveOrThrow(AttackBeta.self) === (alpha as AnyObject))
  }

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
final class AttackBoth: Numbered, Service, OtherService {}

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

final class EquivalentNameConsumer {
  @Inject("Key-cafe\u{301}") var service: Service
  @Inject("Key-cafe\u{301}") var other: OtherService
}

@MainActor final class MainActorModule {}

/// A singleton registered from nonisolated code whose factory needs a main-actor module.
nonisolated func nonisolatedSingletonNeedingTheMainActorModule() -> Module {
  Module(scope: .singleton) { () -> Service in
    _ = Dependencies.resolve(MainActorModule.self)
    return ServiceImpl()
  }
}
