import Dispatch
import Foundation
import Shank
import Testing

/// Modules whose factories are `async`: made by `start()` and `resolveAsync`, then resolved as
/// any other module.
@Suite struct AsyncFactoryTests {
  /// A factory that suspends before it makes its service, as one that connects would.
  static func connectedDatabase(_ made: Counter) async throws -> DatabaseType {
    try await Task.sleep(nanoseconds: 1_000_000)
    made.increment()
    return Database()
  }

  /// Waits until `count` tasks are about to ask, then a while longer for them to join the
  /// attempt in progress; the deadline is a watchdog, not a timing.
  static func untilEveryoneAsks(_ asking: Counter, count: Int) async throws {
    await eventually { asking.value == count }
    try await Task.sleep(nanoseconds: 100_000_000)
  }

  @Test func startMakesAnEagerAsyncModuleAtTheSameTimeAsTheOthers() async throws {
    let arrived = Counter()
    let sawEachOther = Collector<Bool>()
    func meeting(_ name: String) -> Module {
      Module(name, scope: .singleton, eager: true) { () async -> DatabaseType in
        // Each waits for the other to have started: made one after the other, the first would
        // wait out the deadline and see only itself.
        arrived.increment()
        await eventually { arrived.value == 2 }
        sawEachOther.append(arrived.value == 2)
        return Database()
      }
    }
    let container = Dependencies {
      meeting("a")
      meeting("b")
      Module("sync", scope: .singleton, eager: true) { Database() as DatabaseType }
    }
    let report = try await container.start()
    #expect(sawEachOther.all == [true, true])
    #expect(
      Set(report.entries.map(\.key))
        == [#"DatabaseType named "a""#, #"DatabaseType named "b""#, #"DatabaseType named "sync""#])
  }

  @Test func afterStartASynchronousResolutionGivesTheInstanceItMade() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { try await Self.connectedDatabase(made) }
    }
    _ = try await container.start()
    let first = container.resolve(DatabaseType.self)
    #expect(first === container.resolve(DatabaseType.self))
    #expect(first === (try container.resolveOrThrow(DatabaseType.self)))
    #expect(made.value == 1)
  }

  @Test func resolveAsyncFromManyTasksAtOnceMakesASharedOneExactlyOnce() async throws {
    let made = Counter()
    let asking = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        try await Self.untilEveryoneAsks(asking, count: 50)
        made.increment()
        return Database()
      }
    }
    let serials = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<50 {
        group.addTask {
          asking.increment()
          return await container.resolveAsync(DatabaseType.self).serial
        }
      }
      return await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(made.value == 1)
    #expect(serials.count == 1)
    #expect(serials.first == container.resolve(DatabaseType.self).serial)
  }

  @Test func aTaskThatAsksJustAfterAnotherTookTheInstanceDoesNotMakeASecond() async throws {
    let made = Counter()
    let caught = Counter()
    let otherDone = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.increment()
        return Database()
      }
      // The first attempt finds the singleton not made, and holds on to that answer until
      // another task has made the instance and taken it.
      Module { () throws -> StoreType in
        do {
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        } catch {
          caught.increment()
          // As long as `eventually` waits: the other task's attempt runs in the pool, which
          // the whole suite's heaviest tests can hold for half a minute under a sanitizer.
          if caught.value == 1 { #expect(holdUntil(atMost: 120) { otherDone.value == 1 }) }
          throw error
        }
        return Database()
      }
    }
    // On a queue of its own: its factory blocks the thread it runs on, which in the
    // cooperative pool would leave too few threads for the attempt that `other` waits for.
    let first = Task(executorPreference: HoldingExecutor()) {
      await container.resolveAsync(StoreType.self)
    }
    await eventually { caught.value == 1 }
    let other = await container.resolveAsync(DatabaseType.self)
    otherDone.increment()
    _ = await first.value
    #expect(made.value == 1)
    #expect(container.resolve(DatabaseType.self) === other)
  }

  /// A `.unique` module's async factory runs in the asking task, and so sees its cancellation:
  /// `resolveAsyncOrThrow` throws what the factory throws then. A shared module's attempt runs
  /// in a task of its own, which no caller's cancellation reaches, and finishes.
  @Test(arguments: [Scope.unique, .singleton])
  func aCancelledCallerCancelsAUniqueModulesFactoryOnly(scope: Scope) async throws {
    let container = Dependencies {
      Module(scope: scope) { () async throws -> DatabaseType in
        try await Task.sleep(for: .milliseconds(100))
        return Database()
      }
    }
    let task = Task { try await container.resolveAsyncOrThrow(DatabaseType.self) }
    task.cancel()
    let result = await task.result
    if scope == .unique {
      let error = try #require(throws: ResolutionError.self) { try result.get() }
      #expect(error.reason == .factoryFailed(error: "CancellationError()"))
    } else {
      #expect(throws: Never.self) { try result.get() }
    }
  }

  /// `resolveAsync`, which cannot throw, stops the program when a `.unique` module's factory
  /// throws because its caller was cancelled.
  @Test func resolveAsyncStopsWhenAUniqueModulesFactoryThrowsOnItsCallersCancellation() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = Dependencies {
        Module { () async throws -> DatabaseType in
          try await Task.sleep(for: .seconds(60))
          return Database()
        }
      }
      let task = Task { await container.resolveAsync(DatabaseType.self).serial }
      task.cancel()
      _ = await task.value
    }
    #expect(standardError(of: result).contains("threw CancellationError()"))
  }

  @Test func aFailingFactoryFailsEveryoneWaitingAndTheNextCallTriesAgain() async throws {
    let attempts = Counter()
    let asking = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        try await Self.untilEveryoneAsks(asking, count: 10)
        if attempts.increment() == 1 { throw ConnectionRefused() }
        return Database()
      }
    }
    let line = #line + 6
    let outcomes = await withTaskGroup(of: String.self) { group in
      for _ in 0..<10 {
        group.addTask {
          asking.increment()
          do throws(ResolutionError) {
            _ = try await container.resolveAsyncOrThrow(DatabaseType.self)
            return "made"
          } catch {
            return error.description
          }
        }
      }
      return await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(attempts.value == 1)
    #expect(
      outcomes
        == Array(
          repeating: """
            Shank cannot resolve DatabaseType: its factory registered at ShankTests/AsyncFactoryTests.swift:\(line - 12) threw connection refused
              asked for at ShankTests/AsyncFactoryTests.swift:\(line)
            """, count: 10))
    _ = try await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect(attempts.value == 2)
  }

  @Test func anAsyncModuleRegisteredAsSeveralTypesSharesOneInstanceBetweenThem() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton, as: DatabaseType.self, StoreType.self) { () async -> Database in
        made.increment()
        return Database()
      }
    }
    let database = await container.resolveAsync(DatabaseType.self)
    #expect(container.resolve(StoreType.self) === database)
    #expect(await container.resolveAsync(StoreType.self) === database)
    #expect(made.value == 1)
  }

  @Test func aUniqueAsyncModuleRegisteredAsSeveralTypesIsMadeForEachResolution() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(as: DatabaseType.self, StoreType.self) { () async -> Database in
        made.increment()
        return Database()
      }
    }
    let database = await container.resolveAsync(DatabaseType.self)
    let store = await container.resolveAsync(StoreType.self)
    #expect(database !== store)
    #expect(made.value == 2)
  }

  /// What an async factory throws fails its resolution, named by the type asked for: for a
  /// `Module(as:)`, not the first one listed.
  @Test(arguments: [Scope.unique, .singleton], [false, true])
  func anAsyncFactoryThatThrowsFailsItsResolutionWithWhatItThrew(scope: Scope, listing: Bool)
    async
  {
    let container = Dependencies {
      if listing {
        Module(scope: scope, as: DatabaseType.self, StoreType.self) {
          () async throws -> Database in throw ConnectionRefused()
        }
      } else {
        Module(scope: scope) { () async throws -> StoreType in throw ConnectionRefused() }
      }
    }
    let asked = #line + 2
    do throws(ResolutionError) {
      _ = try await container.resolveAsyncOrThrow(StoreType.self)
      Issue.record("resolved a module whose factory threw")
    } catch {
      #expect(
        error.description == """
          Shank cannot resolve StoreType: its factory registered at ShankTests/AsyncFactoryTests.swift:\(asked - (listing ? 9 : 5)) threw connection refused
            asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          """)
    }
  }

  @Test func aSynchronousResolutionBeforeItIsMadeSaysToStartOrResolveAsync() throws {
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
    }
    let registered = #line - 2
    let error = try #require(resolutionError { try container.resolveOrThrow(DatabaseType.self) })
    let asked = #line - 1
    #expect(
      error.reason == .notMadeYet(registeredAt: "ShankTests/AsyncFactoryTests.swift:\(registered)"))
    #expect(
      error.description == """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and nothing has made it in this container yet
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          make it first: register it eager: true and call try await dependencies.start() at launch, or resolve it from async code with await Dependencies.resolveAsync(DatabaseType.self)
        """)
  }

  /// An eager one, which `start()` makes: the advice is to wait for `start()`, not to make it
  /// eager.
  @Test func aSynchronousResolutionOfAnEagerOneBeforeStartSaysToWaitForIt() throws {
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { try await Self.connectedDatabase(Counter()) }
    }
    let registered = #line - 2
    let error = try #require(resolutionError { try container.resolveOrThrow(DatabaseType.self) })
    let asked = #line - 1
    #expect(
      error.description == """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and nothing has made it in this container yet
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          it is eager: resolve it once try await dependencies.start() has returned, or from async code with await Dependencies.resolveAsync(DatabaseType.self)
        """)
  }

  /// How an async factory's miss reaches the caller.
  enum AsyncMaker: CaseIterable, Sendable {
    case resolveAsync, start
  }

  /// A key an async factory asks for and nothing registers is told, as a synchronous
  /// factory's is, with the module being made.
  @Test(arguments: AsyncMaker.allCases)
  func anAsyncFactorysMissNamesTheModuleBeingMade(_ maker: AsyncMaker) async throws {
    let registered = #line + 2
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { () async throws -> DatabaseType in
        _ = try Dependencies.resolveOrThrow(NeverRegistered.self)
        return Database()
      }
    }
    var message = ""
    do {
      switch maker {
      case .resolveAsync: _ = try await container.resolveAsyncOrThrow(DatabaseType.self)
      case .start: _ = try await container.start()
      }
    } catch {
      message = error.description
    }
    let lines = message.split(separator: "\n").map(String.init)
    #expect(
      lines.prefix(3) == [
        "Shank cannot resolve NeverRegistered",
        "  asked for at ShankTests/AsyncFactoryTests.swift:\(registered + 1)",
        "  while DatabaseType, registered at ShankTests/AsyncFactoryTests.swift:\(registered), was being made",
      ])
  }

  /// A synchronous factory that meets an async module not made yet is named, as for a miss.
  @Test func aSynchronousFactoryMeetingAnAsyncModuleNotMadeYetIsNamed() throws {
    let registered = #line + 2
    let container = Dependencies {
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
      Module(scope: .singleton) { () async -> DatabaseType in Database() }
    }
    let error = try #require(resolutionError { try container.resolveOrThrow(ReportType.self) })
    #expect(
      error.description == """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and nothing has made it in this container yet
          asked for at ShankTests/AsyncFactoryTests.swift:\(registered + 1)
          while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(registered), was being made
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered + 4) with an async factory
          make it first: register it eager: true and call try await dependencies.start() at launch, or resolve it from async code with await Dependencies.resolveAsync(DatabaseType.self)
        """)
  }

  /// A factory that `resolveAsync` (or `start()`) runs, reading an async module not made yet
  /// with `resolve()`, stops: the message says to ask with `resolveOrThrow`, whose error the
  /// resolution makes the module for, not to wait for `start()` or make it eager.
  @Test func aPlainResolveInAFactoryResolveAsyncRunsSaysToAskWithResolveOrThrow() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = Dependencies {
        Module(scope: .singleton) { () -> ReportType in
          _ = Dependencies.resolve(DatabaseType.self)
          return Report()
        }
        Module(scope: .singleton) { () async -> DatabaseType in Database() }
      }
      _ = try await container.resolveAsyncOrThrow(ReportType.self)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "  it was asked for while start() or resolveAsync made what asked for it, with resolve() or an @Inject read, which stop here: ask with try Dependencies.resolveOrThrow, and the module is made before that factory runs again"
      ), "\(stderr)")
    #expect(stderr.contains("  while ReportType, registered at"), "\(stderr)")
  }

  /// How an async instance made in a container came not to be kept there.
  enum GoneInstance: CaseIterable, Sendable {
    case released, reset, refusedByADecorator
  }

  /// A `.weak` instance released, a `.cached` one reset, or one a decorator failed on, is not
  /// kept: the message says so, and how to make it again, rather than that nothing made it.
  @Test(arguments: GoneInstance.allCases)
  func aSynchronousResolutionOnceTheInstanceIsGoneSaysToMakeItAgain(gone: GoneInstance) async throws
  {
    let scope: Scope =
      switch gone {
      case .released: .weak
      case .reset: .cached("gone")
      case .refusedByADecorator: .singleton
      }
    let decorations = Counter()
    let registered = #line + 2
    let container = Dependencies {
      Module(scope: scope) { () async -> DatabaseType in Database() }
      Module.decorating(DatabaseType.self) { database throws in
        guard gone == .refusedByADecorator, decorations.increment() == 1 else { return database }
        throw ConnectionRefused()
      }
    }
    var held = try? await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect((held == nil) == (gone == .refusedByADecorator))
    held = nil
    if gone == .reset { await container.reset(scope) }
    let error = try #require(resolutionError { try container.resolveOrThrow(DatabaseType.self) })
    let asked = #line - 1
    #expect(
      error.reason == .notMadeYet(registeredAt: "ShankTests/AsyncFactoryTests.swift:\(registered)"))
    #expect(
      error.description == """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and this container does not keep what it made before
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          make it again from async code with await Dependencies.resolveAsync(DatabaseType.self)
        """)
  }

  /// How an async module not made yet is registered and asked for, for the advice its error
  /// gives.
  enum UnmadeAsyncModule: CaseIterable, Sendable {
    case named, alias, contribution

    var module: Module {
      switch self {
      case .named: Module("primary", scope: .singleton) { () async -> DatabaseType in Database() }
      case .alias:
        Module(scope: .singleton, as: DatabaseType.self, StoreType.self) {
          () async -> Database in Database()
        }
      case .contribution:
        Module.contribution(scope: .singleton) { () async -> DatabaseType in Database() }
      }
    }

    /// The key asked for, and the call the advice names, which makes it.
    var asked: (typeName: String, name: String?, call: String) {
      switch self {
      case .named:
        (
          "DatabaseType", "primary",
          #"Dependencies.resolveAsync(DatabaseType.self, name: "primary")"#
        )
      case .alias: ("StoreType", nil, "Dependencies.resolveAsync(StoreType.self)")
      case .contribution: ("[DatabaseType]", nil, "Dependencies.resolveAsync([DatabaseType].self)")
      }
    }

    func resolve(from container: Dependencies) throws(ResolutionError) {
      switch self {
      case .named: _ = try container.resolveOrThrow(DatabaseType.self, name: "primary")
      case .alias: _ = try container.resolveOrThrow(StoreType.self)
      case .contribution: _ = try container.resolveOrThrow([DatabaseType].self)
      }
    }

    func resolveAsync(from container: Dependencies) async throws(ResolutionError) {
      switch self {
      case .named: _ = try await container.resolveAsyncOrThrow(DatabaseType.self, name: "primary")
      case .alias: _ = try await container.resolveAsyncOrThrow(StoreType.self)
      case .contribution: _ = try await container.resolveAsyncOrThrow([DatabaseType].self)
      }
    }
  }

  /// A named async module, an alias of one or a list of an async contribution, resolved before
  /// it is made, names the key asked for and advises the `resolveAsync` call that makes it,
  /// which works.
  @Test(arguments: UnmadeAsyncModule.allCases)
  func theAdviceForAnAsyncModuleNotMadeYetNamesTheCallThatMakesIt(module: UnmadeAsyncModule)
    async throws
  {
    let container = Dependencies { module.module }
    let error = try #require(resolutionError { try module.resolve(from: container) })
    #expect(error.typeName == module.asked.typeName)
    #expect(error.name == module.asked.name)
    #expect(
      error.description.hasSuffix("or resolve it from async code with await \(module.asked.call)"))
    try await module.resolveAsync(from: container)
    try module.resolve(from: container)
  }

  @Test func aUniqueOneResolvesOnlyAsynchronouslyAndAfreshEachTime() async throws {
    let made = Counter()
    let container = Dependencies {
      Module { try await Self.connectedDatabase(made) }
    }
    let first = await container.resolveAsync(DatabaseType.self)
    let second = await container.resolveAsync(DatabaseType.self)
    #expect(first !== second)
    #expect(made.value == 2)
    let error = resolutionError { try container.resolveOrThrow(DatabaseType.self) }
    #expect(
      error?.reason == .notMadeYet(registeredAt: "ShankTests/AsyncFactoryTests.swift:\(#line - 7)"))
  }

  /// A `.unique` one, eager or not, is never kept, so `start()` does not help it: the message
  /// says so and advises `resolveAsync` or a scope that keeps it, after `start()` too.
  @Test(arguments: [false, true])
  func aUniqueOneResolvedSynchronouslyIsToldNoContainerKeepsIt(eager: Bool) async throws {
    let container = Dependencies {
      Module(eager: eager) { try await Self.connectedDatabase(Counter()) }
    }
    let registered = #line - 2
    _ = try await container.start()
    let error = try #require(resolutionError { try container.resolveOrThrow(DatabaseType.self) })
    let asked = #line - 1
    #expect(
      error.description == """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and it is .unique, so no container keeps what it makes
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          resolve it from async code with await Dependencies.resolveAsync(DatabaseType.self), or register it .singleton or .cached with eager: true and call try await dependencies.start() at launch
        """)
  }

  @Test func aSyncModuleWhoseFactoryResolvesAnAsyncOneGetsItMadeFirst() async throws {
    let made = Counter()
    let container = Dependencies {
      Module { try await Self.connectedDatabase(made) }
      Module(scope: .singleton) { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    _ = await container.resolveAsync(ReportType.self)
    #expect(made.value == 1)
  }

  /// The synchronous resolution runs again once the async module is made: the factory that
  /// asked for it runs again, and so do the unique modules it resolved before it asked.
  @Test func aSyncFactoryThatMeetsAnAsyncModuleNotMadeYetRunsAgainOnceItIsMade() async throws {
    let (reports, parts) = (Counter(), Counter())
    let container = Dependencies {
      Module { try await Self.connectedDatabase(Counter()) }
      Module { () -> ServiceImpl in
        parts.increment()
        return ServiceImpl()
      }
      Module(scope: .singleton) { () throws -> ReportType in
        reports.increment()
        _ = try Dependencies.resolveOrThrow(ServiceImpl.self)
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    _ = try await container.resolveAsyncOrThrow(ReportType.self)
    #expect(reports.value == 2)
    #expect(parts.value == 2)
  }

  /// A shared module whose decorator meets an async module not made yet is made once: the
  /// resolution that runs again once the module is made finishes its decoration from that
  /// decorator, and the decorators before it ran once.
  @Test(arguments: [Scope.singleton, .cached("session")])
  func aSharedModuleWhoseDecoratorMeetsAnAsyncModuleNotMadeYetIsMadeOnce(scope: Scope)
    async throws
  {
    let module = UnfinishedDecoration(scope: scope, both: true)
    _ = try await module.container.start()
    let service = try module.container.resolveOrThrow(Gateway.self)
    #expect(try module.container.resolveOrThrow(Gateway.self) === service)
    #expect(module.made.value == 1)
    #expect(module.firstDecorated.value == 1)
    #expect(module.secondDecorated.value == 3)
    await module.container.close()
    #expect(module.closed.value == 1)
  }

  /// A `.weak` module's decorators start again from the first once the async module is made,
  /// on a new instance: only its holders keep an instance, so none is kept unfinished.
  @Test func aWeakModulesDecorationStartsAgainOnceTheAsyncModuleIsMade() async throws {
    let module = UnfinishedDecoration(scope: .weak, eager: false)
    let gateway = try await module.container.resolveAsyncOrThrow(Gateway.self)
    #expect(module.made.value == 2)
    #expect(module.firstDecorated.value == 2)
    #expect(module.secondDecorated.value == 2)
    #expect(try module.container.resolveOrThrow(Gateway.self) === gateway)
    #expect(module.made.value == 2, "kept while held")
  }

  /// Threads that resolve such a module synchronously, again and again while the async module
  /// is not made, make it once: each leaves the instance unfinished for the next.
  @Test(arguments: [Scope.singleton, .cached("session")])
  func threadsThatCannotFinishAnInstanceLeaveItToEachOther(scope: Scope) async {
    let module = UnfinishedDecoration(scope: scope, eager: false)
    let container = module.container
    let finished = await onThreads(8, timeout: 60) { _ in
      for _ in 0..<500 { _ = try? container.resolveOrThrow(Gateway.self) }
    }
    #expect(finished)
    #expect(module.made.value == 1)
    #expect(module.firstDecorated.value == 1)
    await container.close()
    #expect(module.closed.value == 1)
  }

  /// A reset lets go of an unfinished instance, outside the creation lock: its deinit, which
  /// resolves the module again, neither waits for that lock nor meets a cycle.
  @Test func aResetLetsGoOfAnUnfinishedInstanceOutsideTheLock() async {
    let (box, outcomes) = (WeakBox(), Collector<String>())
    let container = Dependencies {
      Module(scope: .cached("session"), onClose: { _ in }) { () -> Wrapped in
        Wrapped(Gateway()) {
          outcomes.append(box.container?.outcome(resolving: Wrapped.self) ?? "")
        }
      }
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      Module.decorating(Wrapped.self) { wrapped throws -> Wrapped in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return wrapped
      }
    }
    box.container = container
    #expect(throws: ResolutionError.self) { try container.resolveOrThrow(Wrapped.self) }
    await container.reset(.cached("session"))
    await eventually { !outcomes.all.isEmpty }
    #expect(outcomes.all.first?.hasPrefix("notMadeYet") == true, "\(outcomes.all)")
    #expect(
      await onThreads(1, timeout: 20) { _ in _ = try? container.resolveOrThrow(Wrapped.self) })
  }

  /// A close while a resolution finishes an unfinished instance disposes of it, once, and the
  /// resolution hands nothing out.
  @Test func aCloseWhileAnInstanceIsFinishedDisposesOfItAndHandsNothingOut() async {
    let (closed, decorating, closing, handed) = (Counter(), Counter(), Counter(), Counter())
    let container = Dependencies {
      Module(scope: .singleton, onClose: { _ in closed.increment() }) { Gateway() }
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      Module.decorating(Gateway.self) { gateway throws -> Gateway in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        decorating.increment()
        _ = holdUntil(atMost: 20) { closing.value == 1 }
        return gateway
      }
    }
    #expect(throws: ResolutionError.self) { try container.resolveOrThrow(Gateway.self) }
    _ = await container.resolveAsync(DatabaseType.self)
    async let resolving = onThreads(1, timeout: 30) { _ in
      if (try? container.resolveOrThrow(Gateway.self)) != nil { handed.increment() }
    }
    await eventually { decorating.value == 1 }
    await container.close()
    let closedByClose = closed.value
    closing.increment()
    #expect(await resolving)
    #expect(closedByClose == 1)
    #expect(handed.value == 0)
    #expect(closed.value == 1)
  }

  /// The shapes whose decorators wrap an instance kept elsewhere: a child's over its parent's
  /// module, and a container's over the type an alias of its module is resolved as.
  enum KeptElsewhere: CaseIterable { case childOverParent, alias }

  /// A decorator before one that meets an async module not made yet runs once on the instance
  /// kept elsewhere: the decoration is finished from where it stopped.
  @Test(arguments: KeptElsewhere.allCases, [Scope.singleton, .cached("session")])
  func decoratorsOfAnInstanceKeptElsewhereRunOnceAcrossRounds(
    shape: KeptElsewhere, scope: Scope
  ) async throws {
    let (made, first, second) = (Counter(), Counter(), Counter())
    let decorators = [
      Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
        first.increment()
        return gateway
      },
      Module.decorating(Reachable.self) { (gateway: Reachable) throws -> Reachable in
        second.increment()
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return gateway
      },
    ]
    let module =
      shape == .alias
      ? Module(scope: scope, as: Reachable.self, Gateway.self) { () -> Gateway in
        made.increment()
        return Gateway()
      }
      : Module(scope: scope) { () -> Reachable in
        made.increment()
        return Gateway()
      }
    let root = Dependencies {
      module
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      if shape == .alias { decorators }
    }
    let container = shape == .alias ? root : Dependencies(over: root) { decorators }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(try container.resolveOrThrow(Reachable.self) as AnyObject === gateway as AnyObject)
    #expect(made.value == 1)
    #expect(first.value == 1)
    #expect(second.value == 2)
  }

  /// Two threads that each leave a decoration unfinished at once do not wait for each other:
  /// the one replaced is let go of outside the lock it was kept under, though its deinit
  /// resolves the same type through the same container, which resumes the other.
  @Test(arguments: KeptElsewhere.allCases)
  func decorationsLeftUnfinishedAtOnceAreLetGoOfOutsideTheLock(shape: KeptElsewhere) async {
    let (box, wrapping, outcomes) = (WeakBox(), Counter(), Collector<String>())
    let decorators = [
      Module.decorating(Gateway.self) { $0 },
      Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
        wrapping.increment()
        _ = holdUntil(atMost: 5) { wrapping.value >= 2 }
        return Wrapped(gateway) {
          outcomes.append(box.container?.outcome(resolving: Reachable.self) ?? "")
        }
      },
      Module.decorating(Reachable.self) { (gateway: Reachable) throws -> Reachable in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return gateway
      },
    ]
    let root = Dependencies {
      Module(scope: .singleton, as: Reachable.self, Gateway.self) { Gateway() }
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      if shape == .alias { decorators }
    }
    let container = shape == .alias ? root : Dependencies(over: root) { decorators }
    box.container = container
    let finished = await onThreads(2, timeout: 20) { _ in
      _ = try? container.resolveOrThrow(Reachable.self)
    }
    #expect(finished)
    await eventually { !outcomes.all.isEmpty }
    #expect(outcomes.all.first?.hasPrefix("notMadeYet") == true, "\(outcomes.all)")
  }

  /// A layer's decoration left unfinished over a `.cached` instance underneath goes when a reset
  /// drops that instance: nothing holds on to what the decorators before the unfinished one made.
  @Test func aResetLetsGoOfALayersUnfinishedDecorationOfTheInstanceItDrops() async {
    let released = Counter()
    let root = Dependencies {
      Module(scope: .cached("session")) { Gateway() as Reachable }
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
    }
    let child = Dependencies(over: root) {
      Module.decorating(Reachable.self) { Wrapped($0) { released.increment() } as Reachable }
      Module.decorating(Reachable.self) { (gateway: Reachable) throws -> Reachable in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return gateway
      }
    }
    #expect(throws: ResolutionError.self) { try child.resolveOrThrow(Reachable.self) }
    #expect(released.value == 0)
    await root.reset(.cached("session"))
    #expect(released.value == 1)
  }

  /// A layer's unfinished decoration that a later resolution finds stale, a layer in between
  /// closed since, is let go of once that resolution has left the trace: its deinit, which
  /// resolves the same key, is told the async module is not made yet, not of a cycle.
  @Test func aStaleUnfinishedDecorationIsLetGoOfOnceTheResolutionEnds() async {
    let (box, outcomes) = (WeakBox(), Collector<String>())
    let layers = StaleDecoration {
      outcomes.append(box.container?.outcome(resolving: Reachable.self) ?? "")
    }
    box.container = layers.child
    #expect(layers.child.outcome(resolving: Reachable.self).hasPrefix("notMadeYet"))
    await layers.middle.close()
    #expect(layers.child.outcome(resolving: Reachable.self).hasPrefix("notMadeYet"))
    #expect(outcomes.all.map { $0.prefix(10) } == ["notMadeYet"], "\(outcomes.all)")
  }

  /// A stale unfinished decoration goes too when the resolution that found it stale fails
  /// with a plain error, which leaves nothing unfinished to replace it.
  @Test func aStaleUnfinishedDecorationGoesWithAResolutionThatFails() async {
    let freed = Counter()
    let layers = StaleDecoration { freed.increment() }
    #expect(layers.child.outcome(resolving: Reachable.self).hasPrefix("notMadeYet"))
    await layers.middle.close()
    layers.broken.increment()
    #expect(layers.child.outcome(resolving: Reachable.self).hasPrefix("notMadeYet") == false)
    #expect(freed.value == 2, "the stale decoration and the one that failed")
  }

  /// Tasks that resolve such a module at once share the one instance made.
  @Test func tasksThatFinishAnUnfinishedDecorationAtOnceShareOneInstance() async throws {
    let module = UnfinishedDecoration(scope: .singleton, eager: false, both: true)
    let container = module.container
    let services = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<8 {
        group.addTask { ObjectIdentifier(try await container.resolveAsyncOrThrow(Gateway.self)) }
      }
      return try await group.reduce(into: Set()) { $0.insert($1) }
    }
    #expect(services.count == 1)
    #expect(module.made.value == 1)
    #expect(module.firstDecorated.value == 1)
    await container.close()
    #expect(module.closed.value == 1)
  }

  /// An instance left unfinished by a synchronous resolution is finished by the next one once
  /// the async module is made, or disposed of once by a close or a reset that comes first.
  @Test func anUnfinishedInstanceIsFinishedLaterOrDisposedOfOnce() async throws {
    let finished = UnfinishedDecoration(scope: .singleton, eager: false)
    #expect(throws: ResolutionError.self) {
      try finished.container.resolveOrThrow(Gateway.self)
    }
    _ = await finished.container.resolveAsync(DatabaseType.self)
    _ = try finished.container.resolveOrThrow(Gateway.self)
    #expect(finished.made.value == 1)
    #expect(finished.firstDecorated.value == 1)

    let closed = UnfinishedDecoration(scope: .singleton, eager: false)
    #expect(throws: ResolutionError.self) { try closed.container.resolveOrThrow(Gateway.self) }
    await closed.container.close()
    #expect(closed.closed.value == 1)

    let reset = UnfinishedDecoration(scope: .cached("session"), eager: false)
    #expect(throws: ResolutionError.self) { try reset.container.resolveOrThrow(Gateway.self) }
    await reset.container.reset(.cached("session"))
    #expect(reset.closed.value == 1)
    _ = await reset.container.resolveAsync(Gateway.self)
    #expect(reset.made.value == 2)
    #expect(reset.firstDecorated.value == 2)
    await reset.container.close()
    #expect(reset.closed.value == 2)
  }

  /// A synchronous factory that catches the error of an async module not made yet, as an
  /// optional dependency read with `try?` does, gets the module in `resolveAsync`: it is made,
  /// and the factory runs again, as where the error reaches the round. The instance made
  /// without it is disposed of, not kept.
  @Test(arguments: [Scope.singleton, .cached("session")])
  func aSharedModuleWhoseFactoryCatchesAnAsyncModuleNotMadeYetIsMadeWithIt(scope: Scope)
    async throws
  {
    let (made, closed, saw) = (Counter(), Counter(), Collector<Bool>())
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module(scope: scope, onClose: { _ in closed.increment() }) { () -> Reachable in
        saw.append((try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil)
        return Gateway()
      }
    }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(try container.resolveOrThrow(Reachable.self) === gateway)
    #expect(made.value == 1)
    #expect(saw.all == [false, true])
    await eventually { closed.value == 1 }
  }

  /// So does a unique one, made again with the module; and one that catches it in a `do`.
  @Test func aUniqueModuleWhoseFactoryCatchesAnAsyncModuleNotMadeYetIsMadeWithIt() async throws {
    let (made, saw) = (Counter(), Collector<Bool>())
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module { () -> Reachable in
        do {
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
          saw.append(true)
        } catch {
          saw.append(false)
        }
        return Gateway()
      }
    }
    _ = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(made.value == 1)
    #expect(saw.all == [false, true])
  }

  /// Where that module's factory fails, the factory that caught its absence makes its instance
  /// without it, once, and one that lets it through fails with that factory's error.
  @Test func aFactoryThatCatchesAnAsyncModuleWhoseFactoryFailsIsMadeWithoutIt() async throws {
    let (saw, tried) = (Collector<Bool>(), Counter())
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        tried.increment()
        throw ConnectionRefused()
      }
      Module(scope: .singleton) { () -> Reachable in
        saw.append((try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil)
        return Gateway()
      }
      Module(scope: .singleton) { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(container.resolve(Reachable.self) === gateway)
    #expect(saw.all == [false, false])
    #expect(tried.value == 1)
    let error = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsyncOrThrow(ReportType.self)
    }
    #expect(
      error?.description.contains("\(ConnectionRefused())") == true, "\(String(describing: error))")
    #expect(tried.value == 2)
  }

  /// A factory that catches the absences of two modules, the one whose factory fails read
  /// last, gets the other.
  @Test func aFactoryThatCatchesTwoAbsencesGetsTheOneThatCanBeMade() async throws {
    let (made, saw) = (Counter(), Collector<String>())
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> ReportType in throw ConnectionRefused() }
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module(scope: .singleton) { () -> Reachable in
        let database = (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
        let report = (try? Dependencies.resolveOrThrow(ReportType.self)) != nil
        saw.append("report \(report), database \(database)")
        return Gateway()
      }
    }
    _ = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(made.value == 1)
    #expect(saw.all.last == "report false, database true", "\(saw.all)")
  }

  /// A factory that catches the absence of a module in a layer it makes anew at each run, which
  /// is never made there, keeps its fallback: the round gives up on the module, as it would
  /// end a factory that lets it through, and runs the factory once more without it.
  @Test(arguments: [false, true])
  func aFactoryThatCatchesAnAbsenceInALayerItMakesAnewKeepsItsFallback(starting: Bool)
    async throws
  {
    let (runs, saw) = (Counter(), Collector<Bool>())
    let container = Dependencies {
      Module(scope: .singleton, eager: starting) { () -> Reachable in
        runs.increment()
        let layer = Dependencies {
          Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
        }
        saw.append((try? layer.resolveOrThrow(DatabaseType.self)) != nil)
        return Gateway()
      }
    }
    if starting { _ = try await container.start() }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(container.resolve(Reachable.self) === gateway)
    #expect(Set(saw.all) == [false])
    #expect(runs.value <= 4, "\(runs.value) runs")
  }

  /// After a reset of its scope, a `.cached` async module that a factory reads with `try?` is
  /// made again for it.
  @Test func aResetCachedAsyncModuleIsMadeAgainForAFactoryThatCatchesItsAbsence() async throws {
    let (made, saw) = (Counter(), Collector<Bool>())
    let container = Dependencies {
      Module(scope: .cached("connection")) { try await Self.connectedDatabase(made) }
      Module(scope: .cached("session")) { () -> Reachable in
        saw.append((try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil)
        return Gateway()
      }
    }
    _ = try await container.resolveAsyncOrThrow(Reachable.self)
    await container.reset(.cached("connection"))
    await container.reset(.cached("session"))
    _ = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(made.value == 2)
    #expect(saw.all.last == true, "\(saw.all)")
  }

  /// A decorator that catches an absence gets the module, as a factory does; also after one
  /// before it let another through, so that the instance was left unfinished, when the
  /// decoration is finished.
  @Test(arguments: [false, true])
  func aDecoratorThatCatchesAnAbsenceGetsTheModule(afterAnUnfinishedOne: Bool) async throws {
    let saw = Collector<String>()
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
      Module(scope: .singleton) { () async -> ReportType in Report() }
      Module(scope: .singleton) { Gateway() as Reachable }
      if afterAnUnfinishedOne {
        Module.decorating(Reachable.self) { (gateway: Reachable) throws -> Reachable in
          _ = try Dependencies.resolveOrThrow(ReportType.self)
          return gateway
        }
      }
      Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
        let database = (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
        saw.append("database \(database)")
        return database ? Wrapped(gateway) {} : gateway
      }
    }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(gateway is Wrapped, "\(saw.all)")
    // It ran without the module, then on the instance made again once the module was.
    #expect(saw.all.first == "database false" && saw.all.last == "database true", "\(saw.all)")
  }

  /// A decorator of an instance kept elsewhere (by the layer underneath, or of a shared alias's
  /// type) that catches an async module's absence in a round gets the module too: what it made
  /// without it is not kept.
  @Test(arguments: KeptElsewhere.allCases)
  func aDecoratorOfAnInstanceKeptElsewhereThatCatchesAnAbsenceGetsTheModule(
    shape: KeptElsewhere
  ) async throws {
    let saw = Collector<String>()
    let decorator = Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
      let database = (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
      saw.append("database \(database)")
      return database ? Wrapped(gateway) {} : gateway
    }
    let root = Dependencies {
      Module(scope: .singleton, as: Reachable.self, Gateway.self) { Gateway() }
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
      if shape == .alias { decorator }
    }
    let container = shape == .alias ? root : Dependencies(over: root) { decorator }
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(gateway is Wrapped, "\(saw.all)")
    #expect(container.resolve(Reachable.self) === gateway)
    #expect(saw.all == ["database false", "database true"])
  }

  /// Where a decorator, or the module's own factory, catches an async module's absence and a
  /// decorator after it lets another's through, the decoration is not left unfinished without
  /// the first: both modules are made, and the instance kept is decorated with them.
  @Test(arguments: CaughtBeforeAnother.allCases)
  func aCatchBeforeAnAbsenceThatComesThroughIsNotLeftUnfinished(shape: CaughtBeforeAnother)
    async throws
  {
    let catching = Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
      (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil ? Wrapped(gateway) {} : gateway
    }
    let lettingThrough = Module.decorating(Reachable.self) {
      (gateway: Reachable) throws -> Reachable in
      _ = try Dependencies.resolveOrThrow(ReportType.self)
      return gateway
    }
    let root = Dependencies {
      switch shape {
      case .factory:
        Module(scope: .singleton) { () -> Reachable in
          (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
            ? Wrapped(Gateway()) {} : Gateway()
        }
      case .alias: Module(scope: .singleton, as: Reachable.self, Gateway.self) { Gateway() }
      case .childOverParent: Module(scope: .singleton) { Gateway() as Reachable }
      }
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
      Module(scope: .singleton) { () async -> ReportType in Report() }
      if shape == .alias { catching }
      if shape != .childOverParent { lettingThrough }
    }
    let layer = Dependencies(over: root) {
      catching
      lettingThrough
    }
    let container = shape == .childOverParent ? layer : root
    let gateway = try await container.resolveAsyncOrThrow(Reachable.self)
    #expect(gateway is Wrapped)
    #expect(container.resolve(Reachable.self) === gateway)
    #expect(throws: Never.self) { try root.resolveOrThrow(DatabaseType.self) }
  }

  enum CaughtBeforeAnother: CaseIterable { case factory, alias, childOverParent }

  /// A module that a factory or decorator made without an async module it caught the absence
  /// of, in a round, is not kept but handed on: a plain `resolve()` or an `@Inject` read that
  /// asked for it goes on, and the run that follows, once the module is made, gets it with it.
  /// In a process of its own: before, the refusal stopped the program there.
  @Test func aPlainResolutionOfWhatCaughtAnAbsenceGoesOnInARound() async {
    await #expect(processExitsWith: .success) {
      let root = Dependencies {
        Module(scope: .singleton) { () -> Reachable in
          (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
            ? Wrapped(Gateway()) {} : Gateway()
        }
        Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      }
      let child = Dependencies(over: root) {
        Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
          (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil
            ? Wrapped(gateway) {} : gateway
        }
        Module { () -> [Reachable] in [Dependencies.resolve(Reachable.self)] }
      }
      let gateways = try await child.resolveAsyncOrThrow([Reachable].self)
      precondition((gateways.first as? Wrapped)?.wrapped is Wrapped, "\(gateways)")
    }
  }

  /// An async singleton whose decorator catches another async module's absence, read twice in
  /// one run, gets that module: the one caught is made before the singleton the second read
  /// finds lost, since the first read's was not kept.
  @Test func anAsyncSingletonWhoseDecoratorCatchesAnAbsenceReadTwiceInARunGetsIt() async throws {
    let container = Dependencies {
      Module(scope: .singleton) { () async -> Reachable in Gateway() }
      Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
        (try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil ? Wrapped(gateway) {} : gateway
      }
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
      Module { () throws -> [Reachable] in
        [try Dependencies.resolveOrThrow(Reachable.self), try Dependencies.resolveOrThrow()]
      }
    }
    let pair = try await container.resolveAsyncOrThrow([Reachable].self)
    #expect(pair.count == 2 && pair.allSatisfy { $0 is Wrapped } && pair[0] === pair[1])
  }

  /// A shared module made without an async module its factory caught is observed as made,
  /// though not kept: its factory ran. In a process of its own, where the observer sees no other
  /// test's resolutions.
  @Test func aMakingNotKeptForACaughtAbsenceIsObservedAsMade() async {
    await #expect(processExitsWith: .success) {
      let (runs, made) = (Counter(), Counter())
      let observation = Dependencies.observe { event in
        if event.key == "Reachable", event.madeInstance { made.increment() }
      }
      let container = Dependencies {
        Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
        Module(scope: .singleton) { () -> Reachable in
          runs.increment()
          _ = try? Dependencies.resolveOrThrow(DatabaseType.self)
          return Gateway()
        }
      }
      _ = await container.resolveAsync(Reachable.self)
      observation.cancel()
      exit(runs.value == 2 && made.value == 2 ? 0 : 1)
    }
  }

  /// An observer's resolutions are no part of the making it reports on: one that catches the
  /// absence of another container's async module leaves the factory to run once. In a process
  /// of its own, where the observer sees no other test's resolutions.
  @Test func anObserverThatCatchesAnAbsenceLeavesTheMakingAlone() async {
    await #expect(processExitsWith: .success) {
      let other = Dependencies {
        Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      }
      let observation = Dependencies.observe { _ in
        _ = try? other.resolveOrThrow(DatabaseType.self)
      }
      let runs = Counter()
      let container = Dependencies {
        Module { Report() as ReportType }
        Module(scope: .singleton) { () -> Reachable in
          runs.increment()
          _ = Dependencies.resolve(ReportType.self)
          return Gateway()
        }
      }
      _ = await container.resolveAsync(Reachable.self)
      observation.cancel()
      exit(runs.value == 1 ? 0 : 1)
    }
  }

  /// `start()` makes an eager module whose factory reads an eager async one with `try?` with
  /// it, whichever of the two it starts first.
  @Test func startMakesAnEagerModuleThatCatchesAnEagerAsyncOneWithIt() async throws {
    for _ in 0..<20 {
      let (made, saw) = (Counter(), Collector<Bool>())
      let container = Dependencies {
        Module(scope: .singleton, eager: true) { try await Self.connectedDatabase(made) }
        Module(scope: .singleton, eager: true) { () -> Reachable in
          saw.append((try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil)
          return Gateway()
        }
      }
      _ = try await container.start()
      _ = container.resolve(Reachable.self)
      #expect(made.value == 1)
      #expect(saw.all.last == true, "\(saw.all)")
    }
  }

  /// Outside `start()` and `resolveAsync`, nothing makes the module: the factory's catch
  /// stands, and what it made is kept.
  @Test func aSynchronousResolutionKeepsWhatAFactoryMadeWithoutAnAsyncModule() async {
    let (made, saw) = (Counter(), Collector<Bool>())
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module(scope: .singleton) { () -> Reachable in
        saw.append((try? Dependencies.resolveOrThrow(DatabaseType.self)) != nil)
        return Gateway()
      }
    }
    let gateway = container.resolve(Reachable.self)
    #expect(await container.resolveAsync(Reachable.self) === gateway)
    #expect(made.value == 0)
    #expect(saw.all == [false])
  }

  @Test func anAsyncFactoryAwaitsTheAsyncModulesItNeeds() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module(scope: .singleton) { () async -> ReportType in
        _ = await Dependencies.resolveAsync(DatabaseType.self)
        return Report()
      }
    }
    _ = await container.resolveAsync(ReportType.self)
    #expect(made.value == 1)
    _ = try container.resolveOrThrow(DatabaseType.self)
  }

  @Test func anAsyncFactoryThatResolvesAnAsyncModuleSynchronouslyFindsItNotMade() async {
    let databaseLine = #line + 2
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(Counter()) }
      Module(scope: .singleton) { () async throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    do throws(ResolutionError) {
      _ = try await container.resolveAsyncOrThrow(ReportType.self)
      Issue.record("resolved")
    } catch {
      #expect(
        error.reason
          == .notMadeYet(registeredAt: "ShankTests/AsyncFactoryTests.swift:\(databaseLine)"))
    }
  }

  @Test func aUniqueOneResolvedTwiceInOneResolutionGivesEachResolutionItsOwn() async throws {
    let made = Counter()
    let attempts = Counter()
    let distinct = Collector<Bool>()
    let container = Dependencies {
      Module { try await Self.connectedDatabase(made) }
      Module { () throws -> ReportType in
        attempts.increment()
        // Gives up rather than hang when the attempts never end.
        guard attempts.value < 10 else { throw StubFailure() }
        let first = try Dependencies.resolveOrThrow(DatabaseType.self)
        distinct.append(first !== (try Dependencies.resolveOrThrow(DatabaseType.self)))
        return Report()
      }
    }
    _ = try await container.resolveAsyncOrThrow(ReportType.self)
    #expect(distinct.all == [true])
    #expect(made.value == 2)
  }

  @Test func decoratorsWrapTheAsyncInstanceOnce() async throws {
    let decorated = Counter()
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { () async -> GreeterType in Greeter("db") }
      Module.decorating(GreeterType.self) { greeter -> GreeterType in
        decorated.increment()
        return Loud(greeter)
      }
    }
    _ = try await container.start()
    #expect(container.resolve(GreeterType.self).greeting == "DB!")
    #expect(
      container.resolve(GreeterType.self) as AnyObject === container.resolve(GreeterType.self)
        as AnyObject)
    #expect(decorated.value == 1)
  }

  @Test func onCloseDisposesOfTheAsyncInstanceAtClose() async throws {
    let closed = Collector<Int>()
    let container = Dependencies {
      Module(scope: .singleton, onClose: { closed.append($0.serial) }) { () async -> DatabaseType in
        Database()
      }
    }
    let serial = await container.resolveAsync(DatabaseType.self).serial
    #expect(closed.all.isEmpty)
    await container.close()
    #expect(closed.all == [serial])
  }

  @Test func aClosedContainerThrowsClosedToResolveAsyncAndMakesNothing() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
    }
    await container.close()
    let error = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsyncOrThrow(DatabaseType.self)
    }
    guard case .closed = error?.reason else {
      Issue.record("not closed: \(String(describing: error))")
      return
    }
    #expect(made.value == 0)
  }

  @Test func eachChildContainerAndScopeMakesItsOwnAsyncSingleton() async throws {
    let made = Counter()
    let parent = Dependencies {}
    let modules = { Module(scope: .singleton) { try await Self.connectedDatabase(made) } }
    let first = Dependencies(over: parent) { modules() }
    let second = Dependencies(over: parent) { modules() }
    let one = await first.resolveAsync(DatabaseType.self)
    let two = await second.resolveAsync(DatabaseType.self)
    #expect(one !== two)
    #expect(first.resolve(DatabaseType.self) === one)
    let inScope = try await Dependencies.withScope {
      modules()
    } operation: {
      let service = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
      #expect(Dependencies.resolve(DatabaseType.self) === service)
      return service.serial
    }
    #expect(made.value == 3)
    #expect(![one.serial, two.serial].contains(inScope))
    await first.close()
    await second.close()
  }

  @Test func anAsyncFactoryResolvesFromTheContainerThatMakesIt() async throws {
    let child = Dependencies(over: Dependencies {}) {
      Module(scope: .singleton) { () async throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self, name: "child only")
        return Report()
      }
      Module("child only") { Database() as DatabaseType }
    }
    _ = try await child.resolveAsyncOrThrow(ReportType.self)
  }

  @Test func anAsyncMadeModulesInjectedPropertiesReadFromTheContainerThatMadeIt() async throws {
    let child = Dependencies(over: Dependencies {}) {
      Module(scope: .singleton) { () async -> InjectingReportType in InjectingReport() }
      Module("made here") { Database() as DatabaseType }
    }
    let report = try await child.resolveAsyncOrThrow(InjectingReportType.self)
    let elsewhere = Database()
    // Read first where another container is current: the property still reads its maker's.
    let read = Dependencies.withOverrides {
      Module("made here") { elsewhere as DatabaseType }
    } operation: {
      report.database
    }
    #expect(read !== elsewhere)
  }

  /// As in a synchronous factory, an `@Inject` property declared in a layer that an async
  /// factory opens reads that layer, as `resolve()` there does.
  @Test(arguments: [false, true])
  func anInjectDeclaredInALayerAnAsyncFactoryOpensReadsThatLayer(scope: Bool) async throws {
    let container = Dependencies {
      Module("made here") { Database() as DatabaseType }
      Module(scope: .singleton) { () async -> [DatabaseType] in
        let layer = Database()
        @Sendable func read() -> [DatabaseType] {
          [InjectingReport().database, Dependencies.resolve(name: "made here"), layer]
        }
        if scope {
          return await Dependencies.withScope {
            Module("made here") { layer as DatabaseType }
          } operation: {
            read()
          }
        }
        return Dependencies.withOverrides {
          Module("made here") { layer as DatabaseType }
        } operation: {
          read()
        }
      }
    }
    let read = try await container.resolveAsyncOrThrow([DatabaseType].self)
    #expect(read[1] === read[2], "resolve() read the layer")
    #expect(read[0] === read[2], "the property read what resolve() did")
  }

  /// `verify()` makes an async factory as `resolveAsync` does: what it resolves in a layer it
  /// opened and awaits in comes from that layer.
  @Test(arguments: [false, true])
  func verifyResolvesWhatAnAsyncFactoryAsksOfALayerItOpened(scope: Bool) async throws {
    let make = {
      Dependencies {
        Module(scope: .singleton) { () async throws -> ReportType in
          let read = { () throws in
            _ = try Dependencies.resolveOrThrow(DatabaseType.self, name: "layer only")
          }
          if scope {
            try await Dependencies.withScope {
              Module("layer only") { Database() as DatabaseType }
            } operation: {
              await Task.yield()
              try read()
            }
          } else {
            try await Dependencies.withOverrides {
              Module("layer only") { Database() as DatabaseType }
            } operation: {
              await Task.yield()
              try read()
            }
          }
          return Report()
        }
      }
    }
    _ = try await make().resolveAsyncOrThrow(ReportType.self)
    try make().verify()
  }

  /// While the layer's operation runs, a property declared in it reads it inside a layer
  /// nested in it too, as `resolve()` there does.
  @Test(arguments: [false, true])
  func anInjectDeclaredInALayerReadsItInsideALayerNestedInIt(async: Bool) async throws {
    let container = Dependencies {
      Module("made here") { Database() as DatabaseType }
      if async {
        Module(scope: .singleton) { () async -> [DatabaseType] in
          let layer = Database()
          return await Dependencies.withOverrides {
            Module("made here") { layer as DatabaseType }
          } operation: {
            let report = InjectingReport()
            return await Dependencies.withOverrides {
              Module { Report() as ReportType }
            } operation: {
              await Task.yield()
              return [report.database, layer]
            }
          }
        }
      } else {
        Module(scope: .singleton) { () -> [DatabaseType] in
          let layer = Database()
          return Dependencies.withOverrides {
            Module("made here") { layer as DatabaseType }
          } operation: {
            let report = InjectingReport()
            return Dependencies.withOverrides {
              Module { Report() as ReportType }
            } operation: {
              [report.database, layer]
            }
          }
        }
      }
    }
    let read = try await container.resolveAsyncOrThrow([DatabaseType].self)
    #expect(read[0] === read[1])
  }

  /// Once the layer's operation has ended, a property declared in it reads the container the
  /// factory made its module in, as after a synchronous factory's, not the layer, released.
  @Test(arguments: [false, true])
  func anInjectDeclaredInALayerAFactoryOpenedReadsItsMakerAfterwards(async: Bool) async {
    await #expect(processExitsWith: .success) { [async] in
      let outer = Database()
      let container = Dependencies {
        Module("made here") { outer as DatabaseType }
        if async {
          Module(scope: .singleton) { () async -> InjectingReportType in
            await Dependencies.withOverrides {
              Module("made here") { Database() as DatabaseType }
            } operation: {
              await Task.yield()
              return InjectingReport()
            }
          }
        } else {
          Module(scope: .singleton) { () -> InjectingReportType in
            Dependencies.withOverrides {
              Module("made here") { Database() as DatabaseType }
            } operation: {
              InjectingReport()
            }
          }
        }
      }
      let report = await container.resolveAsync(InjectingReportType.self)
      precondition(report.database === outer, "the property read something else")
    }
  }

  /// A value an async factory made that no resolution took, because the one it was made for
  /// failed before it asked again, is disposed of once its container goes.
  @Test func aValueNoResolutionTookIsDisposedOfWithItsContainer() async {
    let disposed = Counter()
    let attempts = Counter()
    var container: Dependencies? = Dependencies {
      Module(scope: .singleton, onClose: { _ in disposed.increment() }) {
        () async -> DatabaseType in Database()
      }
      Module { () throws -> ReportType in
        // The first attempt meets the async module; the next fails before it asks again.
        guard attempts.increment() == 1 else { throw StubFailure() }
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    var message = ""
    do throws(ResolutionError) {
      _ = try await container?.resolveAsyncOrThrow(ReportType.self)
    } catch {
      message = error.description
    }
    #expect(message.contains("StubFailure"), "\(message)")
    #expect(disposed.value == 0)
    container = nil
    await eventually(timeout: 10) { disposed.value == 1 }
    #expect(disposed.value == 1)
  }

  @Test func aResetCachedOneIsMadeAgainAsynchronously() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .cached("session")) { try await Self.connectedDatabase(made) }
    }
    let first = await container.resolveAsync(DatabaseType.self)
    #expect(container.resolve(DatabaseType.self) === first)
    await container.reset(.cached("session"))
    #expect(resolutionError { try container.resolveOrThrow(DatabaseType.self) } != nil)
    let second = await container.resolveAsync(DatabaseType.self)
    #expect(second !== first)
    #expect(made.value == 2)
  }

  /// An async `.cached` factory still running when its scope is reset: what it makes goes to
  /// the resolution that asked for it and is disposed of, not kept, as a synchronous factory's
  /// would be, and the next resolution makes a new one.
  @Test func anAsyncCachedInstanceMadeAcrossAResetIsNotKept() async {
    let session = GatedSession()
    let container = Dependencies { session.module }
    let asking = Task { await container.resolveAsync(DatabaseType.self).serial }
    await eventually { session.started.value == 1 }
    await container.reset(.cached("session"))
    session.open()
    let first = await asking.value
    await eventually { session.disposed.all.count == 1 }
    #expect(session.disposed.all == [first])
    let next = await container.resolveAsync(DatabaseType.self).serial
    #expect(next != first)
    #expect(session.started.value == 2)
  }

  /// A synchronous resolution after a reset, while the asker of an attempt begun before it is
  /// held back, never gets what that attempt made: it disposes of it, once, and the asker gets
  /// a new one.
  @Test func aResolutionAfterAResetNeverTakesWhatAnAttemptBegunBeforeItMade() async throws {
    let executor = HoldingExecutor()
    let session = GatedSession()
    let container = Dependencies { session.module }
    let asking = Task(executorPreference: executor) {
      await container.resolveAsync(DatabaseType.self).serial
    }
    await eventually { session.started.value == 1 }
    await container.reset(.cached("session"))
    executor.hold()
    session.open()
    await eventually { session.made.all.count == 1 }
    try await Task.sleep(nanoseconds: 50_000_000)
    let afterReset = (try? container.resolveOrThrow(DatabaseType.self))?.serial
    executor.release()
    let asked = await asking.value
    let stale = try #require(session.made.all.first)
    #expect(afterReset == nil)
    #expect(asked != stale)
    await eventually { session.disposed.all.count == 1 }
    #expect(session.disposed.all == [stale])
    #expect(container.resolve(DatabaseType.self).serial == asked)
  }

  /// A `resolveAsync` begun after a reset that joins an attempt begun before it never gets what
  /// that attempt makes, whoever of it and the asker from before the reset resumes first; that
  /// value is disposed of once.
  @Test func aResolutionJoiningAnAttemptAfterAResetNeverGetsWhatItMakes() async throws {
    for _ in 0..<20 {
      let session = GatedSession()
      let container = Dependencies { session.module }
      let asking = Task { await container.resolveAsync(DatabaseType.self).serial }
      await eventually { session.started.value == 1 }
      await container.reset(.cached("session"))
      let later = Task { await container.resolveAsync(DatabaseType.self).serial }
      try await Task.sleep(nanoseconds: 5_000_000)
      session.open()
      let afterReset = await later.value
      _ = await asking.value
      let stale = try #require(session.made.all.first)
      #expect(afterReset != stale)
      await eventually { session.disposed.all.count == 1 }
      #expect(session.disposed.all == [stale])
    }
  }

  /// A shared module's attempt runs on no asker's task executor: holding back the executor of
  /// the asker that started it holds back neither the factory nor anyone else who waits for it.
  @Test func anAskerWhoseExecutorIsHeldBackDoesNotHoldBackTheAttemptItStarted() async {
    let executor = HoldingExecutor()
    let started = Counter()
    let opened = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        started.increment()
        await eventually { opened.value == 1 }
        return Database()
      }
    }
    let first = Task(executorPreference: executor) {
      await container.resolveAsync(DatabaseType.self).serial
    }
    await eventually { started.value == 1 }
    executor.hold()
    opened.increment()
    #expect(await Self.outcomeOfResolvingADatabase(from: container) == ["made"])
    executor.release()
    #expect(await first.value == container.resolve(DatabaseType.self).serial)
    #expect(started.value == 1)
  }

  /// The same through the types the module is also registered as: the instance goes to the
  /// resolution of the alias that asked for it, and the next one, under either type, is new.
  @Test func anAsyncCachedInstanceMadeAcrossAResetIsNotKeptUnderAnyOfItsTypes() async throws {
    let started = Counter()
    let resetDone = Counter()
    let disposed = Collector<Int>()
    let container = Dependencies {
      Module(
        scope: .cached("session"), as: DatabaseType.self, StoreType.self,
        onClose: { (made: Database) in disposed.append(made.serial) }
      ) { () async -> Database in
        if started.increment() == 1 { await eventually { resetDone.value == 1 } }
        return Database()
      }
    }
    let asking = Task { try await container.resolveAsyncOrThrow(StoreType.self) as? Database }
    await eventually { started.value == 1 }
    await container.reset(.cached("session"))
    resetDone.increment()
    let first = try #require(try await asking.value).serial
    await eventually { disposed.all.count == 1 }
    #expect(disposed.all == [first])
    let next = try await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect(next.serial != first)
    #expect(container.resolve(StoreType.self) === next)
    #expect(started.value == 2)
  }

  /// The same for a decorated one, whether its own container or a child decorates it: the
  /// resolution gets it decorated, and the next one decorates a new instance, which is kept.
  @Test(arguments: [false, true])
  func anAsyncCachedInstanceMadeAcrossAResetIsNotKeptDecorated(byAChild: Bool) async throws {
    let started = Counter()
    let resetDone = Counter()
    let disposed = Collector<Int>()
    let decorator = Module.decorating(DatabaseType.self) { WrappedDatabase($0) as DatabaseType }
    let parent = Dependencies {
      Module(scope: .cached("session"), onClose: { disposed.append($0.serial) }) {
        () async -> DatabaseType in
        if started.increment() == 1 { await eventually { resetDone.value == 1 } }
        return Database()
      }
      if !byAChild { decorator }
    }
    let container = byAChild ? Dependencies(over: parent) { decorator } : parent
    let asking = Task { try await container.resolveAsyncOrThrow(DatabaseType.self) }
    await eventually { started.value == 1 }
    await container.reset(.cached("session"))
    resetDone.increment()
    let first = try await asking.value
    #expect(first is WrappedDatabase)
    await eventually { disposed.all.count == 1 }
    #expect(disposed.all == [first.serial])
    let next = try await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect(next is WrappedDatabase)
    #expect(next.serial != first.serial)
    #expect(container.resolve(DatabaseType.self) === next)
    #expect(started.value == 2)
  }

  /// An async `.cached` factory that resets its own scope: its instance goes to the resolution
  /// that asked for it and is disposed of, and the next resolution makes one that is kept.
  @Test func anAsyncCachedFactoryThatResetsItsOwnScopeKeepsNothing() async throws {
    let runs = Counter()
    let disposed = Collector<Int>()
    let container = Dependencies {
      Module(scope: .cached("session"), onClose: { disposed.append($0.serial) }) {
        () async -> DatabaseType in
        if runs.increment() == 1 {
          // The synchronous `reset`, which an async context would not pick by itself.
          let reset = { Dependencies.current.reset(.cached("session")) }
          reset()
        }
        return Database()
      }
    }
    let first = await container.resolveAsync(DatabaseType.self).serial
    await eventually { disposed.all.count == 1 }
    #expect(disposed.all == [first])
    let second = await container.resolveAsync(DatabaseType.self).serial
    #expect(second != first)
    #expect(container.resolve(DatabaseType.self).serial == second)
    await container.close()
    #expect(disposed.all == [first, second])
  }

  /// Several resolutions awaiting one run of an async `.cached` factory that resets its own
  /// scope on every run: each gets an instance of its own, made by a run it awaited, and none
  /// is kept: every instance made is disposed of, once. (At most `cap` runs reset, so that a
  /// resolution going round without end stops. A value made across a reset that a resolution
  /// which did not await its run finds first is disposed of at once, and its awaiter runs the
  /// factory again: how many runs there are depends on the interleaving.)
  @Test func askersOfAFactoryThatResetsItsOwnScopeOnEveryRunEachGetOneAndNothingIsKept()
    async throws
  {
    let askers = 4
    let cap = 400
    let runs = Counter()
    let go = Counter()
    let disposed = Collector<Int>()
    let container = Dependencies {
      Module(scope: .cached("session"), onClose: { disposed.append($0.serial) }) {
        () async -> DatabaseType in
        if runs.increment() == 1 { await eventually { go.value == 1 } }
        if runs.value <= cap {
          let reset = { Dependencies.current.reset(.cached("session")) }
          reset()
        }
        return Database()
      }
    }
    let got = Collector<Int>()
    for _ in 0..<askers {
      Task { got.append(await container.resolveAsync(DatabaseType.self).serial) }
    }
    await eventually { runs.value == 1 }
    try await Task.sleep(nanoseconds: 50_000_000)
    go.increment()
    await eventually { got.all.count == askers }
    #expect(Set(got.all).count == askers)
    #expect(runs.value < cap)
    #expect((try? container.resolveOrThrow(DatabaseType.self)) == nil)
    await eventually { disposed.all.count >= runs.value }
    #expect(disposed.all.count == runs.value)
    #expect(Set(disposed.all).count == disposed.all.count)
    #expect(Set(got.all).isSubset(of: Set(disposed.all)))
  }

  /// Tasks resolving an async `.cached` module while another resets its scope, awaiting the
  /// reset or not: each gets a value, nothing whose factory began before the last reset is
  /// kept, and every instance made is disposed of exactly once by the time the container has
  /// closed. Watched rather than awaited, since a lost wake-up would hang them.
  @Test func resolutionsRacingResetsEachGetAValueAndEveryInstanceIsDisposedOfOnce() async {
    let resolvers = 8
    let resolutions = 60
    let resets = 150
    let resetsBegun = Counter()
    let made = Collector<(serial: Int, resetsBegun: Int)>()
    let disposed = Collector<Int>()
    let resolved = Counter()
    do {
      let container = Dependencies {
        Module(scope: .cached("session"), onClose: { disposed.append($0.serial) }) {
          () async -> DatabaseType in
          let begun = resetsBegun.value
          await Task.yield()
          let database = Database()
          made.append((database.serial, begun))
          return database
        }
      }
      for _ in 0..<resolvers {
        Task {
          for _ in 0..<resolutions {
            _ = await container.resolveAsync(DatabaseType.self)
            resolved.increment()
          }
        }
      }
      let resetting = Task {
        for index in 0..<resets {
          resetsBegun.increment()
          if index.isMultiple(of: 2) {
            await container.reset(.cached("session"))
          } else {
            let reset = { container.reset(.cached("session")) }
            reset()
          }
          await Task.yield()
        }
      }
      await eventually { resolved.value == resolvers * resolutions }
      #expect(resolved.value == resolvers * resolutions)
      await resetting.value
      if let kept = try? container.resolveOrThrow(DatabaseType.self) {
        #expect(made.all.first { $0.serial == kept.serial }?.resetsBegun == resets)
      }
      await container.close()
    }
    await eventually { disposed.all.count >= made.all.count }
    #expect(disposed.all.sorted() == made.all.map(\.serial).sorted())
  }

  @Test func verifyMakesAsyncModulesAndReportsOneThatThrows() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { try await Self.connectedDatabase(made) }
      Module("broken") { () async throws -> DatabaseType in throw ConnectionRefused() }
    }
    let line = #line - 2
    // On a thread of its own: `verify()` holds its caller's thread while the factory sleeps,
    // and the sleep ends on the shared pool, which must have a thread left for it.
    let errors = Collector<VerificationError?>()
    #expect(await onThreads(1) { _ in errors.append(verificationError { try container.verify() }) })
    let error = try #require(errors.all.first ?? nil)
    #expect(made.value == 1)
    #expect(
      error.problems == [
        .unresolvable(
          module: #"DatabaseType named "broken""#,
          message: """
            Shank cannot resolve DatabaseType named "broken": its factory registered at ShankTests/AsyncFactoryTests.swift:\(line) threw connection refused
              asked for at ShankTests/AsyncFactoryTests.swift:\(line)
            """)
      ])
  }

  /// What Verifying the Graph says `verify()` does not see: a synchronous factory that reads a
  /// `.unique` async module passes, since `verify()` makes the module by waiting for it, while
  /// at run time only `resolveAsync` makes one, so only a synchronous resolution fails.
  @Test func verifyPassesASynchronousFactoryThatReadsAUniqueAsyncModule() async {
    let container = Dependencies {
      Module { () async -> DatabaseType in Database() }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    #expect(throws: Never.self) { try container.verify() }
    #expect(throws: ResolutionError.self) { try container.resolveOrThrow(ReportType.self) }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
  }

  /// An async factory that reads a `.unique` async module synchronously, which no resolution
  /// makes there, is reported by `verify()` as it fails at run time; one that awaits it with
  /// `resolveAsync` passes.
  @Test(arguments: [false, true])
  func verifyReportsAnAsyncFactoryReadingAUniqueAsyncModuleWithoutAwaitingIt(awaits: Bool)
    async throws
  {
    let line = #line + 2
    let container = Dependencies {
      Module { () async -> DatabaseType in Database() }
      Module { () async throws -> ReportType in
        _ =
          awaits
          ? try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
          : try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    let outcome = await Self.outcome(of: ReportType.self, from: container)
    let problems = verificationError { try container.verify() }?.problems.map(\.description)
    if awaits {
      #expect(outcome == ["made"])
      #expect(problems == nil)
    } else {
      #expect(outcome.first?.hasPrefix("Shank cannot resolve DatabaseType synchronously") == true)
      #expect(
        problems == [
          "ReportType could not be made: Shank cannot resolve DatabaseType synchronously: its factory is async, and it is .unique, so no container keeps what it makes; asked for at ShankTests/AsyncFactoryTests.swift:\(line + 5); while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(line + 1), was being made; it was registered at ShankTests/AsyncFactoryTests.swift:\(line) with an async factory; resolve it from async code with await Dependencies.resolveAsync(DatabaseType.self), or register it .singleton or .cached with eager: true and call try await dependencies.start() at launch"
        ])
    }
  }

  /// An async factory that reads a singleton whose synchronous factory reads a `.unique` async
  /// module passes `verify()` in either order: `start()` makes the eager singleton, and its
  /// round the unique module, before anything awaits the async one.
  @Test(arguments: [false, true])
  func verifyOfAnAsyncFactoryReadingAStartedSingletonIsTheSameInEitherOrder(asyncFirst: Bool)
    async throws
  {
    let unique = Module { () async -> DatabaseType in Database() }
    let started = Module(scope: .singleton, eager: true) { () throws -> ReportType in
      _ = try Dependencies.resolveOrThrow(DatabaseType.self)
      return Report()
    }
    let awaiting = Module(scope: .singleton) { () async throws -> StoreType in
      _ = try Dependencies.resolveOrThrow(ReportType.self)
      return Database()
    }
    let modules = asyncFirst ? [unique, awaiting, started] : [unique, started, awaiting]
    let container = Dependencies { modules }
    _ = try await container.start()
    _ = try await container.resolveAsyncOrThrow(StoreType.self)
    #expect(verificationError { try Dependencies { modules }.verify() } == nil)
  }

  @Test func graphShowsAsyncModulesAndWhatTheyInject() {
    let graph = Dependencies {
      Module(scope: .singleton) { () async -> AsyncHolderType in AsyncHolder() }
      Module { Database() as DatabaseType }
    }.graph()
    #expect(graph.nodes.map(\.label) == ["AsyncHolderType · .singleton", "DatabaseType"])
    #expect(
      graph.edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "AsyncHolderType -service-> DatabaseType"
      ])
  }

  /// A list of an async contribution not made yet says where the contribution was
  /// registered; `resolveAsync` of the list makes it.
  @Test func anAsyncContributionResolvedBeforeItIsMadeSaysWhereItWasRegistered() async throws {
    let container = Dependencies {
      Module.contribution("remote", scope: .singleton) { () async -> DatabaseType in Database() }
    }
    let registered = #line - 2
    let error = resolutionError { try container.resolveOrThrow([DatabaseType].self) }
    #expect(
      error?.reason == .notMadeYet(registeredAt: "ShankTests/AsyncFactoryTests.swift:\(registered)")
    )
    let all = await container.resolveAsync([DatabaseType].self)
    #expect(all.count == 1)
    #expect(container.resolve([DatabaseType].self).map(\.serial) == all.map(\.serial))
  }

  /// A shared async module whose factory closes a container, one of whose `onClose` handlers
  /// asks for that module: each would wait for the other. Whoever comes second is told, and
  /// everything finishes: begun by a resolution, the handler's resolution fails with the
  /// cycle; begun by the close, the factory's close returns without waiting.
  @Test(arguments: [false, true])
  func anAsyncFactoryAndAHandlerOfTheContainerItClosesWaitingForEachOtherFinish(
    closeFirst: Bool
  ) async {
    let box = ClosingContainerBox()
    let outcomes = Collector<String>()
    let root = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        await box.value?.close()
        outcomes.append("factory's close returned")
        return Database()
      }
    }
    let line = #line + 6
    box.value = Dependencies {
      Module(
        scope: .singleton,
        onClose: { _ in
          do throws(ResolutionError) {
            _ = try await root.resolveAsyncOrThrow(DatabaseType.self)
            outcomes.append("handler resolved")
          } catch {
            outcomes.append(error.description)
          }
        }
      ) { ServiceImpl() as Service }
    }
    _ = box.value?.resolve(Service.self)
    // Watched rather than awaited: waits for each other would hang the suite.
    Task {
      if closeFirst {
        await box.value?.close()
        outcomes.append("close returned")
      } else {
        _ = await root.resolveAsync(DatabaseType.self)
        outcomes.append("resolved")
      }
    }
    await eventually { outcomes.all.count == 3 }
    let cycle = """
      Shank found a dependency cycle resolving DatabaseType
        asked for at ShankTests/AsyncFactoryTests.swift:\(line)
        cycle: DatabaseType → close() → DatabaseType
      """
    #expect(
      outcomes.all
        == (closeFirst
          ? ["factory's close returned", "handler resolved", "close returned"]
          : [cycle, "factory's close returned", "resolved"]))
  }

  /// A shared async module whose factory awaits a reset of a scope, one of whose `onClose`
  /// handlers asks for that module: each would wait for the other, so the handler is told of
  /// the cycle, through the reset, and both finish.
  @Test func anAsyncFactoryAwaitingAResetWhoseHandlerAwaitsItIsACycle() async {
    let outcomes = Collector<String>()
    let box = ClosingContainerBox()
    let line = #line + 11
    box.value = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        await box.value?.reset(.cached("session"))
        outcomes.append("reset returned")
        return Database()
      }
      Module(
        scope: .cached("session"),
        onClose: { _ in
          do throws(ResolutionError) {
            _ = try await box.value?.resolveAsyncOrThrow(DatabaseType.self)
            outcomes.append("handler resolved")
          } catch {
            outcomes.append(error.description)
          }
        }
      ) { ServiceImpl() as Service }
    }
    _ = box.value?.resolve(Service.self)
    // Watched rather than awaited: waits for each other would hang the suite.
    Task { _ = await box.value?.resolveAsync(DatabaseType.self) }
    await eventually { outcomes.all.count == 2 }
    #expect(
      outcomes.all == [
        """
        Shank found a dependency cycle resolving DatabaseType
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          cycle: DatabaseType → reset(.cached("session")) → DatabaseType
        """,
        "reset returned",
      ])
  }

  /// How the first module of an async cycle asks for the next.
  enum AsyncCycle: CaseIterable {
    /// It awaits its own module.
    case itself
    /// It awaits the second async module, which awaits it.
    case eachOther
    /// It awaits a synchronous module, which resolves the second async one.
    case throughASynchronousModule
    /// It awaits the list of a contribution, which awaits it.
    case throughAList
  }

  /// Async modules whose factories await their own module, or each other's: a shared one's
  /// attempt would wait for the other's end, a unique one's factory would run again without
  /// end. The last to ask is told of the cycle instead, with every module on its path, the
  /// synchronous ones between included.
  @Test(arguments: [Scope.singleton, .unique], AsyncCycle.allCases)
  func asyncFactoriesAwaitingEachOthersModulesAreToldOfTheCycle(
    scope: Scope, cycle: AsyncCycle
  ) async {
    let line = #line + 4
    let container = Dependencies {
      Module(scope: scope) { () async throws -> DatabaseType in
        switch cycle {
        case .itself: _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
        case .eachOther: _ = try await Dependencies.resolveAsyncOrThrow(StoreType.self)
        case .throughASynchronousModule:
          _ = try await Dependencies.resolveAsyncOrThrow(ReportType.self)
        case .throughAList: _ = try await Dependencies.resolveAsyncOrThrow([StoreType].self)
        }
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return Report()
      }
      Module(scope: scope) { () async throws -> StoreType in
        _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
        return Database()
      }
      Module.contribution(scope: scope) { () async throws -> StoreType in
        _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
        return Database()
      }
    }
    let (path, asked): (String, Int) =
      switch cycle {
      case .itself: ("DatabaseType → DatabaseType", line)
      case .eachOther: ("DatabaseType → StoreType → DatabaseType", line + 13)
      case .throughASynchronousModule:
        ("DatabaseType → ReportType → StoreType → DatabaseType", line + 13)
      case .throughAList: ("DatabaseType → [StoreType] → StoreType → DatabaseType", line + 17)
      }
    #expect(
      await Self.outcomeOfResolvingADatabase(from: container) == [
        """
        Shank found a dependency cycle resolving DatabaseType
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          cycle: \(path)
        """
      ])
  }

  /// A module's attempt that failed leaves no wait behind that a later attempt could take for
  /// a cycle: `w` waited for `x`'s first attempt and has not resumed yet (its executor holds it
  /// back) when `x`'s second attempt asks for `w`, which is no cycle, since nothing holds the
  /// attempt that `w` waited for.
  @Test func aWaitForAnAttemptThatFailedIsNoCycleForTheNextAttempt() async {
    let executor = HoldingExecutor()
    let attempts = Counter()
    let waiting = Counter()
    let outcomes = Collector<String>()
    let container = Dependencies {
      Module("w", scope: .singleton) { () async -> DatabaseType in
        waiting.increment()
        _ = try? await withTaskExecutorPreference(executor) {
          try await Dependencies.resolveAsyncOrThrow(DatabaseType.self, name: "x")
        }
        return Database()
      }
      Module("x", scope: .singleton) { () async throws -> DatabaseType in
        guard attempts.increment() > 1 else {
          // Fails once `w` waits for this attempt, holding back `w`'s resumption.
          await eventually { waiting.value == 1 }
          try await Task.sleep(nanoseconds: 50_000_000)
          executor.hold()
          throw ConnectionRefused()
        }
        waiting.increment()
        _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self, name: "w")
        return Database()
      }
    }
    // Watched rather than awaited: a cycle refused or missed would end or hang these.
    for name in ["x", "w"] {
      Task {
        if name == "w" { await eventually { attempts.value == 1 } }
        var outcome: String
        repeat {
          do throws(ResolutionError) {
            _ = try await container.resolveAsyncOrThrow(DatabaseType.self, name: name)
            outcome = "made"
          } catch {
            outcome = error.description
          }
        } while outcome.contains("connection refused")
        outcomes.append("\(name): \(outcome)")
      }
    }
    await eventually { waiting.value == 2 }
    try? await Task.sleep(nanoseconds: 50_000_000)
    executor.release()
    await eventually { outcomes.all.count == 2 }
    #expect(outcomes.all.sorted() == ["w: made", "x: made"])
  }

  /// A task that an async factory starts and does not await is not the factory's: asking for
  /// the module being made there waits for it, as any other task does, and gets it.
  @Test func aTaskAnAsyncFactoryStartsGetsTheModuleOnceItIsMade() async {
    let asking = Counter()
    let outcome = Collector<String>()
    let container = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        Task {
          asking.increment()
          do throws(ResolutionError) {
            let made = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
            outcome.append("made \(made.serial)")
          } catch {
            outcome.append(error.description)
          }
        }
        // Returns once the task waits for this attempt.
        await eventually { asking.value == 1 }
        try? await Task.sleep(nanoseconds: 50_000_000)
        return Database()
      }
    }
    let serial = await container.resolveAsync(DatabaseType.self).serial
    await eventually { outcome.all.count == 1 }
    #expect(outcome.all == ["made \(serial)"])
  }

  /// A task that a unique async factory starts is not the factory's: asking there for the same
  /// module runs the factory again, for that task, and is no cycle.
  @Test func aTaskAUniqueAsyncFactoryStartsMakesTheModuleAgain() async throws {
    let runs = Counter()
    let container = Dependencies {
      Module(scope: .unique) { () async throws -> DatabaseType in
        if runs.increment() == 1 {
          _ = try await Task { try await Dependencies.resolveAsyncOrThrow(DatabaseType.self) }.value
        }
        return Database()
      }
    }
    _ = try await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect(runs.value == 2)
  }

  /// A unique async factory may await another unique module twice in a row, and a module that
  /// an override layer or a scope registers over it may await the one it replaces: each gets a
  /// value of its own, and none is a cycle.
  @Test func aUniqueAsyncModuleAwaitedAgainOrByOneReplacingItIsNoCycle() async throws {
    let replacing = Counter()
    let container = Dependencies {
      Module(scope: .unique) { () async throws -> StoreType in Database() }
      Module(scope: .unique) { () async throws -> DatabaseType in
        let first = try await Dependencies.resolveAsyncOrThrow(StoreType.self)
        let second = try await Dependencies.resolveAsyncOrThrow(StoreType.self)
        #expect(first !== second)
        return Database()
      }
    }
    let overridden = try await Dependencies.withOverrides {
      Module(scope: .unique) { () async throws -> StoreType in
        replacing.increment()
        return try await container.resolveAsyncOrThrow(StoreType.self)
      }
    } operation: {
      try await Dependencies.resolveAsyncOrThrow(StoreType.self)
    }
    let scoped = try await Dependencies.withScope {
      Module(scope: .unique) { () async throws -> DatabaseType in
        replacing.increment()
        return try await container.resolveAsyncOrThrow(DatabaseType.self)
      }
    } operation: {
      try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
    }
    #expect(overridden !== scoped)
    #expect(replacing.value == 2)
  }

  /// An async factory that resolves a synchronous module whose factory asks for the async
  /// one back: told of the cycle, not that its module is not made yet, which would send it
  /// to the `resolveAsync` it came from.
  @Test(arguments: [Scope.singleton, .unique])
  func anAsyncFactoryResolvingItselfThroughASynchronousModuleIsToldOfTheCycle(
    scope: Scope
  ) async {
    let line = #line + 7
    let container = Dependencies {
      Module(scope: scope) { () async throws -> DatabaseType in
        _ = try Dependencies.resolveOrThrow(ReportType.self)
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    #expect(
      await Self.outcomeOfResolvingADatabase(from: container) == [
        """
        Shank found a dependency cycle resolving DatabaseType
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          cycle: DatabaseType → ReportType → DatabaseType
        """
      ])
  }

  /// An async contribution whose factory resolves its own list is told of the cycle as a
  /// synchronous one is: entered through the list, the loop goes through the list first;
  /// entered through its dictionary, which is no part of the loop, it starts at the
  /// contribution.
  @Test(arguments: [Scope.singleton, .unique], [false, true])
  func anAsyncContributionResolvingItsListIsToldOfTheCycleAsASynchronousOneIs(
    scope: Scope, throughItsDictionary: Bool
  ) async {
    let line = #line + 4
    let container = Dependencies {
      Module.contribution(throughItsDictionary ? "a" : nil, scope: scope) {
        () async throws -> StoreType in
        _ = try Dependencies.resolveOrThrow([StoreType].self)
        return Database()
      }
    }
    let (outcome, key, loop) =
      throughItsDictionary
      ? (
        await Self.outcome(of: [String: StoreType].self, from: container),
        #"StoreType named "a""#, #"StoreType named "a" → [StoreType] → StoreType named "a""#
      )
      : (
        await Self.outcome(of: [StoreType].self, from: container), "[StoreType]",
        "[StoreType] → StoreType → [StoreType]"
      )
    #expect(
      outcome == [
        """
        Shank found a dependency cycle resolving \(key)
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          cycle: \(loop)
        """
      ])
  }

  /// A shared async module asked for synchronously by the factory of another, whose attempt the
  /// first one's factory awaits: told of the cycle, as awaiting it would be, not that it is not
  /// made yet, which would send the asker to await it.
  @Test func aSharedAttemptAskedForByAnAttemptItAwaitsIsToldOfTheCycle() async {
    let line = #line + 7
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        _ = try await Dependencies.resolveAsyncOrThrow(StoreType.self)
        return Database()
      }
      Module(scope: .singleton) { () async throws -> StoreType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Database()
      }
    }
    #expect(
      await Self.outcomeOfResolvingADatabase(from: container) == [
        """
        Shank found a dependency cycle resolving DatabaseType
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          cycle: DatabaseType → StoreType → DatabaseType
        """
      ])
  }

  /// Asking whether a synchronous ask for a running attempt closes a cycle records no wait that
  /// another task could meet: an attempt that awaits the asker's meanwhile is not refused, and
  /// is made once the asker's is.
  @Test func aSynchronousAskLeavesNoWaitThatMakesAnotherTasksAwaitACycle() async {
    for _ in 0..<50 {
      let storeStarted = Counter()
      let container = Dependencies {
        Module(scope: .singleton) { () async throws -> StoreType in
          storeStarted.increment()
          try await Task.sleep(nanoseconds: UInt64.random(in: 0...200_000))
          _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
          return Database()
        }
        Module(scope: .singleton) { () async throws -> DatabaseType in
          await eventually { storeStarted.value == 1 }
          // Asks without waiting until the store's wait for this attempt is recorded, when
          // the ask is told of the cycle, or a while has passed.
          let deadline = DispatchTime.now() + 0.05
          while DispatchTime.now() < deadline {
            do throws(ResolutionError) {
              _ = try Dependencies.resolveOrThrow(StoreType.self)
            } catch {
              if case .cycle = error.reason { break }
            }
          }
          return Database()
        }
      }
      async let database = Self.outcome(of: DatabaseType.self, from: container)
      try? await Task.sleep(nanoseconds: 1_000_000)
      async let store = Self.outcome(of: StoreType.self, from: container)
      let outcomes = await [database, store]
      #expect(outcomes == [["made"], ["made"]])
      if outcomes != [["made"], ["made"]] { break }
    }
  }

  /// An attempt told that a shared async module is not made yet, which another attempt starts
  /// before it comes to await it, and whose factory awaits the asker's: whichever of the two
  /// comes to await the other second is told of the cycle, where it asked, and neither hangs.
  /// Each asker is told of one of the two: when the pool runs other tests' jobs, the store's
  /// attempt may start only once the first has failed, and each then closes its own cycle.
  @Test func anAttemptStartedBetweenAnAskAndItsAwaitClosesACycleThatIsTold() async {
    let askedForTheStore = Counter()
    let storeStarted = Counter()
    let reportLine = #line + 13
    let storeLine = #line + 26
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        // On a queue of its own: the report's factory holds the thread it runs on, which in
        // the shared pool would leave the store's attempt it waits for too few threads.
        _ = try await withTaskExecutorPreference(HoldingExecutor()) {
          try await Dependencies.resolveAsyncOrThrow(ReportType.self)
        }
        return Database()
      }
      Module(scope: .unique) { () throws -> ReportType in
        do {
          _ = try Dependencies.resolveOrThrow(StoreType.self)
        } catch {
          // Told the store is not made yet: holds the loop that would await it until the
          // store's attempt has started and, but for a thread held back for 200 ms, come to
          // await this one.
          askedForTheStore.increment()
          holdUntil(atMost: 10) { storeStarted.value > 0 }
          usleep(200_000)
          throw error
        }
        return Report()
      }
      Module(scope: .singleton) { () async throws -> StoreType in
        storeStarted.increment()
        _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
        return Database()
      }
    }
    async let database = Self.outcome(of: DatabaseType.self, from: container)
    await eventually { askedForTheStore.value == 1 }
    async let store = Self.outcome(of: StoreType.self, from: container)
    let outcomes = await [database, store]
    let closedByTheReport = """
      Shank found a dependency cycle resolving StoreType
        asked for at ShankTests/AsyncFactoryTests.swift:\(reportLine)
        cycle: StoreType → DatabaseType → ReportType → StoreType
      """
    let closedByTheStore = """
      Shank found a dependency cycle resolving DatabaseType
        asked for at ShankTests/AsyncFactoryTests.swift:\(storeLine)
        cycle: DatabaseType → ReportType → StoreType → DatabaseType
      """
    #expect(
      outcomes.allSatisfy { [[closedByTheReport], [closedByTheStore]].contains($0) },
      "\(outcomes)")
  }

  /// A `.weak` async module that a synchronous factory reads twice, letting go of it in
  /// between, is made once, decorated or not, through `resolveAsync` or `start()`: the
  /// resolution holds what the provider kept until it returns, so its next round, which reads
  /// it twice again, finds it both times.
  @Test(arguments: [false, true], [false, true])
  func aWeakAsyncModuleReadTwiceByASynchronousFactoryIsMadeOnce(decorated: Bool, starting: Bool)
    async throws
  {
    let made = Counter()
    let read = Collector<ObjectIdentifier>()
    let container = Dependencies {
      Module(scope: .weak) { try await Self.connectedDatabase(made) }
      if decorated { Module.decorating(DatabaseType.self) { WrappedDatabase($0) as DatabaseType } }
      Module(scope: .singleton, eager: starting) { () throws -> ReportType in
        read.append(ObjectIdentifier(try Dependencies.resolveOrThrow(DatabaseType.self)))
        read.append(ObjectIdentifier(try Dependencies.resolveOrThrow(DatabaseType.self)))
        return Report()
      }
    }
    if starting {
      _ = try await container.start()
    } else {
      #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    }
    #expect(made.value == 1)
    let reads = read.all.suffix(2)
    #expect(reads.count == 2 && reads.first == reads.last)
  }

  /// A value type has no identity to keep weakly: a `.weak` async one that a synchronous
  /// factory reads twice is refused as not kept.
  @Test func aWeakAsyncValueReadTwiceByASynchronousFactoryIsRefusedAsNotKept() async {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .weak) { () async -> Int in
        made.increment()
        return 7
      }
      Module(scope: .singleton) { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(Int.self)
        _ = try Dependencies.resolveOrThrow(Int.self)
        return Report()
      }
    }
    let lines = await Self.outcome(of: ReportType.self, from: container).first?.split(
      separator: "\n")
    #expect(
      lines?.first
        == "Shank cannot resolve Int synchronously: its factory is async, and this container does not keep what it made before"
    )
    #expect(
      lines?.last
        == "  it was made and lost twice for this resolution before it was asked for again, as to a decorator that fails on it, or to a .weak scope, which keeps no value type"
    )
    #expect(made.value == 2)
  }

  /// A decorated `.weak` async contribution whose list a synchronous factory reads twice is
  /// made once, as a module is.
  @Test func aDecoratedWeakAsyncContributionReadTwiceIsMadeOnce() async {
    let made = Counter()
    let container = Dependencies {
      Module.contribution(scope: .weak) { try await Self.connectedDatabase(made) }
      Module.decorating(DatabaseType.self) { WrappedDatabase($0) as DatabaseType }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow([DatabaseType].self)
        _ = try Dependencies.resolveOrThrow([DatabaseType].self)
        return Report()
      }
    }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    #expect(made.value == 1)
  }

  /// A `.cached` async module whose scope is reset between a synchronous factory's two reads
  /// of it, in two rounds in a row, is made a third time: the round lost it to a reset, which
  /// another task may as well have made, not to anything a next round would do again. So it is
  /// when the second read is through another of its types.
  @Test(arguments: [false, true])
  func aScopeResetBetweenTwoReadsInTwoRoundsIsNoRefusal(throughAlias: Bool) async {
    let made = Counter()
    let resets = Counter()
    let container = Dependencies {
      Module(scope: .cached("session"), as: DatabaseType.self, StoreType.self) {
        () async -> Database in
        made.increment()
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        // Here rather than on another thread, which the factory would have to block for.
        if resets.increment() <= 2 { Dependencies.current.reset(.cached("session")) }
        if throughAlias {
          _ = try Dependencies.resolveOrThrow(StoreType.self)
        } else {
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        }
        return Report()
      }
    }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    #expect(made.value == 3)
  }

  /// Async modules of one short name, each feature's `Client`, are modules of their own to a
  /// synchronous factory whose path changes once one is made: it gets each one made. So are
  /// modules that each make one class, registered as each feature's `Client` (`as:`).
  @Test(arguments: [false, true])
  func modulesOfOneShortNameAreModulesOfTheirOwnToAFactoryWhosePathChanges(oneClass: Bool)
    async
  {
    let made = Collector<String>()
    let container = Dependencies {
      if oneClass {
        Module(scope: .singleton, as: FeatureA.Client.self) { () async in
          made.append("A")
          return FeaturesClient()
        }
        Module(scope: .singleton, as: FeatureB.Client.self) { () async in
          made.append("B")
          return FeaturesClient()
        }
        Module(scope: .singleton, as: FeatureC.Client.self) { () async in
          made.append("C")
          return FeaturesClient()
        }
      } else {
        Module(scope: .singleton) { () async -> FeatureA.Client in
          made.append("A")
          return FeaturesClient()
        }
        Module(scope: .singleton) { () async -> FeatureB.Client in
          made.append("B")
          return FeaturesClient()
        }
        Module(scope: .singleton) { () async -> FeatureC.Client in
          made.append("C")
          return FeaturesClient()
        }
      }
      Module { () throws -> ReportType in
        // Each made sends the next round to the next first.
        if made.all.contains("B") { _ = try Dependencies.resolveOrThrow(FeatureC.Client.self) }
        if made.all.contains("A") { _ = try Dependencies.resolveOrThrow(FeatureB.Client.self) }
        _ = try Dependencies.resolveOrThrow(FeatureA.Client.self)
        return Report()
      }
    }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    #expect(made.all == ["A", "B", "C"])
  }

  /// A synchronous factory that loses, in turn, the value of one shared async module and then
  /// of another, to decorators that always fail on them, is told once it has lost one twice,
  /// as one that always loses the same one is.
  @Test func valuesLostInTurnFromTwoModulesAreNotMadeWithoutEnd() async {
    let made = Counter()
    let runs = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.increment()
        return Database()
      }
      Module(scope: .singleton) { () async -> StoreType in
        made.increment()
        return Database()
      }
      Module.decorating(DatabaseType.self) { (_: DatabaseType) throws -> DatabaseType in
        throw StubFailure()
      }
      Module.decorating(StoreType.self) { (_: StoreType) throws -> StoreType in
        throw StubFailure()
      }
      Module { () throws -> ReportType in
        if runs.increment() % 2 == 1 {
          _ = try? Dependencies.resolveOrThrow(DatabaseType.self)
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        } else {
          _ = try? Dependencies.resolveOrThrow(StoreType.self)
          _ = try Dependencies.resolveOrThrow(StoreType.self)
        }
        return Report()
      }
    }
    let outcome = await Self.outcome(of: ReportType.self, from: container)
    #expect(
      outcome.first?.hasSuffix(
        "  it was made and lost twice for this resolution before it was asked for again, as to a decorator that fails on it, or to a .weak scope, which keeps no value type"
      ) == true)
    #expect(made.value == 4)
  }

  /// A synchronous factory whose decorators each fail once, on two modules in turn, gets both
  /// kept in the end: a module lost once is no refusal.
  @Test func decoratorsThatEachFailOnceOnTwoModulesAreNoRefusal() async {
    let made = Collector<String>()
    let failed = Collector<String>()
    let container = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.append("database")
        return Database()
      }
      Module(scope: .singleton) { () async -> StoreType in
        made.append("store")
        return Database()
      }
      Module.decorating(DatabaseType.self) { (database: DatabaseType) throws -> DatabaseType in
        if !failed.all.contains("database") {
          failed.append("database")
          throw StubFailure()
        }
        return database
      }
      Module.decorating(StoreType.self) { (store: StoreType) throws -> StoreType in
        if !failed.all.contains("store") {
          failed.append("store")
          throw StubFailure()
        }
        return store
      }
      Module { () throws -> ReportType in
        if made.all.contains("store") {
          _ = try? Dependencies.resolveOrThrow(DatabaseType.self)
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        }
        _ = try? Dependencies.resolveOrThrow(StoreType.self)
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return Report()
      }
    }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    #expect(made.all == ["store", "database", "database", "store"])
  }

  /// A module that a child container registers over its parent's and grandparent's, each
  /// async, met in each of the three by a synchronous factory whose path changes once one is
  /// made, is made in each: layers made before the call are none made anew.
  @Test func oneKeyInEachLayerUnderTheContainerIsMadeInEach() async {
    let made = Collector<String>()
    let grandparent = Dependencies {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.append("grandparent")
        return Database()
      }
      Module(scope: .singleton) { () throws -> FeatureA.Client in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return FeaturesClient()
      }
    }
    let parent = Dependencies(over: grandparent) {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.append("parent")
        return Database()
      }
      Module(scope: .singleton) { () throws -> FeatureB.Client in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return FeaturesClient()
      }
    }
    let child = Dependencies(over: parent) {
      Module(scope: .singleton) { () async -> DatabaseType in
        made.append("child")
        return Database()
      }
      Module { () throws -> ReportType in
        // Each made sends the next round to the next layer down first.
        if made.all.contains("parent") { _ = try Dependencies.resolveOrThrow(FeatureA.Client.self) }
        if made.all.contains("child") { _ = try Dependencies.resolveOrThrow(FeatureB.Client.self) }
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    #expect(await Self.outcome(of: ReportType.self, from: child) == ["made"])
    #expect(made.all == ["child", "parent", "grandparent"])
  }

  /// A task that a synchronous factory starts while `resolveAsync` runs it does not keep the
  /// resolution's `.weak` async modules alive once the resolution has returned.
  @Test(arguments: [false, true])
  func aWeakAsyncModuleIsFreedOnceTheResolutionReturns(startingATask: Bool) async throws {
    let made = WeakBox()
    let stop = Counter()
    let container = Dependencies {
      Module(scope: .weak) { () async -> Service in
        let service = ServiceImpl()
        made.made = service
        return service
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(Service.self)
        if startingATask {
          Task { while stop.value == 0 { try? await Task.sleep(nanoseconds: 1_000_000) } }
        }
        return Report()
      }
    }
    _ = try await container.resolveAsyncOrThrow(ReportType.self)
    let freed = made.made == nil
    stop.increment()
    #expect(freed)
  }

  /// An async singleton whose decorator reads another async module is made again once that
  /// one is made, since the decorator failed on the first: `resolveAsync` and `start()` give
  /// the decorated instance.
  @Test(arguments: [false, true])
  func aDecoratorThatReadsAnAsyncModuleGetsItMadeFirst(starting: Bool) async throws {
    let container = Dependencies {
      Module(scope: .singleton, eager: starting) { () async throws -> DatabaseType in Database() }
      Module(scope: .singleton) { () async throws -> StoreType in Database() }
      Module.decorating(DatabaseType.self) { database in
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return WrappedDatabase(database)
      }
    }
    if starting {
      _ = try await container.start()
      #expect(try container.resolveOrThrow(DatabaseType.self) is WrappedDatabase)
    } else {
      #expect(try await container.resolveAsyncOrThrow(DatabaseType.self) is WrappedDatabase)
    }
  }

  /// A shared async module that a resolution read, which loses its instance while the
  /// resolution makes another it needs, to a release or a reset, is made again.
  @Test(arguments: [Scope.weak, .cached("session")])
  func aModuleThatLosesItsInstanceMeanwhileIsMadeAgain(scope: Scope) async throws {
    let held = Held()
    let container = Dependencies {
      Module(scope: scope) { () async throws -> DatabaseType in Database() }
      Module(scope: .singleton) { () async throws -> StoreType in
        held.value = nil
        if scope != .weak { await Dependencies.current.reset(scope) }
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return Report()
      }
    }
    held.value = try await container.resolveAsyncOrThrow(DatabaseType.self)
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
  }

  /// A synchronous factory that asks again for a shared async module whose value it lost in
  /// the same run, as each of its runs does, to a decorator that always fails on it, is told
  /// that the container does not keep it, after two such runs, rather than making values
  /// without end.
  @Test func aModuleLostInEveryRunThatHandedItIsNotMadeWithoutEnd() async {
    let made = Counter()
    let registered = #line + 2
    let container = Dependencies {
      Module(scope: .cached("session")) { () async -> DatabaseType in
        made.increment()
        return Database()
      }
      Module.decorating(DatabaseType.self) { (_: DatabaseType) throws -> DatabaseType in
        throw StubFailure()
      }
      Module { () throws -> ReportType in
        _ = try? Dependencies.resolveOrThrow(DatabaseType.self)
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    #expect(
      await Self.outcome(of: ReportType.self, from: container) == [
        """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and this container does not keep what it made before
          asked for at ShankTests/AsyncFactoryTests.swift:\(registered + 9)
          while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(registered + 7), was being made
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          it was made and lost twice for this resolution before it was asked for again, as to a decorator that fails on it, or to a .weak scope, which keeps no value type
        """
      ])
    #expect(made.value == 2)
  }

  /// A module another task resets while its factory runs, in two makings in a row, is made a
  /// third time for a synchronous factory that reads it twice: what a reset made it lose is
  /// not the resolution's own loss.
  @Test func resetsByAnotherTaskWhileItIsMadeAreNoRefusal() async {
    let made = Counter()
    let resets = Counter()
    let container = Dependencies {
      Module(scope: .cached("session")) { () async -> DatabaseType in
        let making = made.increment()
        if making <= 2 { await eventually { resets.value >= making } }
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    async let outcome = Self.outcome(of: ReportType.self, from: container)
    for making in 1...2 {
      await eventually { made.value == making }
      await container.reset(.cached("session"))
      resets.increment()
    }
    #expect(await outcome == ["made"])
    #expect(made.value == 3)
  }

  /// A `.weak` async module's value that was made and never taken, as the resolution that
  /// asked for it went another way, is not disposed of when its container goes: a `.weak`
  /// module's `onClose` never runs.
  @Test func aWeakValueMadeAndNeverTakenIsNotDisposedOf() async {
    let made = Counter()
    let closed = Counter()
    do {
      let container = Dependencies {
        Module(scope: .weak, onClose: { (_: DatabaseType) in closed.increment() }) {
          () async -> DatabaseType in
          made.increment()
          return Database()
        }
        Module { () throws -> ReportType in
          // The second round goes another way, and never takes what the first awaited.
          if made.value > 0 { throw StubFailure() }
          _ = try Dependencies.resolveOrThrow(DatabaseType.self)
          return Report()
        }
      }
      _ = await Self.outcome(of: ReportType.self, from: container)
      await container.close()
    }
    try? await Task.sleep(nanoseconds: 300_000_000)
    #expect(made.value == 1)
    #expect(closed.value == 0)
  }

  /// A `.weak` value that only the resolution that made it held is freed once it returns.
  @Test func aWeakValueOnlyTheResolutionHeldIsFreedOnceItReturns() async throws {
    let container = Dependencies {
      Module(scope: .weak) { () async throws -> DatabaseType in Database() }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    _ = try await container.resolveAsyncOrThrow(ReportType.self)
    #expect(throws: ResolutionError.self) { try container.resolveOrThrow(DatabaseType.self) }
  }

  /// Where a factory finds the modules it resolves.
  enum Layer: CaseIterable, Sendable {
    /// The container resolved from.
    case own
    /// A child of it, made before the call.
    case childMadeBefore
    /// A child the factory makes in its first run, and keeps.
    case childMadeOnce
    /// A child made before the call that registers every other module again, over the
    /// container resolved from, which registers them all.
    case childOverridingSome
  }

  /// A synchronous factory whose path changes each time an async module it awaited is made,
  /// so that it then meets another before it comes to those made, gets each one made, however
  /// many rounds in a row that takes, wherever it finds them.
  @Test(arguments: Layer.allCases)
  func aFactoryWhosePathChangesOnceAModuleIsMadeGetsWhatItMeetsMade(in layer: Layer) async {
    let made = Collector<String>()
    let stages = ["a", "b", "c", "d"]
    let modules = stages.map { stage in
      Module(stage, scope: .singleton) { () async -> DatabaseType in
        made.append(stage)
        return Database()
      }
    }
    let child = Collector<Dependencies>()
    let container = Dependencies {
      if layer == .own || layer == .childOverridingSome { modules }
      Module { () throws -> ReportType in
        if layer == .childMadeOnce, child.all.isEmpty {
          child.append(Dependencies(over: .current) { modules })
        }
        let from = child.all.first ?? .current
        // Each stage made sends the next round to the one after it first.
        for (stage, next) in zip(stages, stages.dropFirst()).reversed()
        where made.all.contains(stage) {
          _ = try from.resolveOrThrow(DatabaseType.self, name: next)
        }
        _ = try from.resolveOrThrow(DatabaseType.self, name: "a")
        return Report()
      }
    }
    if layer == .childMadeBefore { child.append(Dependencies(over: container) { modules }) }
    if layer == .childOverridingSome {
      child.append(Dependencies(over: container) { [modules[1], modules[3]] })
    }
    #expect(await Self.outcome(of: ReportType.self, from: container) == ["made"])
    #expect(made.all == stages)
  }

  /// A synchronous factory that makes anew, each time it runs, the layer it resolves an async
  /// module from is told that the module is not made, once two of its runs in a row have met
  /// a new layer's module instead of the one made for the run before: making more would go on
  /// for ever.
  @Test(arguments: [false, true])
  func anAsyncModuleOfALayerASynchronousFactoryMakesAnewIsNotMadeForEver(override: Bool) async {
    let made = Counter()
    let registered = #line + 1
    let database = Module(scope: .singleton) { () async throws -> DatabaseType in
      made.increment()
      return Database()
    }
    let line = #line + 7
    let container = Dependencies {
      Module { () throws -> ReportType in
        if override {
          try Dependencies.withOverrides {
            database
          } operation: {
            _ = try Dependencies.resolveOrThrow(DatabaseType.self)
          }
        } else {
          _ = try Dependencies(over: .current) { database }.resolveOrThrow(DatabaseType.self)
        }
        return Report()
      }
    }
    #expect(
      await Self.outcome(of: ReportType.self, from: container) == [
        """
        Shank cannot resolve DatabaseType synchronously: its factory is async, and nothing has made it in this container yet
          asked for at ShankTests/AsyncFactoryTests.swift:\(override ? line : line + 3)
          while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(line - 5), was being made
          it was registered at ShankTests/AsyncFactoryTests.swift:\(registered) with an async factory
          the factory that asks for it met it in another container than the one it was made in for the run before, and left that one unused, twice, as one that makes a child or withOverrides layer anew at every run does: make that layer once, outside the factory
        """
      ])
    #expect(made.value == 2)
  }

  /// A synchronous factory that keeps every layer it makes and reads the async module of the
  /// one it made the run before, then its new one's, takes a value each run, so that no run
  /// looks stalled, and would make one for ever: it is told the module is not made after
  /// 1,000 runs.
  @Test func aFactoryThatTakesWhatTheRunBeforeMadeIsToldAfterTheMostRounds() async {
    let made = Counter()
    let layers = Collector<Dependencies>()
    let database = Module(scope: .singleton) { () async throws -> DatabaseType in
      made.increment()
      return Database()
    }
    let container = Dependencies {
      Module { () throws -> ReportType in
        let layer = Dependencies(over: .current) { database }
        _ = try layers.all.last?.resolveOrThrow(DatabaseType.self)
        layers.append(layer)
        _ = try layer.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    Self.expectGivenUpAfterTheMostRounds(
      await Self.outcome(of: ReportType.self, from: container), made: made.value)
  }

  /// A synchronous factory that meets 1,000 async modules not made yet, one more each round,
  /// is refused once it has gone round 1,000 times, as its documentation says: the rounds
  /// cannot tell them from modules made anew.
  /// So is one that catches each absence, whose module is then made without them and not kept.
  @Test(arguments: [false, true])
  func aFactoryMeetingTheMostRoundsOfUnmadeModulesIsToldAfterThem(catching: Bool) async {
    let made = Counter()
    let line = #line + 3
    let container = Dependencies {
      for index in 0..<1_000 {
        Module(String(index), scope: .singleton) { () async -> DatabaseType in
          made.increment()
          return Database()
        }
      }
      Module(scope: .singleton) { () throws -> ReportType in
        for index in 0..<1_000 {
          let name = String(index)
          let database = Result { try Dependencies.resolveOrThrow(DatabaseType.self, name: name) }
          // Caught, the first absence ends the loop, as one that comes through does.
          if catching, case .failure = database { break }
          _ = try database.get()
        }
        return Report()
      }
    }
    let outcome = await Self.outcome(of: ReportType.self, from: container)
    #expect(
      outcome.first?.hasPrefix(
        """
        Shank cannot resolve DatabaseType named "999" synchronously: its factory is async, and the resolution that makes what the synchronous factories ask for gave up
          asked for at ShankTests/AsyncFactoryTests.swift:\(line + 8)
          while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(line + 5), was being made
          it was registered at ShankTests/AsyncFactoryTests.swift:\(line) with an async factory
        """) == true)
    #expect(made.value == 999)
  }

  /// A synchronous factory that reads twice a `.cached` async module whose scope is reset in
  /// every round, between its reads or by the module's own factory as it is made, loses each
  /// value it is made, and is told so after 1,000 rounds, rather than making values for ever.
  @Test(arguments: [false, true])
  func aScopeResetInEveryRoundEndsAfterTheMostRounds(byItsOwnFactory: Bool) async {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .cached("session")) { () async -> DatabaseType in
        made.increment()
        if byItsOwnFactory { await Dependencies.current.reset(.cached("session")) }
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        if !byItsOwnFactory { Dependencies.current.reset(.cached("session")) }
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    Self.expectGivenUpAfterTheMostRounds(
      await Self.outcome(of: ReportType.self, from: container), made: made.value)
  }

  /// A synchronous factory that makes anew the layer it resolves an async module from, under a
  /// name of its own each time, or only in every other run, is told that the module is not
  /// made once it has met it in a new layer twice, as one that makes it anew in every run
  /// under one name is.
  @Test(arguments: [false, true])
  func aLayerMadeAnewUnderAFreshNameOrInEveryOtherRunIsNotMadeForEver(everyOtherRun: Bool)
    async
  {
    let runs = Counter()
    let made = Counter()
    let container = Dependencies {
      Module { () async -> StoreType in Database() }
      Module { () throws -> ReportType in
        let run = runs.increment()
        if everyOtherRun, run.isMultiple(of: 2) {
          // Goes round once more, for a value of its own.
          for _ in 0..<run { _ = try Dependencies.resolveOrThrow(StoreType.self) }
          return Report()
        }
        let name = everyOtherRun ? nil : "request \(run)"
        let layer = Dependencies(over: .current) {
          Module(name, scope: .singleton) { () async -> DatabaseType in
            made.increment()
            return Database()
          }
        }
        _ = try layer.resolveOrThrow(DatabaseType.self, name: name)
        return Report()
      }
    }
    let outcome = await Self.outcome(of: ReportType.self, from: container)
    #expect(
      outcome.first?.hasSuffix(
        "  the factory that asks for it met it in another container than the one it was made in for the run before, and left that one unused, twice, as one that makes a child or withOverrides layer anew at every run does: make that layer once, outside the factory"
      ) == true)
    #expect(made.value == 2)
  }

  /// An async module whose factory throws, asked for by a synchronous factory, is told where
  /// that factory asked for it and which module it was making, as a synchronous module's
  /// failure is, not where the resolution that awaits it began.
  @Test func anAsyncFactorysFailureMetThroughASynchronousOneNamesWhereItWasAskedFor() async {
    let line = #line + 6
    let container = Dependencies {
      Module(scope: .singleton) { () async throws -> DatabaseType in
        throw ConnectionRefused()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return Report()
      }
    }
    #expect(
      await Self.outcome(of: ReportType.self, from: container) == [
        """
        Shank cannot resolve DatabaseType: its factory registered at ShankTests/AsyncFactoryTests.swift:\(line - 4) threw connection refused
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          while ReportType, registered at ShankTests/AsyncFactoryTests.swift:\(line - 1), was being made
        """
      ])
  }

  /// A unique async factory awaiting its own module through a synchronous module and a shared
  /// async one, whose factory runs in a task of its own: that attempt is told of the cycle,
  /// rather than the unique factory running again without end.
  @Test func aUniqueAsyncFactoryAwaitingItselfThroughASharedOneIsToldOfTheCycle() async {
    // Where the synchronous factory asks for the shared one, as a synchronous cycle is told.
    let line = #line + 7
    let container = Dependencies {
      Module(scope: .unique) { () async throws -> DatabaseType in
        _ = try await Dependencies.resolveAsyncOrThrow(ReportType.self)
        return Database()
      }
      Module(scope: .unique) { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return Report()
      }
      Module(scope: .singleton) { () async throws -> StoreType in
        _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self)
        return Database()
      }
    }
    #expect(
      await Self.outcomeOfResolvingADatabase(from: container) == [
        """
        Shank found a dependency cycle resolving StoreType
          asked for at ShankTests/AsyncFactoryTests.swift:\(line)
          cycle: StoreType → DatabaseType → ReportType → StoreType
        """
      ])
  }

  /// What resolving `DatabaseType` from `container` ends in: "made", or the error's message.
  /// Watched rather than awaited: a cycle missed would hang the suite, or recurse.
  static func outcomeOfResolvingADatabase(from container: Dependencies) async -> [String] {
    await outcome(of: DatabaseType.self, from: container)
  }

  /// Expects `outcome` to be the error of a resolution that `makingAsyncModules` gave up on
  /// after its 1,000 rounds, asking for a `DatabaseType`, which each round but the last made.
  static func expectGivenUpAfterTheMostRounds(
    _ outcome: [String], made: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(outcome.count == 1, sourceLocation: sourceLocation)
    #expect(
      outcome.first?.hasPrefix(
        "Shank cannot resolve DatabaseType synchronously: its factory is async, and the resolution that makes what the synchronous factories ask for gave up"
      ) == true, sourceLocation: sourceLocation)
    #expect(
      outcome.first?.hasSuffix(
        "  it ran the synchronous factories 1000 times, making the async module each run met, and no run found every one made and kept: a synchronous factory that reads .unique async modules that many times, or whose scope other tasks reset more often than it runs, never finishes; have an async factory await them with Dependencies.resolveAsync instead"
      ) == true, sourceLocation: sourceLocation)
    #expect(made == 999, sourceLocation: sourceLocation)
  }

  /// What resolving `T` from `container` ends in, watched as ``outcomeOfResolvingADatabase(from:)``.
  static func outcome<T: Sendable>(of type: T.Type, from container: Dependencies) async
    -> [String]
  {
    let outcome = Collector<String>()
    Task {
      do throws(ResolutionError) {
        _ = try await container.resolveAsyncOrThrow(T.self)
        outcome.append("made")
      } catch {
        outcome.append(error.description)
      }
    }
    await eventually { outcome.all.count == 1 }
    return outcome.all
  }

  /// Whether a unique factory in `aTaskStartedOnceAUniqueAsyncFactoryEndedIsNoPartOfItsChain`
  /// is asked for by a task it started, so that only the first one starts more.
  @TaskLocal static var askedByALaterTask = false

  /// The serial of the database that `container` resolves in a task of its own, or the error.
  static func resolvedInATaskOfItsOwn(_ container: Dependencies) async -> String {
    await Task {
      do throws(ResolutionError) {
        return "made \(try await container.resolveAsyncOrThrow(DatabaseType.self).serial)"
      } catch {
        return error.description
      }
    }.value
  }

  /// A task that a unique async factory starts inherits the factory's chain; tasks it starts
  /// once the factory's task has ended, some of which the runtime places where that task was,
  /// are no part of the chain either: asking there for the module makes it, and is no cycle.
  /// Many rounds, so that a task lands where an ended one was.
  @Test func aTaskStartedOnceAUniqueAsyncFactoryEndedIsNoPartOfItsChain() async {
    let rounds = 10
    let asks = 200
    let asked = Counter()
    let outcomes = Collector<String>()
    let container = Dependencies {
      Module(scope: .unique) { () async -> DatabaseType in
        guard !Self.askedByALaterTask else { return Database() }
        let round = asked.value
        Task {
          await eventually { asked.value > round }
          for _ in 0..<asks {
            let outcome = await Self.$askedByALaterTask.withValue(true) {
              await Self.resolvedInATaskOfItsOwn(Dependencies.current)
            }
            outcomes.append(outcome)
          }
        }
        return Database()
      }
    }
    for _ in 0..<rounds {
      _ = await Self.resolvedInATaskOfItsOwn(container)
      asked.increment()
    }
    await eventually { outcomes.all.count == rounds * asks }
    #expect(outcomes.all.count == rounds * asks)
    #expect(outcomes.all.filter { !$0.hasPrefix("made ") }.first == nil)
  }

  /// An async factory running when its container closes runs to its end, as a synchronous one
  /// does: what it resolves from its container resolves as before the close, and the instance
  /// it makes is handed to whoever asked and disposed of at once, through a child container
  /// over it too, which then finds the container closed.
  @Test(arguments: [false, true])
  func anAsyncFactoryRunningWhenItsContainerClosesRunsToItsEnd(askingAChild: Bool) async throws {
    let started = Counter()
    let closed = Counter()
    let disposed = Collector<Int>()
    let container = Dependencies {
      Module(scope: .singleton) { ServiceImpl() as Service }
      Module(scope: .singleton, onClose: { disposed.append($0.serial) }) {
        () async throws -> DatabaseType in
        started.increment()
        await eventually { closed.value == 1 }
        _ = try Dependencies.resolveOrThrow(Service.self)
        return Database()
      }
    }
    let child = Dependencies(over: container) {}
    let asked = Task {
      try await (askingAChild ? child : container).resolveAsyncOrThrow(DatabaseType.self).serial
    }
    await eventually { started.value == 1 }
    await container.close()
    closed.increment()
    let serial = try await asked.value
    await eventually { disposed.all.count == 1 }
    #expect(disposed.all == [serial])
    let afterwards = resolutionError { try child.resolveOrThrow(DatabaseType.self) }
    #expect(afterwards.map { if case .closed = $0.reason { true } else { false } } == true)
  }

  /// A task that an async factory starts outlives it: once the factory has returned, it finds
  /// the container closed, as any other resolution does, and makes nothing there.
  @Test(arguments: [false, true])
  func aTaskAnAsyncFactoryStartedFindsTheContainerClosedOnceTheFactoryReturned(
    asynchronously: Bool
  ) async throws {
    let closed = Counter()
    let made = Counter()
    let outcome = Collector<String>()
    let container = Dependencies {
      Module("late", scope: .cached("late")) { () -> DatabaseType in
        made.increment()
        return Database()
      }
      Module(scope: .singleton) { () async -> DatabaseType in
        Task {
          await eventually { closed.value == 1 }
          do throws(ResolutionError) {
            if asynchronously {
              _ = try await Dependencies.resolveAsyncOrThrow(DatabaseType.self, name: "late")
            } else {
              _ = try Dependencies.resolveOrThrow(DatabaseType.self, name: "late")
            }
            outcome.append("made")
          } catch {
            guard case .closed = error.reason else { return outcome.append(error.description) }
            outcome.append("closed")
          }
        }
        return Database()
      }
    }
    _ = try await container.resolveAsyncOrThrow(DatabaseType.self)
    await container.close()
    closed.increment()
    await eventually { outcome.all.count == 1 }
    #expect(outcome.all == ["closed"])
    #expect(made.value == 0)
  }

  /// An actor-bound factory's making ends as the factory returns, not once its actor, busy
  /// meanwhile, takes the resolution back: a task the factory started finds the container
  /// closed by then.
  @Test func aTaskAnActorBoundFactoryStartedFindsTheContainerClosedWhileItsActorIsBusy()
    async throws
  {
    let containers = Collector<Dependencies>()
    let outcome = Collector<String>()
    let bound = await BusyActor().module(closing: containers, outcome: outcome)
    let container = Dependencies {
      Module("late", scope: .cached("late")) { () -> DatabaseType in Database() }
      bound
    }
    containers.append(container)
    _ = try? await container.resolveAsyncOrThrow(DatabaseType.self)
    await eventually { outcome.all.count == 1 }
    #expect(outcome.all == ["closed"])
  }

  @Test func aSynchronousResolveStopsWithTheMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      Dependencies {
        Module(scope: .singleton) { () async -> AsyncHolderType in AsyncHolder() }
      }.build()
      _ = AsyncHolderReader().holder
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "Shank cannot resolve AsyncHolderType synchronously: its factory is async, and nothing has made it in this container yet"
      ))
    #expect(
      stderr.contains("asked for at ShankTests/AsyncFactoryTests.swift:\(AsyncHolderReader.line)"))
  }

  /// How an async `Module(as: DatabaseType.self, StoreType.self)` asks for its own `StoreType`.
  enum AsyncAliasCycle: CaseIterable {
    /// Its factory awaits `StoreType`.
    case itself
    /// Its factory awaits `ReportType`, whose synchronous factory resolves `StoreType`.
    case throughASynchronousModule
  }

  /// An async alias module asked for as `DatabaseType` whose factory asks for `StoreType`, its
  /// other type, is a cycle named as the synchronous one is: each module as the one before it
  /// asked for it, the first as the last.
  @Test(arguments: [Scope.singleton, .unique], AsyncAliasCycle.allCases)
  func anAsyncAliasModuleAskingForItsOtherTypeIsACycleNamedAsItAsked(
    scope: Scope, cycle: AsyncAliasCycle
  ) async {
    let line = #line + 4
    let container = Dependencies {
      Module(scope: scope, as: DatabaseType.self, StoreType.self) { () async throws -> Database in
        switch cycle {
        case .itself: _ = try await Dependencies.resolveAsyncOrThrow(StoreType.self)
        case .throughASynchronousModule:
          _ = try await Dependencies.resolveAsyncOrThrow(ReportType.self)
        }
        return Database()
      }
      Module { () throws -> ReportType in
        _ = try Dependencies.resolveOrThrow(StoreType.self)
        return Report()
      }
    }
    let (asked, path) =
      switch cycle {
      case .itself: (line, "StoreType → StoreType")
      // Found where the synchronous factory asks, as a synchronous cycle is.
      case .throughASynchronousModule: (line + 7, "StoreType → ReportType → StoreType")
      }
    let outcome = await Self.outcomeOfResolvingADatabase(from: container)
    #expect(
      outcome == [
        """
        Shank found a dependency cycle resolving StoreType
          asked for at ShankTests/AsyncFactoryTests.swift:\(asked)
          cycle: \(path)
        """
      ])
  }
}

