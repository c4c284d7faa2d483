import Dispatch
import Foundation
import Shank
import Testing

/// A factory that resolves itself, and a cycle closed below the outermost resolution: each is
/// reported with its path, and leaves nothing held.
@Suite struct CycleTests {
  @Test(arguments: [Scope.unique, .singleton], [nil, "named"] as [String?])
  func aFactoryResolvingItselfIsACycle(scope: Scope, name: String?) throws {
    let container = Dependencies {
      Module(scope: scope) { () throws -> SelfResolving in
        SelfResolving(next: try Dependencies.resolveOrThrow(SelfResolving.self))
      }
      Module("named", scope: scope) { () throws -> SelfResolving in
        SelfResolving(next: try Dependencies.resolveOrThrow(SelfResolving.self, name: "named"))
      }
    }
    let key = name.map { #"SelfResolving named "\#($0)""# } ?? "SelfResolving"
    let error = try #require(
      resolutionError { try container.resolveOrThrow(SelfResolving.self, name: name) })
    #expect(error.reason == .cycle(path: [key, key]))
    // Nothing held: a second try goes the same way.
    let again = resolutionError { try container.resolveOrThrow(SelfResolving.self, name: name) }
    #expect(again?.reason == error.reason)
  }

  @Test(arguments: [Scope.unique, .singleton])
  func aCycleClosedBelowTheOutermostResolutionIsReported(scope: Scope) throws {
    let container = Dependencies {
      Module { () throws -> PairCycleOuter in
        _ = try Dependencies.resolveOrThrow(PairCycleA.self)
        return PairCycleOuter()
      }
      Module(scope: scope) { () throws -> PairCycleA in
        _ = try Dependencies.resolveOrThrow(PairCycleB.self)
        return PairCycleA()
      }
      Module(scope: scope) { () throws -> PairCycleB in
        _ = try Dependencies.resolveOrThrow(PairCycleA.self)
        return PairCycleB()
      }
      Module { LeafModule() }
    }
    for _ in 0..<2 {
      let outer = try #require(
        resolutionError { try container.resolveOrThrow(PairCycleOuter.self) })
      #expect(outer.reason == .cycle(path: ["PairCycleA", "PairCycleB", "PairCycleA"]))
      let direct = try #require(resolutionError { try container.resolveOrThrow(PairCycleA.self) })
      #expect(direct.reason == .cycle(path: ["PairCycleA", "PairCycleB", "PairCycleA"]))
    }
    // The trace was unwound: an unrelated module resolves at depth 0 again.
    _ = try container.resolveOrThrow(LeafModule.self)
  }

  /// How a decorator of `AliasBeta` closes a cycle back to `AliasBeta`.
  enum DecoratorCycle: CaseIterable {
    /// The decorator resolves `AliasBeta` itself.
    case itself
    /// The decorator resolves `Service`, whose factory resolves `AliasBeta`.
    case throughAModule
  }

  /// A decorator of an alias type that asks for that type again, itself or through another
  /// module, closes a cycle whose path names the alias, as a plain module's decorator does,
  /// in the alias's own container or in a child over it.
  @Test(arguments: DecoratorCycle.allCases, [false, true])
  func aCycleThroughAnAliasTypesDecoratorKeepsTheAliasInItsPath(
    cycle: DecoratorCycle, inChild: Bool
  ) {
    let line = #line + 10
    let modules = [
      Module(as: AliasAlpha.self, AliasBeta.self) { AliasAlphaBeta() },
      Module { () throws -> Service in
        _ = try Dependencies.resolveOrThrow(AliasBeta.self)
        return ServiceImpl()
      },
    ]
    let decorator = Module.decorating(AliasBeta.self) { beta in
      switch cycle {
      case .itself: _ = try Dependencies.resolveOrThrow(AliasBeta.self)
      case .throughAModule: _ = try Dependencies.resolveOrThrow(Service.self)
      }
      return beta
    }
    let container =
      inChild
      ? Dependencies(over: Dependencies { modules }) { decorator }
      : Dependencies {
        modules
        decorator
      }
    let (asked, path) =
      switch cycle {
      case .itself: (line, "AliasBeta → AliasBeta")
      case .throughAModule: (line - 6, "AliasBeta → Service → AliasBeta")
      }
    let error = resolutionError { try container.resolveOrThrow(AliasBeta.self) }
    #expect(
      error?.description == """
        Shank found a dependency cycle resolving AliasBeta
          asked for at ShankTests/CycleTests.swift:\(asked)
          cycle: \(path)
        """)
  }

  /// A cycle met inside a child's decorator that resolved its type from the owner is named
  /// from where the loop starts, as when the owner is asked directly: not from the child's
  /// frame of the same type.
  @Test func aCycleMetUnderAChildsDecoratorIsNamedFromWhereItsLoopStarts() throws {
    let box = WeakBox()
    let root = Dependencies {
      Module(as: GreeterType.self, Labelled.self) {
        CountedGreeter("s", made: Counter(), freed: Counter())
      }
      Module { () throws -> LeafModule in
        _ = try Dependencies.resolveOrThrow(GreeterType.self)
        return LeafModule()
      }
      Module { () throws -> Service in
        _ = try Dependencies.resolveOrThrow(GreeterType.self)
        return ServiceImpl()
      }
      // Only as the owner decorates: a child's resolution runs it with the child current.
      Module.decorating(GreeterType.self) { greeter in
        if Dependencies.current === box.container {
          _ = try Dependencies.resolveOrThrow(Service.self)
        }
        return greeter
      }
    }
    box.container = root
    let direct = try #require(resolutionError { try root.resolveOrThrow(LeafModule.self) })
    #expect(direct.reason == .cycle(path: ["GreeterType", "Service", "GreeterType"]))
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        _ = try root.resolveOrThrow(LeafModule.self)
        return greeter
      }
    }
    let throughChild = try #require(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    #expect(throughChild.reason == direct.reason)
  }
}

