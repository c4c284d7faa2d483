import Foundation
import Testing

@testable import Shank

/// What `ResolutionError` says, field by field and verbatim, on local containers.
@Suite struct ResolutionErrorTests {
  private let fileID = "ShankTests/DiagnosticsTests.swift"

  /// Outside a test the same miss asks about `build()`; a test's process cannot be outside one,
  /// so the error is made as a miss in an app's process makes it.
  @Test func neverBuiltOutsideATestAsksWhetherBuildWasCalled() {
    let error = ResolutionError(
      ResolutionError.Fields(
        reason: .notRegistered, key: KeyDescription(Service.self, name: nil),
        site: SourceSite(fileID: "App/WidgetList.swift", line: 12), noContainerBuilt: true))
    #expect(
      error.description == """
        Shank cannot resolve Service
          asked for at App/WidgetList.swift:12
          no container was built: did you call build() on your Dependencies at launch?
        """)
  }

  /// The message an `@Inject` read stops with, in an exit test, when its making container is
  /// gone; here its fields too.
  @Test func aReleasedMakingContainerSaysToKeepIt() {
    let error = ResolutionError(
      .released(container: "made at App/Root.swift:3"),
      key: KeyDescription(Service.self, name: nil),
      site: SourceSite(fileID: "App/Holder.swift", line: 9))
    #expect(error.reason == .released(container: "made at App/Root.swift:3"))
    #expect(
      error.description == """
        Shank cannot resolve Service: the container that made the instance holding it was released (made at App/Root.swift:3)
          asked for at App/Holder.swift:9
          keep that container for as long as what it made is in use, or read the property while it is
        """)
  }

  @Test func notRegisteredListsEveryKindOfNearMiss() throws {
    let dependencies = Dependencies {
      Module { SampleModule() as SampleModuleType }
      Module("staging") { ServiceImpl() as Service }
      Module("production") { SampleModule() as SampleModuleType }
      Module("staging") { SampleModule() as SampleModuleType? }
      Module { OtherServiceImpl() as OtherService }
    }
    let line = #line + 1
    let error = try #require(
      resolutionError { try dependencies.resolveOrThrow(SampleModuleType.self, name: "staging") })
    #expect(error.reason == .notRegistered)
    #expect(error.typeName == "SampleModuleType")
    #expect(error.name == "staging")
    #expect(error.fileID == fileID)
    #expect(error.line == line)
    #expect(error.noContainerBuilt == false)
    #expect(
      error.nearMisses == [
        "SampleModuleType: the same type with no name",
        #"Service named "staging": the same name, another type"#,
        #"SampleModuleType named "production": the same type under another name"#,
        #"Optional<SampleModuleType> named "staging": the type registered as an Optional; register it as SampleModuleType"#,
      ])
    #expect(
      error.registered == [
        #"Optional<SampleModuleType> named "staging""#,
        "OtherService",
        "SampleModuleType",
        #"SampleModuleType named "production""#,
        #"Service named "staging""#,
      ])
    #expect(error.registeredCount == 5)
    #expect(
      error.description == """
        Shank cannot resolve SampleModuleType named "staging"
          asked for at \(fileID):\(line)
          near misses:
            SampleModuleType: the same type with no name
            Service named "staging": the same name, another type
            SampleModuleType named "production": the same type under another name
            Optional<SampleModuleType> named "staging": the type registered as an Optional; register it as SampleModuleType
          registered (5):
            Optional<SampleModuleType> named "staging"
            OtherService
            SampleModuleType
            SampleModuleType named "production"
            Service named "staging"
        """)
  }

  /// Two features' types of one short name, `Client`: a miss writes every type of that name
  /// in full, so that the message tells the one asked for from the one registered.
  @Test func aMissWritesTheTypesOfTheRequestedShortNameInFull() throws {
    let container = Dependencies {
      Module { FeatureA.ClientImpl() as FeatureA.Client }
      Module("x") { FeatureA.ClientImpl() as FeatureA.Client }
      Module { ServiceImpl() as Service }
      Module { FeatureA.ClientImpl() as FeatureA.Client? }
      Module { [FeatureA.ClientImpl()] as [FeatureA.Client] }
      Module { [:] as [String: FeatureA.Client] }
    }
    let error = resolutionError { try container.resolveOrThrow(FeatureB.Client.self, name: "x") }
    let asked = #line - 1
    let miss = try #require(error)
    #expect(
      miss.description == """
        Shank cannot resolve ShankTests.FeatureB.Client named "x"
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
          near misses:
            ShankTests.FeatureA.Client named "x": the same name, another type
          registered (6):
            Optional<ShankTests.FeatureA.Client>
            Service
            ShankTests.FeatureA.Client
            ShankTests.FeatureA.Client named "x"
            [ShankTests.FeatureA.Client]
            [String: ShankTests.FeatureA.Client]
        """)
  }

  /// A type private to its file is written in full without the scope Swift writes with an
  /// address, which changes from run to run.
  @Test func aMissWritesAPrivateTypeInFullWithoutItsAddress() throws {
    let container = Dependencies { Module { PrivateFeature.ClientImpl() as PrivateFeature.Client } }
    let error = resolutionError { try container.resolveOrThrow(FeatureB.Client.self) }
    let asked = #line - 1
    #expect(
      try #require(error).description == """
        Shank cannot resolve ShankTests.FeatureB.Client
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
          registered (1):
            ShankTests.PrivateFeature.Client
        """)
  }

  /// Two types local to two functions share even their full name: the one registered is a
  /// near miss that says so, rather than a registered key written as the one asked for.
  @Test func aMissOfATypeWrittenAsTheRegisteredOneSaysItIsAnother() throws {
    let error = missOfALocalClient(in: localClientContainer())
    #expect(
      try #require(error).description == """
        Shank cannot resolve ShankTests.Client
          asked for at ShankTests/DiagnosticsTests.swift:\(missOfALocalClientLine)
          near misses:
            ShankTests.Client: another type written the same, private to another file or local to another function: register the type asked for, or ask for this one
          registered (1):
            ShankTests.Client
        """)
  }

  /// The newcomer's mistake: a module registered without `as`, under its concrete type. An
  /// unnamed module whose type is named as an implementation of the asked type would be is
  /// named as one, with where it is registered; others, and named ones, are not.
  @Test func aModuleRegisteredAsItsOwnTypeIsANearMissOfTheTypeItImplements() throws {
    let registeredAt = #line + 2
    let dependencies = Dependencies {
      Module { ServiceImpl() }
      Module { OtherServiceImpl() }
      Module("named") { ServiceImpl() }
    }
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    let hint =
      "ServiceImpl: registered at \(fileID):\(registeredAt) as its own type; if it conforms to Service, register it as that type: Module { … as Service }"
    #expect(error.nearMisses == [hint])
    #expect(
      error.description == """
        Shank cannot resolve Service
          asked for at \(fileID):\(line)
          near misses:
            \(hint)
          registered (3):
            OtherServiceImpl
            ServiceImpl
            ServiceImpl named "named"
        """)
  }

  /// The names an implementation or a test's stand-in is given by convention, each registered
  /// without `as`, are named as the protocol's own-type near misses, in registration order.
  @Test func conventionallyNamedModulesAreOwnTypeNearMissesOfTheirProtocol() throws {
    let registeredAt = #line + 2
    let dependencies = Dependencies {
      Module { WidgetModule() }
      Module { MockWidgetModule() }
      Module { StubWidgetModule() }
      Module { WidgetModuleTypeMock() }
    }
    let error = try #require(
      resolutionError { try dependencies.resolveOrThrow(WidgetModuleType.self) })
    let names = ["WidgetModule", "MockWidgetModule", "StubWidgetModule", "WidgetModuleTypeMock"]
    #expect(
      error.nearMisses
        == names.enumerated().map { offset, name in
          "\(name): registered at \(fileID):\(registeredAt + offset) as its own type; if it conforms to WidgetModuleType, register it as that type: Module { … as WidgetModuleType }"
        })
  }

  /// Only names that follow the conventions of an implementation are hinted, and after the
  /// certain near misses: a `…Type` protocol's module, a `Live…` implementation, a key
  /// written in full; not a concrete type asked for whose protocol is registered with `as`,
  /// nor types whose names only begin alike.
  @Test func theOwnTypeNearMissFollowsTheNamingConventionsAndComesLast() throws {
    let hint = { (type: String, line: Int, asked: String) in
      "\(type): registered at \(fileID):\(line) as its own type; if it conforms to \(asked), register it as that type: Module { … as \(asked) }"
    }
    let registeredAt = #line + 2
    let conventions = Dependencies {
      Module { WidgetModule() }
      Module { LiveService() }
      Module("staging") { ServiceImpl() as Service }
      Module { OtherServiceImpl() as OtherService }
      Module { 64 as Int64 }
      Module { () }
    }
    let widgets = resolutionError { try conventions.resolveOrThrow(WidgetModuleType.self) }
    #expect(widgets?.nearMisses == [hint("WidgetModule", registeredAt, "WidgetModuleType")])
    let service = resolutionError { try conventions.resolveOrThrow(Service.self) }
    #expect(
      service?.nearMisses == [
        #"Service named "staging": the same type under another name"#,
        hint("LiveService", registeredAt + 1, "Service"),
      ])
    // Another feature's `Client` makes the key written in full; the short names still match.
    let clientAt = #line + 2
    let features = Dependencies {
      Module { FeatureA.ClientImpl() }
      Module { OtherFeatureClient() as FeatureB.Client }
    }
    let client = resolutionError { try features.resolveOrThrow(FeatureA.Client.self) }
    #expect(client?.typeName == "ShankTests.FeatureA.Client")
    #expect(
      client?.nearMisses == [hint("ClientImpl", clientAt, "ShankTests.FeatureA.Client")])
    for error in [
      resolutionError { try conventions.resolveOrThrow(OtherServiceImpl.self) },
      resolutionError { try conventions.resolveOrThrow(Int.self) },
      resolutionError { try conventions.resolveOrThrow((() -> Int).self) },
    ] {
      #expect(error?.nearMisses == [])
    }
  }

  @Test func anOptionalRegistrationIsANearMissForTheUnnamedWrappedType() throws {
    let dependencies = Dependencies { Module { ServiceImpl() as Service? } }
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    #expect(
      error.nearMisses == [
        "Optional<Service>: the type registered as an Optional; register it as Service"
      ])
    #expect(
      error.description == """
        Shank cannot resolve Service
          asked for at \(fileID):\(line)
          near misses:
            Optional<Service>: the type registered as an Optional; register it as Service
          registered (1):
            Optional<Service>
        """)
  }

  @Test func aMissLabelsContributionsAndDecoratorsAndPointsAContributionToItsList() throws {
    let contributed = #line + 4
    let dependencies = Dependencies {
      Module { SampleModule(value: "x") as SampleModuleType }
      Module.decorating(SampleModuleType.self) { $0 }
      Module.contribution("remote") { Sink("a") as SinkType }
    }
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(SinkType.self) })
    #expect(
      error.description == """
        Shank cannot resolve SinkType
          asked for at \(fileID):\(line)
          near misses:
            SinkType named "remote": a contribution; resolve [SinkType] for every one
          registered (5):
            SampleModuleType
            SampleModuleType: a decorator
            SinkType named "remote": a contribution to [SinkType], registered at \(fileID):\(contributed)
            [SinkType]
            [String: SinkType]
        """)
  }

  /// Two layers contributing under one key: one line of advice, and each contribution listed
  /// with where it is registered.
  @Test func aKeyTwoLayersContributeToIsOneNearMissAndTwoRegisteredLines() throws {
    let rootLine = #line + 1
    let root = Dependencies { Module.contribution { Sink("root") as SinkType } }
    let childLine = #line + 1
    let child = Dependencies(over: root) { Module.contribution { Sink("child") as SinkType } }
    let line = #line + 1
    let error = try #require(resolutionError { try child.resolveOrThrow(SinkType.self) })
    #expect(
      error.description == """
        Shank cannot resolve SinkType
          asked for at \(fileID):\(line)
          near misses:
            SinkType: a contribution; resolve [SinkType] for every one
          registered (4):
            SinkType: a contribution to [SinkType], registered at \(fileID):\(childLine)
            SinkType: a contribution to [SinkType], registered at \(fileID):\(rootLine)
            [SinkType]
            [String: SinkType]
        """)
    #expect(error.nearMisses == ["SinkType: a contribution; resolve [SinkType] for every one"])
  }

  @Test func anUnnamedRequestHasNoNearMissesAmongOtherTypes() throws {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      Module("abc") { OtherServiceImpl() as OtherService }
    }
    let line = #line + 1
    let error = try #require(
      resolutionError { try dependencies.resolveOrThrow(SampleModuleType.self) })
    #expect(error.nearMisses == [])
    #expect(error.registered == [#"OtherService named "abc""#, "Service"])
    #expect(
      error.description == """
        Shank cannot resolve SampleModuleType
          asked for at \(fileID):\(line)
          registered (2):
            OtherService named "abc"
            Service
        """)
  }

  @Test func notRegisteredSaysWhenNothingIsRegistered() throws {
    let dependencies = Dependencies {}
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    #expect(error.reason == .notRegistered)
    #expect(error.typeName == "Service")
    #expect(error.name == nil)
    #expect(error.fileID == fileID)
    #expect(error.line == line)
    #expect(error.noContainerBuilt == false, "a local container is not the missing root")
    #expect(error.nearMisses == [])
    #expect(error.registered == [])
    #expect(error.registeredCount == 0)
    #expect(
      error.description == """
        Shank cannot resolve Service
          asked for at \(fileID):\(line)
          nothing is registered
        """)
  }

  @Test func notRegisteredListsTheFirstTwentyOfMore() throws {
    let dependencies = Dependencies {
      for index in (0..<25).reversed() {
        Module(String(format: "n%02d", index)) { SampleModule() as SampleModuleType }
      }
    }
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    let firstTwenty = (0..<20).map { String(format: #"SampleModuleType named "n%02d""#, $0) }
    #expect(error.registered == firstTwenty)
    #expect(error.registeredCount == 25)
    #expect(error.nearMisses == [])
    #expect(
      error.description == """
        Shank cannot resolve Service
          asked for at \(fileID):\(line)
          registered (25, first 20):

        """ + firstTwenty.map { "    \($0)" }.joined(separator: "\n"))
  }

  @Test func exactlyTwentyRegisteredAreAllListedWithoutFirst() throws {
    let dependencies = Dependencies {
      for index in 0..<20 {
        Module(String(format: "n%02d", index)) { SampleModule() as SampleModuleType }
      }
    }
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    #expect(error.registered.count == 20)
    #expect(error.registeredCount == 20)
    #expect(error.description.contains("  registered (20):\n") == true)
  }

  @Test func aMissAmongAHundredThousandKeysListsTheFirstTwentyOfEachList() throws {
    // Registered last to first, so that the near misses, in registration order, and the
    // registered keys, sorted, start at opposite ends.
    let dependencies = Dependencies {
      for index in (0..<100_000).reversed() {
        Module(String(format: "n%06d", index)) { SampleModule() as SampleModuleType }
      }
    }
    let line = #line + 1
    let error = try #require(
      resolutionError { try dependencies.resolveOrThrow(SampleModuleType.self, name: "gone") })
    #expect(error.nearMisses.count == 100_000)
    #expect(error.registeredCount == 100_000)
    let nearMisses = (99_980..<100_000).reversed().map {
      String(format: #"    SampleModuleType named "n%06d": the same type under another name"#, $0)
    }
    let registered = (0..<20).map { String(format: #"    SampleModuleType named "n%06d""#, $0) }
    var expected = [
      #"Shank cannot resolve SampleModuleType named "gone""#, "  asked for at \(fileID):\(line)",
      "  near misses (100,000, first 20):",
    ]
    expected += nearMisses
    expected.append("  registered (100,000, first 20):")
    expected += registered
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 44)
    #expect(lines.map(String.init) == expected)
  }

  /// A miss under a name registered 100,000 times for one type, each registration replacing
  /// the last, and once for each of two other types, stays short: each key is one near miss.
  @Test func aMissAmongAHundredThousandKeysOfOneNameIsShort() throws {
    let dependencies = Dependencies {
      for index in 0..<100_000 { Module("shared") { index } }
      Module("shared") { "a string" }
      Module("shared") { 1.5 }
    }
    let error = resolutionError { try dependencies.resolveOrThrow(Service.self, name: "shared") }
    let message = try #require(error).description
    #expect(message.split(separator: "\n").count < 50, "\(message)")
  }

  @Test func nearMissesPastTwentyShowTheFirstTwentyAndHowManyThereAre() throws {
    func message(nearMisses count: Int) throws -> [Substring] {
      let dependencies = Dependencies {
        for index in 0..<count {
          Module(String(format: "n%02d", index)) { SampleModule() as SampleModuleType }
        }
      }
      let error = try #require(
        resolutionError { try dependencies.resolveOrThrow(SampleModuleType.self) })
      #expect(error.nearMisses.count == count)
      return error.description.split(separator: "\n")
    }
    let twenty = try message(nearMisses: 20)
    #expect(twenty[2] == "  near misses:")
    #expect(twenty[23] == "  registered (20):")
    let twentyOne = try message(nearMisses: 21)
    #expect(twentyOne[2] == "  near misses (21, first 20):")
    #expect(twentyOne[22] == #"    SampleModuleType named "n19": the same type under another name"#)
    #expect(twentyOne[23] == "  registered (21, first 20):")
    #expect(twentyOne.count == 44)
  }

  @Test func namesAreWrittenAsSwiftStringLiteralsSoEachEntryKeepsItsLine() throws {
    let dependencies = Dependencies {
      Module("x\"y\\z\r\u{7}\u{2028}é") { ServiceImpl() as Service }
    }
    let line = #line + 1
    let error = try #require(
      resolutionError { try dependencies.resolveOrThrow(Service.self, name: "a\nb") })
    #expect(error.name == "a\nb", "the field keeps the name as it was asked for")
    #expect(
      error.description == #"""
        Shank cannot resolve Service named "a\nb"
          asked for at \#(fileID):\#(line)
          near misses:
            Service named "x\"y\\z\r\u{07}\u{2028}é": the same type under another name
          registered (1):
            Service named "x\"y\\z\r\u{07}\u{2028}é"
        """#)
  }

  /// Zero-width, bidirectional and byte-order characters are written escaped: names that
  /// differ only by them read apart, and none reorders the line.
  @Test(arguments: [
    ("ab\u{200B}c", #""ab\u{200B}c""#), ("\u{202E}cba", #""\u{202E}cba""#),
    ("a\u{200F}bc", #""a\u{200F}bc""#), ("abc\u{FEFF}", #""abc\u{FEFF}""#),
  ])
  func invisibleAndBidirectionalCharactersOfANameAreEscaped(name: String, written: String) {
    #expect(KeyDescription.quoted(name) == written)
  }

  @Test func verificationProblemsKeepTheirLineWhenANameBreaksLines() throws {
    let dependencies = Dependencies {
      Module("x\ny") { LineBreakingModule() as SampleModuleType }
    }
    let error = try #require(
      { () -> VerificationError? in
        do {
          try dependencies.verify()
          return nil
        } catch {
          return error as? VerificationError
        }
      }())
    #expect(
      error.description == #"""
        Shank found 1 problem in the dependency graph:
          - SampleModuleType named "x\ny" needs Service named "a\nb" in property "service" (\#(fileID):\#(lineBreakingInjectLine)), which no container it resolves from registers
        """#)
  }

  /// A module that `when(_:)` left out is the first near miss of its key, with where it is
  /// registered and the contexts that did not hold, at run time and in `verify()`.
  @Test func aModuleLeftOutByItsContextsIsTheFirstNearMissOfItsKey() throws {
    let registered = #line + 3
    let dependencies = Dependencies {
      Module("backup") { ServiceImpl() as Service }
      Module { ServiceImpl() as Service }.when(
        .launchArgument("-no-such-flag"), .environmentVariable("SHANK_NO_SUCH_VARIABLE"))
    }
    let leftOut =
      #"Service: registered at \#(fileID):\#(registered) but left out, as .when(.launchArgument("-no-such-flag"), .environmentVariable("SHANK_NO_SUCH_VARIABLE")) does not hold in this process"#
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service.self) })
    #expect(
      error.nearMisses == [leftOut, #"Service named "backup": the same type under another name"#])
    let verified = try #require(throws: VerificationError.self) {
      try dependencies.verify(consumers: ServiceConsumer())
    }
    #expect(verified.description.contains("\n      \(leftOut)\n"))
  }

  /// A miss inside a factory names the module being made, innermost, and where it is
  /// registered, whether the factory runs for a resolution or for `start()`.
  @Test func aMissInsideAFactoryNamesTheModuleBeingMade() async throws {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module(scope: .singleton, eager: true) { () throws -> OtherService in
        _ = try Dependencies.resolveOrThrow(Service.self)
        return OtherServiceImpl()
      }
    }
    let expected = """
      Shank cannot resolve Service
        asked for at \(fileID):\(registered + 1)
        while OtherService, registered at \(fileID):\(registered), was being made
        registered (1):
          OtherService
      """
    let resolved = resolutionError { try dependencies.resolveOrThrow(OtherService.self) }
    #expect(resolved?.description == expected)
    let started = await #expect(throws: ResolutionError.self) { try await dependencies.start() }
    #expect(started?.description == expected)
  }

  @Test func aCycleReportsItsWholePath() throws {
    let errors = Collector<ResolutionError>()
    let line = Collector<Int>()
    Dependencies.withOverrides {
      Module { CycleAImpl(b: Dependencies.resolve()) as CycleA }
      Module { () -> CycleB in
        line.append(#line + 2)
        do throws(ResolutionError) {
          return CycleBImpl(a: try Dependencies.resolveOrThrow(CycleA.self))
        } catch {
          errors.append(error)
          return CycleBImpl(a: nil)
        }
      }
    } operation: {
      _ = Dependencies.resolve(CycleA.self)
    }
    #expect(errors.all.count == 1)
    let error = try #require(errors.all.first)
    #expect(error.reason == .cycle(path: ["CycleA", "CycleB", "CycleA"]))
    #expect(error.typeName == "CycleA")
    #expect(error.name == nil)
    #expect(error.fileID == fileID)
    #expect(error.line == line.all.first)
    #expect(
      error.description == """
        Shank found a dependency cycle resolving CycleA
          asked for at \(fileID):\(line.all.first ?? 0)
          cycle: CycleA → CycleB → CycleA
        """)
  }

  @Test func aSingletonAskingForItselfIsACycle() {
    let errors = Collector<ResolutionError>()
    Dependencies.withOverrides {
      Module("self", scope: .singleton) { () -> Service in
        do throws(ResolutionError) {
          _ = try Dependencies.resolveOrThrow(Service.self, name: "self")
        } catch {
          errors.append(error)
        }
        return ServiceImpl()
      }
    } operation: {
      let first = Dependencies.resolve(Service.self, name: "self")
      #expect(Dependencies.resolve(Service.self, name: "self") === first)
    }
    #expect(errors.all.count == 1)
    #expect(
      errors.all.first?.reason
        == .cycle(path: [#"Service named "self""#, #"Service named "self""#]))
    #expect(
      errors.all.first?.description.hasSuffix(
        #"cycle: Service named "self" → Service named "self""#) == true)
  }

  /// A thrown error written over several lines keeps them indented under the message's first.
  @Test func aFactoryErrorOfSeveralLinesIsIndented() throws {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "refused:\nno route to host" }
    }
    let throwing = Dependencies { Module { () throws -> Service in throw Refused() } }
    let failed = try #require(resolutionError { try throwing.resolveOrThrow(Service.self) })
    let asked = #line - 1
    #expect(
      failed.description == """
        Shank cannot resolve Service: its factory registered at ShankTests/DiagnosticsTests.swift:\(asked - 1) threw refused:
            no route to host
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
        """)
  }

  /// An error of the module behind `Module(as:)` names the type asked for, and its cycle the
  /// types listed, never the module's own type, which is no key.
  @Test(arguments: [Scope.unique, .singleton])
  func anAliasModulesErrorsNameTheTypesListed(scope: Scope) throws {
    let throwing = Dependencies {
      Module(scope: scope, as: AliasAlpha.self, AliasBeta.self) { () throws -> AliasAlphaBeta in
        throw StubFailure()
      }
    }
    let failed = try #require(resolutionError { try throwing.resolveOrThrow(AliasBeta.self) })
    let asked = #line - 1
    #expect(
      failed.description == """
        Shank cannot resolve AliasBeta: its factory registered at ShankTests/DiagnosticsTests.swift:\(asked - 4) threw StubFailure()
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
        """)
    /// The cycle of a module asking for one of its types while asked for another.
    func cycle<Asked, Inner>(asking: Asked.Type, inside: Inner.Type) -> ResolutionError? {
      let cycling = Dependencies {
        Module(scope: scope, as: AliasAlpha.self, AliasBeta.self) {
          () throws -> AliasAlphaBeta in
          _ = try Dependencies.resolveOrThrow(Inner.self)
          return AliasAlphaBeta()
        }
      }
      return resolutionError { try cycling.resolveOrThrow(Asked.self) }
    }
    let cycles = [
      cycle(asking: AliasBeta.self, inside: AliasBeta.self),
      cycle(asking: AliasBeta.self, inside: AliasAlpha.self),
      cycle(asking: AliasAlpha.self, inside: AliasAlpha.self),
      cycle(asking: AliasAlpha.self, inside: AliasBeta.self),
    ]
    // Named as the factory asked for its own module, whichever type it was entered by.
    let inside = ["AliasBeta", "AliasAlpha", "AliasAlpha", "AliasBeta"]
    #expect(cycles.map { $0?.reason } == inside.map { .cycle(path: [$0, $0]) })
    #expect(cycles.map { $0?.typeName } == inside)
  }

  /// An error thrown for a resolution inside an alias module's factory keeps the name it was
  /// asked for by, though asked on the same line as the alias: here, through one helper.
  @Test func anErrorFromInsideAnAliasModulesFactoryKeepsItsOwnName() throws {
    func ask<T>(_ type: T.Type, of container: Dependencies) throws(ResolutionError) -> T {
      try container.resolveOrThrow(type)
    }
    let inner = Dependencies {
      Module(as: AliasAlpha.self, AliasBeta.self) { () throws -> AliasAlphaBeta in
        throw StubFailure()
      }
    }
    let outer = Dependencies {
      Module(as: AliasAlpha.self, AliasBeta.self) { () throws -> AliasAlphaBeta in
        try ask(AliasAlpha.self, of: inner) as! AliasAlphaBeta
      }
    }
    let failed = try #require(resolutionError { try ask(AliasBeta.self, of: outer) })
    #expect(failed.typeName == "AliasAlpha")
    #expect(failed.reason == .factoryFailed(error: "StubFailure()"))
  }

  @Test func anAliasTheValueDoesNotConformToIsReported() throws {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module(as: Service.self, Unrelated.self) { ServiceImpl() }
    }
    #expect(dependencies.resolve(Service?.self) != nil)
    let line = #line + 1
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Unrelated.self) })
    #expect(error.reason == .notConforming(valueType: "ServiceImpl"))
    #expect(error.typeName == "Unrelated")
    #expect(error.fileID == fileID)
    #expect(error.line == line)
    #expect(
      error.description == """
        Shank cannot resolve Unrelated: the module's value, a ServiceImpl, does not conform to Unrelated
          asked for at \(fileID):\(line)
          remove Unrelated.self from the as: list of the module registered at \(fileID):\(registered), or make ServiceImpl conform to it
        """)
  }

  @Test func nearMissesListEveryKindInRegistrationOrderAndTheMessageTheFirstTwenty() throws {
    let container = Dependencies {
      Module("other") { ObservedImpl() as Observed }
      Module { ObservedImpl() as Observed }
      Module("wanted") { LayerTag("x") }
      Module("wanted") { nil as Observed? }
      Module("we\"ird\nname") { ObservedImpl() as Observed }
      for index in 0..<20 {
        Module("n\(index)") { ObservedImpl() as Observed }
      }
    }
    let error = try #require(
      resolutionError { try container.resolveOrThrow(Observed.self, name: "wanted") })
    let expected =
      [
        #"Observed named "other": the same type under another name"#,
        "Observed: the same type with no name",
        #"LayerTag named "wanted": the same name, another type"#,
        #"Optional<Observed> named "wanted": the type registered as an Optional; register it as Observed"#,
        #"Observed named "we\"ird\nname": the same type under another name"#,
      ] + (0..<20).map { #"Observed named "n\#($0)": the same type under another name"# }
    #expect(error.nearMisses == expected)
    #expect(error.nearMisses == error.nearMisses)
    let lines = error.description.components(separatedBy: "\n")
    #expect(lines.contains("  near misses (25, first 20):"))
    #expect(lines.contains("    " + expected[3]))
    #expect(lines.contains("    " + expected[19]))
    #expect(!lines.contains("    " + expected[20]))
  }

  /// A `StaticString` made from a single scalar, as generic code that builds one from a literal
  /// gets, holds no pointer to UTF-8 bytes; a site in it is written all the same.
  @Test func aSiteWhoseFileIsASingleScalarStaticStringIsWrittenAsFileAndLine() async throws {
    let file = Self.oneScalarLiteral(StaticString.self)
    #expect(!file.hasPointerRepresentation, "the site takes the path for such a string")
    let container = Dependencies(fileID: file, line: 42) { Module { ServiceImpl() as Service } }
    await container.close()
    let error = try #require(resolutionError { try container.resolveOrThrow(Service.self) })
    #expect(error.reason == .closed(container: "made at F:42"))
  }

  /// `"F"` as `T`, made the way generic code makes a literal: from the scalar itself.
  private static func oneScalarLiteral<T: ExpressibleByUnicodeScalarLiteral>(_: T.Type) -> T {
    "F"
  }

  /// A type of the requested short name registered only inside `[P]` and `Optional<P>` clashes
  /// too: the message writes them in full.
  @Test func aMissWritesInFullTheTypesOfTheRequestedShortNameInsideACollectionAlone() {
    let container = Dependencies {
      Module { [FeatureA.ClientImpl()] as [FeatureA.Client] }
      Module { FeatureA.ClientImpl() as FeatureA.Client? }
    }
    let error = resolutionError { try container.resolveOrThrow(FeatureB.Client.self) }
    let asked = #line - 1
    #expect(
      error?.description == """
        Shank cannot resolve ShankTests.FeatureB.Client
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
          registered (2):
            Optional<ShankTests.FeatureA.Client>
            [ShankTests.FeatureA.Client]
        """)
  }

  /// A type asked for that is written with a type of a registered type's short name, as
  /// `[Int: FeatureB.Client]` beside `FeatureA.Client` or `[Int: FeatureA.Client]`, has that
  /// part written in full, on both sides; `Int`, which clashes with nothing, stays `Int`.
  @Test(arguments: [false, true])
  func aMissOfACollectionWritesInFullOnlyTheClashingPartInsideIt(registeredInADictionary: Bool) {
    let container = Dependencies {
      if registeredInADictionary {
        Module { [1: FeatureA.ClientImpl()] as [Int: FeatureA.Client] }
      } else {
        Module { FeatureA.ClientImpl() as FeatureA.Client }
      }
    }
    let error = resolutionError { try container.resolveOrThrow([Int: FeatureB.Client].self) }
    let asked = #line - 1
    let registered =
      registeredInADictionary ? "[Int: ShankTests.FeatureA.Client]" : "ShankTests.FeatureA.Client"
    #expect(
      error?.description == """
        Shank cannot resolve [Int: ShankTests.FeatureB.Client]
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
          registered (1):
            \(registered)
        """)
  }

  /// A type asked for that is written with two types of one short name, as
  /// `[Catalog.Tag: Basket.Tag]`, has both written in full, though nothing registered clashes.
  @Test func aMissOfACollectionWhosePartsShareAShortNameWritesThemInFull() {
    let container = Dependencies { Module { ServiceImpl() as Service } }
    let error = resolutionError { try container.resolveOrThrow([Catalog.Tag: Basket.Tag].self) }
    let asked = #line - 1
    #expect(
      error?.description == """
        Shank cannot resolve [ShankTests.Catalog.Tag: ShankTests.Basket.Tag]
          asked for at ShankTests/DiagnosticsTests.swift:\(asked)
          registered (1):
            Service
        """)
  }

  /// A decorator that asks for what nothing registers is named as what asked, with its own
  /// site, not as the module it decorates, which was made long before; so is the inner of two
  /// decorators, and `verify()` says the same.
  @Test func aMissInADecoratorNamesTheDecorator() throws {
    let parent = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
    _ = parent.resolve(Service.self)
    let decoratorLine = #line + 3
    let child = Dependencies(over: parent) {
      Module.decorating(Service.self) { $0 }
      Module.decorating(Service.self) { service -> Service in
        _ = try Dependencies.resolveOrThrow(OtherService.self)
        return service
      }
    }
    let error = try #require(resolutionError { try child.resolveOrThrow(Service.self) })
    let asking =
      "while a decorator of Service, registered at \(fileID):\(decoratorLine), was decorating it"
    #expect(
      error.description == """
        Shank cannot resolve OtherService
          asked for at \(fileID):\(decoratorLine + 1)
          \(asking)
          registered (3):
            Service: a decorator
            Service: a decorator
            Service
        """)
    let problems = try #require(throws: VerificationError.self) { try child.verify() }
    #expect(problems.description.contains(asking), "\(problems)")
  }
  /// A decorator's miss inside the override layer it opened is still the decorator's.
  @Test func aMissInOverridesADecoratorOpenedNamesTheDecorator() throws {
    let decoratorLine = #line + 2
    let child = Dependencies(over: Dependencies { Module { ServiceImpl() as Service } }) {
      Module.decorating(Service.self) { service -> Service in
        try Dependencies.withOverrides {
          Module { OtherServiceImpl() as OtherService }
        } operation: {
          _ = try Dependencies.resolveOrThrow(NeverRegistered.self)
        }
        return service
      }
    }
    let error = try #require(resolutionError { try child.resolveOrThrow(Service.self) })
    #expect(
      error.description.contains(
        "\n  while a decorator of Service, registered at \(fileID):\(decoratorLine), was decorating it\n"
      ), "\(error)")
  }

  /// A decorator of the type a `Module(as:)` factory makes is named after the type its instance
  /// was asked for as, as the error it throws is: through another of the module's types, that
  /// type.
  @Test(arguments: [false, true])
  func aMissInADecoratorIsNamedAfterTheTypeAskedFor(throughAnotherType: Bool) throws {
    let decoratorLine = #line + 3
    let container = Dependencies {
      Module(as: AliasedBoth.self, AliasedA.self) { AliasedBoth() }
      Module.decorating(AliasedBoth.self) { both -> AliasedBoth in
        _ = try Dependencies.resolveOrThrow(NeverRegistered.self)
        return both
      }
    }
    let error = try #require(
      resolutionError {
        throughAnotherType
          ? try container.resolveOrThrow(AliasedA.self) as AnyObject
          : try container.resolveOrThrow(AliasedBoth.self)
      })
    let asked = throughAnotherType ? "AliasedA" : "AliasedBoth"
    #expect(
      error.description.contains(
        "\n  while a decorator of \(asked), registered at \(fileID):\(decoratorLine), was decorating it\n"
      ), "\(error)")
  }
}

/// Two types of one short name, for a key written with both.
enum Catalog {
  struct Tag: Hashable {}
}

/// The other `Tag`.
enum Basket {
  struct Tag {}
}

/// Every trap, each in a child process: the message and the line it points at.
@Suite struct TrapTests {
  private let fileID = "ShankTests/DiagnosticsTests.swift"

  @Test func missingInjectNamesTheTypeAndTheDeclaration() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies { Module { ServiceImpl() as Service } }.build()
      _ = MissingInjectHolder().missing
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve NeverRegistered named "nowhere"
          asked for at \(fileID):\(missingInjectLine)
          registered (1):
            Service
        """), "\(stderr)")
  }

  @Test func missingStaticResolveNamesTheCallSite() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies { Module("abc") { ServiceImpl() as Service } }.build()
      resolveMissingService()
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve Service
          asked for at \(fileID):\(resolveMissingServiceLine)
          near misses:
            Service named "abc": the same type under another name
          registered (1):
            Service named "abc"
        """), "\(stderr)")
  }

  @Test func missingInstanceResolveNamesTheCallSite() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      _ = Dependencies {}.resolve(Service.self)
    }
    let stderr = standardError(of: result)
    #expect(stderr.contains("Shank cannot resolve Service\n  asked for at \(fileID):"), "\(stderr)")
    #expect(stderr.contains("  nothing is registered"), "\(stderr)")
    #expect(!stderr.contains("did you call build()"), "\(stderr)")
  }

  @Test func neverBuiltInATestNamesTheTraitAndWithOverrides() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      resolveServiceWithNoRoot()
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve Service
          asked for at \(fileID):\(resolveServiceWithNoRootLine)
          no container was built and no override applies: give this test its modules with the .dependencies { } trait of ShankTesting, or run it inside Dependencies.withOverrides { } operation: { }
          a detached task, a thread or a queue does not inherit the overrides of the test that starts it: resolve in the test's own task or in a child task of it
        """), "\(stderr)")
  }

  @Test func neverBuiltInjectInATestNamesTheTraitAndWithOverrides() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      _ = MissingInjectHolder().missing
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve NeverRegistered named "nowhere"
          asked for at \(fileID):\(missingInjectLine)
          no container was built and no override applies: give this test its modules with the .dependencies { } trait of ShankTesting, or run it inside Dependencies.withOverrides { } operation: { }
          a detached task, a thread or a queue does not inherit the overrides of the test that starts it: resolve in the test's own task or in a child task of it
        """), "\(stderr)")
  }

  @Test func neverBuiltInATestIsReportedByResolveOrThrow() async {
    await #expect(processExitsWith: .success) {
      guard let error = resolveOrThrowService() else {
        preconditionFailure("resolved with no root")
      }
      precondition(error.reason == .notRegistered)
      precondition(error.noContainerBuilt)
      precondition(error.registeredCount == 0)
      precondition(
        error.description == """
          Shank cannot resolve Service
            asked for at ShankTests/DiagnosticsTests.swift:\(resolveOrThrowServiceLine)
            no container was built and no override applies: give this test its modules with the .dependencies { } trait of ShankTesting, or run it inside Dependencies.withOverrides { } operation: { }
            a detached task, a thread or a queue does not inherit the overrides of the test that starts it: resolve in the test's own task or in a child task of it
          """, error.description)
    }
  }

  /// A child container over the empty one, in a test with no overrides: the message names
  /// the child, which applies, and says nothing of overrides or of tasks that do not inherit
  /// them. (Inside an exit test every line is the test's own, so the site's line is not asserted.)
  @Test func aChildsMissInATestWithNoOverridesNamesTheChild() async {
    await #expect(processExitsWith: .success) {
      let child = Dependencies(over: .current) { Module { OtherServiceImpl() as OtherService } }
      let description = resolutionError { try child.resolveOrThrow(Service.self) }?.description
      precondition(sayOnlyTheContainerApplies(description ?? ""), description ?? "resolved")
    }
  }

  /// A `withScope` in a test with no container built: its miss names the scope, as a child's
  /// does.
  @Test func aMissInAScopeInATestWithNoContainerBuiltNamesTheScope() async {
    await #expect(processExitsWith: .success) {
      let description = await Dependencies.withScope {
        Module(scope: .singleton) { OtherServiceImpl() as OtherService }
      } operation: {
        resolutionError { try Dependencies.resolveOrThrow(Service.self) }?.description
      }
      precondition(sayOnlyTheContainerApplies(description ?? ""), description ?? "resolved")
    }
  }

  /// A test's overrides that leave out a key, with no root built: the message points at them,
  /// not at `build()`, which a test should not call.
  @Test func aMissUnderATestsOverridesPointsAtThem() async {
    await #expect(processExitsWith: .success) {
      Dependencies.withOverrides {
        Module { OtherServiceImpl() as OtherService }
      } operation: {
        guard let error = resolveOrThrowService() else {
          preconditionFailure("resolved with no root")
        }
        precondition(error.noContainerBuilt)
        precondition(
          error.description == """
            Shank cannot resolve Service
              asked for at ShankTests/DiagnosticsTests.swift:\(resolveOrThrowServiceLine)
              no container was built, and the overrides that apply do not register it: add it to this test's .dependencies { } trait or withOverrides modules
              registered (1):
                OtherService
            """, error.description)
      }
    }
  }

  /// A layer made before `build()` lies over the empty container `current` gave then, which
  /// the root built since does not replace: the message says so, not that nothing was built.
  @Test func aLayerMadeBeforeBuildSaysSoOnceARootIsBuilt() async {
    await #expect(processExitsWith: .success) {
      Dependencies.withOverrides {
        Module { OtherServiceImpl() as OtherService }
      } operation: {
        Dependencies { Module { ServiceImpl() as Service } }.build()
        guard let error = resolveOrThrowService() else {
          preconditionFailure("resolved through a layer over the empty container")
        }
        precondition(!error.noContainerBuilt)
        precondition(
          error.description == """
            Shank cannot resolve Service
              asked for at ShankTests/DiagnosticsTests.swift:\(resolveOrThrowServiceLine)
              a container was built, but this one lies over the empty one that Dependencies.current gave before build(): make it after build()
              registered (1):
                OtherService
            """, error.description)
      }
    }
  }

  @Test func builtRootIsNotReportedAsNeverBuilt() async {
    await #expect(processExitsWith: .success) {
      Dependencies {}.build()
      do throws(ResolutionError) {
        _ = try Dependencies.resolveOrThrow(Service.self)
        preconditionFailure("resolved a missing key")
      } catch {
        precondition(!error.noContainerBuilt)
        precondition(error.description.hasSuffix("\n  nothing is registered"), error.description)
      }
    }
  }

  @Test func aFactoryCycleStopsWithItsPath() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies {
        Module { TrapCycleAImpl(b: Dependencies.resolve()) as TrapCycleA }
        Module { makeTrapCycleB() }
      }.build()
      _ = Dependencies.resolve(TrapCycleA.self)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank found a dependency cycle resolving TrapCycleA
          asked for at \(fileID):\(makeTrapCycleBLine)
          cycle: TrapCycleA → TrapCycleB → TrapCycleA
        """), "\(stderr)")
  }

  @Test func aSingletonAskingForItselfStopsWithItsPath() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies {
        Module(scope: .singleton) { makeSelfCycle() }
      }.build()
      _ = Dependencies.resolve(SelfCycle.self)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank found a dependency cycle resolving SelfCycle
          asked for at \(fileID):\(makeSelfCycleLine)
          cycle: SelfCycle → SelfCycle
        """), "\(stderr)")
  }

  @Test func aCrossThreadSingletonCycleStopsInsteadOfHanging() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      runCrossThreadCycle()
    }
    let stderr = standardError(of: result)
    // Which thread closes the cycle depends on which of the two asks last.
    let closedByY = """
      Shank found a dependency cycle resolving CrossX
        asked for at \(fileID):\(crossYAsksForXLine)
        cycle: CrossY → CrossX → CrossY
      """
    let closedByX = """
      Shank found a dependency cycle resolving CrossY
        asked for at \(fileID):\(crossXAsksForYLine)
        cycle: CrossX → CrossY → CrossX
      """
    #expect(stderr.contains(closedByY) || stderr.contains(closedByX), "\(stderr)")
    #expect(!stderr.contains("deadlock"), "\(stderr)")
  }

  @Test func anAliasTheValueDoesNotConformToStops() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      resolveNonConformingAlias()
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve Unrelated: the module's value, a ServiceImpl, does not conform to Unrelated
          asked for at \(fileID):\(resolveNonConformingAliasLine)
          remove Unrelated.self from the as: list of the module registered at \(fileID):\(resolveNonConformingAliasLine - 1), or make ServiceImpl conform to it
        """), "\(stderr)")
  }
}