// MARK: - Fixtures

/// A shared module's instance that tasks may hand each other.
final class Gateway: Reachable {}

extension Dependencies {
  /// How resolving `type` here went: `resolved`, or the reason it failed.
  func outcome<Value>(resolving type: Value.Type) -> String {
    do {
      _ = try resolveOrThrow(type)
      return "resolved"
    } catch {
      return "\(error.reason)"
    }
  }
}

/// A ``Reachable`` wrapping another, whose deinit resolves through the container that made it,
/// as a cache that refills itself would.
final class Wrapped: Reachable {
  let wrapped: Reachable
  private let onDeinit: @Sendable () -> Void

  init(_ wrapped: Reachable, onDeinit: @escaping @Sendable () -> Void) {
    (self.wrapped, self.onDeinit) = (wrapped, onDeinit)
  }

  deinit { onDeinit() }
}

/// What a ``Gateway`` is resolved as, through an alias or a decorated type.
protocol Reachable: AnyObject, Sendable {}

/// A shared module whose decorators in turn meet an async module not made yet, with
/// counters for its makings, its decorators' runs and its `onClose`.
struct UnfinishedDecoration {
  let made = Counter()
  let firstDecorated = Counter()
  let secondDecorated = Counter()
  let closed = Counter()
  let container: Dependencies