/// Singleton cycles that threads enter from different ends at once. The suite's name has
/// "Concurrency" in it so that CI runs it under ThreadSanitizer.
@Suite struct CycleConcurrencyTests {
  /// A decorator in a layer above that asks the owner for what it decorates, while another
  /// thread is making a new instance of it there, waits for that thread and gets the new
  /// instance: its own frame for the type is no cycle, since nothing waits for it.
  @Test func aDecoratorAskingForAnInstanceAnotherThreadIsMakingWaitsForIt() async throws {
    let decorating = DispatchSemaphore(value: 0)
    let makingAgain = DispatchSemaphore(value: 0)
    let made = Counter()
    let box = ContainerBox()
    let root = Dependencies {
      Module(scope: .cached("session")) { () -> GreeterType in
        let count = made.increment()
        if count == 2 {
          makingAgain.signal()
          // Time for the decorator to reach the creation lock; if it comes later, it finds
          // the instance made and the test passes without the wait it is about.
          usleep(300_000)
        }
        return Greeter("v\(count)")
      }
    }
    box.dependencies = root
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorating.signal()
        makingAgain.wait()
        return Tagged(greeter, try box.dependencies!.resolveOrThrow(GreeterType.self).greeting)
      }
    }
    let decorated = Collector<Result<String, ResolutionError>>()
    let finished = await onThreads(2) { index in
      if index == 0 {
        decorated.append(
          Result { () throws(ResolutionError) in
            try child.resolveOrThrow(GreeterType.self).greeting
          })
      } else {
        decorating.wait()
        root.reset(.cached("session"))
        _ = root.resolve(GreeterType.self)
      }
    }
    try #require(finished, "the threads deadlocked")
    #expect(try decorated.all.map { try $0.get() } == ["v1+v2"])
  }

  @Test func aThreadHoldingTwoKeysOfACycleReportsTheWholeCycle() async throws {
    // Thread 1 makes RingA and thread 2 makes RingB, then RingC, before either asks for what
    // the other holds: whichever asks second closes RingA → RingB → RingC → RingA, and thread
    // 2 holds two of its keys.
    let aStarted = DispatchSemaphore(value: 0)
    let cStarted = DispatchSemaphore(value: 0)
    let ring = Ring { made in
      switch made {
      case .a:
        aStarted.signal()
        cStarted.wait()
      case .c:
        cStarted.signal()
      case .b:
        break
      }
    }
    let finished = await onThreads(2) { index in
      if index == 0 {
        ring.resolve(.a)
      } else {
        aStarted.wait()
        ring.resolve(.b)
      }
    }
    // On a deadlock the creation locks stay held for good: stop before touching them again.
    try #require(finished, "the threads deadlocked")
    let paths = ring.errors.all.map(\.reason)
    #expect(
      paths == [.cycle(path: ["RingA", "RingB", "RingC", "RingA"])]
        || paths == [.cycle(path: ["RingB", "RingC", "RingA", "RingB"])])
  }

  @Test func threadsEnteringACycleFromEveryEndReportOnlyClosedRealCycles() async throws {
    var reported = 0
    for round in 0..<300 {
      let ring = Ring { _ in
        // Varies which thread gets how far before the others ask.
        if Bool.random() { sched_yield() }
      }
      let finished = await onThreads(3) { index in
        ring.resolve(Ring.Key.allCases[index])
      }
      try #require(finished, "the threads deadlocked in round \(round)")
      for error in ring.errors.all {
        reported += 1
        guard case .cycle(let path) = error.reason else {
          Issue.record("round \(round): not a cycle: \(error)")
          continue
        }
        #expect(path.first == path.last, "round \(round): the path is not closed: \(path)")
        #expect(path.count == 4, "round \(round): not the whole cycle: \(path)")
        for (from, to) in zip(path, path.dropFirst()) {
          #expect(
            Ring.edges.contains([from, to]), "round \(round): \(from) → \(to) is no edge: \(path)")
        }
      }
    }
    // Each round ends with one cycle reported, by whichever thread closed it.
    #expect(reported == 300)
  }

  /// Two threads each making a module whose factory resolves the other's: a cycle across
  /// threads, which the README promises is reported "without a stack overflow or a deadlock";
  /// with an observer installed too.
  @Test(arguments: [ScopeCase.singleton, .cached, .weak], [false, true])
  func aCycleAcrossTwoThreadsIsReportedNotADeadlock(scope: ScopeCase, observed: Bool) async {
    await #expect(processExitsWith: .success) { [scope, observed] in
      exitIfStillRunning(after: 20)
      let observation = observed ? Dependencies.observe { _ in } : nil
      defer { observation?.cancel() }
      let container = Dependencies {
        Module(scope: scope.scope) { () throws -> MutualLeftType in
          usleep(100_000)
          return MutualLeft(try Dependencies.resolveOrThrow(MutualRightType.self))
        }
        Module(scope: scope.scope) { () throws -> MutualRightType in
          usleep(100_000)
          return MutualRight(try Dependencies.resolveOrThrow(MutualLeftType.self))
        }
      }
      let errors = Collector<ResolutionError?>()
      let group = DispatchGroup()
      for side in 0..<2 {
        group.enter()
        Thread {
          if side == 0 {
            errors.append(resolutionError { try container.resolveOrThrow(MutualLeftType.self) })
          } else {
            errors.append(resolutionError { try container.resolveOrThrow(MutualRightType.self) })
          }
          group.leave()
        }.start()
      }
      group.wait()
      let cycles = errors.all.filter {
        if case .cycle = $0?.reason { return true }
        return false
      }
      precondition(!cycles.isEmpty, "no cycle reported: \(errors.all)")
    }
  }

  /// A cycle through a unique module in between two singletons, entered by three threads at
  /// once from each end: every reported path is closed, and each step is an edge.
  @Test func cyclesThroughAUniqueModuleFromThreeThreadsAreClosed() async throws {
    for round in 0..<200 {
      let errors = Collector<ResolutionError>()
      let box = ContainerBox()
      @Sendable func next<T>(_ type: T.Type) -> T? {
        if Bool.random() { sched_yield() }
        do throws(ResolutionError) {
          return try Dependencies.resolveOrThrow(T.self)
        } catch {
          errors.append(error)
          return nil
        }
      }
      box.dependencies = Dependencies {
        Module(scope: .singleton) { () -> RingA in RingAImpl(next(RingB.self)) }
        Module { () -> RingB in RingBImpl(next(RingC.self)) }
        Module(scope: .singleton) { () -> RingC in RingCImpl(next(RingA.self)) }
      }
      let finished = await onThreads(3, timeout: 60) { index in
        let dependencies = box.dependencies!
        switch index {
        case 0: _ = dependencies.resolve(RingA.self)
        case 1: _ = dependencies.resolve(RingB.self)
        default: _ = dependencies.resolve(RingC.self)
        }
      }
      try #require(finished, "the threads deadlocked in round \(round)")
      for error in errors.all {
        guard case .cycle(let path) = error.reason else {
          Issue.record("round \(round): not a cycle: \(error)")
          continue
        }
        #expect(path.first == path.last, "round \(round): the path is not closed: \(path)")
        for (from, to) in zip(path, path.dropFirst()) {
          #expect(Ring.edges.contains([from, to]), "round \(round): \(from) → \(to): \(path)")
        }
      }
    }
  }

  /// A cycle across two threads through an alias type's decorator names the alias: thread 1
  /// makes `OtherService`, which resolves `AliasBeta`, whose decorator waits for `Service`,
  /// which thread 0 makes and whose factory waits for `OtherService`.
  @Test func aCycleAcrossThreadsThroughAnAliasTypesDecoratorKeepsTheAliasInItsPath() async throws {
    let started = DispatchSemaphore(value: 0)
    let container = Dependencies {
      Module(as: AliasAlpha.self, AliasBeta.self) { AliasAlphaBeta() }
      Module.decorating(AliasBeta.self) { beta in
        _ = try Dependencies.resolveOrThrow(Service.self)
        return beta
      }
      Module(scope: .singleton) { () throws -> OtherService in
        _ = try Dependencies.resolveOrThrow(AliasBeta.self)
        return OtherServiceImpl()
      }
      Module(scope: .singleton) { () throws -> Service in
        started.signal()
        usleep(200_000)
        _ = try Dependencies.resolveOrThrow(OtherService.self)
        return ServiceImpl()
      }
    }
    let errors = Collector<ResolutionError?>()
    let finished = await onThreads(2, timeout: 30) { index in
      if index == 0 {
        errors.append(resolutionError { try container.resolveOrThrow(Service.self) })
      } else {
        started.wait()
        errors.append(resolutionError { try container.resolveOrThrow(OtherService.self) })
      }
    }
    try #require(finished, "the threads deadlocked")
    let paths = Set(
      errors.all.compactMap { error -> [String]? in
        guard case .cycle(let path) = error?.reason else { return nil }
        return path
      })
    #expect(
      paths == [
        ["Service", "OtherService", "AliasBeta", "Service"],
        ["OtherService", "AliasBeta", "Service", "OtherService"],
      ])
  }
}

