import Shank
import Testing

/// `ModuleBuilder`: every statement form it takes, and which registration wins a key.
@Suite struct BuilderTests {
  private func sample(_ dependencies: Dependencies, name: String? = nil) -> String? {
    dependencies.resolve(SampleModuleType?.self, name: name)?.test()
  }

  @Test func emptyBlockRegistersNothing() {
    let dependencies = Dependencies {}
    #expect(sample(dependencies) == nil)
  }

  @Test(arguments: [true, false])
  func ifWithoutElseRegistersOnlyWhenTrue(condition: Bool) {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      if condition {
        Module { SampleModule(value: "if") as SampleModuleType }
      }
    }
    #expect(sample(dependencies) == (condition ? "SampleModule.test()if" : nil))
    #expect(dependencies.resolve(Service?.self) != nil)
  }

  @Test(arguments: [true, false])
  func ifElseRegistersOneBranch(useMocks: Bool) {
    let dependencies = Dependencies {
      if useMocks {
        Module { SampleModule(value: "mock") as SampleModuleType }
      } else {
        Module { SampleModule(value: "live") as SampleModuleType }
        Module("live") { SampleModule(value: "named") as SampleModuleType }
      }
    }
    #expect(
      sample(dependencies) == (useMocks ? "SampleModule.test()mock" : "SampleModule.test()live"))
    #expect(sample(dependencies, name: "live") == (useMocks ? nil : "SampleModule.test()named"))
  }

  enum Environment: CaseIterable { case development, staging, production }

  @Test(arguments: Environment.allCases)
  func switchRegistersTheMatchingCase(environment: Environment) {
    let dependencies = Dependencies {
      switch environment {
      case .development:
        Module { SampleModule(value: "dev") as SampleModuleType }
      case .staging:
        Module { SampleModule(value: "stage") as SampleModuleType }
      case .production:
        Module { SampleModule(value: "prod") as SampleModuleType }
      }
    }
    let expected: String =
      switch environment {
      case .development: "SampleModule.test()dev"
      case .staging: "SampleModule.test()stage"
      case .production: "SampleModule.test()prod"
      }
    #expect(sample(dependencies) == expected)
  }

  @Test func compilationConditionsSelectModules() {
    let dependencies = Dependencies {
      #if os(Linux)
        Module { SampleModule(value: "linux") as SampleModuleType }
      #else
        Module { SampleModule(value: "elsewhere") as SampleModuleType }
      #endif
      #if SHANK_NEVER_DEFINED
        Module("never") { SampleModule() as SampleModuleType }
      #endif
    }
    #if os(Linux)
      #expect(sample(dependencies) == "SampleModule.test()linux")
    #else
      #expect(sample(dependencies) == "SampleModule.test()elsewhere")
    #endif
    #expect(sample(dependencies, name: "never") == nil)
  }

  @Test func forLoopRegistersEachIteration() {
    let names = ["a", "b", "c"]
    let dependencies = Dependencies {
      for name in names {
        Module(name) { SampleModule(value: name) as SampleModuleType }
      }
    }
    for name in names {
      #expect(sample(dependencies, name: name) == "SampleModule.test()\(name)")
    }
    #expect(sample(dependencies) == nil)
  }

  @Test func availabilityCheckRegistersTheAvailableBranch() {
    let dependencies = Dependencies {
      if #available(macOS 10.15, *) {
        Module { SampleModule(value: "available") as SampleModuleType }
      }
    }
    #expect(sample(dependencies) == "SampleModule.test()available")
  }

  @Test func availabilityCheckWithElseRegistersTheAvailableBranch() {
    let dependencies = Dependencies {
      if #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) {
        Module { SampleModule(value: "new") as SampleModuleType }
      } else {
        Module { SampleModule(value: "old") as SampleModuleType }
      }
    }
    #expect(sample(dependencies) == "SampleModule.test()new")
  }

  @Test func moduleGroupsRegisterEveryModule() {
    let feature: [Module] = [
      Module("one") { SampleModule(value: "1") as SampleModuleType },
      Module("two") { SampleModule(value: "2") as SampleModuleType },
    ]
    let dependencies = Dependencies {
      feature
      scenarioModules
    }
    #expect(sample(dependencies, name: "one") == "SampleModule.test()1")
    #expect(sample(dependencies, name: "two") == "SampleModule.test()2")
    #expect(sample(dependencies, name: "abc") == "SampleModule.test()123")
  }

  @Test func blocksKeepTheOrderTheyAreWrittenIn() {
    @ModuleBuilder func modules(_ loop: [String], group: [Module]) -> [Module] {
      Module("first") { ServiceImpl() as Service }
      for name in loop {
        Module(name) { ServiceImpl() as Service }
      }
      group
      if loop.count > 1 {
        Module("if") { ServiceImpl() as Service }
        Module("if too") { ServiceImpl() as Service }
      }
      Module("last") { ServiceImpl() as Service }
    }
    let group = [
      Module("g1") { ServiceImpl() as Service }, Module("g2") { ServiceImpl() as Service },
    ]
    #expect(
      modules(["a", "b"], group: group).map(\.name)
        == ["first", "a", "b", "g1", "g2", "if", "if too", "last"])
    #expect(modules([], group: []).map(\.name) == ["first", "last"])
    #expect(modules(["a"], group: group).map(\.name) == ["first", "a", "g1", "g2", "last"])
  }

  @Test func aModuleWrittenTwiceIsRegisteredOnce() {
    let module = Module("twice") { SampleModule(value: "x") as SampleModuleType }
    let dependencies = Dependencies {
      module
      module
    }
    #expect(dependencies.graph().nodes.map(\.id) == ["SampleModuleType_twice"])
    #expect(sample(dependencies, name: "twice") == "SampleModule.test()x")
  }

  @Test(arguments: [true, false])
  func everyModuleIsFreedWithItsContainer(flag: Bool) {
    weak var watched: Counter?
    do {
      // Each module's factory holds the counter, so it outlives the container only if the
      // builder leaks a module.
      let counter = Counter()
      watched = counter
      func module(_ name: String) -> Module { countedService(by: counter, name) }
      let twice = module("twice")
      @ModuleBuilder func modules() -> [Module] {
        []
        [module("a"), module("b")]
        for index in 0..<3 {
          module("loop \(index)")
          if index == 1 { [module("group in loop")] }
        }
        for _ in 0..<0 { module("never") }
        if flag { module("if") } else { module("else") }
        if !flag { module("optional") }
        for index in 0..<2 { [module("pair \(index)"), module("pair too \(index)")] }
        twice
        twice
      }
      let branches = flag ? ["if"] : ["else", "optional"]
      let expected =
        ["a", "b", "loop 0", "loop 1", "group in loop", "loop 2"] + branches
        + ["pair 0", "pair too 0", "pair 1", "pair too 1", "twice", "twice"]
      #expect(modules().map(\.name) == expected)
      let dependencies = Dependencies { modules() }
      _ = dependencies.resolve(Service.self, name: "group in loop")
      #expect(counter.value == 1)
      #expect(dependencies.graph().nodes.count == expected.count - 1)
    }
    #expect(watched == nil)
  }

  @Test func aBuilderThatThrowsFreesWhatItMade() {
    struct LoadFailed: Error {}
    weak var watched: Counter?
    do {
      let counter = Counter()
      watched = counter
      func module(_ name: String) -> Module { countedService(by: counter, name) }
      func loaded() throws -> Module { throw LoadFailed() }
      @ModuleBuilder func modules() throws -> [Module] {
        module("one")
        [module("a"), module("b")]
        for index in 0..<3 { module("loop \(index)") }
        try loaded()
      }
      #expect(throws: LoadFailed.self) { try modules() }
    }
    #expect(watched == nil)
  }

  @Test func aStepResultUsedTwiceGivesTwoIndependentBlocks() {
    func module(_ name: String) -> Module { Module(name) { ServiceImpl() as Service } }
    let group = ModuleBuilder.buildExpression([module("a"), module("b")])
    let withC = ModuleBuilder.buildPartialBlock(accumulated: group, next: module("c"))
    let withD = ModuleBuilder.buildPartialBlock(accumulated: group, next: module("d"))
    #expect(ModuleBuilder.buildFinalResult(withC).map(\.name) == ["a", "b", "c"])
    #expect(ModuleBuilder.buildFinalResult(withD).map(\.name) == ["a", "b", "d"])
    #expect(ModuleBuilder.buildFinalResult(group).map(\.name) == ["a", "b"])
  }

  /// A group that reaches a container without the builder flattening it, in a list handed over
  /// as a closure value, registers its modules.
  @Test func aGroupHandedOverWithoutTheBuilderRegistersItsModules() {
    func module(_ name: String) -> Module { Module(name) { ServiceImpl() as Service } }
    let group = ModuleBuilder.buildExpression([module("a"), module("b")])
    let modules: () -> [Module] = { [group, Module { OtherServiceImpl() as OtherService }] }
    let container = Dependencies(modules)
    #expect(container.resolve(Service?.self, name: "a") != nil)
    #expect(container.resolve(Service?.self, name: "b") != nil)
    #expect(container.resolve(OtherService?.self) != nil)
  }

  @Test(arguments: [Scope.unique, .singleton])
  func aReplacedModuleIsFreedWhileItsContainerLives(scope: Scope) {
    weak var watched: Counter?
    let dependencies: Dependencies
    do {
      let counter = Counter()
      watched = counter
      dependencies = Dependencies {
        countedService(by: counter, scope: scope)
        countedService(by: Counter(), scope: scope)
      }
    }
    #expect(watched == nil)
    _ = dependencies.resolve(Service.self)
  }

  @Test func controlFlowNests() {
    let dependencies = Dependencies {
      for index in 0..<4 {
        if index.isMultiple(of: 2) {
          Module("\(index)") { SampleModule(value: "even") as SampleModuleType }
        } else {
          switch index {
          case 1: Module("\(index)") { SampleModule(value: "one") as SampleModuleType }
          default: [Module("\(index)") { SampleModule(value: "odd") as SampleModuleType }]
          }
        }
      }
    }
    #expect(sample(dependencies, name: "0") == "SampleModule.test()even")
    #expect(sample(dependencies, name: "1") == "SampleModule.test()one")
    #expect(sample(dependencies, name: "2") == "SampleModule.test()even")
    #expect(sample(dependencies, name: "3") == "SampleModule.test()odd")
  }

  // MARK: Which registration wins

  @Test func laterRegistrationOfTheSameKeyWins() {
    let dependencies = Dependencies {
      Module { SampleModule(value: "first") as SampleModuleType }
      Module { SampleModule(value: "second") as SampleModuleType }
    }
    #expect(sample(dependencies) == "SampleModule.test()second")
  }

  @Test func laterRegistrationWinsWithADifferentScope() {
    let dependencies = Dependencies {
      Module(scope: .singleton) { ServiceImpl() as Service }
      Module { ServiceImpl() as Service }
    }
    #expect(dependencies.resolve(Service.self) !== dependencies.resolve(Service.self))
  }

  @Test func anOverrideFollowingAGroupWins() {
    let dependencies = Dependencies {
      scenarioModules
      Module("abc") { SampleModule(value: "override") as SampleModuleType }
    }
    #expect(sample(dependencies, name: "abc") == "SampleModule.test()override")
    #expect(sample(dependencies) == "SampleModule.test()")
  }

  @Test func aModuleOfSeveralKeysStaysWhileOneWinsAndOneAfterItIsFreedWhenReplaced() {
    weak var several: Counter?
    weak var replaced: Counter?
    let dependencies: Dependencies
    do {
      let severalMade = Counter()
      let replacedMade = Counter()
      several = severalMade
      replaced = replacedMade
      dependencies = Dependencies {
        Module(scope: .singleton, as: Service.self, OtherService.self) { () -> ServiceAndOther in
          severalMade.increment()
          return ServiceAndOther()
        }
        countedService(by: replacedMade, "named")
        Module("named") { ServiceImpl() as Service }
        Module { ServiceImpl() as Service }
      }
    }
    #expect(several != nil)
    #expect(replaced == nil)
    #expect(dependencies.resolve(OtherService.self) is ServiceAndOther)
    #expect(dependencies.resolve(Service.self) is ServiceImpl)
  }

  @Test func aLaterAliasReplacesAnEarlierModuleForItsTypes() {
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      Module { OtherServiceImpl() as OtherService }
      Module(scope: .singleton, as: Service.self) { ServiceAndOther() }
    }
    #expect(dependencies.resolve(Service.self) is ServiceAndOther)
    #expect(dependencies.resolve(OtherService.self) is OtherServiceImpl)
  }

  @Test func namedAndUnnamedRegistrationsOfATypeDoNotReplaceEachOther() {
    let dependencies = Dependencies {
      Module { SampleModule(value: "unnamed") as SampleModuleType }
      Module("abc") { SampleModule(value: "named") as SampleModuleType }
    }
    #expect(sample(dependencies) == "SampleModule.test()unnamed")
    #expect(sample(dependencies, name: "abc") == "SampleModule.test()named")
  }
}
