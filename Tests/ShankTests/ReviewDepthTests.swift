import Dispatch
import Foundation
import Shank
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An adversarial review of the resolution path restructured for depth (a7300ba) and of near
/// misses kept as parts (ff71cfa): decorators, observers, errors and depth on the paths
/// `DepthTests` does not take.
@Suite struct ReviewDepthTests {
  // MARK: - Decorators

  @Test func aParentAndAChildEachDecorateASingletonOnceAndEachLayerKeepsItsOwn() {
    let made = Counter()
    let parentDecorations = Counter()
    let childDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { () -> RDGreeterType in
        made.increment()
        return RDGreeter("s")
      }
      Module.decorating(RDGreeterType.self) { greeter in
        parentDecorations.increment()
        return RDTagged(greeter, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) { greeter in
        childDecorations.increment()
        return RDTagged(greeter, "c")
      }
    }
    let grandchild = Dependencies(over: child) {}
    // The child first: the owner makes and decorates its instance under the child's call.
    let fromChild = child.resolve(RDGreeterType.self)
    #expect(fromChild.text == "s+p+c")
    let fromRoot = root.resolve(RDGreeterType.self)
    #expect(fromRoot.text == "s+p")
    #expect((fromChild as? RDTagged)?.wrapped === fromRoot)
    #expect(child.resolve(RDGreeterType.self) === fromChild)
    #expect(grandchild.resolve(RDGreeterType.self) === fromChild)
    #expect(root.resolve(RDGreeterType.self) === fromRoot)
    #expect(made.value == 1)
    #expect(parentDecorations.value == 1)
    #expect(childDecorations.value == 1)
  }

  @Test func aDecoratedCachedInstanceIsMadeAndDecoratedAgainInEachLayerAfterAReset() {
    let made = Counter()
    let parentDecorations = Counter()
    let childDecorations = Counter()
    let root = Dependencies {
      Module(scope: .cached("rd-reset")) { () -> RDGreeterType in
        RDGreeter("v\(made.increment())")
      }
      Module.decorating(RDGreeterType.self) { greeter in
        parentDecorations.increment()
        return RDTagged(greeter, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) { greeter in
        childDecorations.increment()
        return RDTagged(greeter, "c")
      }
    }
    let first = child.resolve(RDGreeterType.self)
    #expect(first.text == "v1+p+c")
    #expect(child.resolve(RDGreeterType.self) === first)
    root.reset(.cached("rd-reset"))
    let second = child.resolve(RDGreeterType.self)
    #expect(second.text == "v2+p+c")
    #expect(second !== first)
    #expect(root.resolve(RDGreeterType.self).text == "v2+p")
    #expect(made.value == 2)
    #expect(parentDecorations.value == 2)
    #expect(childDecorations.value == 2)
  }

  @Test func aDecoratedWeakInstanceInADecoratingParentLivesAsLongAsItsHolders() {
    let made = Counter()
    let root = Dependencies {
      Module(scope: .weak) { () -> RDGreeterType in RDGreeter("w\(made.increment())") }
      Module.decorating(RDGreeterType.self) { RDTagged($0, "p") }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) { RDTagged($0, "c") }
    }
    var held: RDGreeterType? = child.resolve(RDGreeterType.self)
    #expect(held?.text == "w1+p+c")
    #expect(child.resolve(RDGreeterType.self) === held)
    #expect(root.resolve(RDGreeterType.self) === (held as? RDTagged)?.wrapped)
    held = nil
    #expect(child.resolve(RDGreeterType.self).text == "w2+p+c")
  }

  /// The owner's decorators run as its factory does, with the owner as `current`; a child's
  /// with the child.
  @Test func eachLayersDecoratorResolvesFromItsOwnLayer() {
    let root = Dependencies {
      Module(scope: .singleton) { RDGreeter("s") as RDGreeterType }
      Module { RDTag("root") }
      Module.decorating(RDGreeterType.self) {
        RDTagged($0, "tag:" + Dependencies.resolve(RDTag.self).value)
      }
    }
    let child = Dependencies(over: root) {
      Module { RDTag("child") }
      Module.decorating(RDGreeterType.self) {
        RDTagged($0, "tag:" + Dependencies.resolve(RDTag.self).value)
      }
    }
    #expect(child.resolve(RDGreeterType.self).text == "s+tag:root+tag:child")
    #expect(root.resolve(RDGreeterType.self).text == "s+tag:root")
  }

  /// An override active at the first resolution of a decorated singleton ends up neither in
  /// the instance nor in its owner's decoration.
  @Test func anOverrideActiveAtTheFirstResolutionIsNotInAnOwnersDecoration() {
    let root = Dependencies {
      Module(scope: .singleton) { RDGreeter("s") as RDGreeterType }
      Module { RDTag("root") }
      Module.decorating(RDGreeterType.self) {
        RDTagged($0, "tag:" + Dependencies.resolve(RDTag.self).value)
      }
    }
    let inside = rdWithOverrides(over: root) {
      Module { RDTag("override") }
    } operation: {
      Dependencies.resolve(RDGreeterType.self)
    }
    #expect(inside.text == "s+tag:root")
    #expect(root.resolve(RDGreeterType.self) === inside)
  }