// MARK: - Fixtures

final class SelfResolving {
  let next: SelfResolving?

  init(next: SelfResolving?) { self.next = next }
}

final class PairCycleA {}
final class PairCycleB {}
final class PairCycleOuter {}

protocol RingA: AnyObject {}
protocol RingB: AnyObject {}
protocol RingC: AnyObject {}
final class RingAImpl: RingA { init(_ next: RingB?) {} }
final class RingBImpl: RingB { init(_ next: RingC?) {} }
final class RingCImpl: RingC { init(_ next: RingA?) {} }

/// Three singletons in a cycle, RingA → RingB → RingC → RingA. Each factory calls a hook,
/// then asks for the next, and records the error it gets instead of stopping.
final class Ring: Sendable {
  enum Key: CaseIterable, Sendable {
    case a, b, c
  }

  static let edges: Set<[String]> = [["RingA", "RingB"], ["RingB", "RingC"], ["RingC", "RingA"]]

  let errors = Collector<ResolutionError>()
  private let box = ContainerBox()

  /// - Parameter hook: Called in each factory, with the key it makes, before it asks for the
  ///   next one.
  init(hook: @escaping @Sendable (Key) -> Void) {
    let box = box
    let errors = errors
    func next<T>(_ type: T.Type) -> T? {
      do throws(ResolutionError) {
        return try box.dependencies!.resolveOrThrow(T.self)
      } catch {
        errors.append(error)
        return nil
      }
    }
    box.dependencies = Dependencies {
      Module(scope: .singleton) { () -> RingA in
        hook(.a)
        return RingAImpl(next(RingB.self))
      }
      Module(scope: .singleton) { () -> RingB in
        hook(.b)
        return RingBImpl(next(RingC.self))
      }
      Module(scope: .singleton) { () -> RingC in
        hook(.c)
        return RingCImpl(next(RingA.self))
      }
    }
  }

  func resolve(_ key: Key) {
    let dependencies = box.dependencies!
    switch key {
    case .a: _ = dependencies.resolve(RingA.self)
    case .b: _ = dependencies.resolve(RingB.self)
    case .c: _ = dependencies.resolve(RingC.self)
    }
  }
}