  /// `scope`'s module, eager unless `eager` is false; the first decorator counts its runs,
  /// the second awaits the async `DatabaseType` (and `ReportType` too, if `both`).
  init(scope: Scope, eager: Bool = true, both: Bool = false) {
    let (made, first, second, closed) = (made, firstDecorated, secondDecorated, closed)
    container = Dependencies {
      Module(scope: scope, eager: eager, onClose: { _ in closed.increment() }) {
        () -> Gateway in
        made.increment()
        return Gateway()
      }
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
      Module(scope: .singleton) { () async throws -> ReportType in
        try await Task.sleep(nanoseconds: 1_000_000)
        return Report()
      }
      Module.decorating(Gateway.self) { service -> Gateway in
        first.increment()
        return service
      }
      Module.decorating(Gateway.self) { service throws -> Gateway in
        second.increment()
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        if both { _ = try Dependencies.resolveOrThrow(ReportType.self) }
        return service
      }
    }
  }
}

/// A child whose decorators, over a middle layer's, leave a shared ``Reachable`` unfinished:
/// the first wraps it, calling `onDeinit` as the wrapper goes; the second awaits the async
/// `DatabaseType`, or throws once `broken` counts. Closing `middle` makes what is left stale.
struct StaleDecoration {
  let broken = Counter()
  let middle: Dependencies
  let child: Dependencies

