import Dispatch
import Foundation
import Shank
import Testing

/// Stress: many tasks and raw threads resolving and reading `@Inject` at once. CI runs every
/// suite whose name contains "Concurrency" under ThreadSanitizer.
@Suite struct ConcurrencyTests {
  /// `Dependencies`, `Module` and `Scope` are `Sendable`, and an `Inject` property is when its
  /// type is: this stops compiling if one is not.
  @Test func theValuesAppsShareAcrossTasksAreSendable() {
    func requireSendable<T: Sendable>(_: T.Type) -> Bool { true }
    #expect(requireSendable(Dependencies.self))
    #expect(requireSendable(Module.self))
    #expect(requireSendable(Scope.self))
    #expect(requireSendable(Inject<Int>.self))
    #expect(requireSendable(Inject<String?>.self))
  }

  // MARK: Singletons

  @Test func singletonIsMadeOnceUnderContentionFromATaskGroup() async {
    let made = Counter()
    let asking = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton) { () -> Service in
        made.increment()
        // Hold the first maker until another task is asking too, so first resolutions overlap
        // even on a two-thread cooperative pool.
        holdUntil(atMost: 2) { asking.value >= 2 }
        usleep(2_000)
        return ServiceImpl()
      }
    }
    let serials = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<400 {
        group.addTask {
          asking.increment()
          return dependencies.resolve(Service.self).serial
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(serials.count == 400)
    #expect(Set(serials).count == 1)
    #expect(made.value == 1)
  }

  @Test func singletonIsMadeOnceUnderContentionFromRawThreads() async {
    let threads = 200
    let containers = 20
    let made = (0..<containers).map { _ in Counter() }
    let asking = (0..<containers).map { _ in Counter() }
    let dependencies = (0..<containers).map { index in
      Dependencies {
        Module(scope: .singleton) { () -> Service in
          made[index].increment()
          // Hold the first maker until every thread is asking for this container.
          holdUntil(atMost: 2) { asking[index].value == threads }
          return ServiceImpl()
        }
      }
    }
    let seen = (0..<containers).map { _ in Collector<Int>() }
    let finished = await onThreads(threads) { _ in
      for index in 0..<containers {
        asking[index].increment()
        seen[index].append(dependencies[index].resolve(Service.self).serial)
      }
    }
    #expect(finished)
    for index in 0..<containers {
      #expect(
        made[index].value == 1, "container \(index) made its singleton \(made[index].value) times")
      #expect(seen[index].all.count == threads)
      #expect(Set(seen[index].all).count == 1)
    }
  }

  @Test func singletonAliasIsMadeOnceUnderContention() async {
    let made = Counter()
    let asking = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton, as: Service.self, OtherService.self) { () -> ServiceAndOther in
        made.increment()
        holdUntil(atMost: 2) { asking.value == 100 }
        return ServiceAndOther()
      }
    }
    let seen = Collector<Int>()
    let finished = await onThreads(100) { index in
      asking.increment()
      if index.isMultiple(of: 2) {
        seen.append(dependencies.resolve(Service.self).serial)
      } else {
        seen.append(dependencies.resolve(OtherService.self).serial)
      }
    }
    #expect(finished)
    #expect(made.value == 1)
    #expect(Set(seen.all).count == 1)
  }

  // MARK: Other scopes

  @Test func uniqueMakesOneInstancePerResolutionUnderContention() async {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made)
    }
    let seen = Collector<Int>()
    let finished = await onThreads(100) { _ in
      for _ in 0..<10 { seen.append(dependencies.resolve(Service.self).serial) }
    }
    #expect(finished)
    #expect(made.value == 1_000)
    #expect(Set(seen.all).count == 1_000)
  }

  @Test func oneModuleInContainersBuiltAndResolvedAtOnceStaysPerContainer() async {
    // Threads build containers from the same module values while others resolve: a unique
    // module's provider is shared by every container, a singleton's is copied for each.
    let made = Counter()
    let modules = [
      Module { ServiceImpl() as Service },
      countedService(by: made, "shared", scope: .singleton),
    ]
    let containers = Collector<Dependencies>()
    let finished = await onThreads(8) { _ in
      for _ in 0..<50 {
        let dependencies = Dependencies { modules }
        containers.append(dependencies)
        let shared = dependencies.resolve(Service.self, name: "shared")
        #expect(dependencies.resolve(Service.self, name: "shared") === shared)
        #expect(dependencies.resolve(Service.self) !== dependencies.resolve(Service.self))
      }
    }
    #expect(finished)
    #expect(containers.all.count == 400)
    #expect(made.value == 400)
  }

  @Test func weakIsMadeOnceWhileEveryoneHoldsIt() async {
    let made = Counter()
    let asking = Counter()
    let dependencies = Dependencies {
      Module(scope: .weak) { () -> Service in
        made.increment()
        holdUntil(atMost: 2) { asking.value == 100 }
        return ServiceImpl()
      }
    }
    let held = Collector<Service>()
    let finished = await onThreads(100) { _ in
      asking.increment()
      held.append(dependencies.resolve(Service.self))
    }
    #expect(finished)
    #expect(made.value == 1)
    #expect(Set(held.all.map(\.serial)).count == 1)
  }

  // MARK: @Inject

  @Test func injectFirstReadFromManyTasksGivesEveryoneOneInstance() async {
    let tasks = 8
    let objects = (0..<20).map { _ in SharedConsumer() }
    let asking = (0..<objects.count).map { _ in Counter() }
    let made = Counter()
    let gaveUp = Counter()
    let mismatches = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<tasks {
        group.addTask {
          // Each task layers its own `.unique` factory, which holds its first read of an
          // object until another task reads that object too: first reads overlap, and only
          // `@Inject`'s cell can make them agree. Once a hold found no other task, as when
          // other tests hold the pool's other threads, none holds again: each would spin
          // through every object in turn, on the one thread the pool had left.
          let cursor = ReadCursor()
          return Dependencies.withOverrides {
            Module { () -> Service in
              made.increment()
              let overlapped = holdUntil(atMost: 0.2) {
                asking[cursor.index].value >= 2 || gaveUp.value > 0
              }
              if !overlapped { gaveUp.increment() }
              return ServiceImpl()
            }
          } operation: {
            objects.indices.map { index in
              cursor.index = index
              asking[index].increment()
              return objects[index].service.serial
            }
          }
        }
      }
      var first: [Int]?
      var mismatches = 0
      for await serials in group {
        if let first {
          mismatches += zip(first, serials).filter { $0 != $1 }.count
        } else {
          first = serials
        }
      }
      return mismatches
    }
    #expect(mismatches == 0)
    #expect(made.value >= objects.count)
    for object in objects {
      #expect(object.service === object.service)
    }
  }

  @Test func injectFirstReadFromRawThreadsGivesEveryoneOneInstance() async {
    let threads = 100
    let objects = (0..<20).map { _ in SharedConsumer() }
    let asking = (0..<objects.count).map { _ in Counter() }
    let seen = (0..<objects.count).map { _ in Collector<Int>() }
    // Threads started by hand inherit no overrides: each layers its own over the root, with a
    // `.unique` factory that holds a first read until every thread reads that object. The
    // reads overlap, and only `@Inject`'s cell can make them agree.
    let finished = await onThreads(threads) { _ in
      let cursor = ReadCursor()
      Dependencies.withOverrides {
        Module { () -> Service in
          holdUntil(atMost: 2) { asking[cursor.index].value == threads }
          return ServiceImpl()
        }
      } operation: {
        for (index, object) in objects.enumerated() {
          cursor.index = index
          asking[index].increment()
          seen[index].append(object.service.serial)
        }
      }
    }
    #expect(finished)
    for (index, object) in objects.enumerated() {
      #expect(seen[index].all.count == threads)
      #expect(Set(seen[index].all) == [object.service.serial])
    }
  }

  @Test func injectFirstReadFromRawThreadsSharesASingleton() async {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made, scope: .singleton)
    }
    let objects = (0..<20).map { _ in SharedConsumer() }
    let seen = Collector<Int>()
    let finished = await onThreads(100) { _ in
      Dependencies.withOverrides {
        Module { dependencies.resolve(Service.self) }
      } operation: {
        for object in objects { seen.append(object.service.serial) }
      }
    }
    #expect(finished)
    #expect(made.value == 1)
    #expect(Set(seen.all).count == 1)
  }

  @Test func fiftyThreadsReadingFirstShareOneValueFreedOnce() async {
    let made = Counter()
    let freed = Counter()
    let container = Dependencies {
      Module { () -> CountedGreeter in
        usleep(200)  // so that several threads resolve, and all but one value are dropped
        return CountedGreeter("t", made: made, freed: freed)
      }
      Module { MixedLayoutValue(seed: 5) }
      Module { SIMD4<Double>(3, 3, 3, 3) }
      Module { CountedGreeterHolder() }
    }
    for _ in 0..<10 {
      var holder: CountedGreeterHolder? = container.resolve(CountedGreeterHolder.self)
      let shared = holder!
      let seen = Collector<ObjectIdentifier>()
      let wrong = Counter()
      let finished = await onThreads(50) { _ in
        seen.append(ObjectIdentifier(shared.tracked))
        if shared.large != MixedLayoutValue(seed: 5) { wrong.increment() }
        if shared.simd != SIMD4<Double>(3, 3, 3, 3) { wrong.increment() }
      }
      #expect(finished)
      #expect(Set(seen.all).count == 1)
      #expect(wrong.value == 0)
      holder = nil
    }
    #expect(made.value > 10, "threads raced at the first read")
    // The last round's threads may still hold their closure, and so the holder, for a moment.
    await eventually { freed.value >= made.value }
    #expect(freed.value == made.value, "every instance made, kept or lost, is freed once")
  }

  @Test func manyThreadsReadingFirstAtOnceShareOneValueAndReleaseEveryOne() async throws {
    for _ in 0..<20 {
      let made = Counter()
      let deinits = Counter()
      let container = Dependencies {
        Module { () -> CountedObject in
          made.increment()
          return CountedObject(deinits: deinits)
        }
        Module { PaddedVector(tag: 1, vector: SIMD4(1, 2, 3, 4), tail: 2) }
        // The holder is made by the container, so its @Inject resolves from it on any thread.
        Module { SendableHolder() }
      }
      do {
        let shared = container.resolve(SendableHolder.self)
        let seen = Collector<ObjectIdentifier>()
        let finished = await onThreads(8) { _ in
          for _ in 0..<20 { seen.append(ObjectIdentifier(shared.object)) }
        }
        try #require(finished)
        #expect(Set(seen.all).count == 1)
        #expect(made.value >= 1 && made.value <= 8)
        #expect(deinits.value == made.value - 1, "each loser's instance released, the kept one not")
      }
      // The threads' closure, which holds the holder, may outlive them for a moment.
      await eventually { deinits.value == made.value }
      #expect(deinits.value == made.value, "the kept instance released with the cell")
    }
  }

  @Test func manyThreadsReadingAnOverAlignedValueFirstAtOnce() async throws {
    for round in 0..<20 {
      let container = Dependencies {
        Module { CountedObject(deinits: Counter()) }
        Module { PaddedVector(tag: 1, vector: SIMD4(1, 2, 3, Double(round)), tail: 2) }
        Module { SendableHolder() }
      }
      let holder = container.resolve(SendableHolder.self)
      let wrong = Counter()
      let finished = await onThreads(8) { _ in
        for _ in 0..<50
        where holder.padded != PaddedVector(tag: 1, vector: SIMD4(1, 2, 3, Double(round)), tail: 2)
        {
          wrong.increment()
        }
      }
      try #require(finished)
      #expect(wrong.value == 0)
    }
  }

  // MARK: Cycles across threads

  @Test func crossThreadSingletonCycleIsReportedInsteadOfDeadlocking() async throws {
    let xStarted = DispatchSemaphore(value: 0)
    let yStarted = DispatchSemaphore(value: 0)
    let errors = Collector<ResolutionError>()
    let box = ContainerBox()
    box.dependencies = Dependencies {
      Module(scope: .singleton) { () -> ThreadX in
        xStarted.signal()
        yStarted.wait()
        do throws(ResolutionError) {
          return ThreadXImpl(try box.dependencies!.resolveOrThrow(ThreadY.self))
        } catch {
          errors.append(error)
          return ThreadXImpl(nil)
        }
      }
      Module(scope: .singleton) { () -> ThreadY in
        yStarted.signal()
        do throws(ResolutionError) {
          return ThreadYImpl(try box.dependencies!.resolveOrThrow(ThreadX.self))
        } catch {
          errors.append(error)
          return ThreadYImpl(nil)
        }
      }
    }
    let dependencies = box.dependencies!
    let finished = await onThreads(2) { index in
      if index == 0 {
        _ = dependencies.resolve(ThreadX.self)
      } else {
        xStarted.wait()
        _ = dependencies.resolve(ThreadY.self)
      }
    }
    // On a deadlock both creation locks stay held for good: stop before touching them again.
    try #require(finished, "the two threads deadlocked")
    #expect(errors.all.count == 1)
    let paths = errors.all.map(\.reason)
    #expect(
      paths == [.cycle(path: ["ThreadY", "ThreadX", "ThreadY"])]
        || paths == [.cycle(path: ["ThreadX", "ThreadY", "ThreadX"])])
    // Both singletons were made, once, and are shared from now on.
    #expect(dependencies.resolve(ThreadX.self) === dependencies.resolve(ThreadX.self))
    #expect(dependencies.resolve(ThreadY.self) === dependencies.resolve(ThreadY.self))
  }
}