  /// An override layer with no decorators over a decorating root gives the root's kept
  /// instance, decorated once.
  @Test func anOverrideLayerWithoutDecoratorsGivesTheRootsDecoratedSingleton() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { RDGreeter("s") as RDGreeterType }
      Module.decorating(RDGreeterType.self) {
        decorations.increment()
        return RDTagged($0, "p")
      }
    }
    let first = rdWithOverrides(over: root) {
      Module { RDTag("unrelated") }
    } operation: {
      Dependencies.resolve(RDGreeterType.self)
    }
    let second = rdWithOverrides(over: root) {
      Module { RDTag("unrelated") }
    } operation: {
      Dependencies.resolve(RDGreeterType.self)
    }
    #expect(first.text == "s+p")
    #expect(first === second)
    #expect(first === root.resolve(RDGreeterType.self))
    #expect(decorations.value == 1)
  }

  /// A decorator that resolves what it decorates is a cycle, for each shared scope, in the
  /// owner or in a child: never a recursion until the stack runs out, never a deadlock.
  @Test(arguments: RDScope.allCases, [false, true])
  func aDecoratorResolvingWhatItDecoratesIsACycle(scope: RDScope, inChild: Bool) async {
    await #expect(processExitsWith: .success) { [scope, inChild] in
      rdWatchdog(seconds: 20)
      let decorator = Module.decorating(RDGreeterType.self) { greeter in
        _ = try Dependencies.resolveOrThrow(RDGreeterType.self)
        return RDTagged(greeter, "d")
      }
      let module = Module(scope: scope.scope) { RDGreeter("s") as RDGreeterType }
      let container =
        inChild
        ? Dependencies(over: Dependencies { module }) { decorator }
        : Dependencies {
          module
          decorator
        }
      // Held, so that a `.weak` instance kept underneath stays the same.
      var holder: [Any] = []
      for _ in 0..<2 {
        let error = resolutionError {
          holder.append(try container.resolveOrThrow(RDGreeterType.self))
        }
        guard case .cycle(let path) = error?.reason else {
          fatalError("not a cycle: \(String(describing: error))")
        }
        precondition(path.first == "RDGreeterType" && path.last == "RDGreeterType", "\(path)")
      }
      withExtendedLifetime(holder) {}
    }
  }

  /// The same with an observer installed: observing must not turn the cycle into a deadlock.
  @Test(arguments: RDScope.allCases, [false, true])
  func anObservedDecoratorResolvingWhatItDecoratesIsACycle(scope: RDScope, inChild: Bool) async {
    await #expect(processExitsWith: .success) { [scope, inChild] in
      rdWatchdog(seconds: 20)
      let observation = Dependencies.observe { _ in }
      defer { observation.cancel() }
      let decorator = Module.decorating(RDGreeterType.self) { greeter in
        _ = try Dependencies.resolveOrThrow(RDGreeterType.self)
        return RDTagged(greeter, "d")
      }
      let module = Module(scope: scope.scope) { RDGreeter("s") as RDGreeterType }
      let container =
        inChild
        ? Dependencies(over: Dependencies { module }) { decorator }
        : Dependencies {
          module
          decorator
        }
      let error = resolutionError { try container.resolveOrThrow(RDGreeterType.self) }
      guard case .cycle = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
    }
  }

  /// A factory that resolves its own key, with an observer installed: a cycle as without one.
  @Test(arguments: RDScope.allCases)
  func anObservedFactoryResolvingItselfIsACycle(scope: RDScope) async {
    await #expect(processExitsWith: .success) { [scope] in
      rdWatchdog(seconds: 20)
      let observation = Dependencies.observe { _ in }
      defer { observation.cancel() }
      let container = Dependencies {
        Module(scope: scope.scope) { () throws -> RDGreeterType in
          RDTagged(try Dependencies.resolveOrThrow(RDGreeterType.self), "self")
        }
      }
      let error = resolutionError { try container.resolveOrThrow(RDGreeterType.self) }
      guard case .cycle(let path) = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
      precondition(path == ["RDGreeterType", "RDGreeterType"], "\(path)")
    }
  }

  /// Two threads each making a module whose factory resolves the other's: a cycle across
  /// threads, which the README promises is reported "without a stack overflow or a deadlock";
  /// with an observer installed too.
  @Test(arguments: [RDScope.singleton, .cached, .weak], [false, true])
  func aCycleAcrossTwoThreadsIsReportedNotADeadlock(scope: RDScope, observed: Bool) async {
    await #expect(processExitsWith: .success) { [scope, observed] in
      rdWatchdog(seconds: 20)
      let observation = observed ? Dependencies.observe { _ in } : nil
      defer { observation?.cancel() }
      let container = Dependencies {
        Module(scope: scope.scope) { () throws -> RDLeftType in
          usleep(100_000)
          return RDLeft(try Dependencies.resolveOrThrow(RDRightType.self))
        }
        Module(scope: scope.scope) { () throws -> RDRightType in
          usleep(100_000)
          return RDRight(try Dependencies.resolveOrThrow(RDLeftType.self))
        }
      }
      let errors = Collector<ResolutionError?>()
      let group = DispatchGroup()
      for side in 0..<2 {
        group.enter()
        Thread {
          if side == 0 {
            errors.append(resolutionError { try container.resolveOrThrow(RDLeftType.self) })
          } else {
            errors.append(resolutionError { try container.resolveOrThrow(RDRightType.self) })
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

  @Test func aDecoratorThatThrowsOnceLeavesTheSingletonUnmadeAndTheNextResolutionMakesIt()
    async throws
  {
    let made = Counter()
    let attempts = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"RDGreeterType named "rd-throw-once""# { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("rd-throw-once", scope: .singleton) { () -> RDGreeterType in
        RDGreeter("v\(made.increment())")
      }
      Module.decorating(RDGreeterType.self) { greeter in
        if attempts.increment() == 1 { throw RDFailure() }
        return RDTagged(greeter, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) { RDTagged($0, "c") }
    }
    let error = try #require(
      resolutionError { try child.resolveOrThrow(RDGreeterType.self, name: "rd-throw-once") })
    #expect(error.reason == .factoryFailed(error: "RDFailure()"))
    #expect(events.all.isEmpty, "a failed resolution is not delivered")
    // Another thread resolves it: no creation lock was left held.
    let results = Collector<String>()
    let finished = await onThreads(1, timeout: 20) { _ in
      results.append(child.resolve(RDGreeterType.self, name: "rd-throw-once").text)
    }
    #expect(finished, "a creation lock was left held")
    results.append(child.resolve(RDGreeterType.self, name: "rd-throw-once").text)
    #expect(results.all == ["v2+p+c", "v2+p+c"])
    #expect(made.value == 2)
    #expect(root.resolve(RDGreeterType.self, name: "rd-throw-once").text == "v2+p")
    #expect(events.all.count == 3)
    #expect(events.all.filter(\.madeInstance).count == 1, "\(events.all.map(\.madeInstance))")
  }

  @Test(arguments: RDScope.allCases)
  func aFactoryThatThrowsOnceInADecoratedObservedContainerIsMadeNextTime(scope: RDScope)
    async throws
  {
    let attempts = Counter()
    let decorations = Counter()
    let key = "rd-factory-throws-\(scope)"
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == "RDGreeterType named \"\(key)\"" { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module(key, scope: scope.scope) { () throws -> RDGreeterType in
        if attempts.increment() == 1 { throw RDFailure() }
        return RDGreeter("made")
      }
      Module.decorating(RDGreeterType.self) {
        decorations.increment()
        return RDTagged($0, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) { RDTagged($0, "c") }
    }
    let error = try #require(
      resolutionError { try child.resolveOrThrow(RDGreeterType.self, name: key) })
    #expect(error.reason == .factoryFailed(error: "RDFailure()"))
    #expect(error.typeName == "RDGreeterType")
    #expect(error.name == key)
    #expect(decorations.value == 0)
    let finished = await onThreads(1, timeout: 20) { _ in
      _ = child.resolve(RDGreeterType.self, name: key)
    }
    #expect(finished, "a creation lock was left held")
    let value = child.resolve(RDGreeterType.self, name: key)
    #expect(value.text == "made+p+c")
    #expect(events.all.count == 2)
    #expect(events.all.first?.madeInstance == true)
    #expect(events.all.allSatisfy { $0.depth == 0 })
  }

  /// A nested resolution that throws, caught by the factory: no event for it, the trace is
  /// unwound (the next nested resolution is at depth 1, `current` is still the factory's
  /// container) and the outer resolution is delivered.
  @Test(arguments: [false, true])
  func aNestedFailureCaughtByTheFactoryLeavesTheTraceBalanced(decorating: Bool) throws {
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.hasPrefix("RDObservedType named \"rd-caught-") {
        seen.append("\(event.key) \(event.depth) \(event.madeInstance)")
      }
    }
    defer { observation.cancel() }
    let currentIsOwner = Collector<Bool>()
    let box = ContainerBox()
    let container = Dependencies {
      Module("rd-caught-outer", scope: .singleton) { () -> RDObservedType in
        let failed = resolutionError {
          try Dependencies.resolveOrThrow(RDObservedType.self, name: "rd-caught-failing")
        }
        precondition(failed != nil)
        let missing = resolutionError {
          try Dependencies.resolveOrThrow(RDObservedType.self, name: "rd-caught-missing")
        }
        precondition(missing?.reason == .notRegistered)
        currentIsOwner.append(Dependencies.current === box.dependencies)
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-caught-inner")
        return RDObserved()
      }
      Module("rd-caught-failing", scope: .singleton) { () throws -> RDObservedType in
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-caught-inner")
        throw RDFailure()
      }
      Module("rd-caught-inner") { RDObserved() as RDObservedType }
      if decorating {
        Module.decorating(RDObservedType.self) { $0 }
      }
    }
    box.dependencies = container
    _ = container.resolve(RDObservedType.self, name: "rd-caught-outer")
    _ = container.resolve(RDObservedType.self, name: "rd-caught-inner")
    #expect(currentIsOwner.all == [true])
    #expect(
      seen.all == [
        #"RDObservedType named "rd-caught-inner" 2 true"#,
        #"RDObservedType named "rd-caught-inner" 1 true"#,
        #"RDObservedType named "rd-caught-outer" 0 true"#,
        #"RDObservedType named "rd-caught-inner" 0 true"#,
      ])
  }

  // MARK: - Aliases, contributions, verification, start

  @Test func anAliasedSingletonInADecoratingParentAndChildIsMadeOnceAndDecoratedPerResolution() {
    let made = Counter()
    let aDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: RDAliasA.self, RDAliasB.self) { () -> RDBoth in
        made.increment()
        return RDBoth()
      }
      Module.decorating(RDAliasA.self) {
        aDecorations.increment()
        return $0
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDAliasA.self) {
        aDecorations.increment()
        return $0
      }
    }
    let a = child.resolve(RDAliasA.self)
    let b = child.resolve(RDAliasB.self)
    #expect(a === b)
    #expect(root.resolve(RDAliasA.self) === a)
    #expect(made.value == 1)
    // "An alias (`Module(as:)`) is decorated at every resolution": the child's resolution by
    // both layers, the root's by its own.
    #expect(aDecorations.value == 3)
  }

  @Test func contributionsOfADecoratingParentThroughAnObservedDecoratingChild() {
    let made = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == "[RDSinkType]" { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module.contribution("kept", scope: .singleton) { () -> RDSinkType in
        made.increment()
        return RDSink("kept")
      }
      Module.contribution { RDSink("fresh") as RDSinkType }
      Module.decorating(RDSinkType.self) { RDTaggedSink($0, "p") }
    }
    let child = Dependencies(over: root) {
      Module.contribution { RDSink("child") as RDSinkType }
      Module.decorating(RDSinkType.self) { RDTaggedSink($0, "c") }
    }
    let first = child.resolve([RDSinkType].self)
    let second = child.resolve([RDSinkType].self)
    #expect(first.map(\.text) == ["kept+p+c", "fresh+p+c", "child+p+c"])
    #expect(first[0] === second[0])
    #expect(first[1] !== second[1])
    #expect(root.resolve([RDSinkType].self).map(\.text) == ["kept+p", "fresh+p"])
    #expect(made.value == 1)
    #expect(events.all.count == 3)
    #expect(child.resolve([String: RDSinkType].self).mapValues(\.text) == ["kept": "kept+p+c"])
  }

  @Test func verifyAndStartOfADecoratingChildOverADecoratingParent() async throws {
    let made = Counter()
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, eager: true) { () -> RDGreeterType in
        made.increment()
        return RDGreeter("s")
      }
      Module { RDTag("root") }
      Module.decorating(RDGreeterType.self) {
        decorations.increment()
        return RDTagged($0, "tag:" + Dependencies.resolve(RDTag.self).value)
      }
    }
    let child = Dependencies(over: root) {
      Module { () -> RDHolder in RDHolder() }
      Module.decorating(RDGreeterType.self) { RDTagged($0, "c") }
    }
    try child.verify()
    let graph = child.graph()
    #expect(graph.mermaid.contains("RDHolder"))
    // verify() made its own copies, not the root's instance.
    let madeByVerify = made.value
    let decoratedByVerify = decorations.value
    _ = try await root.start()
    #expect(made.value == madeByVerify + 1)
    #expect(decorations.value == decoratedByVerify + 1)
    let fromChild = child.resolve(RDGreeterType.self)
    #expect(fromChild.text == "s+tag:root+c")
    #expect(made.value == madeByVerify + 1, "start() made and decorated it")
    #expect(decorations.value == decoratedByVerify + 1)
    #expect(child.resolve(RDHolder.self).greeter === fromChild)
  }

  @Test func verifyReportsADecoratorThatResolvesWhatItDecoratesWithoutStopping() async {
    await #expect(processExitsWith: .success) {
      rdWatchdog(seconds: 20)
      let root = Dependencies { Module(scope: .singleton) { RDGreeter("s") as RDGreeterType } }
      let child = Dependencies(over: root) {
        Module.decorating(RDGreeterType.self) { greeter in
          _ = try Dependencies.resolveOrThrow(RDGreeterType.self)
          return greeter
        }
      }
      do {
        try child.verify()
      } catch {
        precondition("\(error)".contains("RDGreeterType"), "\(error)")
        return
      }
      // Verification found nothing: resolving must still report the cycle.
      let error = resolutionError { try child.resolveOrThrow(RDGreeterType.self) }
      guard case .cycle = error?.reason else { fatalError("\(String(describing: error))") }
    }
  }

  // MARK: - Observers

  @Test func madeInstanceIsTrueOnlyWhenAFactoryRanAndForEveryKindOfKey() {
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.contains("rd-made-") { seen.append("\(event.key) \(event.madeInstance)") }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("rd-made-single", scope: .singleton) { RDObserved() as RDObservedType }
      Module("rd-made-cached", scope: .cached("rd-made")) { RDObserved() as RDObservedType }
      Module("rd-made-unique") { RDObserved() as RDObservedType }
      Module("rd-made-alias", scope: .singleton, as: RDAliasA.self) { RDBoth() }
      Module.decorating(RDObservedType.self) { $0 }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDObservedType.self) { $0 }
    }
    for _ in 0..<2 {
      _ = child.resolve(RDObservedType.self, name: "rd-made-single")
      _ = child.resolve(RDObservedType.self, name: "rd-made-cached")
      _ = child.resolve(RDObservedType.self, name: "rd-made-unique")
      _ = child.resolve(RDAliasA.self, name: "rd-made-alias")
    }
    root.reset(.cached("rd-made"))
    _ = child.resolve(RDObservedType.self, name: "rd-made-cached")
    #expect(
      seen.all == [
        #"RDObservedType named "rd-made-single" true"#,
        #"RDObservedType named "rd-made-cached" true"#,
        #"RDObservedType named "rd-made-unique" true"#,
        #"RDAliasA named "rd-made-alias" true"#,
        #"RDObservedType named "rd-made-single" false"#,
        #"RDObservedType named "rd-made-cached" false"#,
        #"RDObservedType named "rd-made-unique" true"#,
        #"RDAliasA named "rd-made-alias" false"#,
        #"RDObservedType named "rd-made-cached" true"#,
      ])
  }

  /// Nested events come innermost first, each with its depth ("how many factories were
  /// running on this thread around it"), through decorated singletons kept underneath, an
  /// alias and a contribution list: three factories run around the innermost.
  @Test func nestedEventsComeInnermostFirstWithTheirDepthOnEveryPath() {
    let seen = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.contains("rd-nest") || event.key == "[RDSinkType]" {
        seen.append("\(event.key) \(event.depth)")
      }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("rd-nest-0", scope: .singleton) { () -> RDObservedType in
        _ = Dependencies.resolve(RDAliasA.self, name: "rd-nest-1")
        return RDObserved()
      }
      Module("rd-nest-1", scope: .cached("rd-nest"), as: RDAliasA.self) { () -> RDBoth in
        _ = Dependencies.resolve([RDSinkType].self)
        return RDBoth()
      }
      Module.contribution { () -> RDSinkType in
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-nest-3")
        return RDSink("x")
      }
      Module("rd-nest-3") { RDObserved() as RDObservedType }
      Module.decorating(RDObservedType.self) { $0 }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDObservedType.self) { $0 }
    }
    _ = child.resolve(RDObservedType.self, name: "rd-nest-0")
    #expect(
      seen.all == [
        #"RDObservedType named "rd-nest-3" 3"#,
        "[RDSinkType] 2",
        #"RDAliasA named "rd-nest-1" 1"#,
        #"RDObservedType named "rd-nest-0" 0"#,
      ])
  }

  /// What an observer resolves is not observed, nor what that resolution's factories resolve,
  /// and the resolution that was delivered goes on being observed afterwards.
  @Test func anObserverResolvingADecoratedChainObservesNoneOfIt() {
    let seen = Collector<String>()
    let box = ContainerBox()
    let observation = Dependencies.observe { event in
      guard event.key.contains("rd-obs-") else { return }
      seen.append(event.key)
      if event.key.contains("rd-obs-trigger") {
        _ = box.dependencies!.resolve(RDObservedType.self, name: "rd-obs-chain")
      }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("rd-obs-chain", scope: .singleton) { () -> RDObservedType in
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-obs-leaf")
        return RDObserved()
      }
      Module("rd-obs-leaf") { RDObserved() as RDObservedType }
      Module("rd-obs-trigger") { RDObserved() as RDObservedType }
      Module.decorating(RDObservedType.self) { $0 }
    }
    let child = Dependencies(over: root) { Module.decorating(RDObservedType.self) { $0 } }
    box.dependencies = child
    _ = child.resolve(RDObservedType.self, name: "rd-obs-trigger")
    _ = child.resolve(RDObservedType.self, name: "rd-obs-leaf")
    #expect(
      seen.all == [
        #"RDObservedType named "rd-obs-trigger""#, #"RDObservedType named "rd-obs-leaf""#,
      ])
  }

  /// An observer whose own resolution throws leaves the thread delivering nothing more than
  /// before: the next resolution is observed, and its nested ones too.
  @Test func anObserverWhoseResolutionThrowsKeepsObserving() {
    let seen = Collector<String>()
    let box = ContainerBox()
    let observation = Dependencies.observe { event in
      guard event.key.contains("rd-throwing-observer-") else { return }
      seen.append("\(event.key) \(event.depth)")
      _ = resolutionError {
        try box.dependencies!.resolveOrThrow(
          RDObservedType.self, name: "rd-throwing-observer-fails")
      }
      _ = resolutionError { try box.dependencies!.resolveOrThrow(NeverRegistered.self) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("rd-throwing-observer-outer", scope: .singleton) { () -> RDObservedType in
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-throwing-observer-inner")
        return RDObserved()
      }
      Module("rd-throwing-observer-inner") { RDObserved() as RDObservedType }
      Module("rd-throwing-observer-fails", scope: .singleton) { () throws -> RDObservedType in
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-throwing-observer-inner")
        throw RDFailure()
      }
      Module.decorating(RDObservedType.self) { $0 }
    }
    box.dependencies = container
    _ = container.resolve(RDObservedType.self, name: "rd-throwing-observer-outer")
    _ = container.resolve(RDObservedType.self, name: "rd-throwing-observer-inner")
    #expect(
      seen.all == [
        #"RDObservedType named "rd-throwing-observer-inner" 1"#,
        #"RDObservedType named "rd-throwing-observer-outer" 0"#,
        #"RDObservedType named "rd-throwing-observer-inner" 0"#,
      ])
  }

  /// An observer added inside a factory sees what the factory resolves from then on, and not
  /// the resolution it was added in; one cancelled inside a factory sees nothing more.
  @Test func observersAddedAndCancelledMidResolution() {
    let added = Collector<String>()
    let cancelled = Collector<String>()
    let early = Dependencies.observe { event in
      if event.key.contains("rd-mid-") { cancelled.append("\(event.key) \(event.depth)") }
    }
    let container = Dependencies {
      Module("rd-mid-outer", scope: .singleton) { () -> RDObservedType in
        early.cancel()
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-mid-before")
        let late = Dependencies.observe { event in
          if event.key.contains("rd-mid-") { added.append("\(event.key) \(event.depth)") }
        }
        _ = Dependencies.resolve(RDObservedType.self, name: "rd-mid-after")
        late.cancel()
        return RDObserved()
      }
      Module("rd-mid-before") { RDObserved() as RDObservedType }
      Module("rd-mid-after") { RDObserved() as RDObservedType }
      Module.decorating(RDObservedType.self) { $0 }
    }
    _ = container.resolve(RDObservedType.self, name: "rd-mid-outer")
    #expect(cancelled.all.isEmpty)
    #expect(added.all == [#"RDObservedType named "rd-mid-after" 1"#])
  }

  /// Many threads resolve a decorated singleton through a decorating child at once, observed:
  /// one instance, made and decorated once by its owner, and one event per resolution. The
  /// child's decorator may run more than once meanwhile (PluginsAndDecorators.md says so), but
  /// every caller gets the one it keeps.
  @Test func manyThreadsResolvingAnObservedDecoratedSingletonThroughAChild() async {
    let made = Counter()
    let parentDecorations = Counter()
    let childDecorations = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"RDGreeterType named "rd-many""# { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("rd-many", scope: .singleton) { () -> RDGreeterType in
        made.increment()
        usleep(20_000)
        return RDGreeter("s")
      }
      Module.decorating(RDGreeterType.self) {
        parentDecorations.increment()
        return RDTagged($0, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(RDGreeterType.self) {
        childDecorations.increment()
        usleep(5_000)
        return RDTagged($0, "c")
      }
    }
    let results = Collector<ObjectIdentifier>()
    let finished = await onThreads(16, timeout: 60) { _ in
      for _ in 0..<20 {
        results.append(ObjectIdentifier(child.resolve(RDGreeterType.self, name: "rd-many")))
      }
    }
    #expect(finished)
    #expect(Set(results.all).count == 1)
    #expect(made.value == 1)
    #expect(parentDecorations.value == 1)
    #expect((1...16).contains(childDecorations.value))
    #expect(events.all.count == 16 * 20)
    #expect(events.all.allSatisfy { $0.depth == 0 })
  }

  /// `madeInstance`: "Whether a factory ran: `false` when a kept instance was returned." A
  /// thread that waited for another to make a singleton was given the kept one.
  @Test func threadsThatWaitedForASingletonAreToldNoFactoryRan() async {
    let made = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"RDGreeterType named "rd-waited""# { events.append($0) }
    }
    defer { observation.cancel() }
    let container = Dependencies {
      Module("rd-waited", scope: .singleton) { () -> RDGreeterType in
        made.increment()
        usleep(200_000)
        return RDGreeter("s")
      }
    }
    let finished = await onThreads(8, timeout: 60) { _ in
      _ = container.resolve(RDGreeterType.self, name: "rd-waited")
    }
    #expect(finished)
    #expect(made.value == 1)
    #expect(events.all.count == 8)
    #expect(
      events.all.filter(\.madeInstance).count == made.value,
      "\(events.all.filter(\.madeInstance).count) events say a factory ran; it ran \(made.value) time"
    )
  }

  // MARK: - Near misses

  @Test func nearMissesListEveryKindInRegistrationOrderAndTheMessageTheFirstTwenty() throws {
    let container = Dependencies {
      Module("other") { RDObserved() as RDObservedType }
      Module { RDObserved() as RDObservedType }
      Module("wanted") { RDTag("x") }
      Module("wanted") { nil as RDObservedType? }
      Module("we\"ird\nname") { RDObserved() as RDObservedType }
      for index in 0..<20 {
        Module("n\(index)") { RDObserved() as RDObservedType }
      }
    }
    let error = try #require(
      resolutionError { try container.resolveOrThrow(RDObservedType.self, name: "wanted") })
    let expected =
      [
        #"RDObservedType named "other": the same type under another name"#,
        "RDObservedType: the same type with no name",
        #"RDTag named "wanted": the same name, another type"#,
        #"Optional<RDObservedType> named "wanted": the type registered as an Optional; register it as RDObservedType"#,
        #"RDObservedType named "we\"ird\nname": the same type under another name"#,
      ] + (0..<20).map { #"RDObservedType named "n\#($0)": the same type under another name"# }
    #expect(error.nearMisses == expected)
    #expect(error.nearMisses == error.nearMisses)
    let lines = error.description.components(separatedBy: "\n")
    #expect(lines.contains("  near misses (25, first 20):"))
    #expect(lines.contains("    " + expected[3]))
    #expect(lines.contains("    " + expected[19]))
    #expect(!lines.contains("    " + expected[20]))
  }

  /// The static forms borrow the built root; a failed resolution must put the hazard slot back,
  /// so that a root built afterwards frees the one before.
  @Test func aRootIsFreedAfterStaticResolutionsThatFailedAndThatSucceeded() async {
    await #expect(processExitsWith: .success) {
      weak var weakRoot: Dependencies?
      do {
        let root = Dependencies {
          Module { RDGreeter("x") as RDGreeterType }
          Module.decorating(RDGreeterType.self) { $0 }
        }
        weakRoot = root
        root.build()
      }
      let observation = Dependencies.observe { _ in }
      _ = Dependencies.resolve(RDGreeterType.self)
      _ = try? Dependencies.resolveOrThrow(NeverRegistered.self)
      _ = try? Dependencies.resolveOrThrow(RDGreeterType.self, name: "missing")
      observation.cancel()
      _ = Dependencies.resolve(RDGreeterType.self)
      _ = try? Dependencies.resolveOrThrow(NeverRegistered.self)
      Dependencies {}.build()
      precondition(weakRoot == nil, "the replaced root was not freed")
    }
  }

  // MARK: - Depth on the paths DepthTests does not take

  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: RDPath.allCases)
  func twoHundredNestedResolutionsFitA512KiBThread(path: RDPath) async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) { [path] in
      // 50 levels first, for the stack a level takes even where 200 do not fit.
      let bytes = await onThread(stackSize: DepthTests.smallStack) {
        let recorder = StackRecorder()
        _ = rdChainLength(50, path: path, recorder: recorder)
        return recorder.bytesPerLevel
      }
      rdLog("RD-DEPTH \(path.rawValue): \(bytes) bytes a level over 50 levels")
      let (length, bytesPerLevel) = await onThread(stackSize: DepthTests.smallStack) {
        let recorder = StackRecorder()
        return (rdChainLength(200, path: path, recorder: recorder), recorder.bytesPerLevel)
      }
      rdLog("RD-DEPTH \(path.rawValue) \(length) levels, \(bytesPerLevel) bytes a level")
      precondition(length == 200, "\(length) levels fit")
      #if DEBUG
        let bound = 2_432
      #else
        let bound = 1_024
      #endif
      precondition(bytesPerLevel > 0)
      precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
    }
    guard let result else { return }
    print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "")
    #expect(result.standardErrorContent.isEmpty)
  }

  /// Main-actor modules run on the main actor, whose thread is large: how many bytes a level
  /// takes, which must leave room for 200 on a 512 KiB thread, and 200 levels resolve.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: [false, true])
  func mainActorChainsTakeLittleStackALevel(observedAndDecorated: Bool) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) { [observedAndDecorated] in
      let (length, bytesPerLevel) = await MainActor.run {
        rdMainActorChain(200, observedAndDecorated: observedAndDecorated)
      }
      rdLog(
        "RD-DEPTH mainActor observedAndDecorated=\(observedAndDecorated) \(length) levels, \(bytesPerLevel) bytes a level"
      )
      precondition(length == 200, "\(length) levels fit")
      #if DEBUG
        let bound = 2_432
      #else
        let bound = 1_024
      #endif
      precondition(bytesPerLevel > 0)
      precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
    }
    print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "")
    #expect(result.standardErrorContent.isEmpty)
  }

  /// A chain too deep for its thread stops with Shank's message on these paths too, never with
  /// a segmentation fault.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "the sanitizers keep frames off the stack, or follow at most 64 locks held at once"),
    arguments: RDPath.allCases)
  func aChainTooDeepStopsWithShanksMessage(path: RDPath) async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [path] in
      _ = await onThread(stackSize: DepthTests.smallStack) {
        rdChainLength(path.tooDeepLength, path: path)
      }
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    let pattern =
      /Shank cannot resolve (.+): (\d+) factories are running, each resolving the next, and this thread's stack is nearly full/
    let match = try #require(
      stderr.firstMatch(of: pattern), "no Shank message: \(stderr.suffix(2_000))")
    let depth = try #require(Int(match.output.2))
    // How many levels fit is `twoHundredNestedResolutionsFitA512KiBThread`'s to say.
    rdLog("RD-TOODEEP \(path.rawValue) stopped at \(depth)")
  }

  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"))
  func aMainActorChainTooDeepStopsWithShanksMessage() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = await MainActor.run { rdMainActorChain(100_000, observedAndDecorated: true) }
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    let pattern =
      /factories are running, each resolving the next, and this thread's stack is nearly full/
    #expect(stderr.contains(pattern), "no Shank message: \(stderr.suffix(2_000))")
  }

  /// `.tooDeep(depth:chain:)`: "`depth` factories were running on this thread, each inside
  /// the one before … `chain` is the keys of the outermost of them". Through aliases and
  /// contribution lists, each link is one factory.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [false, true])
  func aTooDeepErrorCountsFactoriesThroughAliases(shared: Bool) async throws {
    let error = await onThread(stackSize: DepthTests.smallStack) {
      let container = Dependencies {
        rdAliasChain(
          length: 20_000, scope: shared ? .singleton : .unique, recorder: nil, throwing: true)
      }
      return resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") }
    }
    let tooDeep = try #require(error)
    guard case .tooDeep(let depth, let chain) = tooDeep.reason else {
      Issue.record("expected .tooDeep, got \(tooDeep)")
      return
    }
    #expect(chain == (0..<5).map { #"ChainLink named "\#($0)""# })
    #expect(tooDeep.name == String(depth), "the link refused is the one after `depth` links")
  }

  /// `resolveOrThrow` throws `.tooDeep` on these paths, and leaves nothing held: the second
  /// attempt goes exactly as deep.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [RDPath.childDecoratingOverDecoratingParentSingletons, .cachedDecoratedObserved])
  func resolveOrThrowThrowsTooDeepTwiceAlike(path: RDPath) async throws {
    let errors = await onThread(stackSize: DepthTests.smallStack) {
      rdThrowingChain(20_000, path: path)
    }
    let first = try #require(errors[0])
    guard case .tooDeep(let depth, _) = first.reason else {
      Issue.record("expected .tooDeep, got \(first)")
      return
    }
    #expect(depth >= 150)
    #expect(errors[1]?.reason == first.reason)
  }
}