  init(onDeinit: @escaping @Sendable () -> Void) {
    let broken = broken
    let root = Dependencies {
      Module(scope: .singleton) { Gateway() as Reachable }
      Module(scope: .singleton) { try await AsyncFactoryTests.connectedDatabase(Counter()) }
    }
    let middle = Dependencies(over: root) { Module.decorating(Reachable.self) { $0 } }
    child = Dependencies(over: middle) {
      Module.decorating(Reachable.self) { Wrapped($0, onDeinit: onDeinit) as Reachable }
      Module.decorating(Reachable.self) { (gateway: Reachable) throws -> Reachable in
        if broken.value > 0 { throw StubFailure() }
        _ = try Dependencies.resolveOrThrow(DatabaseType.self)
        return gateway
      }
    }
    self.middle = middle
  }
}

/// An async `.cached("session")` module of `DatabaseType` whose factory's first run waits
/// until ``open()``, recording the serials of what it makes and what is disposed of.
final class GatedSession: Sendable {
  let started = Counter()
  let made = Collector<Int>()
  let disposed = Collector<Int>()
  private let opened = Counter()

  var module: Module {
    let (started, opened, made, disposed) = (started, opened, made, disposed)
    let dispose: @Sendable (DatabaseType) async -> Void = { disposed.append($0.serial) }
    return Module(scope: .cached("session"), onClose: dispose) {
      () async -> DatabaseType in
      if started.increment() == 1 { await eventually { opened.value == 1 } }
      let database = Database()
      made.append(database.serial)
      return database
    }
  }