// MARK: - Fixtures

protocol CycleA {}
protocol CycleB {}
struct CycleAImpl: CycleA { let b: CycleB }
struct CycleBImpl: CycleB { let a: CycleA? }

/// Registered in an `as:` list that `ServiceImpl` does not conform to.
protocol Unrelated {}

final class MissingInjectHolder {
  @Inject("nowhere") var missing: NeverRegistered
}
let missingInjectLine = #line - 2

func resolveMissingService() { _ = Dependencies.resolve(Service.self) }
let resolveMissingServiceLine = #line - 1

func resolveOrThrowService() -> ResolutionError? {
  resolutionError { try Dependencies.resolveOrThrow(Service.self) }
}
let resolveOrThrowServiceLine = #line - 2  // the `resolveOrThrow` call, two lines up

func resolveServiceWithNoRoot() { _ = Dependencies.resolve(Service.self) }
let resolveServiceWithNoRootLine = #line - 1

func resolveNonConformingAlias() {
  let dependencies = Dependencies { Module(as: Unrelated.self) { ServiceImpl() } }
  _ = dependencies.resolve(Unrelated.self)
}
let resolveNonConformingAliasLine = #line - 2

protocol TrapCycleA {}
protocol TrapCycleB {}
struct TrapCycleAImpl: TrapCycleA { let b: TrapCycleB }
struct TrapCycleBImpl: TrapCycleB { let a: TrapCycleA }

