import Foundation
import Shank
import Testing

@Suite struct VerificationTests {
  @Test func correctGraphVerifies() throws {
    try Dependencies { shopModules() }.verify()
  }

  @Test func optionalInjectionThatFindsNothingIsNotAProblem() throws {
    // CartModule's `promotions` is optional and PromotionsModuleType is never registered.
    try Dependencies { shopModules() }.verify()
  }

  @Test func reportsEveryProblemInOneError() throws {
    let dependencies = Dependencies {
      Module { CartModule() as CartModuleType }  // its ShopAppModuleType is missing
      Module { PaymentsModule() as PaymentsModuleType }
      Module("primary") { AuditedLedgerModule() as LedgerModuleType }
      Module { AuditModule() as AuditModuleType }
      Module(as: LedgerModuleType.self) { StrayModule() }
      Module(scope: .weak) { PromotionsModule() as PromotionsModuleType }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems == [
        .missing(
          module: "CartModuleType", property: "app", requirement: "ShopAppModuleType",
          declaredAt: "ShankTests/ShopFixtures.swift:22"),
        .notConforming(
          module: "LedgerModuleType", valueType: "StrayModule",
          registeredAt: "ShankTests/VerificationTests.swift:21"),
        .weakValueType(
          module: "PromotionsModuleType", valueType: "PromotionsModule",
          registeredAt: "ShankTests/VerificationTests.swift:22"),
        .cycle(path: [
          "LedgerModuleType named \"primary\"", "AuditModuleType",
          "LedgerModuleType named \"primary\"",
        ]),
      ])
    #expect(
      error.description == """
        Shank found 4 problems in the dependency graph:
          - CartModuleType needs ShopAppModuleType in property "app" (ShankTests/ShopFixtures.swift:22), which no container it resolves from registers
          - LedgerModuleType, registered at ShankTests/VerificationTests.swift:21, is made as StrayModule, which does not conform to it
          - PromotionsModuleType, registered .weak at ShankTests/VerificationTests.swift:22, is made as PromotionsModule, a value type: .weak keeps only class instances, so it is made at every resolution
          - cycle: LedgerModuleType named "primary" → AuditModuleType → LedgerModuleType named "primary"
        """)
    // A consumer's problems come after the cycles.
    let withConsumer = try #require(throws: VerificationError.self) {
      try dependencies.verify(consumers: MissingInjectHolder())
    }
    #expect(Array(withConsumer.problems.dropLast()) == error.problems)
    #expect(
      withConsumer.problems.last
        == .missing(
          module: "MissingInjectHolder", property: "missing",
          requirement: #"NeverRegistered named "nowhere""#,
          declaredAt: "ShankTests/DiagnosticsTests.swift:\(missingInjectLine)"))
  }

  /// A factory that resolves an alias its value does not conform to cannot be made: that is
  /// its problem, as unresolvable, and the alias's own is that it does not conform.
  @Test func aFactoryResolvingAnAliasNotConformedToIsUnresolvable() throws {
    let line = #line + 2
    let dependencies = Dependencies {
      Module(as: LedgerModuleType.self) { StrayModule() }
      Module { () throws -> Service in
        _ = try Dependencies.resolveOrThrow(LedgerModuleType.self)
        return ServiceImpl()
      }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(error.problems.count == 2)
    #expect(
      error.problems.first
        == .notConforming(
          module: "LedgerModuleType", valueType: "StrayModule",
          registeredAt: "ShankTests/VerificationTests.swift:\(line)"))
    guard case .unresolvable(let module, let message) = error.problems.last else {
      Issue.record("expected the factory as an unresolvable module, got \(error.problems)")
      return
    }
    #expect(module == "Service")
    #expect(message.contains("does not conform to LedgerModuleType"))
  }

  @Test func namedRequirementIsMissingWhenOnlyTheUnnamedOneExists() throws {
    let dependencies = Dependencies {
      shopModules().filter { $0.name == nil }
      Module { LedgerModule() as LedgerModuleType }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems == [
        .missing(
          module: "PaymentsModuleType", property: "ledger",
          requirement: "LedgerModuleType named \"primary\"",
          declaredAt: "ShankTests/ShopFixtures.swift:29")
      ])
  }

  /// An `@Inject` is resolved when first read, not when its module is made: two modules that
  /// inject each other and read it later resolve, so they are no cycle.
  @Test func modulesThatInjectEachOtherLazilyAreNotACycle() throws {
    let container = Dependencies {
      Module { PingModule() as PingModuleType }
      Module { PongModule() as PongModuleType }
    }
    #expect(container.resolve(PingModuleType.self).peer() == "pong")
    try container.verify()
    #expect(
      container.graph().edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "PingModuleType -pong-> PongModuleType", "PongModuleType -ping-> PingModuleType",
      ])
  }

  /// Modules that read each other's `@Inject` while they are made meet a cycle when made:
  /// one problem, its path starting from the module made first.
  @Test func modulesThatReadEachOtherWhileMadeAreOneCycle() throws {
    let container = Dependencies {
      Module { PingModule(readingPeer: true) as PingModuleType }
      Module { PongModule(readingPeer: true) as PongModuleType }
    }
    let error = try #require(throws: VerificationError.self) { try container.verify() }
    #expect(
      error.problems == [.cycle(path: ["PingModuleType", "PongModuleType", "PingModuleType"])])
    #expect(
      error.description == """
        Shank found 1 problem in the dependency graph:
          - cycle: PingModuleType → PongModuleType → PingModuleType
        """)
  }

  /// An unnamed `[P]` or `[String: P]` that nothing contributes to resolves to an empty
  /// collection, so neither form of verify() reports it missing.
  @Test func listsNothingContributesToAreNotMissing() throws {
    let container = Dependencies { Module { SinkListsReader() } }
    #expect(container.resolve(SinkListsReader.self).counts == [0, 0])
    try container.verify()
    try Dependencies {}.verify(consumers: SinkListsReader())
  }

  /// A type that conforms to `CustomReflectable` shows `verify()` only what its custom mirror
  /// lists: an `@Inject` listed there is checked, one left out is not, as the article says.
  @Test(arguments: [false, true])
  func aCustomMirrorShowsOnlyTheInjectionsItLists(listingIt: Bool) throws {
    let consumer = MirroredConsumer(listingItsInjection: listingIt)
    let problems: [String]
    do throws(VerificationError) {
      try Dependencies {}.verify(consumers: consumer)
      problems = []
    } catch {
      problems = error.problems.map(\.description)
    }
    #expect(
      problems
        == (listingIt
          ? [
            "MirroredConsumer needs Service in property \"service\" (ShankTests/VerificationTests.swift:\(MirroredConsumer.serviceLine)), which no container it resolves from registers"
          ] : []))
  }

  /// A property assigned a value, as a test gives a consumer its mock, never resolves: neither
  /// `verify(consumers:)` nor, in a module whose factory assigns it, `verify()` and `graph()`
  /// ask for what it declares. Its unassigned twin still is checked.
  @Test func aPropertyAssignedAValueAsksForNothing() throws {
    let consumer = ServiceConsumer()
    consumer.service = ServiceImpl()
    let nothing = Dependencies {}
    try nothing.verify(consumers: consumer)
    let error = try #require(throws: VerificationError.self) {
      try nothing.verify(consumers: ServiceConsumer())
    }
    #expect(error.problems.count == 1)

    let given = Dependencies {
      Module { ServiceImpl() as Service }
      Module { () -> ServiceConsumer in
        let module = ServiceConsumer()
        module.service = ServiceImpl()
        return module
      }
    }
    try given.verify()
    #expect(given.graph().edges.isEmpty)
    let injected = Dependencies {
      Module { ServiceImpl() as Service }
      Module { ServiceConsumer() }
    }
    #expect(
      injected.graph().edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "ServiceConsumer -service-> Service"
      ])
  }

  /// A consumer in an `Optional` is checked as the instance it holds; a type or `nil` in its
  /// place is reported, not passed over: it has no properties to check.
  @Test func aConsumerThatIsNoInstanceIsReportedAndAnOptionalOneIsChecked() throws {
    let held: NamedSinkListReader? = NamedSinkListReader()
    let none: NamedSinkListReader? = nil
    let error = try #require(throws: VerificationError.self) {
      try Dependencies {}.verify(consumers: held as Any, NamedSinkListReader.self, none as Any)
    }
    #expect(
      error.problems.map(\.description) == [
        "NamedSinkListReader needs [SinkType] named \"audit\" in property \"sinks\" (ShankTests/VerificationTests.swift:\(NamedSinkListReader.line)), which no container it resolves from registers",
        "verify(consumers:) was given NamedSinkListReader.self, not an instance: pass an instance, whose @Inject properties it checks",
        "verify(consumers:) was given nil (Optional<NamedSinkListReader>), not an instance: pass an instance, whose @Inject properties it checks",
      ])
  }

  /// Under a name, a list that nothing registers does not resolve, and verify() says so.
  @Test func namedListNothingRegistersIsMissing() throws {
    let error = try #require(throws: VerificationError.self) {
      try Dependencies {}.verify(consumers: NamedSinkListReader())
    }
    #expect(
      error.problems == [
        .missing(
          module: "NamedSinkListReader", property: "sinks",
          requirement: "[SinkType] named \"audit\"",
          declaredAt: "ShankTests/VerificationTests.swift:\(NamedSinkListReader.line)")
      ])
  }

  @Test func verifiesOverrideLayersAgainstWhatTheyLayerOver() throws {
    try Dependencies.withOverrides {
      shopModules()
    } operation: {
      try Dependencies.withOverrides {
        Module { CartModule() as CartModuleType }
      } operation: {
        try Dependencies.current.verify()
      }
      let problems = Dependencies.withOverrides {
        Module { AuditModule() as AuditModuleType }
        Module("primary") { AuditedLedgerModule() as LedgerModuleType }
      } operation: { () -> [VerificationError.Problem] in
        do throws(VerificationError) {
          try Dependencies.current.verify()
          return []
        } catch {
          return error.problems
        }
      }
      #expect(
        problems == [
          .cycle(path: ["AuditModuleType", "LedgerModuleType named \"primary\"", "AuditModuleType"])
        ])
    }
  }

  /// `verify()` called from inside a factory, on the thread of a running resolution, answers
  /// as it does outside and never stops the program.
  @Test func verifyFromInsideAFactoryGivesTheSameAnswer() throws {
    let checked = Dependencies {
      Module { try Router(service: Dependencies.resolveOrThrow()) }
    }
    let answers = Collector<Int>()
    let outer = Dependencies {
      Module { () -> Service in
        do throws(VerificationError) {
          try checked.verify()
          answers.append(0)
        } catch {
          answers.append(error.problems.count)
        }
        return ServiceImpl()
      }
    }
    _ = try outer.resolveOrThrow(Service.self)
    var outside = 0
    do throws(VerificationError) { try checked.verify() } catch { outside = error.problems.count }
    #expect(outside == 1)
    #expect(answers.all == [outside])
  }

  @Test(arguments: 0..<5)
  func generatedGraphsReportExactlyThePlantedProblems(seed: UInt64) throws {
    var generator = SeededGenerator(seed: seed)
    let graph = GeneratedGraph(nodes: 300, cycles: 4, missing: 6, using: &generator)
    let error = try #require(throws: VerificationError.self) { try graph.dependencies.verify() }
    #expect(Set(error.problems) == graph.expectedProblems)
    #expect(error.problems.count == graph.expectedProblems.count)
  }

  @Test func generatedGraphWithoutPlantedProblemsVerifies() throws {
    var generator = SeededGenerator(seed: 42)
    try GeneratedGraph(nodes: 300, cycles: 0, missing: 0, using: &generator).dependencies.verify()
  }

  /// Under a missing key, the registrations close to it, as a miss's message lists them: here
  /// the key under another name and its likely concrete type, registered without `as`.
  @Test func aMissingKeyListsItsNearMisses() throws {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module { ServiceImpl() }
      Module("backup") { ServiceImpl() as Service }
    }
    let error = try #require(throws: VerificationError.self) {
      try dependencies.verify(consumers: ServiceConsumer())
    }
    #expect(
      error.description == """
        Shank found 1 problem in the dependency graph:
          - ServiceConsumer needs Service in property "service" (ShankTests/VerificationFailureTests.swift:\(serviceConsumerInjectLine)), which no container it resolves from registers
            near misses:
              Service named "backup": the same type under another name
              ServiceImpl: registered at ShankTests/VerificationTests.swift:\(registered) as its own type; if it conforms to Service, register it as that type: Module { … as Service }
        """)
  }

  /// A module that could not be made is one line: the message's lines joined by semicolons,
  /// a list's entries after their title, joined by commas.
  @Test func anUnresolvableModuleIsOneLineWithAListsEntriesAfterItsTitle() throws {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module { () -> OtherService in
        _ = Dependencies.current.resolve(Service.self, name: "primary")
        return OtherServiceImpl()
      }
      Module("backup") { ServiceImpl() as Service }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems.map(\.description) == [
        #"OtherService could not be made: Shank cannot resolve Service named "primary"; asked for at ShankTests/VerificationTests.swift:\#(registered + 1); while OtherService, registered at ShankTests/VerificationTests.swift:\#(registered), was being made; near misses: Service named "backup": the same type under another name; registered (2): OtherService, Service named "backup""#
      ])
  }

  /// Near misses are looked for under the first 20 missing keys, each a look at every
  /// registration; the keys after them are named alone.
  @Test func nearMissesAreListedUnderTheFirstTwentyMissingKeys() throws {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      for number in 1...21 {
        Module("reader \(number)") { NamedServiceConsumer(name: "missing \(number)") }
      }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    let lines = error.description.split(separator: "\n")
    #expect(error.problems.count == 21)
    #expect(lines.filter { $0 == "    near misses:" }.count == 20)
    #expect(lines.filter { $0 == "      Service: the same type with no name" }.count == 20)
    #expect(
      lines.last?.hasPrefix(
        #"  - NamedServiceConsumer named "reader 21" needs Service named "missing 21""#) == true)
  }

  // MARK: The private copy verify() works in

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

  @Test func thePrivateCopyOfAPartlyReplacedAliasModuleKeepsExactlyTheWinners() throws {
    let made = Collector<String>()
    let dependencies = Dependencies {
      Module(scope: .singleton, as: AliasAlpha.self, AliasBeta.self) { () -> AliasAlphaBeta in
        made.append("alpha and beta")
        return AliasAlphaBeta()
      }
      Module(scope: .singleton) { () -> AliasBeta in
        made.append("beta only")
        return AliasBetaOnly()
      }
      // Every type replaced: the module must not be made at all.
      Module(as: Service.self, OtherService.self) { () -> ServiceImpl in
        made.append("replaced")
        return ServiceImpl()
      }
      Module { MockService() as Service }
      Module { OtherServiceImpl() as OtherService }
      // A value that conforms only to the type that was replaced: not a problem.
      Module(as: AliasAlpha.self, Router.self) { AliasAlphaBeta() }
      Module { Router(service: ServiceImpl()) }
    }
    try dependencies.verify()
    #expect(made.all.sorted() == ["beta only"])
    #expect(
      dependencies.graph().nodes.map(\.label) == [
        "AliasBeta · .singleton", "Service", "OtherService", "AliasAlpha", "Router",
      ])
    #expect(dependencies.resolve(AliasBeta.self) is AliasBetaOnly)
  }

  /// Overriding a cached module keeps its scope resettable at resolution; `verify()` must agree
  /// and not report, as a stop, a reset that would work.
  @Test func verifyAcceptsAResetOfACachedScopeWhoseModuleWasReplaced() throws {
    let dependencies = Dependencies {
      Module(scope: .cached("session")) { ServiceImpl() as Service }
      Module { MockService() as Service }  // a test's override of the cached module
      Module { () -> Router in
        Dependencies.current.reset(.cached("session"))  // a log-out screen
        return Router(service: Dependencies.resolve())
      }
    }
    // Resolution: the reset matches the replaced module's scope, and nothing stops.
    #expect(try dependencies.resolveOrThrow(Router.self).service is MockService)
    #expect(throws: Never.self) { try dependencies.verify() }
    #expect(dependencies.graph().nodes.count == 2)
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

  /// A missing key written with two types of one short name writes them in full, as the
  /// message of a miss does.
  @Test func aMissingTypeWrittenWithTwoTypesOfOneShortNameIsWrittenInFull() throws {
    let error = try #require(throws: VerificationError.self) {
      try Dependencies {}.verify(consumers: KeyMapReader())
    }
    let typeName = "[ShankTests.FeatureA.Key: ShankTests.FeatureB.Key]"
    #expect(
      error.problems.map(\.description) == [
        "KeyMapReader needs \(typeName) in property \"map\" (ShankTests/VerificationTests.swift:\(KeyMapReader.line)), which no container it resolves from registers"
      ])
    let miss = try #require(throws: ResolutionError.self) {
      try Dependencies {}.resolveOrThrow([FeatureA.Key: FeatureB.Key].self)
    }
    #expect(miss.typeName == typeName)
  }

  /// A module registered as two types that asks for one of them, itself or through another
  /// module, is one cycle, whichever type `verify()` makes it by.
  @Test(arguments: [Scope.singleton, .unique], [false, true])
  func anAliasModuleAskingForItselfIsOneCycle(scope: Scope, throughAModule: Bool) throws {
    let dependencies = Dependencies {
      Module(scope: scope, as: AliasAlpha.self, AliasBeta.self) { () throws -> AliasAlphaBeta in
        if throughAModule {
          _ = try Dependencies.resolveOrThrow(Service.self)
        } else {
          _ = try Dependencies.resolveOrThrow(AliasBeta.self)
        }
        return AliasAlphaBeta()
      }
      Module(scope: scope) { () throws -> Service in
        _ = try Dependencies.resolveOrThrow(AliasBeta.self)
        return ServiceImpl()
      }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    let path = throughAModule ? "AliasBeta → Service → AliasBeta" : "AliasBeta → AliasBeta"
    #expect(
      error.problems.map(\.description).filter { $0.hasPrefix("cycle:") } == ["cycle: \(path)"])
  }

  /// A missing key whose type has the short name of a type registered, or of one a type
  /// registered is written with, is written in full.
  @Test(arguments: ClashingRegistration.allCases)
  func aMissingTypeThatSharesARegisteredTypesShortNameIsWrittenInFull(
    _ clashing: ClashingRegistration
  ) throws {
    let dependencies = Dependencies {
      switch clashing {
      case .type: Module { FeatureA.ClientImpl() as FeatureA.Client }
      case .list: Module { [FeatureA.ClientImpl() as FeatureA.Client] }
      case .optional: Module { FeatureA.ClientImpl() as FeatureA.Client? }
      }
      Module { FeatureB.Screen() }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems.map(\.description) == [
        "Screen needs ShankTests.FeatureB.Client in property \"client\" (ShankTests/Fixtures.swift:\(featureBClientLine)), which no container it resolves from registers"
      ])
  }
}

