import Testing

@testable import Shank

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// `Module.Context` and `Module.when(_:)`: which modules a container registers where.
@Suite struct ContextTests {
  @Test func testingHoldsUnderSwiftTest() {
    #expect(Module.Context.testing.isActive)
  }

  @Test func testingHoldsInAnExitTestsChildProcess() async {
    await #expect(processExitsWith: .success) {
      precondition(Module.Context.testing.isActive)
    }
  }

  /// What each runner gives its test process, and two processes that run no tests.
  @Test(arguments: [
    (["/pkg/.build/debug/ShankPackageTests.xctest"], [], true),
    (
      ["/pkg/.build/debug/ShankPackageTests.xctest", "--testing-library", "swift-testing"], [], true
    ),
    (["/Applications/Xcode.app/Contents/Developer/usr/bin/xctest", "/pkg/Shank.xctest"], [], true),
    (["/usr/bin/swiftpm-testing-helper", "--test-bundle-path", "/pkg/Shank.xctest"], [], true),
    (["/Users/me/Library/Developer/MyApp.app/MyApp"], ["XCTestConfigurationFilePath"], true),
    (["/Users/me/Library/Developer/MyApp.app/MyApp"], ["XCTestBundlePath"], true),
    (["/Users/me/Library/Developer/MyApp.app/MyApp"], ["XCTestSessionIdentifier"], true),
    (["/Users/me/Library/Developer/MyApp.app/MyApp", "-stubAPI"], [], false),
    (["/usr/local/bin/widget-app", "--store", "old.xctest"], [], false),
  ])
  func testRunIsToldByArgumentsAndEnvironment(
    arguments: [String], environment: [String], isTestRun: Bool
  ) {
    #expect(TestRun.isRunning(arguments: arguments) { environment.contains($0) } == isTestRun)
  }

  @Test func previewsHoldWhenXcodeSetsItsVariableToOne() async {
    #expect(!Module.Context.previews.isActive)
    await #expect(processExitsWith: .success) {
      setenv("XCODE_RUNNING_FOR_PREVIEWS", "0", 1)
      precondition(!Module.Context.previews.isActive)
      setenv("XCODE_RUNNING_FOR_PREVIEWS", "1", 1)
      precondition(Module.Context.previews.isActive)
    }
  }

  @Test func debugHoldsInTheBuildsConfiguration() {
    #if DEBUG
      #expect(Module.Context.debug.isActive)
    #else
      #expect(!Module.Context.debug.isActive)
    #endif
  }

  @Test func aLaunchArgumentHoldsWhenTheProcessWasGivenIt() throws {
    let arguments = CommandLine.arguments
    try #require(arguments.count > 1, "swift test passes its test process arguments")
    for argument in arguments.dropFirst() {
      #expect(Module.Context.launchArgument(argument).isActive, "\(argument)")
    }
    #expect(!Module.Context.launchArgument(arguments[0]).isActive, "the executable's path")
    #expect(!Module.Context.launchArgument("-shankNeverPassedThis").isActive)
  }

  @Test(
    arguments: [
      (nil, false), ("", true), ("0", false), ("false", false), ("FALSE", false),
      ("False", false), ("1", true), ("true", true), ("YES", true), ("00", true),
    ] as [(String?, Bool)])
  func anEnvironmentVariableIsOnWhenSetAndNotOff(value: String?, isOn: Bool) {
    #expect(Module.Context.isOn(value) == isOn)
  }

  @Test func anEnvironmentVariableHoldsAsTheEnvironmentSays() async {
    await #expect(processExitsWith: .success) {
      let context = Module.Context.environmentVariable("SHANK_CONTEXT_TESTS_STUB")
      precondition(!context.isActive)
      setenv("SHANK_CONTEXT_TESTS_STUB", "false", 1)
      precondition(!context.isActive)
      setenv("SHANK_CONTEXT_TESTS_STUB", "yes", 1)
      precondition(context.isActive)
      setenv("SHANK_CONTEXT_TESTS_STUB", "", 1)
      precondition(context.isActive)
    }
  }

  /// A name that no environment variable can have stops the program, with the name and the
  /// line, rather than reading the variable its first part names.
  @Test(arguments: [("", #""""#), ("STUB=1", #""STUB=1""#), ("STUB\u{0}API", #""STUB\0API""#)])
  func aNameNoVariableCanHaveStopsWithAMessage(name: String, quoted: String) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    { [name] in
      _ = Module.Context.environmentVariable(name)
    }
    // An exit test's body reports the line of the macro that runs it.
    let line = #line - 5
    #expect(
      standardError(of: result).contains(
        "ShankTests/ContextTests.swift:\(line): Fatal error: Shank: \(quoted) names no environment variable: a name is not empty and has no = or NUL in it"
      ))
  }

  /// `verify()` reports a factory that names no variable as its module's problem, and returns.
  @Test func verifyReportsAFactoryThatNamesNoVariable() throws {
    let container = Dependencies {
      Module { () -> Service in
        _ = Module.Context.environmentVariable("STUB=1").isActive
        return ServiceImpl()
      }
    }
    let error = try #require(throws: VerificationError.self) { try container.verify() }
    #expect(
      error.problems.map(\.description) == [
        #"Service could not be made: Shank: "STUB=1" names no environment variable: a name is not empty and has no = or NUL in it"#
      ])
  }

  @Test func aModuleIsRegisteredWhenAnyOfItsContextsHolds() {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }.when(.previews, .testing)
      Module { OtherServiceImpl() as OtherService }.when(.previews, .launchArgument("-shankNo"))
      Module { SampleModule(value: "none given") as SampleModuleType }.when()
    }
    #expect(dependencies.graph().nodes.map(\.typeName) == ["Service"])
    #expect((dependencies.resolve() as OtherService?) == nil)
    #expect((dependencies.resolve() as SampleModuleType?) == nil)
  }

  @Test func aModuleLeftOutDoesNotReplaceTheOneBeforeIt() {
    let dependencies = Dependencies {
      Module { SampleModule(value: "live") as SampleModuleType }
      Module { SampleModule(value: "preview") as SampleModuleType }.when(.previews)
      Module("test") { SampleModule(value: "live") as SampleModuleType }
      Module("test") { SampleModule(value: "test") as SampleModuleType }.when(.testing)
    }
    #expect((dependencies.resolve() as SampleModuleType).test() == "SampleModule.test()live")
    #expect(
      (dependencies.resolve(name: "test") as SampleModuleType).test() == "SampleModule.test()test")
  }

  /// A reset of a scope that only a module left out uses drops nothing, where the program
  /// would stop at a scope nothing registers: code that resets at log-out runs in every
  /// context. Another scope's instances stay.
  @Test func aResetOfAScopeOnlyAModuleLeftOutUsesDropsNothing() async {
    let made = Counter()
    let root = Dependencies {
      Module(scope: .cached("debug tools")) { OtherServiceImpl() as OtherService }.when(.previews)
    }
    let child = Dependencies(over: root) {
      Module(scope: .cached("session")) { () -> Service in
        made.increment()
        return ServiceImpl()
      }
    }
    _ = child.resolve(Service.self)
    func resetWithoutWaiting() { root.reset(.cached("debug tools")) }
    resetWithoutWaiting()
    await child.reset(.cached("debug tools"))
    _ = child.resolve(Service.self)
    #expect(made.value == 1, "another scope's instance stays")
    #expect((root.resolve() as OtherService?) == nil)
  }

  /// A list written with `return` skips the builder: a module left out there still registers
  /// nothing, in a root, a child and an override layer alike.
  @Test(arguments: ListEntry.allCases)
  func aModuleLeftOutOfAListGivenWithReturnRegistersNothing(entry: ListEntry) {
    let parent = Dependencies { Module { ServiceImpl() as Service } }
    // The `return` is what skips the builder.
    // swift-format-ignore: OmitExplicitReturns
    let resolved = entry.resolve(over: parent) {
      return [
        Module { SampleModule(value: "kept") as SampleModuleType },
        Module { OtherServiceImpl() as OtherService }.when(.previews),
      ]
    }
    #expect(resolved.other == nil)
    #expect(resolved.sample?.test() == "SampleModule.test()kept")
  }

  @Test func isActiveChoosesModulesInTheBuildersIf() {
    let dependencies = Dependencies {
      if Module.Context.testing.isActive {
        Module { ServiceImpl() as Service }
      } else {
        Module { OtherServiceImpl() as OtherService }
      }
    }
    #expect(dependencies.graph().nodes.map(\.typeName) == ["Service"])
  }

  @Test func verifyChecksOnlyTheModulesRegistered() throws {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      // Its @Inject would be a missing key, if it were registered.
      Module { NeedsMissingModule() as NeedsMissingModuleType }.when(.previews)
    }
    try dependencies.verify()
    #expect(dependencies.graph().nodes.map(\.typeName) == ["Service"])
    let registered = Dependencies {
      Module { NeedsMissingModule() as NeedsMissingModuleType }.when(.testing)
    }
    #expect(throws: VerificationError.self) { try registered.verify() }
  }
}

private protocol NeedsMissingModuleType {}

private struct NeedsMissingModule: NeedsMissingModuleType {
  @Inject var missing: NeverRegistered
}

/// Where a list of modules is given.
enum ListEntry: CaseIterable {
  case root, child, overrides

  /// What a container made of `modules`, over `parent` where it layers, resolves.
  func resolve(over parent: Dependencies, _ modules: () -> [Module]) -> (
    other: OtherService?, sample: SampleModuleType?
  ) {
    let container: Dependencies
    switch self {
    case .root: container = Dependencies(modules)
    case .child: container = Dependencies(over: parent, modules)
    case .overrides:
      return Dependencies.withOverrides(modules) {
        (Dependencies.resolve(OtherService?.self), Dependencies.resolve(SampleModuleType?.self))
      }
    }
    return (container.resolve(OtherService?.self), container.resolve(SampleModuleType?.self))
  }
}
