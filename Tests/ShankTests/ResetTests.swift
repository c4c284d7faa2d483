import Dispatch
import Foundation
import Shank
import Testing

/// What `reset` drops, in which containers, and how it disposes of it; `reset` from inside
/// factories, from a `deinit`, during `verify()` and across threads: it never waits for a
/// factory, so it can never close a wait cycle; and the scopes it matches.
@Suite struct ResetTests {
  @Test func anInstanceMadeWhileItsScopeIsResetIsHandedOutAndDisposedOfOnce() async {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let made = Counter()
    let disposed = Counter()
    let container = Dependencies {
      Module(scope: .cached("reset-while-made"), onClose: { _ in disposed.increment() }) {
        () -> Service in
        made.increment()
        started.signal()
        proceed.wait()
        return ServiceImpl()
      }
    }
    let handedOut = Collector<Bool>()
    Thread { handedOut.append((try? container.resolveOrThrow(Service.self)) != nil) }.start()
    started.wait()
    await container.reset(.cached("reset-while-made"))
    proceed.signal()
    await eventually { handedOut.all.count == 1 && disposed.value == 1 }
    #expect(handedOut.all == [true])
    #expect(disposed.value == 1, "dropped as it was made, since the reset came after it began")
    await container.close()
    #expect(made.value == 1)
    #expect(disposed.value == 1, "not disposed of again")
  }

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
    let inFactory = Counter()
    let release = DispatchSemaphore(value: 0)
    let closed = Counter()
    let calls = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("screen"), onClose: { _ in closed.increment() }) { () -> Service in
        guard calls.increment() == 1 else { return ServiceImpl() }
        inFactory.increment()
        _ = release.wait(timeout: .now() + 120)
        Dependencies.current.reset(.cached("screen"))
        return ServiceImpl()
      }
    }
    let serials = Collector<Int>()
    // The resolution blocks its thread in the factory; the async reset runs on the pool, and
    // the test waits for it without holding a thread the reset may need.
    async let resolved = onThreads(1) { _ in
      serials.append(dependencies.resolve(Service.self).serial)
    }
    await eventually { inFactory.value == 1 }
    try #require(inFactory.value == 1, "the factory never ran")
    let resetsReturned = Counter()
    Task.detached {
      await dependencies.reset(.cached("screen"))
      resetsReturned.increment()
    }
    release.signal()
    await eventually { resetsReturned.value == 1 }
    #expect(resetsReturned.value == 1, "the async reset did not return")
    try #require(await resolved, "the resolution hung")
    let serial = try #require(serials.all.first)
    // Neither reset kept the instance made while they ran: it was disposed of as it was made.
    #expect(dependencies.resolve(Service.self).serial != serial)
    await eventually { closed.value == 1 }
    #expect(closed.value == 1)
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

  @Test func cachedMakesAtMostOneInstancePerResetUnderContention() async {
    let made = Counter()
    let resets = Counter()
    let asking = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("stress")) { () -> Service in
        // Hold the first maker until every thread is asking.
        if made.increment() == 1 { holdUntil(atMost: 2) { asking.value == 64 } }
        return ServiceImpl()
      }
      Module(scope: .singleton) { OtherServiceImpl() as OtherService }
    }
    let singleton = dependencies.resolve(OtherService.self)
    let finished = await onThreads(64) { index in
      asking.increment()
      for round in 0..<50 {
        if index.isMultiple(of: 8), round > 0, round.isMultiple(of: 10) {
          dependencies.reset(.cached("stress"))
          resets.increment()
        }
        _ = dependencies.resolve(Service.self)
      }
    }
    #expect(finished)
    #expect(resets.value == 32)
    #expect(made.value >= 1)
    #expect(
      made.value <= resets.value + 1, "made \(made.value) instances for \(resets.value) resets")
    #expect(dependencies.resolve(OtherService.self) === singleton)
  }

  // MARK: What a reset drops, where, and how it disposes of it

  @Test func resetLeavesOtherCachedScopesAndSingletonsAlone() {
    let dependencies = Dependencies {
      Module("x", scope: .cached("x")) { ServiceImpl() as Service }
      Module("y", scope: .cached("y")) { ServiceImpl() as Service }
      Module("single", scope: .singleton) { ServiceImpl() as Service }
      Module("weak", scope: .weak) { ServiceImpl() as Service }
    }
    let x = dependencies.resolve(Service.self, name: "x")
    let y = dependencies.resolve(Service.self, name: "y")
    let single = dependencies.resolve(Service.self, name: "single")
    let weak = dependencies.resolve(Service.self, name: "weak")

    dependencies.reset(.cached("x"))

    #expect(dependencies.resolve(Service.self, name: "x") !== x)
    #expect(dependencies.resolve(Service.self, name: "y") === y)
    #expect(dependencies.resolve(Service.self, name: "single") === single)
    #expect(dependencies.resolve(Service.self, name: "weak") === weak)
  }

  @Test func resetOnlyTouchesItsOwnContainer() {
    let modules = [Module(scope: .cached("x")) { ServiceImpl() as Service }]
    let one = Dependencies { modules }
    let two = Dependencies { modules }
    let fromOne = one.resolve(Service.self)
    let fromTwo = two.resolve(Service.self)
    one.reset(.cached("x"))
    #expect(one.resolve(Service.self) !== fromOne)
    #expect(two.resolve(Service.self) === fromTwo)
  }

  @Test func resetInAnOverrideLayerReachesTheLayersUnderneath() {
    Dependencies.withOverrides {
      Module(scope: .cached("session")) { ServiceImpl() as Service }
    } operation: {
      let before: Service = Dependencies.resolve()
      Dependencies.withOverrides {
        Module { OtherServiceImpl() as OtherService }
      } operation: {
        #expect(Dependencies.resolve(Service.self) === before)
        Dependencies.current.reset(.cached("session"))
        #expect(Dependencies.resolve(Service.self) !== before)
      }
    }
  }

  @Test func cachedAliasIsDroppedByReset() {
    let dependencies = Dependencies {
      Module(scope: .cached("session"), as: Service.self, OtherService.self) { ServiceAndOther() }
    }
    let before = dependencies.resolve(Service.self)
    #expect(dependencies.resolve(OtherService.self) === before)
    dependencies.reset(.cached("session"))
    let after = dependencies.resolve(Service.self)
    #expect(
      after !== before, "reset(.cached(\"session\")) must drop an aliased module's instance too")
    #expect(dependencies.resolve(OtherService.self) === after)
  }

  @Test func resetDisposesOfTheDroppedInstancesAndItsAsyncFormWaits() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module("first", scope: .cached("session"), onClose: { _ in closed.append("first") }) {
        ServiceImpl() as Service
      }
      Module("second", scope: .cached("session"), onClose: { _ in closed.append("second") }) {
        ServiceImpl() as Service
      }
      Module("kept", scope: .cached("other"), onClose: { _ in closed.append("kept") }) {
        ServiceImpl() as Service
      }
    }
    _ = container.resolve(Service.self, name: "first")
    _ = container.resolve(Service.self, name: "second")
    _ = container.resolve(Service.self, name: "kept")
    await container.reset(.cached("session"))
    #expect(closed.all == ["second", "first"])

    _ = container.resolve(Service.self, name: "first")
    resetWithoutWaiting(container, .cached("session"))
    await eventually { closed.all.count == 3 }
    #expect(closed.all == ["second", "first", "first"])

    await container.close()
    #expect(
      closed.all == ["second", "first", "first", "kept"],
      "a reset instance is not disposed of twice")
  }

  @Test func anInjectPropertyKeepsAResetInstanceWhoseHandlerRan() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module(scope: .cached("session"), onClose: { closed.append($0.user) }) {
        RecipeSession(user: "ada") as RecipeSessionType
      }
      Module { RecipeSessionScreen() as RecipeSessionScreen }
    }
    let screen = container.resolve(RecipeSessionScreen.self)
    let serial = screen.session.serial
    await container.reset(.cached("session"))
    #expect(closed.all == ["ada"])
    #expect(screen.session.serial == serial, "the property keeps what it read")
    #expect(container.resolve(RecipeSessionType.self).serial != serial, "the scope makes anew")
  }

  /// An awaited reset's handlers run on a task of their own, as `close()`'s do: to their end
  /// though the task that resets was cancelled, and seeing none of its overrides.
  @Test func anAwaitedResetsHandlersRunToTheirEndOutsideTheCancelledCallersTask() async {
    let seen = Collector<String>()
    let container = Dependencies {
      Module(
        scope: .cached("session"),
        onClose: { (_: Service) in
          do {
            try await Task.sleep(nanoseconds: 1_000_000)
            seen.append("ran to its end")
          } catch {
            seen.append("cut short")
          }
          seen.append("override seen: \(Dependencies.resolve(OtherService?.self) != nil)")
        }
      ) { ServiceImpl() as Service }
    }
    _ = container.resolve(Service.self)
    let task = Task {
      await Dependencies.withOverrides {
        Module { OtherServiceImpl() as OtherService }
      } operation: {
        withUnsafeCurrentTask { $0?.cancel() }
        await container.reset(.cached("session"))
        seen.append("reset returned")
      }
    }
    await task.value
    #expect(seen.all == ["ran to its end", "override seen: false", "reset returned"])
  }

  /// A reset drops the scope's contributions, to `[P]` and `[String: P]` alike, and has
  /// disposed of them when it returns; the next resolution makes new ones.
  @Test func aResetDropsAndDisposesOfTheScopesContributions() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module.contribution(scope: .cached("plugins"), onClose: { closed.append($0.label) }) {
        Sink("unnamed") as SinkType
      }
      Module.contribution("named", scope: .cached("plugins"), onClose: { closed.append($0.label) })
      {
        Sink("named") as SinkType
      }
    }
    let list = container.resolve([SinkType].self)
    let named = container.resolve([String: SinkType].self)["named"]
    #expect(container.resolve([SinkType].self)[1] === list[1], "kept until the reset")
    await container.reset(.cached("plugins"))
    #expect(Set(closed.all) == ["unnamed", "named"])
    let after = container.resolve([SinkType].self)
    #expect(after[0] !== list[0])
    #expect(after[1] !== list[1])
    #expect(container.resolve([String: SinkType].self)["named"] !== named)
  }
}

