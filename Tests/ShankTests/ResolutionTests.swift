import Shank
import Testing

/// Manual resolution: the static functions (through `Dependencies.current`) and the instance
/// methods of a `Dependencies` value.
@Suite struct ResolutionTests {
  // MARK: Instance methods

  @Test func instanceResolveInfersTheTypeFromContext() {
    let dependencies = Dependencies { Module { SampleModule(value: "1") as SampleModuleType } }
    let sample: SampleModuleType = dependencies.resolve()
    #expect(sample.test() == "SampleModule.test()1")
  }

  @Test func instanceResolveOrThrowReturnsTheModule() throws {
    let dependencies = Dependencies { Module { SampleModule(value: "1") as SampleModuleType } }
    let sample = try dependencies.resolveOrThrow(SampleModuleType.self)
    #expect(sample.test() == "SampleModule.test()1")
  }

  @Test func namesKeepModulesOfOneTypeApart() throws {
    let dependencies = Dependencies {
      Module { SampleModule(value: "none") as SampleModuleType }
      Module("a") { SampleModule(value: "a") as SampleModuleType }
      Module("b") { SampleModule(value: "b") as SampleModuleType }
    }
    #expect(dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()none")
    #expect(dependencies.resolve(SampleModuleType.self, name: "a").test() == "SampleModule.test()a")
    #expect(
      try dependencies.resolveOrThrow(SampleModuleType.self, name: "b").test()
        == "SampleModule.test()b")
    #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(SampleModuleType.self, name: "c")
    }
  }

  /// A name keys a module together with its type, unlike the original Shank's, so modules of
  /// two types may share one.
  @Test func modulesOfTwoTypesMayShareAName() {
    let dependencies = Dependencies {
      Module("shared") { SampleModule(value: "sample") as SampleModuleType }
      Module("shared") { ServiceImpl() as Service }
    }
    #expect(
      dependencies.resolve(SampleModuleType.self, name: "shared").test()
        == "SampleModule.test()sample")
    #expect(dependencies.resolve(Service.self, name: "shared") is ServiceImpl)
  }

  @Test func aNamedModuleDoesNotAnswerForTheUnnamedKey() {
    let dependencies = Dependencies { Module("only") { SampleModule() as SampleModuleType } }
    #expect(dependencies.resolve(SampleModuleType?.self) == nil)
    #expect(dependencies.resolve(SampleModuleType?.self, name: "only") != nil)
  }

  @Test func theKeyIsTheFactorysStaticResultType() {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      Module { ServiceImpl() }
    }
    #expect(dependencies.resolve(Service?.self) != nil)
    #expect(dependencies.resolve(ServiceImpl?.self) != nil)
    #expect(dependencies.resolve(OtherService?.self) == nil)
  }

  @Test func instanceResolveOfAnOptionalGivesNilWhenAbsent() throws {
    let dependencies = Dependencies { Module { ServiceImpl() as Service } }
    #expect(dependencies.resolve(NeverRegistered?.self) == nil)
    let thrown = try dependencies.resolveOrThrow(NeverRegistered?.self)
    #expect(thrown == nil)
  }

  /// `nil` means absent, not broken: a registered module that cannot be made fails as it
  /// would asked for as itself.
  @Test func anOptionalOfARegisteredModuleThatCannotBeMadeIsNoNil() async throws {
    let dependencies = Dependencies { Module { () throws -> Service in throw StubFailure() } }
    let error = try #require(resolutionError { try dependencies.resolveOrThrow(Service?.self) })
    #expect(error.reason == .factoryFailed(error: "StubFailure()"))
    let notMade = Dependencies {
      Module(scope: .singleton) { () async -> Service in ServiceImpl() }
    }
    let pending = try #require(resolutionError { try notMade.resolveOrThrow(Service?.self) })
    guard case .notMadeYet = pending.reason else {
      Issue.record("expected .notMadeYet, got \(pending)")
      return
    }
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = Dependencies { Module { () throws -> Service in throw StubFailure() } }
        .resolve(Service?.self)
    }
    #expect(
      standardError(of: result).contains("Fatal error: Shank cannot resolve Service: its factory"))
  }

  @Test func instanceResolveOfAnOptionalGivesTheModuleWhenPresent() throws {
    let dependencies = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
    let service = dependencies.resolve(Service.self)
    #expect(dependencies.resolve(Service?.self) === service)
    #expect(try dependencies.resolveOrThrow(Service?.self) === service)
  }

  /// `P??` looks up `P?`, which resolves whether or not `P` is registered, as generic code
  /// asking for a `T?` with an optional `T` does.
  @Test func anOptionalOfAnOptionalLooksUpTheOptional() throws {
    let dependencies = Dependencies {
      Module(scope: .singleton) { ServiceImpl() as Service }
      Module { DoubleOptionalReader() }
    }
    let service = dependencies.resolve(Service.self)
    #expect(dependencies.resolve(Service??.self)?.map { $0 === service } == true)
    #expect(try dependencies.resolveOrThrow(Service??.self)?.map { $0 === service } == true)
    let absent = dependencies.resolve(NeverRegistered??.self)
    #expect(absent.map { $0 == nil } == true, "a `NeverRegistered?` that is nil")
    let reader = dependencies.resolve(DoubleOptionalReader.self)
    #expect(reader.service?.map { $0 === service } == true)
  }

  @Test func anOptionalRegistrationIsResolvedAsRegistered() {
    let dependencies = Dependencies {
      Module { nil as Service? }
      Module("some") { ServiceImpl() as Service? }
    }
    #expect(dependencies.resolve(Service?.self) == nil)
    #expect(dependencies.resolve(Service?.self, name: "some") != nil)
  }

  @Test func factoriesRunAtResolutionNotAtRegistration() {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made)
    }
    #expect(made.value == 0)
    _ = dependencies.resolve(Service.self)
    #expect(made.value == 1)
  }

  // MARK: Static functions

  @Test func staticResolveReadsTheOverrideLayer() throws {
    Dependencies.withOverrides {
      Module("resolution") { SampleModule(value: "override") as SampleModuleType }
    } operation: {
      #expect(
        Dependencies.resolve(SampleModuleType.self, name: "resolution").test()
          == "SampleModule.test()override")
      let inferred: SampleModuleType = Dependencies.resolve(name: "resolution")
      #expect(inferred.test() == "SampleModule.test()override")
      #expect(
        (try? Dependencies.resolveOrThrow(SampleModuleType.self, name: "resolution"))?.test()
          == "SampleModule.test()override")
    }
  }

  @Test func staticResolveOfAnOptionalGivesNilWhenAbsent() throws {
    #expect(Dependencies.resolve(NeverRegistered?.self) == nil)
    #expect(try Dependencies.resolveOrThrow(NeverRegistered?.self) == nil)
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      #expect(Dependencies.resolve(NeverRegistered?.self) == nil)
      #expect(Dependencies.resolve(NeverRegistered?.self, name: "x") == nil)
    }
  }

  @Test func staticResolveOfAnOptionalGivesTheModuleWhenPresent() {
    Dependencies.withOverrides {
      Module(scope: .singleton) { ServiceImpl() as Service }
    } operation: {
      let service = Dependencies.resolve(Service?.self)
      #expect(service != nil)
      #expect(service === Dependencies.resolve(Service.self))
    }
  }

  @Test func staticResolveOrThrowThrowsForAMissingKey() throws {
    let line = #line + 1
    let error = try #require(
      resolutionError { try Dependencies.resolveOrThrow(NeverRegistered.self, name: "nowhere") })
    #expect(error.reason == .notRegistered)
    #expect(error.typeName == "NeverRegistered")
    #expect(error.name == "nowhere")
    #expect(error.fileID == "ShankTests/ResolutionTests.swift")
    #expect(error.line == line)
  }

  @Test func factoriesResolveTheirDependenciesFromTheOverrideLayer() {
    Dependencies.withOverrides {
      Module(scope: .singleton) { HTTPService() as HTTPServiceType }
      Module { WidgetNetworkRemote(http: Dependencies.resolve()) as WidgetRemote }
    } operation: {
      let remote = Dependencies.resolve(WidgetRemote.self)
      #expect(remote.fetch(id: 7) == "|MediaNetworkRemote.7|")
    }
  }
}