// MARK: - Fixtures

/// A consumer with a custom mirror, which lists its `@Inject` or leaves it out.
struct MirroredConsumer: CustomReflectable {
  static let serviceLine = #line + 1
  @Inject var service: Service
  let listingItsInjection: Bool

  var customMirror: Mirror {
    Mirror(self, children: listingItsInjection ? ["service": _service] : [:])
  }
}

/// A consumer that asks for a dictionary keyed by one feature's `Key` of another's.
struct KeyMapReader {
  static let line = #line + 1
  @Inject var map: [FeatureA.Key: FeatureB.Key]
}

/// How a type of the short name of a missing one is registered.
enum ClashingRegistration: CaseIterable {
  case type, list, optional
}

final class ReleaseRecorder: Service, @unchecked Sendable {
  let serial = 0
  let onRelease: () -> Void
  init(onRelease: @escaping () -> Void) { self.onRelease = onRelease }
  deinit { onRelease() }
}

final class AliasBetaOnly: Numbered, AliasBeta {}

@MainActor final class MainActorModule {}

/// A singleton registered from nonisolated code whose factory needs a main-actor module.
nonisolated func nonisolatedSingletonNeedingTheMainActorModule() -> Module {
  Module(scope: .singleton) { () -> Service in
    _ = Dependencies.resolve(MainActorModule.self)
    return ServiceImpl()
  }
}