/// The process-global root swapped by `build()` while others resolve and read `@Inject`.
///
/// It is the only in-process test that calls `build()`. It asserts only what holds whatever
/// root another test builds meanwhile, and puts the previous root back when nobody else built.
@Suite(.serialized) struct ConcurrencyRootTests {
  @Test func buildingRootsWhileResolvingIsRaceFree() async {
    let previous = Dependencies.current
    let built = Collector<ObjectIdentifier>()
    let objects = (0..<40).map { _ in RootConsumer() }

    let (resolvedWrong, injectedDisagreements) = await withTaskGroup(
      of: (wrong: Int, injected: [ObjectIdentifier?]?).self
    ) { group in
      for _ in 0..<2 {
        group.addTask {
          for _ in 0..<100 {
            let dependencies = Dependencies {
              Module(scope: .singleton) { RootServiceImpl() as RootService }
            }
            built.append(ObjectIdentifier(dependencies))
            dependencies.build()
          }
          return (0, nil)
        }
      }
      for _ in 0..<6 {
        group.addTask {
          var wrong = 0
          for _ in 0..<200 {
            // Optional: another test's root may hold no `RootService`.
            if let service = Dependencies.resolve(RootService?.self), service.marker != "root" {
              wrong += 1
            }
          }
          return (wrong, objects.map { $0.service.map(ObjectIdentifier.init) })
        }
      }
      var wrong = 0
      var injected: [[ObjectIdentifier?]] = []
      for await result in group {
        wrong += result.wrong
        if let values = result.injected { injected.append(values) }
      }
      // Every reader of one object must have seen the one value it published.
      let disagreements = injected.dropFirst().reduce(0) { count, values in
        count + zip(injected[0], values).filter { $0 != $1 }.count
      }
      return (wrong, disagreements)
    }

    #expect(resolvedWrong == 0)
    #expect(injectedDisagreements == 0)
    #expect(built.all.count == 200)
    if built.all.contains(ObjectIdentifier(Dependencies.current)) {
      previous.build()
    }
  }