/// Resetting a scope that is not `.cached`, or one that no module uses, each in a child
/// process: the message and the line it points at.
@Suite struct ResetMisuseTests {
  private let fileID = "ShankTests/ResetTests.swift"

  @Test func resettingTheUniqueScopeStops() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies {}.reset(.unique)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "Shank: reset(_:) takes a .cached(name) scope, not .unique; only cached instances can be dropped"
      ),
      "\(stderr)")
  }

  @Test(arguments: [ScopeCase.singleton, .weak, .unique])
  func resettingAScopeThatIsNotCachedNamesTheCallersLine(scope: ScopeCase) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    { [scope] in
      resetScope(scope.scope)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "\(fileID):\(resetScopeLine): Fatal error: Shank: reset(_:) takes a .cached(name) scope, not .\(scope.rawValue); only cached instances can be dropped"
      ),
      "\(stderr)")
  }

  /// A reset of a cached scope that no module uses, in each kind of container: the caller's
  /// line, and the cached scopes registered here and underneath.
  @Test(arguments: UnusedCachedScopeReset.allCases)
  func resettingACachedScopeNoModuleUsesStopsAndListsTheRegisteredOnes(
    reset: UnusedCachedScopeReset
  ) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    { [reset] in
      reset.run()
    }
    let stderr = standardError(of: result)
    #expect(stderr.contains(reset.message(at: "\(fileID):\(reset.line)")), "\(stderr)")
  }
}