// MARK: - Fixtures

/// The scopes, as arguments an exit test can capture.
enum RDScope: String, CaseIterable, Codable, Sendable {
  case unique, singleton, cached, weak

  var scope: Scope {
    switch self {
    case .unique: .unique
    case .singleton: .singleton
    case .cached: .cached("rd-cached")
    case .weak: .weak
    }
  }
}

protocol RDGreeterType: AnyObject {
  var text: String { get }
}

final class RDGreeter: RDGreeterType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class RDTagged: RDGreeterType {
  let wrapped: RDGreeterType
  let tag: String
  init(_ wrapped: RDGreeterType, _ tag: String) {
    self.wrapped = wrapped
    self.tag = tag
  }
  var text: String { wrapped.text + "+" + tag }
}

struct RDTag {
  let value: String
  init(_ value: String) { self.value = value }
}

struct RDFailure: Error {}

protocol RDObservedType: AnyObject {}
final class RDObserved: RDObservedType {}

protocol RDLeftType: AnyObject {}
protocol RDRightType: AnyObject {}
final class RDLeft: RDLeftType { init(_: RDRightType) {} }
final class RDRight: RDRightType { init(_: RDLeftType) {} }

protocol RDAliasA: AnyObject {}
protocol RDAliasB: AnyObject {}
final class RDBoth: RDAliasA, RDAliasB {}