  // MARK: Global actors

  /// A module registered from nonisolated code, whose factory reads a main-actor module, is
  /// made where `resolveAsync` is called, as a synchronous resolution there makes it: from the
  /// main actor, it resolves. The main-actor module may be async, made first. `start()` makes
  /// an eager one on a task of its own, where it fails, as its documentation says.
  @MainActor @Test(arguments: [false, true])
  func aNonisolatedModuleReadingAMainActorOneIsMadeWhereResolveAsyncIsCalled(asyncPart: Bool)
    async throws
  {
    let container = Dependencies {
      if asyncPart {
        Module(scope: .singleton) { () async -> MainActorPart in MainActorPart() }
      } else {
        Module(scope: .singleton) { MainActorPart() }
      }
      partReaderModule(eager: true)
    }
    let error = await #expect(throws: ResolutionError.self) { try await container.start() }
    #expect(
      error?.description.hasPrefix("Shank cannot resolve MainActorPart off the main actor") == true)
    let reader = try await container.resolveAsyncOrThrow(PartReaderType.self)
    #expect(reader.part === container.resolve(MainActorPart.self))
  }

  /// A main-actor instance that a container already keeps is never handed to another thread,
  /// whichever way it is asked for there: the resolution is refused as the first one would be.
  @Test(arguments: KeptMainActorPath.allCases)
  func aKeptMainActorInstanceIsRefusedOffTheMainActor(path: KeptMainActorPath) async {
    let container = await path.container()
    await MainActor.run { path.resolve(from: container) }
    let reason = await offTheMainActor { () throws(ResolutionError) in
      try path.resolveOrThrow(from: container)
    }
    #expect(
      reason == .wrongIsolation(actor: "MainActor", registeredAt: path.registeredAt),
      "\(path)")
  }

  /// A factory registered from a global actor of one's own runs only there: `resolveAsync`
  /// from nonisolated code hops to it. Made anywhere else, the module's initializer would stop
  /// the run with the runtime's check.
  @Test func resolveAsyncMakesAModuleOnTheGlobalActorItWasRegisteredFrom() async {
    let container = await actorBoundModules()
    let module = await container.resolveAsync(ActorBoundModuleType.self)
    #expect(module.name == "bound")
  }

  /// `verify()` makes modules on a thread of its own, which is never on the app's actors: it
  /// reports such a module as unresolvable, even when called on that actor.
  @Test func verifyOnTheGlobalActorAModuleWasRegisteredFromReportsItAsUnresolvable() async {
    let container = await actorBoundModules()
    let problems = await { @BindingActor in
      #expect(throws: VerificationError.self) { try container.verify() }.map(\.problems) ?? []
    }()
    expectOneUnresolvable(
      problems, module: "ActorBoundModuleType",
      messageStart: "Shank cannot resolve ActorBoundModuleType off BindingActor")
  }

  /// The same for a module bound to an actor instance: `verify()` called on that instance
  /// reports it.
  @Test func verifyOnTheActorInstanceAModuleWasRegisteredFromReportsItAsUnresolvable() async {
    let owner = ModuleOwningActor()
    let container = await owner.container()
    let problems = await owner.verificationProblems(of: container)
    expectOneUnresolvable(
      problems, module: "GreeterType",
      messageStart: "Shank cannot resolve GreeterType off ModuleOwningActor")
  }

  /// Resolved synchronously off that actor, it is refused before its factory runs, with
  /// Shank's message: `resolveOrThrow` throws it, and `resolve()` stops with it.
  @Test func aSynchronousResolutionOffTheGlobalActorAModuleWasRegisteredFromIsRefused()
    async throws
  {
    let container = await actorBoundModules()
    let error = try #require(
      resolutionError { try container.resolveOrThrow(ActorBoundModuleType.self, line: 2) })
    let message = """
      Shank cannot resolve ActorBoundModuleType off BindingActor
        asked for at ShankTests/ConcurrencyTests.swift:2
        it was registered at ShankTests/ConcurrencyTests.swift:1 from code isolated to \
      BindingActor, so its factory runs only there
        resolve it on BindingActor, or, if it is Sendable, from async code with \
      Dependencies.resolveAsync(ActorBoundModuleType.self)
        it is bound to the very actor whose code registered it, not to any other BindingActor \
      instance; a Task { } started there runs off it unless it inherits that actor
      """
    #expect(error.description == message)
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      exitIfStillRunning(after: 20)
      _ = await actorBoundModules().resolve(ActorBoundModuleType.self, line: 2)
    }
    #expect(
      standardError(of: result).contains(
        "ShankTests/ConcurrencyTests.swift:2: Fatal error: \(message)\n"))
  }

  /// A module registered from an actor instance, not a global actor, is bound to that
  /// instance: resolved synchronously on it, it is made; off it, it is refused.
  @Test func aModuleRegisteredFromAnActorInstanceResolvesOnlyOnThatInstance() async throws {
    let owner = ModuleOwningActor()
    let container = await owner.container()
    #expect(await owner.greeting(from: container) == "bound")
    let error = try #require(
      resolutionError { try container.resolveOrThrow(GreeterType.self, line: 2) })
    #expect(
      error.description == """
        Shank cannot resolve GreeterType off ModuleOwningActor
          asked for at ShankTests/ConcurrencyTests.swift:2
          it was registered at ShankTests/ConcurrencyTests.swift:1 from code isolated to \
        ModuleOwningActor, so its factory runs only there
          resolve it on ModuleOwningActor, or, if it is Sendable, from async code with \
        Dependencies.resolveAsync(GreeterType.self)
          it is bound to the very actor whose code registered it, not to any other \
        ModuleOwningActor instance; a Task { } started there runs off it unless it inherits that \
        actor
        """)
    // `resolveAsync`, which the refusal points to for a `Sendable` module, hops to the
    // instance; from another instance of the actor's type too.
    let sendable = await owner.sendableContainer()
    #expect(resolutionError { try sendable.resolveOrThrow(String.self) } != nil)
    #expect(await sendable.resolveAsync(String.self) == "bound")
    #expect(await ModuleOwningActor().valueResolvedAsync(from: sendable) == "bound")
    // Another instance of the same actor type is another actor.
    #expect(await ModuleOwningActor().failure(from: container) != nil)
    // The closure of a `Dependencies { }` block in its method is not isolated to it.
    let listed = await owner.containerListingTheModuleInTheBlock()
    #expect(listed.resolve(GreeterType.self).greeting == "listed")
  }

  /// An actor of one's own named `MainActor` is not the main actor: its refusal names it in
  /// full, and says that a module is bound to the very instance that registered it.
  @Test func anActorOfOnesOwnNamedMainActorIsNamedInFull() async throws {
    let container = await OwnActors.MainActor().container()
    let error = try #require(
      resolutionError { try container.resolveOrThrow(GreeterType.self, line: 2) })
    #expect(
      error.description == """
        Shank cannot resolve GreeterType off ShankTests.OwnActors.MainActor
          asked for at ShankTests/ConcurrencyTests.swift:2
          it was registered at ShankTests/ConcurrencyTests.swift:1 from code isolated to \
        ShankTests.OwnActors.MainActor, so its factory runs only there
          resolve it on ShankTests.OwnActors.MainActor, or, if it is Sendable, from async code \
        with Dependencies.resolveAsync(GreeterType.self)
          it is bound to the very actor whose code registered it, not to any other \
        ShankTests.OwnActors.MainActor instance; a Task { } started there runs off it unless it \
        inherits that actor
        """)
  }

  /// `start()` says an actor-bound module was made on its actor, named by its type; an actor
  /// of one's own named `MainActor` in full, as a refusal names it.
  @Test func startReportsAnActorBoundModuleAsMadeOnItsActor() async throws {
    let owned = try await ModuleOwningActor().eagerContainer().start()
    let named = try await OwnActors.MainActor().eagerContainer().start()
    #expect(owned.entries.map(\.ranOn) == ["ModuleOwningActor"])
    #expect(named.entries.map(\.ranOn) == ["ShankTests.OwnActors.MainActor"])
  }

  /// An actor that runs on the main actor's executor is the main actor for a module bound to
  /// it: the module is made there, on the main actor too, and refused off it with Shank's error.
  @Test func aModuleBoundToAnActorOnTheMainActorsExecutorResolvesOnlyThere() async throws {
    let owner = MainExecutorActor()
    let container = await owner.container()
    #expect(await owner.greeting(from: container) == "bound")
    #expect(await MainActor.run { container.resolve(GreeterType.self).greeting } == "bound")
    let reason = await offTheMainActor { () throws(ResolutionError) in
      _ = try container.resolveOrThrow(GreeterType.self)
    }
    #expect(
      reason
        == .wrongIsolation(
          actor: "MainExecutorActor", registeredAt: "ShankTests/ConcurrencyTests.swift:1"))
  }

  /// A container keeps the actor instance its module is bound to, and only as long as it lives.
  @Test func aContainerKeepsTheActorInstanceItsModuleIsBoundTo() async {
    weak var released: ModuleOwningActor?
    var container: Dependencies? = nil
    do {
      let owner = ModuleOwningActor()
      released = owner
      container = await owner.container()
    }
    #expect(released != nil && container != nil)
    container = nil
    #expect(released == nil)
  }

  /// On an actor with an executor of its own, the runtime's check decides, since only it asks
  /// the executor: resolved there, the module is made; off it, the check stops the program.
  @Test func aModuleBoundToAnActorWithAnExecutorOfItsOwnResolvesOnlyThere() async {
    let owner = QueueBoundActor()
    let container = await owner.container()
    #expect(await owner.greeting(from: container) == "bound")
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      exitIfStillRunning(after: 20)
      _ = try? await QueueBoundActor().container().resolveOrThrow(GreeterType.self)
    }
    #expect(
      standardError(of: result).contains(
        "Fatal error: Unexpected isolation context, expected to be executing on QueueExecutor\n"))
  }
}

