import Dispatch
import Foundation
import Shank
import ShankTesting
import Testing

@Suite struct OverridesTests {
  @Test func overrideIsSeenInsideAndTheRestComesFromBelow() {
    Dependencies.withOverrides {
      shopModules()
    } operation: {
      Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        let cart: CartModuleType = Dependencies.resolve()
        #expect(cart.total() == "12 USD")
        let payments: PaymentsModuleType = Dependencies.resolve()
        #expect(payments.pay() == "paid 12 USD")
      }
      let cart: CartModuleType = Dependencies.resolve()
      #expect(cart.total() == "12 EUR")
    }
  }

  @Test func overridesNestInnermostFirst() {
    Dependencies.withOverrides {
      shopModules()
    } operation: {
      Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        Dependencies.withOverrides {
          Module { MockShopAppModule(code: "JPY") as ShopAppModuleType }
        } operation: {
          #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "JPY")
          #expect(Dependencies.resolve(CartModuleType.self).total() == "12 JPY")
        }
        #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "USD")
      }
    }
  }

  @Test func returnsTheOperationsValueAndRethrows() throws {
    struct Expected: Error {}
    let value = Dependencies.withOverrides {
    } operation: {
      42
    }
    #expect(value == 42)
    #expect(throws: Expected.self) {
      try Dependencies.withOverrides {
      } operation: {
        throw Expected()
      }
    }
  }

  @Test func childTasksInheritOverrides() async {
    await Dependencies.withOverrides {
      shopModules()
      Module { MockShopAppModule(code: "CHF") as ShopAppModuleType }
    } operation: {
      async let fromAsyncLet = Dependencies.resolve(ShopAppModuleType.self).currency()
      let fromTask = await Task { Dependencies.resolve(ShopAppModuleType.self).currency() }.value
      let fromGroup = await withTaskGroup(of: String.self) { group in
        group.addTask { Dependencies.resolve(ShopAppModuleType.self).currency() }
        return await group.next()!
      }
      #expect(await fromAsyncLet == "CHF")
      #expect(fromTask == "CHF")
      #expect(fromGroup == "CHF")
    }
  }

  /// Work handed to a detached task, a thread or a queue does not inherit the overrides: it
  /// reads the root.
  @Test(arguments: UntiedWork.allCases)
  func workOutsideTheOperationsTasksReadsTheRoot(work: UntiedWork) async {
    await #expect(processExitsWith: .success) { [work] in
      Dependencies { Module { MockShopAppModule(code: "DKK") as ShopAppModuleType } }.build()
      let seen = await Dependencies.withOverrides {
        Module { MockShopAppModule(code: "CHF") as ShopAppModuleType }
      } operation: {
        await work.run {
          (try? Dependencies.resolveOrThrow(ShopAppModuleType.self)).map { $0.currency() }
        }
      }
      precondition(seen == "DKK", seen ?? "nothing resolved")
    }
  }

  /// The async form runs its operation on the caller's actor, across suspensions, and returns
  /// what it returns or rethrows what it throws. The mock is registered from the main actor, so
  /// a synchronous resolution of it anywhere else would throw.
  @MainActor @Test func theAsyncFormKeepsTheCallersActorAndReturnsAndRethrows() async throws {
    struct Expected: Error {}
    let value = try await Dependencies.withOverrides {
      Module { MockShopAppModule(code: "DKK") as ShopAppModuleType }
    } operation: {
      await Task.yield()
      return try Dependencies.resolveOrThrow(ShopAppModuleType.self).currency()
    }
    #expect(value == "DKK")
    await #expect(throws: Expected.self) {
      try await Dependencies.withOverrides {
      } operation: {
        await Task.yield()
        throw Expected()
      }
    }
  }

  /// Each layer keeps its own singletons, so every test given the same modules starts with
  /// fresh ones.
  @Test func eachOverrideLayerMakesItsOwnSingletons() {
    let made = Counter()
    let modules = [countedService(by: made, scope: .singleton)]
    let serials = (0..<2).map { _ in
      Dependencies.withOverrides {
        modules
      } operation: {
        let first = Dependencies.resolve(Service.self)
        #expect(Dependencies.resolve(Service.self) === first)
        return first.serial
      }
    }
    #expect(serials[0] != serials[1])
    #expect(made.value == 2)
  }

  @Test func parallelOperationsNeverSeeEachOthersOverrides() async {
    let codes = (0..<200).map { "C\($0)" }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for code in codes {
        group.addTask {
          await Dependencies.withOverrides {
            shopModules()
            Module { MockShopAppModule(code: code) as ShopAppModuleType }
          } operation: {
            var wrong = 0
            for _ in 0..<20 {
              await Task.yield()
              if Dependencies.resolve(CartModuleType.self).total() != "12 \(code)" { wrong += 1 }
            }
            return wrong
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test func injectReadInsideAnOverrideSeesIt() {
    struct Reader {
      @Inject var app: ShopAppModuleType
    }
    let reader = Reader()
    Dependencies.withOverrides {
      Module { MockShopAppModule(code: "SEK") as ShopAppModuleType }
    } operation: {
      #expect(reader.app.currency() == "SEK")
    }
    // The first read kept the value it read.
    #expect(reader.app.currency() == "SEK")
  }

  /// The layer lies over the root that was current when the operation began: a root built
  /// inside it is the root outside, not under the layer.
  @Test func aRootBuiltDuringTheOperationIsNotUnderTheLayer() async {
    await #expect(processExitsWith: .success) {
      Dependencies { Module { MockShopAppModule(code: "DKK") as ShopAppModuleType } }.build()
      let (inside, outsideTask) = Dependencies.withOverrides {
        Module { ServiceImpl() as Service }
      } operation: {
        Dependencies { Module { MockShopAppModule(code: "SEK") as ShopAppModuleType } }.build()
        let outside = Task.detached { Dependencies.resolve(ShopAppModuleType.self).currency() }
        return (Dependencies.resolve(ShopAppModuleType.self).currency(), outside)
      }
      precondition(inside == "DKK", inside)
      let outside = await outsideTask.value
      precondition(outside == "SEK", outside)
    }
  }

  /// An object made in the operation of an override that a factory opens reads the override
  /// while the operation runs, and afterwards, the override gone, the container that ran the
  /// factory, as an object made in any other operation reads what is underneath it then.
  @Test(arguments: [false, true])
  func anObjectMadeInAFactorysOverrideReadsItOnlyWhileTheOperationRuns(readingInside: Bool) {
    let container = Dependencies {
      Module { MockShopAppModule(code: "DKK") as ShopAppModuleType }
      Module { () -> ShopAppReaderHolder in
        let (reader, readInside) = Dependencies.withOverrides {
          Module { MockShopAppModule(code: "SEK") as ShopAppModuleType }
        } operation: { () -> (ShopAppReader, String?) in
          let reader = ShopAppReader()
          return (reader, readingInside ? reader.app.currency() : nil)
        }
        return ShopAppReaderHolder(reader: reader, readInside: readInside)
      }
    }
    let holder = container.resolve(ShopAppReaderHolder.self)
    #expect(holder.readInside == (readingInside ? "SEK" : nil))
    #expect(holder.reader.app.currency() == (readingInside ? "SEK" : "DKK"))
  }
}

/// Reads the shop's app module when first asked.
final class ShopAppReader {
  @Inject var app: ShopAppModuleType
}

/// Keeps a reader its factory made in an override, and what the reader read there, if it did.
struct ShopAppReaderHolder {
  let reader: ShopAppReader
  let readInside: String?
}

@Suite(
  .dependencies {
    shopModules()
    Module { MockShopAppModule(code: "NOK") as ShopAppModuleType }
  })
struct TraitTests {
  @Test func suiteTraitAppliesToEachTest() {
    #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "NOK")
  }

  @Test(.dependencies { Module { MockShopAppModule(code: "DKK") as ShopAppModuleType } })
  func testTraitLayersOverTheSuites() {
    #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "DKK")
  }

  @Test(.dependencies { Module { CartModule() as CartModuleType } })
  func keysNotOverriddenComeFromTheLayersBelow() {
    #expect(Dependencies.resolve(CartModuleType.self).total() == "12 NOK")
  }

  /// Its layer, closed, names the test it was written on: Swift Testing's macro gives the
  /// trait the line of the declaration it is attached to.
  @Test(.dependencies { Module { CartModule() as CartModuleType } })
  func aClosedTraitLayerNamesTheTestItWasWrittenOn() async {
    let traitLine = #line - 1
    await Dependencies.current.close()
    let error = resolutionError { try Dependencies.resolveOrThrow(CartModuleType.self) }
    #expect(
      error?.reason
        == .closed(
          container: "an override layer made at ShankTests/OverridesTests.swift:\(traitLine)"))
  }

  @Test(arguments: ["ISK", "PLN", "HUF"])
  func parameterizedCasesEachGetTheOverrides(code: String) {
    Dependencies.withOverrides {
      Module { MockShopAppModule(code: code) as ShopAppModuleType }
    } operation: {
      #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == code)
    }
  }
}

/// A suite trait's layer is made for each test case, so each starts with fresh singletons.
@Suite(.dependencies { Module(scope: .singleton) { Counter() } })
struct TraitSingletonTests {
  @Test(arguments: 0..<4)
  func eachTestCaseGetsFreshSingletons(case index: Int) {
    #expect(Dependencies.resolve(Counter.self).increment() == 1, "case \(index) shares one")
    #expect(Dependencies.resolve(Counter.self).increment() == 2, "the case's own is kept")
  }
}

/// The main-actor trait runs its builder before each test case too.
@Suite(.mainActorDependencies { Module(scope: .singleton) { Counter() } })
struct MainActorTraitSingletonTests {
  @MainActor @Test(arguments: 0..<4)
  func eachTestCaseGetsFreshSingletons(case index: Int) {
    #expect(Dependencies.resolve(Counter.self).increment() == 1, "case \(index) shares one")
    #expect(Dependencies.resolve(Counter.self).increment() == 2, "the case's own is kept")
  }
}

/// Work that does not inherit task-local values: it runs outside the task tree of the code
/// that starts it.
enum UntiedWork: CaseIterable, Codable, Sendable {
  case detachedTask, thread, dispatchQueue

  func run(_ body: @escaping @Sendable () -> String?) async -> String? {
    switch self {
    case .detachedTask:
      return await Task.detached { body() }.value
    case .thread:
      return await withCheckedContinuation { done in
        Thread { done.resume(returning: body()) }.start()
      }
    case .dispatchQueue:
      return await withCheckedContinuation { done in
        DispatchQueue.global().async { done.resume(returning: body()) }
      }
    }
  }
}

/// A shared module of a lower layer (a suite's trait) asking for a key that only a layer over
/// it (the test's trait) registers: the miss says so, not that the overrides leave it out.
@Suite struct RegisteredAboveTests {
  /// The empty container that stands in before `build()` is named as such, not by a line of
  /// Shank's own source.
  @Test func theStandInIsNamedAsSuch() async {
    await #expect(processExitsWith: .success) {
      let standIn = Dependencies.current
      let message = Dependencies.withOverrides {
        Module { ServiceImpl() as Service }
      } operation: {
        resolutionError { try standIn.resolveOrThrow(Service.self) }?.description ?? "resolved"
      }
      precondition(
        message.contains(
          "a container over the one resolved from (the empty one that stands in before build()) registers it (an override layer made at "
        ), message)
    }
  }

  @Test func aSharedModulesFactoryMissingAKeyOnlyALayerOverItRegistersSaysSo() {
    let owner = #line + 1
    let error = Dependencies.withOverrides {
      Module(scope: .singleton) { () throws -> OtherService in
        _ = try Dependencies.resolveOrThrow(Service.self)
        return OtherServiceImpl()
      }
    } operation: {
      Dependencies.withOverrides {
        Module { ServiceImpl() as Service }
      } operation: {
        resolutionError { try Dependencies.resolveOrThrow(OtherService.self) }
      }
    }
    // Up to what is registered, which may list a root that another test built meanwhile
    // (`ConcurrencyRootTests`), under the override layers.
    #expect(
      error?.description.split(separator: "\n").prefix(4).joined(separator: "\n") == """
        Shank cannot resolve Service
          asked for at ShankTests/OverridesTests.swift:\(owner + 2)
          while OtherService, registered at ShankTests/OverridesTests.swift:\(owner + 1), was being made
          a container over the one resolved from (an override layer made at ShankTests/OverridesTests.swift:\(owner)) registers it (an override layer made at ShankTests/OverridesTests.swift:\(owner + 6)), but a container resolves only from itself and the ones under it: register Service there too, or, for a module that asks for it, register that module beside Service
        """)
  }

  @Test func anInjectOfASharedModuleMissingAKeyOnlyALayerOverItRegistersSaysSo() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies.withOverrides {
        Module(scope: .singleton) { ServiceReader() }
      } operation: {
        Dependencies.withOverrides {
          Module { ServiceImpl() as Service }
        } operation: {
          _ = Dependencies.resolve(ServiceReader.self).service
        }
      }
    }
    let stderr = standardError(of: result)
    #expect(stderr.contains("over the one resolved from (an override layer made at "))
    #expect(!stderr.contains("the overrides that apply do not register it"))
  }
}