/// A random module graph of `NodeModule`s: a DAG, plus planted cycles among extra nodes, each
/// reading the next while it is made, and planted required injections of names that are not
/// registered.
struct GeneratedGraph {
  let dependencies: Dependencies
  let expectedProblems: Set<VerificationError.Problem>

  init(nodes: Int, cycles: Int, missing: Int, using generator: inout SeededGenerator) {
    var modules: [Module] = []
    var problems: Set<VerificationError.Problem> = []
    let missingNodes = Set((0..<nodes).shuffled(using: &generator).prefix(missing))
    for index in 0..<nodes {
      // Edges only go to lower indices, so the DAG part has no cycle.
      let targets =
        index == 0
        ? []
        : (0..<Int.random(in: 0...3, using: &generator)).map { _ in
          "n\(Int.random(in: 0..<index, using: &generator))"
        }
      let required =
        missingNodes.contains(index)
        ? "absent\(index)" : (index == 0 ? "n0-root" : targets.first ?? "n0")
      modules.append(
        Module("n\(index)") { NodeModule(optional: targets, required: required) as NodeModuleType })
      if missingNodes.contains(index) {
        problems.insert(
          .missing(
            module: "NodeModuleType named \"n\(index)\"", property: "required",
            requirement: "NodeModuleType named \"absent\(index)\"",
            declaredAt: "ShankTests/ShopFixtures.swift:70"))
      }
    }
    modules.append(
      Module("n0-root") { NodeModule(optional: [], required: "n0-root-leaf") as NodeModuleType })
    modules.append(Module("n0-root-leaf") { LeafNode() as NodeModuleType })
    for cycle in 0..<cycles {
      // c0 → c1 → … → c0, each also reaching down into the DAG, which never reaches back.
      let length = Int.random(in: 2...4, using: &generator)
      let names = (0..<length).map { "c\(cycle)-\($0)" }
      for (position, name) in names.enumerated() {
        let next = names[(position + 1) % length]
        let down = "n\(Int.random(in: 0..<nodes, using: &generator))"
        modules.append(
          Module(name) {
            NodeModule(optional: [down], required: next, readingRequired: true) as NodeModuleType
          })
      }
      problems.insert(.cycle(path: (names + [names[0]]).map { "NodeModuleType named \"\($0)\"" }))
    }
    dependencies = Dependencies { modules }
    expectedProblems = problems
  }
}