// MARK: - Fixtures

/// An object that several threads read for the first time at once.
final class SharedConsumer: @unchecked Sendable {
  @Inject var service: Service
}

protocol RootService: AnyObject {
  var marker: String { get }
}

final class RootServiceImpl: RootService {
  let marker = "root"
}

final class RootConsumer: @unchecked Sendable {
  @Inject var service: RootService?
}

/// Which object one thread or task is reading; only that thread or task touches it.
final class ReadCursor: @unchecked Sendable {
  var index = 0
}

/// Lets factories reach the container they are registered in.
final class ContainerBox: @unchecked Sendable {
  var dependencies: Dependencies?
}

protocol ThreadX: AnyObject {}
protocol ThreadY: AnyObject {}
final class ThreadXImpl: ThreadX { init(_ y: ThreadY?) {} }
final class ThreadYImpl: ThreadY { init(_ x: ThreadX?) {} }

/// Made by a container, so its properties resolve from that container on any thread.
final class SendableHolder: @unchecked Sendable {
  @Inject var object: CountedObject
  @Inject var padded: PaddedVector
}

/// A global actor of the tests' own, for a module registered from it.
@globalActor actor BindingActor {
  static let shared = BindingActor()
}

protocol ActorBoundModuleType: Sendable {
  var name: String { get }
}