protocol RDSinkType: AnyObject {
  var text: String { get }
}

final class RDSink: RDSinkType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class RDTaggedSink: RDSinkType {
  let text: String
  init(_ wrapped: RDSinkType, _ tag: String) { text = wrapped.text + "+" + tag }
}

/// A module that injects the decorated greeter.
final class RDHolder {
  @Inject var greeter: RDGreeterType
}

/// `Dependencies.withOverrides` over `base` rather than over the built root, which parallel
/// tests share: run inside a factory of a child of `base` without decorators, whose container
/// is `current` there.
func rdWithOverrides<Result>(
  over base: Dependencies, @ModuleBuilder _ modules: @escaping () -> [Module],
  operation: @escaping () -> Result
) -> Result {
  let box = RDResultBox<Result>()
  let runner = Dependencies(over: base) {
    Module { () -> RDRunner in
      box.value = Dependencies.withOverrides(modules, operation: operation)
      return RDRunner()
    }
  }
  _ = runner.resolve(RDRunner.self)
  return box.value!
}

final class RDResultBox<Value> { var value: Value? }
struct RDRunner {}

/// Prints `line`, and appends it to the file `RD_DEPTH_LOG` names, if any: an exit test's
/// output is lost when it fails.
func rdLog(_ line: String) {
  print(line)
  fflush(nil)
  guard let path = ProcessInfo.processInfo.environment["RD_DEPTH_LOG"] else { return }
  let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
  guard fd >= 0 else { return }
  defer { close(fd) }
  let text = line + "\n"
  _ = text.withCString { write(fd, $0, strlen($0)) }
}

