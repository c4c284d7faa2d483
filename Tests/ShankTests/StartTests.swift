import Dispatch
import Foundation
import Shank
import ShankTesting
import Testing

/// `eager: true` and `start()`.
@Suite struct StartTests {
  @Test func buildAloneMakesNothingAndStartMakesEveryEagerModuleOnce() async throws {
    let made = Counter()
    let container = Dependencies {
      countedService(by: made, "eager", scope: .singleton, eager: true)
      countedService(by: made, "lazy", scope: .singleton)
    }
    #expect(made.value == 0)
    let report = try await container.start()
    #expect(made.value == 1)
    #expect(report.entries.map(\.key) == [#"Service named "eager""#])
    #expect(report.entries.map(\.scope) == [.singleton])
    #expect(report.entries.map(\.ranOn) == ["a background thread"])
    _ = container.resolve(Service.self, name: "eager")
    #expect(made.value == 1, "start() made the instance the container keeps")
    let second = try await container.start()
    #expect(made.value == 1, "a second start() makes nothing again")
    #expect(second.entries.map(\.key) == [#"Service named "eager""#], "and reports finding it")
  }

  /// An override layer's `start()` makes the eager modules of the override layers under it too,
  /// but for those a layer over them replaces; a child's `start()` makes only its own.
  @Test func anOverrideLayersStartMakesTheEagerModulesOfTheOverrideLayersUnderIt() async throws {
    let made = Counter()
    let replaced = Counter()
    let keys = try await Dependencies.withOverrides {
      countedService(by: made, "outer", scope: .singleton, eager: true)
      countedService(by: replaced, "replaced", scope: .singleton, eager: true)
    } operation: {
      try await Dependencies.withOverrides {
        countedService(by: made, "replaced", scope: .singleton)
        countedService(by: made, "inner", scope: .singleton, eager: true)
      } operation: {
        let child = Dependencies(over: .current) {}
        #expect(try await child.start().entries.isEmpty)
        return try await Dependencies.current.start().entries.map(\.key).sorted()
      }
    }
    #expect(keys == [#"Service named "inner""#, #"Service named "outer""#])
    #expect(made.value == 2)
    #expect(replaced.value == 0)
  }

  /// A closed override layer underneath, and those under it, are not reached: what they
  /// register no longer resolves, and nothing made there would be disposed of.
  @Test func anOverrideLayersStartLeavesAClosedOneUnderneath() async throws {
    let made = Counter()
    let keys = try await Dependencies.withOverrides {
      countedService(by: made, "outer", scope: .singleton, eager: true)
    } operation: {
      let outer = Dependencies.current
      return try await Dependencies.withOverrides {
        countedService(by: made, "inner", scope: .singleton, eager: true)
      } operation: {
        await outer.close()
        return try await Dependencies.current.start().entries.map(\.key)
      }
    }
    #expect(keys == [#"Service named "inner""#])
    #expect(made.value == 1)
  }

  /// A nonisolated eager module whose type a main-actor decorator wraps: the container
  /// resolves it on the main actor, so `start()` must make it too, not fail off the main actor.
  @MainActor @Test func startMakesANonisolatedEagerModuleThatAMainActorDecoratorWraps()
    async throws
  {
    let container = Dependencies {
      Module(scope: .singleton, eager: true, isolation: nil) { "made" }
      // Registered on the main actor, so the decorator is bound to it.
      Module.decorating(String.self) { $0 + "+decorated" }
    }
    let report = try await container.start()
    #expect(report.entries.map(\.key) == ["String"])
    #expect(container.resolve(String.self) == "made+decorated")
  }