/// A module that only code on `BindingActor` can make, and that checks it is made there.
@BindingActor final class ActorBoundModule: ActorBoundModuleType {
  nonisolated let name = "bound"

  init() {
    BindingActor.shared.preconditionIsolated()
  }
}

/// A part of an app that lives on the main actor.
@MainActor final class MainActorPart: Sendable {}

/// What reads a ``MainActorPart``.
protocol PartReaderType: Sendable {
  var part: MainActorPart { get }
}

struct PartReader: PartReaderType {
  let part: MainActorPart
}

/// A module registered from nonisolated code, whose factory reads a ``MainActorPart``.
nonisolated func partReaderModule(eager: Bool) -> Module {
  Module(scope: .singleton, eager: eager) { () throws -> PartReaderType in
    PartReader(part: try Dependencies.resolveOrThrow())
  }
}

/// Expects `problems` to be one: `module` unresolvable, with a message that starts so.
func expectOneUnresolvable(
  _ problems: [VerificationError.Problem], module: String, messageStart: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case .unresolvable(let unresolvable, let message)? = problems.first, problems.count == 1
  else {
    Issue.record(
      "expected one unresolvable module, got \(problems)", sourceLocation: sourceLocation)
    return
  }
  #expect(unresolvable == module, sourceLocation: sourceLocation)
  #expect(message.hasPrefix(messageStart), "\(message)", sourceLocation: sourceLocation)
}