  /// Lets the first run go on.
  func open() { opened.increment() }
}

/// A task executor that runs its jobs on a queue of its own, and holds them back between
/// ``hold()`` and ``release()``.
final class HoldingExecutor: TaskExecutor, @unchecked Sendable {
  private let queue = DispatchQueue(label: "HoldingExecutor")
  private let lock = NSLock()
  private var held: [UnownedJob]?

  func enqueue(_ job: UnownedJob) {
    lock.lock()
    defer { lock.unlock() }
    guard held == nil else { return held!.append(job) }
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  func hold() {
    lock.withLock { held = held ?? [] }
  }

  func release() {
    let jobs = lock.withLock { () -> [UnownedJob] in
      defer { held = nil }
      return held ?? []
    }
    for job in jobs { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
  }
}

/// An actor whose module's factory keeps it busy once the factory has returned, and starts a
/// task that then closes the container and resolves `"late"` from it, recording the outcome.
///
/// On a queue of its own: busy, it blocks its thread, which in the shared pool would leave
/// the rest of the suite, and the close it waits for, one thread fewer for up to a minute.
actor BusyActor {
  private let executor = QueueExecutor(label: "BusyActor")

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func module(closing containers: Collector<Dependencies>, outcome: Collector<String>) -> Module {
    let busy = Counter()
    return Module(scope: .singleton) { () async -> DatabaseType in
      Task { @MainActor in
        // A watchdog: past a minute the outcome says the actor never got busy.
        let deadline = DispatchTime.now() + 60
        while busy.value < 1 {
          guard DispatchTime.now() < deadline else { return outcome.append("never busy") }
          try? await Task.sleep(nanoseconds: 1_000_000)
        }
        // Time for the making to end, where it ends before the actor takes the caller back.
        try? await Task.sleep(nanoseconds: 500_000_000)
        await containers.all[0].close()
        do throws(ResolutionError) {
          _ = try Dependencies.resolveOrThrow(DatabaseType.self, name: "late")
          outcome.append("made")
        } catch {
          guard case .closed = error.reason else { return outcome.append(error.description) }
          outcome.append("closed")
        }
      }
      Task { self.stayBusy(marking: busy, until: outcome) }
      return Database()
    }
  }

  private func stayBusy(marking busy: Counter, until outcome: Collector<String>) {
    busy.increment()
    holdUntil(atMost: 60) { !outcome.all.isEmpty }
  }
}

/// What a connection attempt that failed throws.
struct ConnectionRefused: Error, CustomStringConvertible {
  var description: String { "connection refused" }
}

/// A database connection, as tests of async factories make one: `Sendable`, as
/// `resolveAsync` needs.
protocol DatabaseType: AnyObject, Sendable {
  var serial: Int { get }
}

/// Where a database keeps rows, the second type an async module is registered as.
protocol StoreType: AnyObject, Sendable {}

/// Wraps a database, as a decorator of one does; it has the serial of what it wraps.
/// A value a test holds, and a factory lets go of.
final class Held: @unchecked Sendable {
  private let lock = NSLock()
  private var held: AnyObject?

  var value: AnyObject? {
    get { lock.withLock { held } }
    set { lock.withLock { held = newValue } }
  }
}

final class WrappedDatabase: DatabaseType {
  private let wrapped: DatabaseType

  init(_ wrapped: DatabaseType) {
    self.wrapped = wrapped
  }

  var serial: Int { wrapped.serial }
}

final class Database: DatabaseType, StoreType {
  private static let serials = Counter()
  let serial = Database.serials.increment()
}

protocol ReportType: Sendable {}

struct Report: ReportType {}

protocol AsyncHolderType {}

protocol InjectingReportType: Sendable {
  var database: DatabaseType { get }
}

/// A module made asynchronously whose `@Inject` property is read after it was made.
struct InjectingReport: InjectingReportType {
  @Inject("made here") private var injected: DatabaseType
  var database: DatabaseType { injected }
}

/// A module made asynchronously that injects another.
struct AsyncHolder: AsyncHolderType {
  @Inject var service: DatabaseType
}

/// Reads an async module through `@Inject` before anything made it.
final class AsyncHolderReader {
  static let line = #line + 1
  @Inject var holder: AsyncHolderType
}