/// Ends the process when a test deadlocks, rather than hanging the run.
func rdWatchdog(seconds: Int) {
  Thread {
    sleep(UInt32(seconds))
    FileHandle.standardError.write("rdWatchdog: deadlocked for \(seconds) s\n".data(using: .utf8)!)
    exit(99)
  }.start()
}

// MARK: - Chains

/// How a chain of `rdChainLength(_:path:recorder:)` is registered and resolved.
enum RDPath: String, CaseIterable, Codable, Sendable {
  /// `@Inject` links, an observer installed.
  case injectObserved
  /// `@Inject` singleton links in a decorating container, an observer installed.
  case injectObservedDecoratedSingleton
  /// Each link a `Module(as:)` alias, unique.
  case alias
  /// Each link a `.singleton` alias, in a decorating container, observed.
  case aliasSingletonDecoratedObserved
  /// Each link a contribution to `[Level<…>]` of its own type, resolving the next list.
  case contributions
  /// The same, each level decorated, an observer installed.
  case contributionsDecoratedObserved
  /// `.cached` links in a decorating container, observed.
  case cachedDecoratedObserved
  /// `.weak` links in a decorating container, observed.
  case weakDecoratedObserved
  /// Singleton links in a decorating parent, resolved from a child with a decorator.
  case childDecoratingOverDecoratingParentSingletons
  /// The same, observed, the links `.cached`.
  case childDecoratingOverDecoratingParentCachedObserved
  /// Singleton links in a decorating parent, resolved from a child without decorators.
  case plainChildOverDecoratingParentSingletons
  /// Singleton links in an override layer over a decorating built root.
  case overrideOverDecoratingBuiltRoot
  /// Unique links resolved with `resolve` from a built root that decorates, observed.
  case builtRootDecoratedObserved