/// A container whose module is registered from `BindingActor`.
@BindingActor func actorBoundModules() -> Dependencies {
  Dependencies { Module(line: 1) { ActorBoundModule() as ActorBoundModuleType } }
}

/// An actor that composes a container in its own code, so that the module is bound to it.
protocol ModuleBindingActor: Actor {}

extension ModuleBindingActor {
  func container() -> Dependencies {
    // Made here, not in the builder's closure, which is not isolated to this instance.
    let module = Module(line: 1) { Greeter("bound") as GreeterType }
    return Dependencies { module }
  }

  /// A container whose one module, an eager singleton, is registered here.
  func eagerContainer() -> Dependencies {
    let module = Module(scope: .singleton, eager: true) { Greeter("eager") as GreeterType }
    return Dependencies { module }
  }

  /// The greeting of the module resolved synchronously here.
  func greeting(from container: Dependencies) -> String {
    container.resolve(GreeterType.self).greeting
  }

  /// A container whose one module, a `Sendable` value, is registered here.
  func sendableContainer() -> Dependencies {
    let module = Module(line: 1) { () -> String in "bound" }
    return Dependencies { module }
  }

  /// The `String` module resolved with `resolveAsync` from here.
  func valueResolvedAsync(from container: Dependencies) async -> String {
    await container.resolveAsync(String.self)
  }