// MARK: - Fixtures

/// A reset of a cached scope that no module uses, and the message it stops with.
enum UnusedCachedScopeReset: String, CaseIterable, Codable, Sendable {
  case misspelledUnderTwoOverrideLayers, misspelledInOneContainer, amongTwentyFiveCachedScopes
  case inAnEmptyContainer

  func run() {
    switch self {
    case .misspelledUnderTwoOverrideLayers: resetMisspelledSession()
    case .misspelledInOneContainer: resetScope(.cached("sesion"))
    case .amongTwentyFiveCachedScopes: resetAmongTwentyFiveCachedScopes()
    case .inAnEmptyContainer: resetInAnEmptyContainer()
    }
  }

  /// The line of the reset that `run()` makes.
  var line: Int {
    switch self {
    case .misspelledUnderTwoOverrideLayers: resetMisspelledSessionLine
    case .misspelledInOneContainer: resetScopeLine
    case .amongTwentyFiveCachedScopes: resetAmongTwentyFiveCachedScopesLine
    case .inAnEmptyContainer: resetInAnEmptyContainerLine
    }
  }

  /// The whole line the reset at `site` stops with.
  func message(at site: String) -> String {
    switch self {
    case .misspelledUnderTwoOverrideLayers:
      #"\#(site): Fatal error: Shank: reset(.cached("sesion")) at \#(site) matches no module here or in the containers underneath; cached scopes registered: .cached("cart"), .cached("session")"#
        + "\n"
    case .misspelledInOneContainer:
      #"\#(site): Fatal error: Shank: reset(.cached("sesion")) at \#(site) matches no module here or in the containers underneath; cached scopes registered: .cached("session")"#
        + "\n"
    case .amongTwentyFiveCachedScopes:
      #"\#(site): Fatal error: Shank: reset(.cached("none")) at \#(site) matches no module here or in the containers underneath; cached scopes registered (25, first 20): "#
        + (0..<20).map { String(format: #".cached("s%02d")"#, $0) }.joined(separator: ", ") + "\n"
    case .inAnEmptyContainer:
      #"\#(site): Fatal error: Shank: reset(.cached("session")) at \#(site) matches no module here or in the containers underneath; no cached scope is registered"#
        + "\n"
    }
  }
}

/// A cached instance whose release resets its scope and resolves from it again.
final class ResetsWhenReleased: Numbered, Service {
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}

/// Resets `scope` in a container with a module of every scope.
func resetScope(_ scope: Scope) {
  let dependencies = Dependencies {
    Module("unique") { ServiceImpl() as Service }
    Module("singleton", scope: .singleton) { ServiceImpl() as Service }
    Module("weak", scope: .weak) { ServiceImpl() as Service }
    Module("session", scope: .cached("session")) { ServiceImpl() as Service }
  }
  dependencies.reset(scope)
}
let resetScopeLine = #line - 2

/// Resets a misspelled scope from an override layered over another, each with a cached scope.
func resetMisspelledSession() {
  Dependencies.withOverrides {
    Module(scope: .cached("session")) { ServiceImpl() as Service }
    Module("single", scope: .singleton) { ServiceImpl() as Service }
  } operation: {
    Dependencies.withOverrides {
      Module(scope: .cached("cart")) { OtherServiceImpl() as OtherService }
      Module("again", scope: .cached("session")) { ServiceImpl() as Service }
    } operation: {
      Dependencies.current.reset(.cached("sesion"))
    }
  }
}
let resetMisspelledSessionLine = #line - 4

/// Resets a cached scope that none of 25 cached modules uses.
func resetAmongTwentyFiveCachedScopes() {
  let dependencies = Dependencies {
    for index in (0..<25).reversed() {
      Module(String(index), scope: .cached(String(format: "s%02d", index))) {
        ServiceImpl() as Service
      }
    }
  }
  dependencies.reset(.cached("none"))
}
let resetAmongTwentyFiveCachedScopesLine = #line - 2

/// Resets a cached scope in a container with no modules.
func resetInAnEmptyContainer() { Dependencies {}.reset(.cached("session")) }
let resetInAnEmptyContainerLine = #line - 1