/// A node that injects nothing, so the generated DAG has somewhere to end.
struct LeafNode: NodeModuleType {}

/// A module that injects both collections of `SinkType`, read only when asked.
struct SinkListsReader {
  @Inject private var sinks: [SinkType]
  @Inject private var byName: [String: SinkType]

  var counts: [Int] { [sinks.count, byName.count] }
}

/// A consumer that injects a named list of `SinkType`.
struct NamedSinkListReader {
  static let line = #line + 1
  @Inject("audit") private var sinks: [SinkType]
}

protocol PingModuleType: AnyObject {
  func name() -> String
  func peer() -> String
}

protocol PongModuleType: AnyObject {
  func name() -> String
}

/// Injects the pong module, read when asked, or while made when `readingPeer`.
final class PingModule: PingModuleType {
  @Inject private var pong: PongModuleType

  init(readingPeer: Bool = false) {
    if readingPeer { _ = pong }
  }

  func name() -> String { "ping" }
  func peer() -> String { pong.name() }
}

/// Injects the ping module, read when asked, or while made when `readingPeer`.
final class PongModule: PongModuleType {
  @Inject private var ping: PingModuleType

  init(readingPeer: Bool = false) {
    if readingPeer { _ = ping }
  }

  func name() -> String { "pong" }
}