  /// What `verify()` of `container`, called here, reports.
  func verificationProblems(of container: Dependencies) -> [VerificationError.Problem] {
    #expect(throws: VerificationError.self) { try container.verify() }?.problems ?? []
  }

  /// Why resolving the module synchronously here fails, if it does.
  func failure(from container: Dependencies) -> ResolutionError.Reason? {
    resolutionError { try container.resolveOrThrow(GreeterType.self) }?.reason
  }
}

/// A default actor, bound to one instance.
actor ModuleOwningActor: ModuleBindingActor {
  func containerListingTheModuleInTheBlock() -> Dependencies {
    Dependencies { Module { Greeter("listed") as GreeterType } }
  }
}

/// Actors of one's own with the names of the standard library's, private to this file, which
/// Swift writes with an address of their own.
private enum OwnActors {
  /// A default actor that shares the main actor's name.
  actor MainActor: ModuleBindingActor {}
}

/// An actor that runs on a dispatch queue of its own.
actor QueueBoundActor: ModuleBindingActor {
  private let executor = QueueExecutor(label: "QueueBoundActor")

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }
}

/// An actor that runs on the main actor's executor.
actor MainExecutorActor: ModuleBindingActor {
  nonisolated var unownedExecutor: UnownedSerialExecutor {
    MainActor.sharedUnownedExecutor
  }
}