  /// A length no 512 KiB thread holds, that registers quickly.
  var tooDeepLength: Int {
    switch self {
    case .contributions, .contributionsDecoratedObserved: 600
    default: 20_000
    }
  }
}

let rdIdentity = Module.decorating(ChainLink.self) { $0 }

func rdChainLength(_ length: Int, path: RDPath, recorder: StackRecorder? = nil) -> Int {
  var observation: Observation?
  defer { observation?.cancel() }
  switch path {
  case .injectObserved, .injectObservedDecoratedSingleton, .aliasSingletonDecoratedObserved,
    .contributionsDecoratedObserved, .cachedDecoratedObserved, .weakDecoratedObserved,
    .childDecoratingOverDecoratingParentCachedObserved, .builtRootDecoratedObserved:
    observation = Dependencies.observe { _ in }
  default: break
  }
  let container: Dependencies
  switch path {
  case .injectObserved:
    container = Dependencies {
      chainModules(length: length, scope: .unique, step: .inject, recorder: recorder)
    }
  case .injectObservedDecoratedSingleton:
    container = Dependencies {
      chainModules(length: length, scope: .singleton, step: .inject, recorder: recorder)
      rdIdentity
    }
  case .alias:
    container = Dependencies { rdAliasChain(length: length, scope: .unique, recorder: recorder) }
  case .aliasSingletonDecoratedObserved:
    container = Dependencies {
      rdAliasChain(length: length, scope: .singleton, recorder: recorder)
      rdIdentity
    }
  case .contributions, .contributionsDecoratedObserved:
    let modules = rdContributionChain(
      length: length, decorated: path == .contributionsDecoratedObserved, recorder: recorder)
    container = Dependencies { modules }
    let first = container.resolve([RDLevel<RDBottom>].self)
    return first.isEmpty ? 0 : chainLength(from: first[0])
  case .cachedDecoratedObserved:
    container = Dependencies {
      chainModules(length: length, scope: .cached("rd-chain"), step: .resolve, recorder: recorder)
      rdIdentity
    }
  case .weakDecoratedObserved:
    container = Dependencies {
      chainModules(length: length, scope: .weak, step: .resolve, recorder: recorder)
      rdIdentity
    }
  case .childDecoratingOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) { rdIdentity }
  case .childDecoratingOverDecoratingParentCachedObserved:
    let parent = Dependencies {
      chainModules(length: length, scope: .cached("rd-chain"), step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) { rdIdentity }
  case .plainChildOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) {}
  case .overrideOverDecoratingBuiltRoot:
    Dependencies { rdIdentity }.build()
    let links = chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
    return Dependencies.withOverrides {
      links
    } operation: {
      chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
    }
  case .builtRootDecoratedObserved:
    Dependencies {
      chainModules(length: length, scope: .unique, step: .resolve, recorder: recorder)
      rdIdentity
    }.build()
    return chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
  }
  return chainLength(from: container.resolve(ChainLink.self, name: "0"))
}

