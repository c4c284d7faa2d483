import Dispatch
import Foundation
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

  /// A deinit that stops as `verify()` frees what it made is one more problem: a unique
  /// module's, freed once it is checked, is its module's; a singleton's, freed with the copy
  /// once every module is made, is named by what it asked for. The module's own problems are
  /// still told, and its edges drawn.
  @Test(arguments: [Scope.singleton, .unique], [false, true])
  func aDeinitThatStopsAsVerifyFreesWhatItMadeIsOneMoreProblem(scope: Scope, resetting: Bool)
    throws
  {
    let dependencies = Dependencies {
      Module(scope: scope) { StoppingWhenFreed(resetting: resetting) }
      Module { PlainText("x") as TextType }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    let stopped =
      resetting
      ? "Shank: reset(_:) takes a .cached(name) scope, not .singleton"
      : "Shank cannot resolve NeverRegistered"
    let module =
      scope == .unique
      ? "StoppingWhenFreed" : resetting ? "an instance freed by verify()" : "NeverRegistered"
    #expect(
      error.problems.map(\.description).map { $0.prefix { $0 != ";" } } == [
        "StoppingWhenFreed needs ShopAppModuleType in property \"app\" (ShankTests/VerificationFailureTests.swift:\(StoppingWhenFreed.appLine)), which no container it resolves from registers",
        "\(module) could not be made: \(stopped)"[...],
      ])
    #expect(dependencies.graph().edges.map(\.property) == ["text"])
  }

  /// Unique modules whose deinits stop are each one problem, their own: making goes on from
  /// the next module on a thread of its own.
  @Test func uniqueModulesWhoseDeinitsStopAreEachTheirOwnProblem() throws {
    let dependencies = Dependencies {
      Module("a") { StoppingWhenFreed(resetting: false) }
      Module("b") { StoppingWhenFreed(resetting: true) }
      Module { PlainText("x") as TextType }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems.map(\.description).map { $0.prefix { $0 != ";" } }.filter {
        $0.contains("could not be made")
      } == [
        "StoppingWhenFreed named \"a\" could not be made: Shank cannot resolve NeverRegistered",
        "StoppingWhenFreed named \"b\" could not be made: Shank: reset(_:) takes a .cached(name) scope, not .singleton",
      ])
  }

  /// A singleton whose deinit stops, made again in a later pass for a module that a layer
  /// replaced, is one problem, however many passes' copies free it.
  @Test func aDeinitThatStopsInEachPassIsOneProblem() throws {
    let parent = Dependencies {
      Module(scope: .singleton) { StoppingWhenFreed(resetting: false) }
      Module(scope: .singleton) { StoppingHolder() }
    }
    let child = Dependencies(over: parent) {
      Module(scope: .singleton) { StoppingWhenFreed(resetting: false) }
    }
    let error = try #require(throws: VerificationError.self) { try child.verify() }
    #expect(
      error.problems.map(\.description).map { $0.prefix { $0 != ";" } }.filter {
        $0.hasPrefix("NeverRegistered")
      } == ["NeverRegistered could not be made: Shank cannot resolve NeverRegistered"])
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

  /// Met while making each of its modules, a cycle is one problem, its path as met first.
  @Test func aCycleMetThroughResolveInsideFactoriesIsOneProblem() throws {
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
    #expect(error.problems == [.cycle(path: ["Service", "OtherService", "Service"])])
  }

  @Test func aThrowingFactoryIsOneProblem() throws {
    let line = #line + 2
    let dependencies = Dependencies {
      Module { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
    }
    let error = try #require(throws: VerificationError.self) { try dependencies.verify() }
    #expect(
      error.problems == [
        .unresolvable(
          module: "Service",
          message: """
            Shank cannot resolve Service: its factory registered at ShankTests/VerificationFailureTests.swift:\(line) threw ConfigurationMissing(key: "API_URL")
              asked for at ShankTests/VerificationFailureTests.swift:\(line)
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

  // MARK: Factories that never return

  /// A factory that has not returned within the patience is that module's problem, and the
  /// modules after it are still made and checked; released later, its thread records nothing.
  @Test func aFactoryThatNeverReturnsIsReportedAndTheRestIsStillChecked() async throws {
    let release = DispatchSemaphore(value: 0)
    let resumed = DispatchSemaphore(value: 0)
    let dependencies = Dependencies {
      Module { () -> Service in
        _ = release.wait(timeout: .now() + 60)
        release.signal()  // so that any later call goes straight on
        resumed.signal()
        return ServiceImpl()
      }
      Module { FailingModule(needs: Dependencies.resolve()) as FailingModuleType }
      Module { CartModule() as CartModuleType }  // its ShopAppModuleType is missing
    }
    let problems = try #require(
      await verificationProblemsOnAThread(dependencies, patience: .seconds(5)),
      "verify() did not return")
    #expect(problems.count == 3)
    #expect(
      problems.first
        == "Service could not be made: its factory did not return within 5.0 seconds; it may wait for something verify() holds, such as the main queue when verify() runs on the main actor"
    )
    #expect(problems.dropFirst().first?.hasPrefix("FailingModuleType could not be made") == true)
    #expect(
      problems.last
        == #"CartModuleType needs ShopAppModuleType in property "app" (ShankTests/ShopFixtures.swift:22), which no container it resolves from registers"#
    )
    // The thread left behind goes on once released, and changes nothing of the answer given.
    release.signal()
    #expect(resumed.wait(timeout: .now() + 30) == .success)
    let again = verificationError {
      try Dependencies.$verificationPatience.withValue(.seconds(30)) { try dependencies.verify() }
    }
    #expect(again?.problems.count == 2, "released, the factory returns, and only two remain")
  }

  /// A factory that never returns after others that did on the same thread is the one
  /// reported, not the first module its thread made, and the modules after it are still made.
  @Test func aFactoryThatNeverReturnsAfterOthersIsTheOneReported() async throws {
    let release = DispatchSemaphore(value: 0)
    let dependencies = Dependencies {
      Module { LeafModule() }
      Module { () -> Service in
        _ = release.wait(timeout: .now() + 60)
        release.signal()  // so that any later call goes straight on
        return ServiceImpl()
      }
      Module { CartModule() as CartModuleType }  // its ShopAppModuleType is missing
    }
    // Patience enough for the module made after, on a thread of its own, under a sanitizer on
    // a busy machine: 2 s was not.
    let problems = try #require(
      await verificationProblemsOnAThread(dependencies, patience: .seconds(6)),
      "verify() did not return")
    release.signal()
    #expect(
      problems == [
        "Service could not be made: its factory did not return within 6.0 seconds; it may wait for something verify() holds, such as the main queue when verify() runs on the main actor",
        #"CartModuleType needs ShopAppModuleType in property "app" (ShankTests/ShopFixtures.swift:22), which no container it resolves from registers"#,
      ])
  }

  /// Called from as many tasks at once as the shared pool has threads, `verify()` holds them
  /// all: an async factory that awaits a task of its own cannot finish, and is reported as one
  /// that did not return (VerifyingTheGraph's note). In a process of its own, whose pool
  /// nothing else shares.
  @Test func verifyFromEveryThreadOfThePoolReportsAFactoryAwaitingATask() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 60)
      let dependencies = Dependencies {
        Module(scope: .singleton) { () async -> DatabaseType in
          await Task {}.value
          return Database()
        }
      }
      let threads = ProcessInfo.processInfo.activeProcessorCount
      let holding = Counter()
      let reports = await withTaskGroup(of: [String].self) { group in
        for _ in 0..<threads {
          group.addTask {
            // Every thread of the pool is held before any verify() begins.
            holding.increment()
            holdUntil(atMost: 10) { holding.value == threads }
            let error = verificationError {
              try Dependencies.$verificationPatience.withValue(.seconds(1)) {
                try dependencies.verify()
              }
            }
            return error?.problems.map(\.description) ?? []
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      let report = [
        "DatabaseType could not be made: its factory did not return within 1.0 seconds; it may wait for something verify() holds, such as the main queue when verify() runs on the main actor"
      ]
      // The first to give up frees a thread, where the others' tasks may then run in time.
      precondition(reports.contains(report), "\(reports)")
      precondition(reports.allSatisfy { $0 == report || $0.isEmpty }, "\(reports)")
    }
  }

  /// The patience is for each factory: modules that each return in time are all made, however
  /// long the whole run takes on one thread.
  @Test func slowFactoriesThatEachReturnInTimeAreAllMade() async throws {
    let slow = { @Sendable () -> Service in
      Thread.sleep(forTimeInterval: 0.6)
      return ServiceImpl()
    }
    let dependencies = Dependencies {
      Module("first", slow)
      Module("second", slow)
      Module("third", slow)
      Module("fourth", slow)
      Module("fifth", slow)
    }
    let problems = await verificationProblemsOnAThread(dependencies, patience: .seconds(2))
    #expect(problems == [], "nil when verify() did not return")
  }

  /// `verify()` on the main actor holds the main thread while its own thread makes modules, so
  /// a factory that waits for the main queue would wait for ever; it is reported instead.
  @MainActor @Test(.timeLimit(.minutes(1)))
  func aFactoryWaitingForTheMainQueueWhileVerifyHoldsItIsReported() throws {
    let dependencies = Dependencies {
      Module { () -> Service in
        DispatchQueue.main.sync {}
        return ServiceImpl()
      }
      Module { () throws -> LeafModule in throw StubFailure() }
    }
    // Verifying the Graph promises a minute, which the suite would not wait for.
    #expect(Dependencies.verificationPatience == .seconds(60))
    let error = try #require(throws: VerificationError.self) {
      try Dependencies.$verificationPatience.withValue(.seconds(5)) {
        try dependencies.verify()
      }
    }
    #expect(error.problems.count == 2)
    #expect(
      error.problems.first?.description.hasPrefix(
        "Service could not be made: its factory did not return within 5.0 seconds") == true)
    // The module after it is still checked.
    #expect(
      error.problems.last?.description.hasPrefix(
        "LeafModule could not be made: Shank cannot resolve LeafModule: its factory registered at ShankTests/VerificationFailureTests.swift:"
      ) == true)
  }

  // MARK: Threads left parked

  /// A factory that fails through `resolve()` cannot return, so its thread stays parked until
  /// the program ends, one for each such module at each call; one that fails through
  /// `resolveOrThrow` returns the error, and its thread goes on to the next module.
  @Test(.enabled(if: threadCount() != nil, "counts the threads in /proc/self/task"))
  func aFactoryThatFailsThroughResolveKeepsAThreadAndOneThatThrowsDoesNot() async {
    await #expect(processExitsWith: .success) {
      // The threads still there once those that are ending have ended: verify() returns when
      // its thread has signalled, which may then take a moment to end, as may the process's
      // own threads on a busy machine.
      func threadsLeftByVerifying(_ modules: [Module], expecting expected: Int) -> Int {
        let before = threadCount()!
        _ = verificationError { try Dependencies { modules }.verify() }
        var left = threadCount()! - before
        for _ in 0..<100 where left > expected {
          Thread.sleep(forTimeInterval: 0.05)
          left = threadCount()! - before
        }
        return left
      }
      let parking = (0..<20).map { index in
        Module(String(index)) { () -> Service in
          _ = Dependencies.resolve(NeverRegistered.self)
          return ServiceImpl()
        }
      }
      let throwing = (0..<20).map { index in
        Module(String(index)) { () throws -> Service in
          _ = try Dependencies.resolveOrThrow(NeverRegistered.self)
          return ServiceImpl()
        }
      }
      let leftByThrowing = threadsLeftByVerifying(throwing, expecting: 0)
      let leftByParking = threadsLeftByVerifying(parking, expecting: 20)
      let leftByParkingAgain = threadsLeftByVerifying(parking, expecting: 20)
      precondition(leftByThrowing <= 0, "\(leftByThrowing) threads left by throwing factories")
      precondition(leftByParking == 20, "\(leftByParking) threads left by parked factories")
      precondition(leftByParkingAgain == 20, "\(leftByParkingAgain) threads left the second time")
    }
  }

  // MARK: What verify() cannot take over

  /// `verify()` makes a main-actor module on its own thread while the main actor waits:
  /// Shank counts that thread as the main actor, the runtime's and Dispatch's checks do not.
  /// Their trap writes no message of Shank's, nor, on Linux, any readable one.
  @Test(arguments: [MainActorAssertion.assumeIsolated, .preconditionIsolated, .onMainQueue])
  func aMainActorFactoryThatAssertsTheMainActorStopsTheProgramWhenVerifyMakesIt(
    assertion: MainActorAssertion
  ) async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [assertion] in
      await MainActor.run {
        let dependencies = Dependencies {
          Module { () -> MainActorModule in
            FileHandle.standardError.write(Data("making MainActorModule\n".utf8))
            assertion.check()
            return MainActorModule()
          }
        }
        _ = try? dependencies.verify()
        FileHandle.standardError.write(Data("verify() returned\n".utf8))
      }
    }
    let stderr = standardError(of: result)
    #expect(stderr.hasPrefix("making MainActorModule\n"), "\(stderr)")
    #expect(!stderr.contains("verify() returned"), "\(stderr)")
    #expect(!stderr.contains("Shank"), "\(stderr)")
  }

  /// Only the factory's own thread resolves from the container `verify()` makes modules in. A
  /// thread the factory starts, or a block it dispatches with `async`, is outside any factory
  /// and has no task-local overrides: it reads the built root. A `sync` block runs on the
  /// factory's own thread, so it reads the verified container.
  @Test func aFactoryThatResolvesOnAnotherThreadItWaitsForReadsTheRootThere() async {
    await #expect(processExitsWith: .success) {
      Dependencies { Module { ContainerLabel("root") } }.build()
      let seen = Collector<String>()
      let dependencies = Dependencies {
        Module { ContainerLabel("verified") }
        Module { () -> Service in
          seen.append("factory: " + Dependencies.resolve(ContainerLabel.self).label)
          let done = DispatchSemaphore(value: 0)
          Thread {
            seen.append("thread: " + Dependencies.resolve(ContainerLabel.self).label)
            done.signal()
          }.start()
          done.wait()
          DispatchQueue.global().async {
            seen.append("async: " + Dependencies.resolve(ContainerLabel.self).label)
            done.signal()
          }
          done.wait()
          DispatchQueue(label: "serial").sync {
            seen.append("sync: " + Dependencies.resolve(ContainerLabel.self).label)
          }
          return ServiceImpl()
        }
      }
      try! dependencies.verify()
      try! Dependencies.withOverrides {
        Module { ContainerLabel("override") }
      } operation: {
        try dependencies.verify()
      }
      let once = ["factory: verified", "thread: root", "async: root", "sync: verified"]
      precondition(seen.all == once + once, "\(seen.all)")
    }
  }

  /// A resolution that fails on another thread is not the thread `verify()` makes modules on,
  /// so it stops the program; with no root built, it reads the empty container.
  @Test func aResolutionThatFailsOnAnotherThreadAFactoryWaitsForStopsTheProgram() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let dependencies = Dependencies {
        Module { ContainerLabel("verified") }
        Module { () -> Service in
          let done = DispatchSemaphore(value: 0)
          Thread {
            _ = Dependencies.resolve(ContainerLabel.self)
            done.signal()
          }.start()
          done.wait()
          return ServiceImpl()
        }
      }
      _ = try? dependencies.verify()
    }
    let stderr = standardError(of: result)
    #expect(stderr.contains("Shank cannot resolve ContainerLabel\n"), "\(stderr)")
    #expect(stderr.contains("  no container was built and no override applies: "), "\(stderr)")
  }

  /// A factory that fails is parked where it failed, for good: nothing after the failure runs,
  /// not even its `defer`, so a lock it took stays taken.
  @Test func aFactoryThatFailsLeavesALockItTookTakenAfterVerifyReturns() async {
    let lock = NSLock()
    let dependencies = Dependencies {
      Module { () -> Service in
        lock.lock()
        defer { lock.unlock() }
        _ = Dependencies.resolve(NeverRegistered.self)
        return ServiceImpl()
      }
    }
    let outcome = await verifyOnAThread(dependencies) { lock.try() ? "lock free" : "lock taken" }
    #expect(outcome != nil, "verify() did not return")
    #expect(outcome == ["1 problem", "lock taken"])
  }

  /// A `sync` block runs on the factory's thread, so a factory that fails inside one is parked
  /// there, and the serial queue runs nothing else from then on.
  @Test func aFactoryThatFailsInsideASerialQueuesSyncBlockLeavesTheQueueTaken() async {
    let queue = DispatchQueue(label: "taken by a parked factory")
    let dependencies = Dependencies {
      Module { () -> Service in
        queue.sync { _ = Dependencies.resolve(NeverRegistered.self) }
        return ServiceImpl()
      }
    }
    let outcome = await verifyOnAThread(dependencies) {
      let ran = DispatchSemaphore(value: 0)
      queue.async { ran.signal() }
      let answer = ran.wait(timeout: .now() + 0.5)
      return answer == .timedOut ? "queue taken" : "queue free"
    }
    #expect(outcome != nil, "verify() did not return")
    #expect(outcome == ["1 problem", "queue taken"])
  }

  /// `verify()` makes modules in a private copy, but a factory that resolves from another
  /// container makes that container's singleton under its creation lock, which a failure in
  /// the singleton's factory leaves taken: resolving it there again waits for good.
  @Test func aFactoryThatFailsMakingAnotherContainersSingletonLeavesItsCreationLockTaken() async {
    await #expect(processExitsWith: .success) {
      let other = Dependencies {
        Module(scope: .singleton) { () -> Service in
          _ = Dependencies.resolve(NeverRegistered.self)
          return ServiceImpl()
        }
      }
      let dependencies = Dependencies {
        Module { () -> OtherService in
          _ = other.resolve(Service.self)
          return OtherServiceImpl()
        }
      }
      do throws(VerificationError) {
        try dependencies.verify()
        preconditionFailure("verify() passed")
      } catch {
        precondition(error.problems.count == 1, "\(error.problems)")
      }
      let answered = DispatchSemaphore(value: 0)
      Thread {
        _ = try? other.resolveOrThrow(Service.self)
        answered.signal()
      }.start()
      precondition(
        answered.wait(timeout: .now() + 1) == .timedOut,
        "the other container's singleton was made again: its creation lock was free")
    }
  }

  /// An `@Inject` of an object that outlives `verify()`, declared outside any factory,
  /// resolves on its first read from `Dependencies.current`: inside a factory that `verify()`
  /// runs, that is the private copy, and the property keeps the copy's instance.
  @Test func aLongLivedObjectFirstReadByAFactoryUnderVerifyKeepsTheCopysInstance() throws {
    let session = LongLivedSession()
    let made = Collector<Service>()
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        let service = ServiceImpl()
        made.append(service)
        return service
      }
      Module { () -> OtherService in
        _ = session.service
        return OtherServiceImpl()
      }
    }
    try dependencies.verify()
    let madeByVerify = try #require(made.all.first)
    #expect(made.all.count == 1)
    #expect(session.service === madeByVerify)
    #expect(session.service !== dependencies.resolve(Service.self))
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
          - CheckoutViewController needs PaymentGateway named "checkout" in property "checkout" (ShankTests/VerificationFailureTests.swift:\(checkoutInjectLine)), which no container it resolves from registers
        """)
  }

  /// A consumer's `@Inject` properties are found by reflection, not read: the first read after
  /// `verify(consumers:)` resolves where it happens.
  @Test func verifyConsumersLeavesTheirInjectPropertiesUnread() throws {
    let consumer = ServiceConsumer()
    try Dependencies { Module { ServiceImpl() as Service } }.verify(consumers: consumer)
    let override = ServiceImpl()
    Dependencies.withOverrides {
      Module { override as Service }
    } operation: {
      #expect(consumer.service === override)
    }
  }

  @Test func verifyConsumersPassesWhenEveryInjectionIsRegisteredOrOptional() throws {
    try Dependencies {
      shopModules()
      Module("checkout") { PaymentGatewayImpl() as PaymentGateway }
    }.verify(consumers: CheckoutViewController())
  }

  /// A `.unique` async module is made only by `resolveAsync`, so an `@Inject` read of it, or
  /// of a list it contributes to, by a module or a consumer, always stops; a shared one is made
  /// once by `start()` or `resolveAsync`, and read after that.
  @Test(arguments: [Scope.unique, .singleton])
  func anInjectionThatRunsAUniqueAsyncFactoryIsAProblem(scope: Scope) throws {
    let dependencies = Dependencies {
      Module(scope: scope) { () async -> Service in ServiceImpl() }
      Module.contribution(scope: scope) { () async -> Service in ServiceImpl() }
      Module { ServiceConsumer() }
    }
    var problems: [VerificationError.Problem] = []
    do {
      try dependencies.verify(consumers: ServiceConsumer(), ServiceListConsumer())
    } catch {
      problems = error.problems
    }
    let site = "ShankTests/VerificationFailureTests.swift"
    let service = VerificationError.Problem.asyncOnly(
      module: "ServiceConsumer", property: "service", requirement: "Service",
      declaredAt: "\(site):\(serviceConsumerInjectLine)")
    let list = VerificationError.Problem.asyncOnly(
      module: "ServiceListConsumer", property: "services", requirement: "[Service]",
      declaredAt: "\(site):\(serviceListConsumerInjectLine)")
    #expect(problems == (scope == .unique ? [service, service, list] : []))
    #expect(
      list.description
        == "ServiceListConsumer needs [Service] in property \"services\" (\(site):\(serviceListConsumerInjectLine)), which only resolveAsync can make: it runs the async factory of a .unique module, which no container keeps, so reading the property always stops; resolve it with try await Dependencies.resolveAsync instead, or register the module .singleton and eager: true so that start() makes it once"
    )
  }

  /// The same through a synchronous factory: an `@Inject` of a `.unique` module whose factory
  /// resolves a `.unique` async one, through `.unique` modules alone, fails at every read, as
  /// nothing made it there. Not where the factory catches its absence, nor through a shared
  /// module, which `start()` or `resolveAsync` may have made first.
  @Test(arguments: ServiceBacking.allCases)
  func anInjectionWhoseFactoryRunsAUniqueAsyncFactoryIsAProblem(backing: ServiceBacking) throws {
    let dependencies = Dependencies {
      Module { () async -> Service in ServiceImpl() }
      switch backing {
      case .resolving:
        Module { () throws -> ServiceBackedType in
          ServiceBacked(try Dependencies.resolveOrThrow(Service.self))
        }
      case .resolvingWithoutTry:
        Module { ServiceBacked(Dependencies.resolve(Service.self)) as ServiceBackedType }
      case .throughAUniqueModule:
        Module { () throws -> ServiceBackedType in
          try Dependencies.resolveOrThrow(ServiceBacked.self)
        }
        Module { ServiceBacked(try Dependencies.resolveOrThrow(Service.self)) }
      case .catching:
        Module { () -> ServiceBackedType in
          ServiceBacked(try? Dependencies.resolveOrThrow(Service.self))
        }
      case .catchingThenFailing:
        Module { () throws -> ServiceBackedType in
          guard let service = try? Dependencies.resolveOrThrow(Service.self) else {
            throw StubFailure()
          }
          return ServiceBacked(service)
        }
      case .throughASingleton:
        Module { () throws -> ServiceBackedType in
          try Dependencies.resolveOrThrow(ServiceBacked.self)
        }
        Module(scope: .singleton) { ServiceBacked(try Dependencies.resolveOrThrow(Service.self)) }
      }
      Module { ServiceBackedConsumer() }
    }
    let failsAtRunTime = backing == .resolving || backing == .throughAUniqueModule
    // A singleton's read fails only until something made it; a `resolve()` stops.
    if ![.throughASingleton, .resolvingWithoutTry, .catchingThenFailing].contains(backing) {
      #expect(
        (resolutionError { try dependencies.resolveOrThrow(ServiceBackedType.self) } != nil)
          == failsAtRunTime)
    }
    var problems: [VerificationError.Problem] = []
    do {
      try dependencies.verify(consumers: ServiceBackedConsumer())
    } catch {
      problems = error.problems
    }
    let problem = VerificationError.Problem.asyncOnly(
      module: "ServiceBackedConsumer", property: "backed", requirement: "ServiceBackedType",
      declaredAt: "ShankTests/VerificationFailureTests.swift:\(serviceBackedConsumerInjectLine)")
    // No run makes these: `resolve()` stops even where `resolveAsync` makes what it asks for,
    // and a factory that fails without the module fails in `resolveAsync` too.
    if backing == .resolvingWithoutTry || backing == .catchingThenFailing {
      expectOneUnresolvable(
        problems, module: "ServiceBackedType",
        messageStart: backing == .resolvingWithoutTry
          ? "Shank cannot resolve Service synchronously"
          : "Shank cannot resolve ServiceBackedType: its factory registered at")
      return
    }
    // The module that injects it, and the consumer.
    let module = VerificationError.Problem.asyncOnly(
      module: "ServiceBackedConsumer", property: "backed", requirement: "ServiceBackedType",
      declaredAt: "ShankTests/VerificationFailureTests.swift:\(serviceBackedConsumerInjectLine)")
    #expect(problems == (failsAtRunTime ? [module, problem] : []))
  }

  /// `graph()` makes such a module once, as it makes every module; `verify()` twice: as a read
  /// would, which fails, then waiting for the async module.
  @Test func onlyVerifyMakesAModuleThatAReadCannotMakeTwice() {
    let made = Counter()
    let dependencies = Dependencies {
      Module { () async -> Service in ServiceImpl() }
      Module { () throws -> ServiceBackedType in
        made.increment()
        return ServiceBacked(try Dependencies.resolveOrThrow(Service.self))
      }
    }
    _ = dependencies.graph()
    #expect(made.value == 1)
    #expect(throws: Never.self) { try dependencies.verify() }
    #expect(made.value == 3)
  }

  /// No problem where the collection never runs the async factory: `[String: P]` makes only
  /// the last contribution of each name, and `[P]` stops at a list registered whole.
  @Test func aCollectionThatRunsNoUniqueAsyncFactoryIsNoProblem() throws {
    let unnamed = Dependencies {
      Module.contribution { () async -> Service in ServiceImpl() }
      Module.contribution("a") { ServiceImpl() as Service }
    }
    let hidden = Dependencies {
      Module.contribution("a") { () async -> Service in ServiceImpl() }
      Module.contribution("a") { ServiceImpl() as Service }
    }
    try unnamed.verify(consumers: ServiceDictionaryConsumer())
    try hidden.verify(consumers: ServiceDictionaryConsumer())
    let replaced = Dependencies(
      over: Dependencies(
        over: Dependencies { Module.contribution { () async -> Service in ServiceImpl() } }
      ) { Module { [ServiceImpl()] as [Service] } }
    ) { Module.contribution { ServiceImpl() as Service } }
    #expect(replaced.resolve([Service].self).count == 2)
    try replaced.verify(consumers: ServiceListConsumer())
  }

  // MARK: Calls that would stop the program

  @Test func aResetOfAScopeThatKeepsNothingToDropInsideAFactoryIsAProblem() throws {
    let dependencies = Dependencies {
      Module { () -> Service in
        Dependencies.current.reset(.singleton)
        return ServiceImpl()
      }
    }
    try expectOneProblem(
      in: dependencies, module: "Service",
      message:
        "Shank: reset(_:) takes a .cached(name) scope, not .singleton; only cached instances can be dropped"
    )
  }

  /// A container's `resolve()` of a missing key in a factory, and a `resolveAsync` of one in
  /// an async factory.
  @Test(arguments: [false, true])
  func aResolutionOfAMissingKeyInsideAFactoryIsAProblem(inAsyncFactory: Bool) throws {
    let line = #line + 4
    let dependencies = Dependencies {
      if inAsyncFactory {
        Module { () async -> ReportType in
          _ = await Dependencies.resolveAsync(DatabaseType.self)
          return Report()
        }
      } else {
        Module { () -> ReportType in
          _ = Dependencies.current.resolve(DatabaseType.self)
          return Report()
        }
      }
    }
    try expectOneProblem(
      in: dependencies, module: "ReportType",
      message: """
        Shank cannot resolve DatabaseType
          asked for at ShankTests/VerificationFailureTests.swift:\(inAsyncFactory ? line : line + 5)
          while ReportType, registered at ShankTests/VerificationFailureTests.swift:\(inAsyncFactory ? line - 1 : line + 4), was being made
          registered (1):
            ReportType
        """)
  }

  @Test func anInjectReadOfAnInstanceWhoseMakingContainerWasReleasedIsAProblem() throws {
    let (reader, madeAt, released) = Self.readerWhoseContainerWasReleased()
    #expect(released(), "the container that made the reader is gone")
    let dependencies = Dependencies {
      Module { () -> Service in
        _ = reader.app
        return ServiceImpl()
      }
    }
    try expectOneProblem(
      in: dependencies, module: "Service",
      message: """
        Shank cannot resolve HeldAppModuleType: the container that made the instance holding it was released (made at ShankTests/VerificationFailureTests.swift:\(madeAt))
          asked for at ShankTests/VerificationFailureTests.swift:\(orphanedReaderInjectLine)
          keep that container for as long as what it made is in use, or read the property while it is
        """)
  }

  /// Expects `verify()` to find one problem: `module` could not be made, for `message`.
  private func expectOneProblem(
    in dependencies: Dependencies, module: String, message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let error = try #require(throws: VerificationError.self, sourceLocation: sourceLocation) {
      try dependencies.verify()
    }
    #expect(
      error.problems == [.unresolvable(module: module, message: message)],
      sourceLocation: sourceLocation)
  }

  /// A reader made by a container that nothing holds any more, the line that made that
  /// container, and whether it is gone.
  private static func readerWhoseContainerWasReleased() -> (OrphanedReader, Int, () -> Bool) {
    let container = Dependencies { Module { OrphanedReader() } }
    let line = #line - 1
    weak let gone = container
    return (container.resolve(OrphanedReader.self), line, { gone == nil })
  }

  /// An instance of the private copy whose deinit fails as the copy is freed, after every
  /// module has its outcome, is still reported, and `verify()` returns.
  @Test func aFailureInADeinitAfterTheLastModuleIsReportedAndVerifyReturns() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 60)
      let dependencies = Dependencies {
        Module { LeafModule() }
        Module(scope: .singleton) { ResolvesUnregisteredWhenFreed() }
      }
      let error = verificationError { try dependencies.verify() }
      precondition(error?.description.contains("UnregisteredWhenFreed") == true)
    }
  }

  /// A patience as long as a `Duration` of nanoseconds can say is waited for, not a trap.
  @Test func aPatienceOfIntMaxNanosecondsIsWaitedFor() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 60)
      let dependencies = Dependencies { Module { LeafModule() } }
      try Dependencies.$verificationPatience.withValue(.nanoseconds(Int.max)) {
        try dependencies.verify()
      }
    }
  }

  /// A thread parked for good on a factory that failed keeps its private copy, never the
  /// container verified, which is freed once nothing else holds it.
  @Test func aThreadParkedOnAFailureKeepsNothingOfTheContainerVerified() {
    weak var verified: Dependencies?
    do {
      let container = Dependencies {
        Module { () -> Service in
          _ = Dependencies.resolve(UnregisteredWhenFreed.self)
          return ServiceImpl()
        }
      }
      verified = container
      #expect(throws: VerificationError.self) { try container.verify() }
    }
    #expect(verified == nil)
  }
}