/// The ways a main-actor instance that a container keeps can be asked for.
enum KeptMainActorPath: CaseIterable, Sendable {
  case plain, asOptional, asItsOtherType, heldWeak, cached, throughAChild, throughADecoratingChild
  case asADictionaryOfContributions

  /// The container that keeps the instance, registered from main-actor code.
  @MainActor func container() -> Dependencies {
    let scope: Scope =
      switch self {
      case .heldWeak: .weak
      case .cached: .cached("kept main-actor part")
      default: .singleton
      }
    let root = Dependencies {
      if self == .asADictionaryOfContributions {
        Module.contribution("part", scope: .singleton, line: 1) { KeptPart() as KeptPartType }
      } else {
        Module(scope: scope, as: KeptPartType.self, OtherKeptPartType.self, line: 1) {
          KeptPart()
        }
      }
    }
    switch self {
    case .throughAChild: return Dependencies(over: root) {}
    case .throughADecoratingChild:
      return Dependencies(over: root) {
        Module.decorating(KeptPartType.self, isolation: nil) { $0 }
      }
    default: return root
    }
  }

  var registeredAt: String { "ShankTests/ConcurrencyTests.swift:1" }

  /// Resolves the instance on the main actor, which keeps it (a `.weak` one while it is held).
  @MainActor func resolve(from container: Dependencies) {
    if self == .asADictionaryOfContributions {
      _ = container.resolve([String: KeptPartType].self)
    } else {
      KeptPart.held = container.resolve(KeptPartType.self)
    }
  }

  func resolveOrThrow(from container: Dependencies) throws(ResolutionError) {
    switch self {
    case .asOptional: _ = try container.resolveOrThrow(KeptPartType?.self)
    case .asItsOtherType: _ = try container.resolveOrThrow(OtherKeptPartType.self)
    case .asADictionaryOfContributions:
      _ = try container.resolveOrThrow([String: KeptPartType].self)
    default: _ = try container.resolveOrThrow(KeptPartType.self)
    }
  }
}

protocol KeptPartType: AnyObject {}
protocol OtherKeptPartType: AnyObject {}

/// A main-actor object a container keeps.
@MainActor final class KeptPart: KeptPartType, OtherKeptPartType {
  /// Holds a `.weak` instance while the test resolves it again.
  static var held: KeptPartType?
}

/// The reason `body` fails, run on the global executor.
@concurrent func offTheMainActor(_ body: @Sendable () throws(ResolutionError) -> Void) async
  -> ResolutionError.Reason?
{
  do {
    try body()
    return nil
  } catch {
    return error.reason
  }
}
