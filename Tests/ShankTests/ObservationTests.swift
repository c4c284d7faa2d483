import Dispatch
import Foundation
import Shank
import Testing

/// `Dependencies.observe`: what an observer sees, and when it stops seeing.
///
/// Observers see every resolution in the process, so each test keeps only the events of keys
/// that only it resolves.
@Suite struct ObservationTests {
  @Test func anObserverSeesEachResolutionWithItsKeyScopeAndSite() throws {
    let container = Dependencies {
      Module("seen", scope: .singleton) { ObservedImpl() as Observed }
    }
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix("Observed named \"seen\"") { events.append($0) }
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "seen")
    let line = #line - 1
    _ = container.resolve(Observed.self, name: "seen")

    let seen = events.all
    try #require(seen.count == 2)
    #expect(seen.map(\.key) == [#"Observed named "seen""#, #"Observed named "seen""#])
    #expect(seen.map(\.scope) == [.singleton, .singleton])
    #expect(
      seen.map(\.madeInstance) == [true, false], "the second resolution returned the kept one")
    #expect(
      seen.map(\.site) == [
        "ShankTests/ObservationTests.swift:\(line)",
        "ShankTests/ObservationTests.swift:\(line + 2)",
      ])
    #expect(seen.map(\.depth) == [0, 0])
  }

  /// A resolution whose factory throws returns nothing, so no event tells of it; the factory
  /// that caught the error and made its own instance is told, with its depth.
  @Test(arguments: [Scope.unique, .singleton])
  func aResolutionWhoseFactoryThrowsIsNotObserved(scope: Scope) throws {
    struct Refused: Error {}
    // Names of this case's own: the cases run at once, and an observer sees them all.
    let (refused, catching) = ("refused \(scope)", "catching \(scope)")
    let container = Dependencies {
      Module(refused, scope: scope) { () throws -> Observed in throw Refused() }
      Module(catching, scope: scope) { () -> Observed in
        _ = try? Dependencies.resolveOrThrow(Observed.self, name: refused)
        return ObservedImpl()
      }
    }
    let events = Collector<ResolutionEvent>()
    // Only this case's own keys: other tests name their modules after the scope too.
    let ownKeys = Set([refused, catching].map { "Observed named \"\($0)\"" })
    let observation = Dependencies.observe {
      if ownKeys.contains($0.key) { events.append($0) }
    }
    defer { observation.cancel() }
    #expect(throws: ResolutionError.self) {
      try container.resolveOrThrow(Observed.self, name: refused)
    }
    _ = container.resolve(Observed.self, name: catching)
    #expect(events.all.map(\.key) == ["Observed named \"\(catching)\""])
    #expect(events.all.map(\.depth) == [0])
  }

  /// `start()` makes its eager modules as resolutions: an observer sees each, at depth 0,
  /// after what its factory resolved.
  @Test func startDeliversAnEventForEachEagerModuleItMakes() async throws {
    let container = Dependencies {
      Module("eager", scope: .singleton, eager: true) { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "eager's part")
        return ObservedImpl()
      }
      Module("eager's part") { ObservedImpl() as Observed }
    }
    let events = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix("Observed named \"eager") {
        events.append("\($0.key), made: \($0.madeInstance), depth \($0.depth), at \($0.site)")
      }
    }
    defer { observation.cancel() }
    _ = try await container.start()
    let line = #line - 1
    #expect(
      events.all == [
        #"Observed named "eager's part", made: true, depth 1, at ShankTests/ObservationTests.swift:\#(line - 12)"#,
        #"Observed named "eager", made: true, depth 0, at ShankTests/ObservationTests.swift:\#(line)"#,
      ])
  }

  /// An async factory's resolutions, synchronous or async, are observed one deeper than its
  /// module, as a synchronous factory's are, made by `resolveAsync` or by `start()`; and
  /// those of an async module it awaits one deeper again.
  @Test func anAsyncFactorysResolutionsAreObservedOneDeeperThanItsModule() async throws {
    let container = Dependencies {
      Module("async-depth leaf") { Report() as ReportType }
      Module("async-depth awaited", scope: .singleton) { () async throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(ReportType.self, name: "async-depth leaf")
        return Report()
      }
      Module("async-depth module", scope: .singleton) { () async throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(ReportType.self, name: "async-depth leaf")
        _ = try await Dependencies.resolveAsyncOrThrow(ReportType.self, name: "async-depth awaited")
        return Report()
      }
      Module("async-depth eager", scope: .singleton, eager: true) { () async throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(ReportType.self, name: "async-depth leaf")
        return Report()
      }
    }
    let events = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix(#"ReportType named "async-depth"#) {
        events.append("\($0.key.dropFirst(30).dropLast()) \($0.depth)")
      }
    }
    defer { observation.cancel() }
    _ = try await container.start()
    #expect(events.all == ["leaf 1", "eager 0"])
    _ = try await container.resolveAsyncOrThrow(ReportType.self, name: "async-depth module")
    #expect(events.all.dropFirst(2) == ["leaf 1", "leaf 2", "awaited 1", "module 0"])
  }

  /// A list is no factory: an async contribution's resolutions are as deep as a synchronous
  /// one's, through `[P]` or `[String: P]`.
  @Test func anAsyncContributionsResolutionsAreAsDeepAsASynchronousOnes() async throws {
    let events = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix(#"ReportType named "list-depth"#) || $0.key.hasSuffix("ReportType]") {
        events.append("\($0.key) \($0.depth)")
      }
    }
    defer { observation.cancel() }
    let leaf = Module("list-depth leaf") { Report() as ReportType }
    let sync = Dependencies {
      leaf
      Module.contribution { () throws -> ReportType in
        try Dependencies.resolveOrThrow(ReportType.self, name: "list-depth leaf")
      }
    }
    _ = sync.resolve([ReportType].self)
    let async = Dependencies {
      leaf
      Module.contribution("n") { () async throws -> ReportType in
        try Dependencies.resolveOrThrow(ReportType.self, name: "list-depth leaf")
      }
    }
    _ = try await async.resolveAsyncOrThrow([ReportType].self)
    _ = try await async.resolveAsyncOrThrow([String: ReportType].self)
    let leafAt1 = #"ReportType named "list-depth leaf" 1"#
    #expect(
      events.all == [
        leafAt1, "[ReportType] 0", leafAt1, "[ReportType] 0", leafAt1, "[String: ReportType] 0",
      ])
  }

  /// A task an async factory starts is no part of its chain: once the factory has returned,
  /// what the task resolves is observed as no factory's.
  @Test func aTaskThatOutlivesItsAsyncFactoryIsObservedAsNoFactorys() async throws {
    let events = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix(#"ReportType named "outliving"#) {
        events.append("\($0.key.dropFirst(28).dropLast()) \($0.depth)")
      }
    }
    defer { observation.cancel() }
    let returned = OpeningGate()
    let container = Dependencies {
      Module("outliving leaf") { Report() as ReportType }
      Module("outliving later") { () async throws -> ReportType in
        try Dependencies.resolveOrThrow(ReportType.self, name: "outliving leaf")
      }
      Module("outliving factory", scope: .singleton) { () async -> ReportType in
        let container = Dependencies.current
        Task {
          await returned.wait()
          _ = container.resolve(ReportType.self, name: "outliving leaf")
          _ = try? await container.resolveAsyncOrThrow(ReportType.self, name: "outliving later")
        }
        return Report()
      }
    }
    _ = try await container.resolveAsyncOrThrow(ReportType.self, name: "outliving factory")
    await returned.open()
    await eventually(timeout: 60) { events.all.count >= 4 }
    #expect(events.all == ["factory 0", "leaf 0", "leaf 1", "later 0"])
  }

  @Test func theSiteIsTheAskingFileAndLineWhateverTheirDigitsAndLetters() {
    let container = Dependencies {
      Module("sited") { ObservedImpl() as Observed }
    }
    let sites = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "sited""# { sites.append($0.site) }
    }
    defer { observation.cancel() }
    let lines: [UInt] = [0, 7, 9, 10, 99, 100, 4_096, UInt.max]
    for line in lines {
      _ = container.resolve(Observed.self, name: "sited", fileID: "Módulo/Ünï 😀.swift", line: line)
    }
    #expect(sites.all == lines.map { "Módulo/Ünï 😀.swift:\($0)" })
  }

  @Test func threadsObservingDifferentTypesAtOnceEachSeeTheirOwnTypesName() async {
    struct RacedA {}
    struct RacedB {}
    struct RacedC {}
    struct RacedD {}
    let container = Dependencies {
      Module("raced") { RacedA() }
      Module("raced") { RacedB() }
      Module("raced") { RacedC() }
      Module("raced") { RacedD() }
    }
    let keys = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasSuffix(#"named "raced""#) { keys.append($0.key) }
    }
    defer { observation.cancel() }
    let finished = await onThreads(8) { index in
      for _ in 0..<50 {
        switch index % 4 {
        case 0: _ = container.resolve(RacedA.self, name: "raced")
        case 1: _ = container.resolve(RacedB.self, name: "raced")
        case 2: _ = container.resolve(RacedC.self, name: "raced")
        default: _ = container.resolve(RacedD.self, name: "raced")
        }
      }
    }
    #expect(finished)
    let counts = Dictionary(keys.all.map { ($0, 1) }, uniquingKeysWith: +)
    #expect(
      counts == [
        #"RacedA named "raced""#: 100, #"RacedB named "raced""#: 100,
        #"RacedC named "raced""#: 100, #"RacedD named "raced""#: 100,
      ])
  }

  @Test func aNestedResolutionIsDeliveredFirstWithItsDepth() {
    let container = Dependencies {
      Module("outer") { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "inner")
        return ObservedImpl()
      }
      Module("inner") { ObservedImpl() as Observed }
    }
    let events = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.hasPrefix("Observed named \"inner\"")
        || event.key.hasPrefix("Observed named \"outer\"")
      {
        events.append("\(event.key) \(event.depth) \(event.madeInstance)")
      }
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "outer")
    #expect(events.all == [#"Observed named "inner" 1 true"#, #"Observed named "outer" 0 true"#])
  }

  @Test func theDurationIsTheFactorysAndTheThreadIsNamed() async {
    let container = Dependencies {
      Module("slow") { () -> Observed in
        usleep(20_000)
        return ObservedImpl()
      }
    }
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "slow""# { events.append($0) }
    }
    defer { observation.cancel() }
    let finished = await onThreads(1) { _ in _ = container.resolve(Observed.self, name: "slow") }
    #expect(finished)
    #expect(events.all.count == 1)
    #expect(events.all.first.map { $0.durationNanoseconds >= 20_000_000 } == true)
    #expect(events.all.first?.onMainThread == false)
  }

  /// A miss is no event: an optional that finds nothing, a list nothing contributes to. A list
  /// of several contributions is one event.
  @Test func aMissIsNoEventAndAListIsOne() {
    let keys = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.contains("MissProbe") || $0.key.contains(#""missed""#) { keys.append($0.key) }
    }
    defer { observation.cancel() }
    let empty = Dependencies {}
    #expect(empty.resolve(Observed?.self, name: "missed") == nil)
    #expect(empty.resolve([MissProbe].self).isEmpty)
    #expect(empty.resolve([String: MissProbe].self).isEmpty)
    #expect(keys.all == [])
    let contributed = Dependencies {
      Module.contribution { MissProbeImpl() as MissProbe }
      Module.contribution("named") { MissProbeImpl() as MissProbe }
    }
    #expect(contributed.resolve([MissProbe].self).count == 2)
    #expect(keys.all == ["[MissProbe]"])
  }

  /// A list is made anew at every resolution: its event says so, even when every element is
  /// a kept one.
  @Test func aListOfKeptContributionsIsMadeAtEveryResolution() {
    let made = Collector<Bool>()
    let observation = Dependencies.observe {
      if $0.key == "[KeptProbe]" { made.append($0.madeInstance) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module.contribution(scope: .singleton) { KeptProbeImpl() as KeptProbe }
    }
    let first = container.resolve([KeptProbe].self)
    #expect(container.resolve([KeptProbe].self)[0] === first[0])
    #expect(made.all == [true, true])
  }

  /// A list registered whole is a module like any other: kept as its scope says.
  @Test func aListRegisteredWholeIsKeptAsItsScopeSays() {
    let made = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasSuffix(#"KeptProbe] named "whole""#) {
        made.append("\($0.key) \($0.madeInstance)")
      }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("whole", scope: .singleton) { [KeptProbeImpl()] as [KeptProbe] }
      Module("whole", scope: .singleton) { ["key": KeptProbeImpl()] as [String: KeptProbe] }
    }
    for _ in 0..<2 {
      _ = container.resolve([KeptProbe].self, name: "whole")
      _ = container.resolve([String: KeptProbe].self, name: "whole")
    }
    #expect(
      made.all == [
        #"[KeptProbe] named "whole" true"#, #"[String: KeptProbe] named "whole" true"#,
        #"[KeptProbe] named "whole" false"#, #"[String: KeptProbe] named "whole" false"#,
      ])
  }

  @Test func cancellingStopsTheEvents() {
    let container = Dependencies { Module("cancelled") { ObservedImpl() as Observed } }
    let count = Counter()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "cancelled""# { count.increment() }
    }
    _ = container.resolve(Observed.self, name: "cancelled")
    observation.cancel()
    observation.cancel()
    _ = container.resolve(Observed.self, name: "cancelled")
    #expect(count.value == 1)
  }

  /// The observer stays installed whether or not its observation is kept.
  @Test func anObservationNobodyKeepsStillObserves() {
    let container = Dependencies { Module("unkept") { ObservedImpl() as Observed } }
    let count = Counter()
    weak let observation = Dependencies.observe {
      if $0.key == #"Observed named "unkept""# { count.increment() }
    }
    defer { observation?.cancel() }
    _ = container.resolve(Observed.self, name: "unkept")
    #expect(count.value == 1)
    #expect(observation != nil, "the installed observer keeps it")
  }

  @Test func anObserverThatResolvesDoesNotObserveItself() {
    let container = Dependencies { Module("self") { ObservedImpl() as Observed } }
    let count = Counter()
    let observation = Dependencies.observe { event in
      guard event.key == #"Observed named "self""# else { return }
      count.increment()
      _ = container.resolve(Observed.self, name: "self")
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "self")
    #expect(count.value == 1)
  }

  /// Not by any observer: a handler that resolves is not observed by the others either.
  @Test func noObserverSeesWhatAHandlerResolves() {
    let container = Dependencies {
      Module("asked") { ObservedImpl() as Observed }
      Module("by a handler") { ObservedImpl() as Observed }
    }
    let resolving = Dependencies.observe { event in
      if event.key == #"Observed named "asked""# {
        _ = container.resolve(Observed.self, name: "by a handler")
      }
    }
    let keys = Collector<String>()
    let recording = Dependencies.observe { event in
      if event.key.hasSuffix(#" "asked""#) || event.key.hasSuffix(#""by a handler""#) {
        keys.append(event.key)
      }
    }
    _ = container.resolve(Observed.self, name: "asked")
    resolving.cancel()
    recording.cancel()
    #expect(keys.all == [#"Observed named "asked""#])
  }

  /// A `T?` that finds its module is one resolution, of `T`.
  @Test func anOptionalThatFindsItsModuleIsOneEvent() {
    let container = Dependencies { Module("optional") { ObservedImpl() as Observed } }
    let keys = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.contains(#""optional""#) { keys.append(event.key) }
    }
    _ = container.resolve(Observed?.self, name: "optional")
    observation.cancel()
    #expect(keys.all == [#"Observed named "optional""#])
  }

  @Test func anEventReadsAsOneLine() {
    let event = ResolutionEvent(
      key: "WidgetModuleType", scope: .singleton, madeInstance: true,
      durationNanoseconds: 1_250_000,
      onMainThread: true, depth: 0, site: "App.swift:12")
    #expect(
      event.description
        == "WidgetModuleType (.singleton) made in 1.250 ms on the main thread, depth 0, at App.swift:12"
    )
  }

  @Test func anEventsDurationIsItsNanoseconds() {
    let event = ResolutionEvent(
      key: "WidgetModuleType", scope: .unique, madeInstance: true,
      durationNanoseconds: 1_250_000, onMainThread: false, depth: 2, site: "App.swift:12")
    #expect(event.duration == .microseconds(1_250))
  }

  /// What an async factory took counts in the event of the resolution that takes its value,
  /// and in those of the resolutions around it, as a synchronous factory's time does.
  @Test(arguments: [Scope.unique, .singleton])
  func anAsyncFactorysTimeCountsInItsResolutionsEvents(scope: Scope) async throws {
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key.contains("awaited \(scope)") { events.append($0) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("awaited \(scope)", scope: scope) { () async throws -> DatabaseType in
        try await Task.sleep(nanoseconds: 100_000_000)
        return Database()
      }
      Module("outer, awaited \(scope)") { () throws -> DatabaseType in
        try Dependencies.resolveOrThrow(DatabaseType.self, name: "awaited \(scope)")
      }
    }
    _ = try await container.resolveAsyncOrThrow(DatabaseType.self, name: "outer, awaited \(scope)")
    let made = events.all.filter(\.madeInstance)
    #expect(made.map(\.depth) == [1, 0])
    #expect(made.allSatisfy { $0.duration >= .milliseconds(100) }, "\(made.map(\.duration))")
  }

  /// An observer that takes what an async factory made counts none of that factory's time in
  /// the events of the resolutions around it: what it resolves is not observed.
  @Test func anObserversResolutionAddsNoAsyncFactorysTimeToTheEventItIsHanded() async throws {
    let rounds = Counter()
    let container = Dependencies {
      Module("slow, delivered", scope: .singleton) { () async throws -> DatabaseType in
        try await Task.sleep(nanoseconds: 100_000_000)
        return Database()
      }
      // Its first attempt makes the slow one, which its second leaves untaken.
      Module("leaves it, delivered") { () throws -> DatabaseType in
        if rounds.increment() == 1 {
          _ = try Dependencies.resolveOrThrow(DatabaseType.self, name: "slow, delivered")
        }
        return Database()
      }
      Module("inner, delivered") { Database() as DatabaseType }
      Module("outer, delivered") { () throws -> DatabaseType in
        try Dependencies.resolveOrThrow(DatabaseType.self, name: "inner, delivered")
      }
    }
    _ = try await container.resolveAsyncOrThrow(DatabaseType.self, name: "leaves it, delivered")
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe { event in
      if event.key.contains("inner, delivered") {
        _ = try? container.resolveOrThrow(DatabaseType.self, name: "slow, delivered")
      }
      if event.key.contains("outer, delivered") { events.append(event) }
    }
    defer { observation.cancel() }
    let began = ContinuousClock.now
    _ = try container.resolveOrThrow(DatabaseType.self, name: "outer, delivered")
    let took = ContinuousClock.now - began
    let outer = try #require(events.all.first)
    #expect(outer.duration <= took, "told \(outer.duration), took \(took)")
  }

  /// A factory that resolves its own key, with an observer installed: a cycle as without one.
  @Test(arguments: ScopeCase.allCases)
  func anObservedFactoryResolvingItselfIsACycle(scope: ScopeCase) async {
    await #expect(processExitsWith: .success) { [scope] in
      exitIfStillRunning(after: 20)
      let observation = Dependencies.observe { _ in }
      defer { observation.cancel() }
      let container = Dependencies {
        Module(scope: scope.scope) { () throws -> TextType in
          TaggedText(try Dependencies.resolveOrThrow(TextType.self), "self")
        }
      }
      let error = resolutionError { try container.resolveOrThrow(TextType.self) }
      guard case .cycle(let path) = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
      precondition(path == ["TextType", "TextType"], "\(path)")
    }
  }

  /// A nested resolution that throws, caught by the factory: no event for it, the trace is
  /// unwound (the next nested resolution is at depth 1, `current` is still the factory's
  /// container) and the outer resolution is delivered.
  @Test(arguments: [false, true])
  func aNestedFailureCaughtByTheFactoryLeavesTheTraceBalanced(decorating: Bool) throws {
    // Names of each case's own: the observer sees the other case's events, which run at once.
    let prefix = decorating ? "caught-decorated" : "caught-plain"
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.hasPrefix("Observed named \"\(prefix)-") {
        seen.append("\(event.key) \(event.depth) \(event.madeInstance)")
      }
    }
    defer { observation.cancel() }
    let currentIsOwner = Collector<Bool>()
    let box = ContainerBox()
    let container = Dependencies {
      Module("\(prefix)-outer", scope: .singleton) { () -> Observed in
        let failed = resolutionError {
          try Dependencies.resolveOrThrow(Observed.self, name: "\(prefix)-failing")
        }
        precondition(failed != nil)
        let missing = resolutionError {
          try Dependencies.resolveOrThrow(Observed.self, name: "\(prefix)-missing")
        }
        precondition(missing?.reason == .notRegistered)
        currentIsOwner.append(Dependencies.current === box.dependencies)
        _ = Dependencies.resolve(Observed.self, name: "\(prefix)-inner")
        return ObservedImpl()
      }
      Module("\(prefix)-failing", scope: .singleton) { () throws -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "\(prefix)-inner")
        throw StubFailure()
      }
      Module("\(prefix)-inner") { ObservedImpl() as Observed }
      if decorating {
        Module.decorating(Observed.self) { $0 }
      }
    }
    box.dependencies = container
    _ = container.resolve(Observed.self, name: "\(prefix)-outer")
    _ = container.resolve(Observed.self, name: "\(prefix)-inner")
    #expect(currentIsOwner.all == [true])
    #expect(
      seen.all == [
        "Observed named \"\(prefix)-inner\" 2 true",
        "Observed named \"\(prefix)-inner\" 1 true",
        "Observed named \"\(prefix)-outer\" 0 true",
        "Observed named \"\(prefix)-inner\" 0 true",
      ])
  }

  @Test func madeInstanceIsTrueOnlyWhenAFactoryRanAndForEveryKindOfKey() {
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.contains("made-") { seen.append("\(event.key) \(event.madeInstance)") }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("made-single", scope: .singleton) { ObservedImpl() as Observed }
      Module("made-cached", scope: .cached("made")) { ObservedImpl() as Observed }
      Module("made-unique") { ObservedImpl() as Observed }
      Module("made-weak", scope: .weak) { ObservedImpl() as Observed }
      Module("made-alias", scope: .singleton, as: AliasedA.self) { AliasedBoth() }
      Module.decorating(Observed.self) { $0 }
    }
    let child = Dependencies(over: root) {
      Module.decorating(Observed.self) { $0 }
    }
    var held: [Observed] = []
    for _ in 0..<2 {
      _ = child.resolve(Observed.self, name: "made-single")
      _ = child.resolve(Observed.self, name: "made-cached")
      _ = child.resolve(Observed.self, name: "made-unique")
      held.append(child.resolve(Observed.self, name: "made-weak"))
      _ = child.resolve(AliasedA.self, name: "made-alias")
    }
    #expect(held[0] === held[1])
    root.reset(.cached("made"))
    _ = child.resolve(Observed.self, name: "made-cached")
    #expect(
      seen.all == [
        #"Observed named "made-single" true"#,
        #"Observed named "made-cached" true"#,
        #"Observed named "made-unique" true"#,
        #"Observed named "made-weak" true"#,
        #"AliasedA named "made-alias" true"#,
        #"Observed named "made-single" false"#,
        #"Observed named "made-cached" false"#,
        #"Observed named "made-unique" true"#,
        #"Observed named "made-weak" false"#,
        #"AliasedA named "made-alias" false"#,
        #"Observed named "made-cached" true"#,
      ])
  }

  /// `madeInstance` is the resolution's that made the instance, not one nested in it that found
  /// the instance kept: a child's decorator reading it from the owner.
  @Test(arguments: [false, true])
  func aResolutionNestedInTheOneThatMadeAnInstanceIsToldNoFactoryRan(aliased: Bool) {
    let name = "nested-read-\(aliased)"
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.contains(name) { seen.append("\(event.depth) \(event.madeInstance)") }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      if aliased {
        Module(name, scope: .cached("nested-read"), as: Observed.self, AliasedA.self) {
          ObservedAndAliased()
        }
      } else {
        Module(name, scope: .cached("nested-read")) { ObservedImpl() as Observed }
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(Observed.self) { observed in
        _ = root.resolve(Observed.self, name: name)
        return observed
      }
    }
    _ = child.resolve(Observed.self, name: name)
    #expect(seen.all == ["1 false", "0 true"])
  }

  /// `madeInstance`: "Whether a factory ran: `false` when a kept instance was returned." A
  /// thread that waited for another to make a singleton was given the kept one.
  @Test func threadsThatWaitedForASingletonAreToldNoFactoryRan() async {
    let made = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"TextType named "waited""# { events.append($0) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("waited", scope: .singleton) { () -> TextType in
        made.increment()
        usleep(200_000)
        return PlainText("s")
      }
    }
    let finished = await onThreads(8, timeout: 60) { _ in
      _ = container.resolve(TextType.self, name: "waited")
    }
    #expect(finished)
    #expect(made.value == 1)
    #expect(events.all.count == 8)
    #expect(
      events.all.filter(\.madeInstance).count == made.value,
      "\(events.all.filter(\.madeInstance).count) events say a factory ran; it ran \(made.value) time"
    )
  }

  /// Nested events come innermost first, each with its depth ("how many factories were
  /// running on this thread around it"), through decorated singletons kept underneath, an
  /// alias and a contribution list: three factories run around the innermost. Its key types are
  /// its own, so that its observer, which sees every thread, sees no other test's events.
  /// A shared module that an observer makes while it handles an event is made unobserved: the
  /// event of a resolution that finds it kept afterwards says no factory ran.
  @Test(arguments: [Scope.singleton, .weak])
  func aModuleAnObserverMadeIsFoundKeptByTheResolutionAfter(scope: Scope) {
    // Each case's own keys: observers see every resolution, and the cases run at once.
    let (outer, trigger, kept) = ("outer \(scope)", "trigger \(scope)", "kept \(scope)")
    let container = Dependencies {
      Module(outer) { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: trigger)
        withExtendedLifetime(Dependencies.resolve(Observed.self, name: kept)) {}
        return ObservedImpl()
      }
      Module(trigger) { ObservedImpl() as Observed }
      Module(kept, scope: scope) { ObservedImpl() as Observed }
    }
    let held = Collector<Observed>()
    let made = Collector<Bool>()
    let observation = Dependencies.observe { event in
      if event.key == "Observed named \"\(trigger)\"" {
        held.append(container.resolve(Observed.self, name: kept))
      }
      if event.key == "Observed named \"\(kept)\"" { made.append(event.madeInstance) }
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: outer)
    #expect(held.all.count == 1)
    #expect(made.all == [false])
  }

  @Test func nestedEventsComeInnermostFirstWithTheirDepthOnEveryPath() {
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.hasPrefix("Nesting") || event.key == "[NestingPart]" {
        seen.append("\(event.key) \(event.depth)")
      }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("0", scope: .singleton) { () -> NestingObserved in
        _ = Dependencies.resolve(NestingAlias.self, name: "1")
        return NestingObservedImpl()
      }
      Module("1", scope: .cached("nesting"), as: NestingAlias.self) { () -> NestingAliasImpl in
        _ = Dependencies.resolve([NestingPart].self)
        return NestingAliasImpl()
      }
      Module.contribution { () -> NestingPart in
        _ = Dependencies.resolve(NestingObserved.self, name: "3")
        return NestingPartImpl()
      }
      Module("3") { NestingObservedImpl() as NestingObserved }
      Module.decorating(NestingObserved.self) { $0 }
    }
    let child = Dependencies(over: root) {
      Module.decorating(NestingObserved.self) { $0 }
    }
    _ = child.resolve(NestingObserved.self, name: "0")
    #expect(
      seen.all == [
        #"NestingObserved named "3" 3"#,
        "[NestingPart] 2",
        #"NestingAlias named "1" 1"#,
        #"NestingObserved named "0" 0"#,
      ])
  }

  /// What an observer resolves is not observed, nor what that resolution's factories resolve,
  /// and the resolution that was delivered goes on being observed afterwards.
  @Test func anObserverResolvingADecoratedChainObservesNoneOfIt() {
    let seen = Collector<String>()
    let box = ContainerBox()
    let observation = Dependencies.observe { event in
      guard event.key.contains("obs-") else { return }
      seen.append(event.key)
      if event.key.contains("obs-trigger") {
        _ = box.dependencies!.resolve(Observed.self, name: "obs-chain")
      }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("obs-chain", scope: .singleton) { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "obs-leaf")
        return ObservedImpl()
      }
      Module("obs-leaf") { ObservedImpl() as Observed }
      Module("obs-trigger") { ObservedImpl() as Observed }
      Module.decorating(Observed.self) { $0 }
    }
    let child = Dependencies(over: root) { Module.decorating(Observed.self) { $0 } }
    box.dependencies = child
    _ = child.resolve(Observed.self, name: "obs-trigger")
    _ = child.resolve(Observed.self, name: "obs-leaf")
    #expect(
      seen.all == [
        #"Observed named "obs-trigger""#, #"Observed named "obs-leaf""#,
      ])
  }

  /// An observer whose own resolution throws leaves the thread delivering nothing more than
  /// before: the next resolution is observed, and its nested ones too.
  @Test func anObserverWhoseResolutionThrowsKeepsObserving() {
    let seen = Collector<String>()
    let box = ContainerBox()
    let observation = Dependencies.observe { event in
      guard event.key.contains("throwing-observer-") else { return }
      seen.append("\(event.key) \(event.depth)")
      _ = resolutionError {
        try box.dependencies!.resolveOrThrow(
          Observed.self, name: "throwing-observer-fails")
      }
      _ = resolutionError { try box.dependencies!.resolveOrThrow(NeverRegistered.self) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("throwing-observer-outer", scope: .singleton) { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "throwing-observer-inner")
        return ObservedImpl()
      }
      Module("throwing-observer-inner") { ObservedImpl() as Observed }
      Module("throwing-observer-fails", scope: .singleton) { () throws -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "throwing-observer-inner")
        throw StubFailure()
      }
      Module.decorating(Observed.self) { $0 }
    }
    box.dependencies = container
    _ = container.resolve(Observed.self, name: "throwing-observer-outer")
    _ = container.resolve(Observed.self, name: "throwing-observer-inner")
    #expect(
      seen.all == [
        #"Observed named "throwing-observer-inner" 1"#,
        #"Observed named "throwing-observer-outer" 0"#,
        #"Observed named "throwing-observer-inner" 0"#,
      ])
  }

  /// An observer handed the event of a nested resolution runs inside the making that asked for
  /// it, but that making did not ask for what the observer resolves: a miss there names no
  /// module being made, and one inside a factory the observer runs names that factory.
  @Test func anObserversMissNamesOnlyWhatTheObserverMakes() throws {
    let box = ContainerBox()
    let misses = Collector<String>()
    let observation = Dependencies.observe { event in
      guard event.key == #"Observed named "observer-miss-inner""# else { return }
      for name in ["observer-miss-absent", "observer-miss-asking"] {
        misses.append(
          resolutionError { try box.dependencies!.resolveOrThrow(Observed.self, name: name) }?
            .description ?? "resolved")
      }
    }
    defer { observation.cancel() }
    let registered = #line + 2
    let container = Dependencies {
      Module("observer-miss-outer", scope: .singleton) { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "observer-miss-inner")
        return ObservedImpl()
      }
      Module("observer-miss-inner") { ObservedImpl() as Observed }
      Module("observer-miss-asking") { () throws -> Observed in
        try Dependencies.resolveOrThrow(Observed.self, name: "observer-miss-absent")
      }
    }
    box.dependencies = container
    _ = container.resolve(Observed.self, name: "observer-miss-outer")
    let lines = misses.all.map { $0.split(separator: "\n").map(String.init) }
    try #require(lines.count == 2)
    #expect(!lines[0].contains { $0.contains("was being made") }, "\(lines[0])")
    #expect(
      lines[1].contains(
        #"  while Observed named "observer-miss-asking", registered at "#
          + "ShankTests/ObservationTests.swift:\(registered + 5), was being made"),
      "\(lines[1])")
  }

  /// An observer added inside a factory sees what the factory resolves from then on, and not
  /// the resolution it was added in; one cancelled inside a factory sees nothing more.
  @Test func observersAddedAndCancelledMidResolution() {
    let added = Collector<String>()
    let cancelled = Collector<String>()
    let early = Dependencies.observe { event in
      if event.key.contains("mid-") { cancelled.append("\(event.key) \(event.depth)") }
    }
    let container = Dependencies {
      Module("mid-outer", scope: .singleton) { () -> Observed in
        early.cancel()
        _ = Dependencies.resolve(Observed.self, name: "mid-before")
        let late = Dependencies.observe { event in
          if event.key.contains("mid-") { added.append("\(event.key) \(event.depth)") }
        }
        _ = Dependencies.resolve(Observed.self, name: "mid-after")
        late.cancel()
        return ObservedImpl()
      }
      Module("mid-before") { ObservedImpl() as Observed }
      Module("mid-after") { ObservedImpl() as Observed }
      Module.decorating(Observed.self) { $0 }
    }
    _ = container.resolve(Observed.self, name: "mid-outer")
    #expect(cancelled.all.isEmpty)
    #expect(added.all == [#"Observed named "mid-after" 1"#])
  }
}

// MARK: - Fixtures

protocol Observed: AnyObject {}
final class ObservedImpl: Observed {}
final class ObservedAndAliased: Observed, AliasedA {}

/// The keys of `nestedEventsComeInnermostFirstWithTheirDepthOnEveryPath`, which no other test
/// resolves.
protocol NestingObserved: AnyObject {}
final class NestingObservedImpl: NestingObserved {}
protocol NestingAlias: AnyObject {}
final class NestingAliasImpl: NestingAlias {}
protocol NestingPart: AnyObject {}
final class NestingPartImpl: NestingPart {}

/// Resolved only by `aMissIsNoEventAndAListIsOne`.
protocol MissProbe: AnyObject {}
final class MissProbeImpl: MissProbe {}

/// Resolved only by `aListOfKeptContributionsIsMadeAtEveryResolution`.
protocol KeptProbe: AnyObject {}
final class KeptProbeImpl: KeptProbe {}

/// Lets the tasks waiting on it go once it is opened.
actor OpeningGate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func open() {
    isOpen = true
    for waiter in waiters { waiter.resume() }
    waiters = []
  }

  func wait() async {
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }
}