/// As `rdChainLength` with `resolveOrThrow`, twice: the errors of both attempts.
func rdThrowingChain(_ length: Int, path: RDPath) -> [ResolutionError?] {
  var observation: Observation?
  defer { observation?.cancel() }
  let scope: Scope
  switch path {
  case .cachedDecoratedObserved:
    observation = Dependencies.observe { _ in }
    scope = .cached("rd-chain")
  default:
    scope = .singleton
  }
  let parent = Dependencies {
    chainModules(length: length, scope: scope, step: .resolveOrThrow)
    rdIdentity
  }
  let container = Dependencies(over: parent) { rdIdentity }
  return [
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
  ]
}

@ModuleBuilder
func rdAliasChain(
  length: Int, scope: Scope, recorder: StackRecorder?, throwing: Bool = false
) -> [Module] {
  for index in 0..<length {
    let next = index + 1 < length ? String(index + 1) : nil
    Module(String(index), scope: scope, as: ChainLink.self) { () throws -> ChainLinkImpl in
      recorder?.addresses.append(stackAddress())
      guard let next else { return ChainLinkImpl(next: nil) }
      if throwing {
        return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink.self, name: next))
      }
      return ChainLinkImpl(next: Dependencies.resolve(ChainLink.self, name: next))
    }
  }
}