/// A layer's `verify()` checks a shared module underneath against the container that makes it,
/// which a key registered only in the layer does not reach.
@Suite struct LayeredVerificationTests {
  /// `verify()` and `graph()` copy the layers under a container as lookups walk them, in a
  /// loop: a stack of 100,000 children, deeper than a recursion holds, is checked.
  @Test func verifyAndGraphCheckAContainerOverAnyNumberOfLayers() async {
    await #expect(processExitsWith: .success) {
      var top = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
      for _ in 0..<100_000 { top = Dependencies(over: top) {} }
      try top.verify()
      precondition(top.graph().nodes.map(\.typeName) == ["Service"])
    }
  }

  @Test func aSharedModuleUnderneathNeedsItsInjectionsWhereItIsMade() throws {
    let root = Dependencies { Module(scope: .singleton) { ServiceReader() } }
    let child = Dependencies(over: root) { Module { ServiceImpl() as Service } }
    let error = try #require(throws: VerificationError.self) { try child.verify() }
    #expect(
      error.problems == [
        .missing(
          module: "ServiceReader", property: "service", requirement: "Service",
          declaredAt: "ShankTests/GraphTests.swift:\(ServiceReader.line)")
      ])
    #expect(
      error.problems.map(\.description) == [
        "ServiceReader needs Service in property \"service\" (ShankTests/GraphTests.swift:\(ServiceReader.line)), which no container it resolves from registers"
      ])
    let unique = Dependencies(over: Dependencies { Module { ServiceReader() } }) {
      Module { ServiceImpl() as Service }
    }
    #expect(throws: Never.self) { try unique.verify() }
  }

  /// The module a layer replaces is what the shared one underneath injects: `verify()` makes
  /// it too, and reports what it cannot make, as `graph()` draws it.
  @Test func aModuleALayerReplacesIsMadeWhereASharedOneUnderneathInjectsIt() throws {
    let made = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { ServiceReader() }
      countedService(by: made)
    }
    let child = Dependencies(over: root) { Module { ServiceImpl() as Service } }
    try child.verify()
    #expect(made.value == 1)
    #expect(child.graph().edges.map(\.to) == ["Service_2"])
    let registered = #line + 4
    let failing = Dependencies(
      over: Dependencies {
        Module(scope: .singleton) { ServiceReader() }
        Module { () throws -> Service in throw StubFailure() }
      }
    ) { Module { ServiceImpl() as Service } }
    let error = try #require(throws: VerificationError.self) { try failing.verify() }
    #expect(
      error.problems.map(\.description) == [
        "Service could not be made: Shank cannot resolve Service: its factory registered at ShankTests/VerificationTests.swift:\(registered) threw StubFailure(); asked for at ShankTests/VerificationTests.swift:\(registered)"
      ])
  }
}

/// A module that injects `Service` under a name it is given.
final class NamedServiceConsumer {
  @Inject var service: Service

  init(name: String) { _service = Inject(name) }
}
