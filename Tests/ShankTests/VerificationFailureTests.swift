import Shank
import Testing

/// `verify()` with factories that fail: each failure is a problem, never a stopped program,
/// and the answer depends on nothing global.
@Suite struct VerificationFailureTests {
  @Test func aFactoryThatResolvesAMissingKeyIsOneProblemAndTheRestIsStillChecked() throws {
    let dependencies = Dependencies {
      Module { FailingModule(needs: Dependencies.resolve()) as FailingModuleType }
      Module { CartModule() as CartModuleType }  // its ShopAppModuleType is missing
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(error.problems.count == 2)
    let first = try #require(error.problems.first)
    guard case .unresolvable(let module, let message) = first else {
      Issue.record("expected the failing factory as an unresolvable module, got \(first)")
      return
    }
    #expect(module == "FailingModuleType")
    #expect(message.hasPrefix("Shank cannot resolve PaymentGateway\n  asked for at ShankTests/"))
    #expect(!message.contains("no container was built"))
    #expect(
      error.problems.last
        == .missing(
          module: "CartModuleType", property: "app", requirement: "ShopAppModuleType",
          declaredAt: "ShankTests/ShopFixtures.swift:22"))
  }

  @Test func anInjectReadInsideAFactoryThatFindsNothingIsOneProblem() throws {
    let dependencies = Dependencies {
      Module { ReadsInjectionWhenMade() as ReadsInjectionWhenMade }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(error.problems.count == 1)
    #expect(
      error.problems.first?.description.hasPrefix(
        "ReadsInjectionWhenMade could not be made: Shank cannot resolve PaymentGateway; asked for at ShankTests/VerificationFailureTests.swift:"
      ) == true)
  }

  @Test func aCycleMetThroughResolveInsideFactoriesIsAProblemOfEachModuleOnIt() throws {
    let dependencies = Dependencies {
      Module { () -> Service in
        _ = Dependencies.resolve(OtherService.self)
        return ServiceImpl()
      }
      Module { () -> OtherService in
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(error.problems.count == 2)
    #expect(error.problems.allSatisfy { $0.description.contains("cycle: ") })
    #expect(error.problems.first?.description.contains("Service → OtherService → Service") == true)
  }

  @Test func aThrowingFactoryIsOneProblem() throws {
    let dependencies = Dependencies {
      Module { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems == [
        .unresolvable(
          module: "Service",
          message: """
            Shank cannot resolve Service: its factory threw ConfigurationMissing(key: "API_URL")
              asked for at ShankTests/VerificationFailureTests.swift:60
            """)
      ])
  }

  @Test func theAnswerIsTheSameWithOverridesActive() throws {
    let dependencies = Dependencies {
      Module { FailingModule(needs: Dependencies.resolve()) as FailingModuleType }
    }
    let alone = try #require(throws: VerificationError.self) { try dependencies.verify() }
    let overridden = try Dependencies.withOverrides {
      Module { PaymentGatewayImpl() as PaymentGateway }
    } operation: {
      try #require(throws: VerificationError.self) { try dependencies.verify() }
    }
    #expect(overridden.problems == alone.problems)
  }

  @Test func theAnswerIsTheSameWithARootBuilt() async {
    await #expect(processExitsWith: .success) {
      Dependencies { Module { PaymentGatewayImpl() as PaymentGateway } }.build()
      let dependencies = Dependencies {
        Module { FailingModule(needs: Dependencies.resolve()) as FailingModuleType }
      }
      do throws(VerificationError) {
        try dependencies.verify()
        preconditionFailure("verify() passed because the built root had the missing key")
      } catch {
        precondition(error.problems.count == 1)
      }
    }
  }

  @Test func verifyLeavesTheContainersOwnSingletonsUnmade() throws {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        made.increment()
        return ServiceImpl()
      }
    }
    try dependencies.verify()
    #expect(made.value == 1)
    let first = dependencies.resolve(Service.self)
    #expect(made.value == 2)
    #expect(dependencies.resolve(Service.self) === first)
  }

  @Test func aContainerWhoseVerificationFailedStillResolvesWhatItCan() throws {
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        _ = Dependencies.resolve(PaymentGateway.self)
        return ServiceImpl()
      }
      Module(scope: .singleton) { OtherServiceImpl() as OtherService }
    }
    #expect(throws: VerificationError.self) { try dependencies.verify() }
    let other = dependencies.resolve(OtherService.self)
    #expect(dependencies.resolve(OtherService.self) === other)
  }

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

  // MARK: Consumers

  @Test func verifyConsumersReportsWhatAViewControllerInjectsAndNothingRegisters() throws {
    let dependencies = Dependencies { shopModules() }
    let error = try #require(throws: VerificationError.self) {
      try dependencies.verify(consumers: CheckoutViewController(), "not a consumer")
    }
    #expect(
      error.description == """
        Shank found 1 problem in the dependency graph:
          - CheckoutViewController needs PaymentGateway named "checkout" in property "checkout" (ShankTests/VerificationFailureTests.swift:217), and nothing registers it
        """)
  }

  @Test func verifyConsumersPassesWhenEveryInjectionIsRegisteredOrOptional() throws {
    try Dependencies {
      shopModules()
      Module("checkout") { PaymentGatewayImpl() as PaymentGateway }
    }.verify(consumers: CheckoutViewController())
  }
}

protocol FailingModuleType {}

/// A module whose factory resolves what it needs with `resolve()`.
struct FailingModule: FailingModuleType {
  let needs: PaymentGateway
}

protocol PaymentGateway {}

struct PaymentGatewayImpl: PaymentGateway {}

/// A module that reads an `@Inject` property while it is made.
final class ReadsInjectionWhenMade {
  @Inject private var missing: PaymentGateway

  init() { _ = missing }
}

/// A consumer, not a module: only `verify(consumers:)` sees what it injects.
final class CheckoutViewController {
  @Inject("checkout") var checkout: PaymentGateway
  @Inject var promotions: PromotionsModuleType?
  @Inject var cart: CartModuleType
}