  @Test func anEagerModuleUnderSeveralTypesIsMadeOnceAndReportedOnce() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton, eager: true, as: Service.self, OtherService.self) {
        made.increment()
        return AliasedServices()
      }
    }
    let report = try await container.start()
    #expect(made.value == 1)
    #expect(report.entries.map(\.key) == ["Service"])
    #expect(container.resolve(Service.self) === container.resolve(OtherService.self))
    #expect(made.value == 1, "start() made the instance both types share")
  }

  @Test func independentModulesAreMadeAtTheSameTime() async throws {
    // In a process of its own, whose task pool no other test keeps busy: made at the same
    // time means on two of its threads at once.
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) {
      let arrived = Counter()
      let secondArrived = DispatchSemaphore(value: 0)
      let firstSawTheSecond = Collector<Bool>()
      func meeting(_ name: String) -> Module {
        Module(name, scope: .singleton, eager: true) { () -> Service in
          // The first factory to start waits for the second: it sees it only if both run at
          // once. Made one after the other, the first would wait out the timeout.
          if arrived.increment() == 2 {
            secondArrived.signal()
          } else {
            firstSawTheSecond.append(secondArrived.wait(timeout: .now() + 10) == .success)
          }
          return ServiceImpl()
        }
      }
      let container = Dependencies {
        meeting("a")
        meeting("b")
      }
      let report = try await container.start()
      precondition(report.entries.count == 2)
      precondition(firstSawTheSecond.all == [true], "made one after the other")
    }
    #expect(standardError(of: result) == "")
  }

  @Test func theReportListsTheSlowestFirstAsATable() async throws {
    let container = Dependencies {
      Module("quick", scope: .singleton, eager: true) { ServiceImpl() as Service }
      // Far slower than a busy machine may hold up the quick one (it once took 50 ms).
      Module("slow", scope: .singleton, eager: true) { () -> Service in
        usleep(300_000)
        return ServiceImpl()
      }
    }
    let report = try await container.start()
    #expect(report.entries.map(\.key) == [#"Service named "slow""#, #"Service named "quick""#])
    #expect(report.entries[0].durationNanoseconds >= 300_000_000)
    let lines = report.description.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("Started 2 eager modules in "))
    #expect(lines[1].hasPrefix(#"  Service named "slow"   "#))
    #expect(lines[1].hasSuffix(" ms  a background thread"))
    #expect(lines[2].hasPrefix(#"  Service named "quick"  "#))
  }

  @Test func aFailingEagerModuleIsThrownAfterTheOthersAreMade() async throws {
    let made = Counter()
    let container = Dependencies {
      Module("broken", scope: .singleton, eager: true) { () -> Service in
        try Dependencies.resolveOrThrow(NeverRegistered.self) as! Service
      }
      countedService(by: made, "fine", scope: .singleton, eager: true)
    }
    await #expect(throws: ResolutionError.self) { try await container.start() }
    #expect(made.value == 1)
  }

  @Test func verifyReportsAnEagerModuleThatIsNotKept() throws {
    let container = Dependencies {
      Module(eager: true) { ServiceImpl() as Service }
      Module("weak", scope: .weak, eager: true) { ServiceImpl() as Service }
    }
    let line = #line - 3
    let error = try #require(verificationError { try container.verify() })
    #expect(
      error.problems == [
        .eagerNotKept(
          module: "Service", scope: ".unique",
          registeredAt: "ShankTests/StartTests.swift:\(line)"),
        .eagerNotKept(
          module: "Service named \"weak\"", scope: ".weak",
          registeredAt: "ShankTests/StartTests.swift:\(line + 1)"),
      ])
    #expect(
      error.problems[0].description
        == "Service, registered .unique at ShankTests/StartTests.swift:\(line), is eager, but start() can only make it and drop it: only .singleton and .cached instances are kept"
    )
  }

  /// An eager async factory that starts its own container, or another whose eager module
  /// awaits the first one's, would wait for itself: the `start()` inside is told of the cycle,
  /// and the outer one goes on.
  @Test(arguments: [true, false])
  func anEagerAsyncFactoryStartingWhatAwaitsItIsToldOfTheCycle(itsOwnContainer: Bool) async {
    let containers = Collector<Dependencies>()
    let inner = Collector<String>()
    let first = Dependencies {
      Module(scope: .singleton, eager: true) { () async -> DatabaseType in
        do throws(ResolutionError) {
          _ = try await containers.all[itsOwnContainer ? 0 : 1].start()
          inner.append("started")
        } catch {
          inner.append(error.description)
        }
        return Database()
      }
    }
    let starting = #line - 8
    let second = Dependencies {
      Module(scope: .singleton, eager: true) { () async throws -> StoreType in
        try await containers.all[0].resolveAsyncOrThrow(DatabaseType.self) as! StoreType
      }
    }
    containers.append(first)
    containers.append(second)
    let outer = Collector<String>()
    // Watched rather than awaited: a cycle missed would hang the suite.
    Task {
      do throws(ResolutionError) {
        _ = try await first.start()
        outer.append("started")
      } catch {
        outer.append(error.description)
      }
    }
    await eventually { outer.all.count == 1 }
    #expect(outer.all == ["started"])
    let asked = itsOwnContainer ? starting : starting + 11
    let path =
      itsOwnContainer ? "DatabaseType → DatabaseType" : "DatabaseType → StoreType → DatabaseType"
    #expect(
      inner.all == [
        """
        Shank found a dependency cycle resolving DatabaseType
          asked for at ShankTests/StartTests.swift:\(asked)
          cycle: \(path)
        """
      ])
  }

  /// Two calls at once make each eager module once, and both report every one of them.
  @Test func twoStartsAtOnceMakeEachEagerModuleOnceAndBothReportIt() async throws {
    for _ in 0..<20 {
      let made = Counter()
      let container = Dependencies {
        slowEagerService(by: made, "slow")
        countedService(by: made, "cached", scope: .cached("started"), eager: true)
      }
      async let first = container.start()
      async let second = container.start()
      let reports = try await [first, second]
      #expect(made.value == 2)
      for report in reports {
        #expect(
          Set(report.entries.map(\.key)) == [#"Service named "slow""#, #"Service named "cached""#])
      }
    }
  }

  /// An eager module whose factory resolves another eager one waits for it, made once.
  @Test func anEagerModuleResolvingAnotherEagerOneMakesItOnce() async throws {
    for _ in 0..<20 {
      let made = Counter()
      let container = Dependencies {
        slowEagerService(by: made, "base")
        Module("top", scope: .singleton, eager: true) { () -> Service in
          _ = Dependencies.resolve(Service.self, name: "base")
          return ServiceImpl()
        }
      }
      _ = try await container.start()
      #expect(made.value == 1)
    }
  }

  /// A `.cached` eager module is made by `start()` and kept, as a singleton is.
  @Test func startMakesAnEagerCachedModuleAndKeepsIt() async throws {
    let made = Counter()
    let container = Dependencies {
      countedService(by: made, scope: .cached("eager"), eager: true)
    }
    let report = try await container.start()
    #expect(made.value == 1)
    #expect(report.entries.map(\.scope) == [.cached("eager")])
    _ = container.resolve(Service.self)
    #expect(made.value == 1)
  }

  /// An eager module that no container keeps is made, which checks that it can be, and
  /// dropped: a resolution after makes another.
  @Test(arguments: [Scope.unique, .weak])
  func anEagerModuleNotKeptIsMadeByStartAndDropped(scope: Scope) async throws {
    let made = Counter()
    let container = Dependencies { countedService(by: made, scope: scope, eager: true) }
    _ = try await container.start()
    #expect(made.value == 1)
    _ = container.resolve(Service.self)
    #expect(made.value == 2)
  }

  @Test func anEmptyStartSaysSo() async throws {
    let report = try await Dependencies {}.start()
    #expect(report.entries.isEmpty)
    #expect(report.description.hasPrefix("Started 0 eager modules in "))
  }
}

/// An eager singleton `Service` named `name` whose factory counts its runs in `made` and takes
/// 2 ms: long enough for another start, or another module, to ask meanwhile.
private func slowEagerService(by made: Counter, _ name: String) -> Module {
  Module(name, scope: .singleton, eager: true) { () -> Service in
    made.increment()
    Thread.sleep(forTimeInterval: 0.002)
    return ServiceImpl()
  }
}

/// A suite trait's eager async module, which only the test's own layer, over it, can reach.
@Suite(
  .dependencies {
    Module(scope: .singleton, eager: true) { () async -> Service in ServiceImpl() }
  })
struct SuiteTraitStartTests {
  @Test(.dependencies { Module { OtherServiceImpl() as OtherService } })
  func aTestWithATraitOfItsOwnStartsItsSuitesEagerModules() async throws {
    let report = try await Dependencies.current.start()
    #expect(report.entries.map(\.key) == ["Service"])
    #expect(throws: Never.self) { try Dependencies.resolveOrThrow(Service.self) }
  }
}