/// B's factory: asks for A, which is making B.
func makeTrapCycleB() -> TrapCycleB { TrapCycleBImpl(a: Dependencies.resolve()) }
let makeTrapCycleBLine = #line - 1

protocol SelfCycle: AnyObject {}
final class SelfCycleImpl: SelfCycle { init(_ other: SelfCycle) {} }

/// A singleton's factory that asks for the singleton it is making.
func makeSelfCycle() -> SelfCycle { SelfCycleImpl(Dependencies.resolve()) }
let makeSelfCycleLine = #line - 1

// Two singletons on two threads, each asking for the other while making itself.
protocol CrossX: AnyObject {}
protocol CrossY: AnyObject {}
final class CrossXImpl: CrossX { init(_ y: CrossY) {} }
final class CrossYImpl: CrossY { init(_ x: CrossX) {} }
let crossXStarted = DispatchSemaphore(value: 0)
let crossYStarted = DispatchSemaphore(value: 0)

/// X's factory, on thread 1: waits until thread 2 is making Y, then asks for Y.
func makeCrossX() -> CrossX {
  crossXStarted.signal()
  crossYStarted.wait()
  return CrossXImpl(Dependencies.resolve())
}
let crossXAsksForYLine = #line - 2

/// Y's factory, on thread 2: tells thread 1 it has started, then asks for X.
func makeCrossY() -> CrossY {
  crossYStarted.signal()
  return CrossYImpl(Dependencies.resolve())
}
let crossYAsksForXLine = #line - 2