/// A type per level of a contribution chain.
protocol RDLevelTag {}
enum RDBottom: RDLevelTag {}
enum RDNest<Inner: RDLevelTag>: RDLevelTag {}

final class RDLevel<Tag: RDLevelTag>: ChainLink {
  let next: ChainLink?
  init(next: ChainLink?) { self.next = next }
}

/// Contributions to `[RDLevel<RDBottom>]`, `[RDLevel<RDNest<RDBottom>>]`, …: each level's
/// factory resolves the next level's list.
func rdContributionChain(length: Int, decorated: Bool, recorder: StackRecorder?) -> [Module] {
  var modules: [Module] = []
  var tag: any RDLevelTag.Type = RDBottom.self
  for index in 0..<length {
    rdAppendLevel(
      tag, isLast: index + 1 == length, decorated: decorated, recorder: recorder, to: &modules)
    tag = rdNested(tag)
  }
  return modules
}

func rdNested<Tag: RDLevelTag>(_ tag: Tag.Type) -> any RDLevelTag.Type { RDNest<Tag>.self }

func rdAppendLevel<Tag: RDLevelTag>(
  _ tag: Tag.Type, isLast: Bool, decorated: Bool, recorder: StackRecorder?,
  to modules: inout [Module]
) {
  modules.append(
    Module.contribution { () -> RDLevel<Tag> in
      recorder?.addresses.append(stackAddress())
      guard !isLast else { return RDLevel<Tag>(next: nil) }
      return RDLevel<Tag>(next: Dependencies.resolve([RDLevel<RDNest<Tag>>].self).first)
    })
  if decorated { modules.append(Module.decorating(RDLevel<Tag>.self) { $0 }) }
}

/// A chain of main-actor modules, resolved on the main actor: its length and the stack a
/// level takes.
@MainActor
func rdMainActorChain(_ length: Int, observedAndDecorated: Bool) -> (Int, Int) {
  let recorder = StackRecorder()
  var modules: [Module] = []
  for index in 0..<length {
    let next = index + 1 < length ? String(index + 1) : nil
    modules.append(
      Module(String(index), scope: index.isMultiple(of: 2) ? .singleton : .unique) {
        () -> ChainLink in
        if recorder.addresses.count < 60 { recorder.addresses.append(stackAddress()) }
        guard let next else { return ChainLinkImpl(next: nil) }
        return ChainLinkImpl(next: Dependencies.resolve(ChainLink.self, name: next))
      })
  }
  if observedAndDecorated { modules.append(Module.decorating(ChainLink.self) { $0 }) }
  let observation = observedAndDecorated ? Dependencies.observe { _ in } : nil
  defer { observation?.cancel() }
  let container = Dependencies { modules }
  let length = chainLength(from: container.resolve(ChainLink.self, name: "0"))
  return (length, recorder.bytesPerLevel)
}