/// Registered nowhere, so resolving it always fails.
protocol UnregisteredWhenFreed {}

/// A kept instance whose deinit resolves what is registered nowhere.
final class ResolvesUnregisteredWhenFreed {
  deinit { _ = Dependencies.resolve(UnregisteredWhenFreed.self) }
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
let checkoutInjectLine = #line - 4  // the `@Inject("checkout")` line

/// An instance whose `@Inject` property is read after its making container is gone.
final class OrphanedReader {
  @Inject var app: HeldAppModuleType
}
let orphanedReaderInjectLine = #line - 2

/// A check that code runs on the main actor, made by the runtime or by Dispatch, not by Shank.
enum MainActorAssertion: Codable {
  case assumeIsolated
  case preconditionIsolated
  case onMainQueue

  /// Stops the program unless it runs on the main actor.
  func check() {
    switch self {
    case .assumeIsolated: MainActor.assumeIsolated {}
    case .preconditionIsolated: MainActor.preconditionIsolated()
    case .onMainQueue: dispatchPrecondition(condition: .onQueue(.main))
    }
  }
}

/// Which container a resolution read.
struct ContainerLabel {
  let label: String

  init(_ label: String) { self.label = label }
}

/// An object that outlives any one container, such as an app-wide session, that injects a
/// module.
final class LongLivedSession {
  @Inject var service: Service
}

/// The problems `verify()` reports on a thread of its own, given `patience` for each factory:
/// nil when it does not return within 30 seconds.
func verificationProblemsOnAThread(
  _ dependencies: Dependencies, patience: Duration
) async -> [String]? {
  let outcome = Collector<[String]>()
  let finished = await onThreads(1, timeout: 30) { _ in
    let error = verificationError {
      try Dependencies.$verificationPatience.withValue(patience) { try dependencies.verify() }
    }
    outcome.append(error?.problems.map(\.description) ?? [])
  }
  return finished ? outcome.all.first : nil
}

/// What `verify()` says on a thread of its own, followed by what `probe` finds there once it
/// returns: nil when it does not return within 30 seconds.
func verifyOnAThread(
  _ dependencies: Dependencies, then probe: @escaping @Sendable () -> String
) async -> [String]? {
  let outcome = Collector<String>()
  let finished = await onThreads(1, timeout: 30) { _ in
    do throws(VerificationError) {
      try dependencies.verify()
      outcome.append("verified")
    } catch {
      outcome.append("\(error.problems.count) problem")
    }
    outcome.append(probe())
  }
  return finished ? outcome.all : nil
}

/// How many threads this process has, where the system says (Linux); `nil` elsewhere.
func threadCount() -> Int? {
  try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
}

/// A consumer, as a view controller is, that injects one `Service`.
final class ServiceConsumer {
  @Inject var service: Service
}
let serviceConsumerInjectLine = #line - 2

/// How a module's factory reaches a `.unique` async `Service`.
enum ServiceBacking: CaseIterable, Sendable {
  case resolving, resolvingWithoutTry, throughAUniqueModule, catching, catchingThenFailing
  case throughASingleton
}

protocol ServiceBackedType {}

/// A module made with a `Service`, if its factory got one.
final class ServiceBacked: ServiceBackedType {
  let service: Service?

  init(_ service: Service?) {
    self.service = service
  }
}

/// A consumer of the module made with a `Service`.
final class ServiceBackedConsumer {
  @Inject var backed: ServiceBackedType
}
let serviceBackedConsumerInjectLine = #line - 2

/// A consumer of every contribution to `Service`.
final class ServiceListConsumer {
  @Inject var services: [Service]
}
let serviceListConsumerInjectLine = #line - 2

/// A consumer of the named contributions to `Service`.
final class ServiceDictionaryConsumer {
  @Inject var services: [String: Service]
}

/// Resolves what nothing registers as it is freed, or resets a scope that is not cached; needs
/// what nothing registers, and a text, which its module's edge is drawn to.
final class StoppingWhenFreed: @unchecked Sendable {
  static let appLine = #line + 1
  @Inject var app: ShopAppModuleType
  @Inject var text: TextType
  let resetting: Bool
  init(resetting: Bool) { self.resetting = resetting }

  deinit {
    if resetting {
      Dependencies.current.reset(.singleton)
    } else {
      _ = Dependencies.resolve(NeverRegistered.self)
    }
  }
}

/// A singleton that needs a `StoppingWhenFreed`.
final class StoppingHolder {
  @Inject var stopping: StoppingWhenFreed
}