/// The process-global root, each test in a child process so that no other test sees it.
@Suite struct RootTests {
  @Test func buildPromotesTheContainerToTheRoot() async {
    await #expect(processExitsWith: .success) {
      precondition(Dependencies.resolve(Service?.self) == nil)
      let dependencies = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
      dependencies.build()
      precondition(Dependencies.current === dependencies)
      precondition(Dependencies.resolve(Service.self) === dependencies.resolve(Service.self))
      precondition(ServiceHolder().service === dependencies.resolve(Service.self))
    }
  }

  @Test func aLaterBuildReplacesTheRootAndInjectKeepsWhatItRead() async {
    await #expect(processExitsWith: .success) {
      let first = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
      let second = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
      first.build()
      let early = ServiceHolder()
      let fromFirst = early.service
      precondition(fromFirst === first.resolve(Service.self))

      second.build()
      precondition(Dependencies.current === second)
      precondition(early.service === fromFirst, "an @Inject that was read keeps its value")
      precondition(ServiceHolder().service === second.resolve(Service.self))
      precondition(Dependencies.resolve(Service.self) !== fromFirst)
    }
  }

  @Test func overridesLayerOverTheBuiltRoot() async {
    await #expect(processExitsWith: .success) {
      Dependencies {
        Module { SampleModule(value: "root") as SampleModuleType }
        Module(scope: .singleton) { ServiceImpl() as Service }
      }.build()
      let rootService = Dependencies.resolve(Service.self)
      Dependencies.withOverrides {
        Module { SampleModule(value: "mock") as SampleModuleType }
      } operation: {
        precondition(
          Dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()mock")
        precondition(Dependencies.resolve(Service.self) === rootService)
      }
      precondition(Dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()root")
    }
  }
}

/// Injects a `Service??`.
final class DoubleOptionalReader {
  @Inject var service: Service??
}