/// Makes X on one thread and Y on another, then waits; a hang ends in a "deadlock" exit.
func runCrossThreadCycle() {
  Dependencies {
    Module(scope: .singleton) { makeCrossX() }
    Module(scope: .singleton) { makeCrossY() }
  }.build()
  Thread { _ = Dependencies.resolve(CrossX.self) }.start()
  Thread {
    crossXStarted.wait()
    _ = Dependencies.resolve(CrossY.self)
  }.start()
  Thread.sleep(forTimeInterval: 5)
  FileHandle.standardError.write(Data("deadlock: no cycle was reported\n".utf8))
  exit(3)
}

/// A module whose `@Inject` asks for a name with a newline in it.
struct LineBreakingModule: SampleModuleType {
  @Inject("a\nb") private var service: Service
  func test() -> String { "" }
}
let lineBreakingInjectLine = #line - 3

/// An implementation of `Service` named as apps often name the live one.
private final class LiveService: Numbered, Service {}

/// Another feature's client, whose protocol shares `FeatureA.Client`'s short name.
private final class OtherFeatureClient: FeatureB.Client {}

/// Stand-ins for `WidgetModule`, named as tests name them: the own-type near miss goes by the
/// name alone, so none needs to conform.
private struct MockWidgetModule {}
private struct StubWidgetModule {}
private struct WidgetModuleTypeMock {}

/// A feature private to this file, whose `Client` shares its short name with other features'.
private enum PrivateFeature {
  protocol Client: AnyObject {}
  final class ClientImpl: Client {}
}

/// Whether a miss of `Service` in a test says that the container it was resolved from, made in
/// this file over the empty one with only `OtherService`, applies, and nothing of overrides.
private func sayOnlyTheContainerApplies(_ description: String) -> Bool {
  description.contains(
    "\n  no container was built, and the container resolved from (made at ShankTests/DiagnosticsTests.swift:"
  )
    && description.contains(
      "), over the empty one, does not register it: register it there, or give this test its modules with the .dependencies { } trait of ShankTesting\n  registered (1):\n    OtherService"
    ) && !description.contains("override")
}

/// A container that registers a type local to this function, `Client`.
func localClientContainer() -> Dependencies {
  struct Client {}
  return Dependencies { Module { Client() } }
}

/// Why `container` cannot resolve a type local to this function, also named `Client`.
func missOfALocalClient(in container: Dependencies) -> ResolutionError? {
  struct Client {}
  return resolutionError { try container.resolveOrThrow(Client.self) }
}
let missOfALocalClientLine = #line - 2
