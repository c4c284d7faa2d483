import Dispatch
import Foundation
import Shank
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Adversarial review of three changes: the inlined unnamed lookup and outermost trace entry,
/// `@Inject`'s one-allocation cell, and decorators in a child or override layer wrapping a
/// shared instance kept underneath. Run it under the sanitizers with
/// `--filter HotPathAttackTests`.
@Suite struct HotPathAttackTests {
  // MARK: - @Inject: the kinds of value a cell holds

  // MARK: - @Inject: setting, copies, and releasing exactly once

  // MARK: - Named lookups

  // MARK: - Cycles at the outermost level and nested

  // MARK: - Too deep at the outermost level

  // MARK: - Decorators over a shared instance kept underneath

  @Test func aChildDecoratorThatThrowsKeepsNothingAndTheNextResolutionDecorates() throws {
    let attempts = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        if attempts.increment() == 1 { throw DecoratorFailure() }
        return Loud(greeter)
      }
    }
    let error = try #require(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    #expect(error.reason == .factoryFailed(error: "DecoratorFailure()"))
    let underlying = root.resolve(GreeterType.self)
    #expect(underlying.greeting == "root")
    let decorated = child.resolve(GreeterType.self)
    #expect(decorated.greeting == "ROOT!")
    #expect(child.resolve(GreeterType.self) === decorated)
    #expect(attempts.value == 2)
    #expect(root.resolve(GreeterType.self) === underlying, "the root's instance survived")
  }

  @Test func aDecoratorThatAlwaysThrowsFailsEveryResolutionThroughTheChild() {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { _ in throw DecoratorFailure() }
    }
    for _ in 0..<3 {
      #expect(
        resolutionError { try child.resolveOrThrow(GreeterType.self) }?.reason
          == .factoryFailed(error: "DecoratorFailure()"))
    }
    #expect(root.resolve(GreeterType.self).greeting == "root")
  }

  @Test(arguments: [Scope.singleton, .cached("session"), .weak])
  func aChildDecoratesEachSharedScopeOnceWhileTheInstanceLives(scope: Scope) {
    let decorations = Counter()
    let root = Dependencies { Module(scope: scope) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Tagged(greeter, "child")
      }
    }
    let underlying = root.resolve(GreeterType.self)  // holds a .weak one alive too
    let first = child.resolve(GreeterType.self)
    #expect(first.greeting == "root+child")
    #expect(child.resolve(GreeterType.self) === first)
    #expect(decorations.value == 1)
    #expect(root.resolve(GreeterType.self) === underlying)
  }

  @Test func afterAResetUnderneathTheOldDecoratedInstanceIsReleasedOnceReplacedOrClosed() async {
    let deinits = Counter()
    let root = Dependencies {
      Module(scope: .cached("session")) { HPTracked(deinits: deinits) as HPTrackedType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(HPTrackedType.self) { HPTrackingWrapper($0, deinits: deinits) }
    }
    weak let firstDecorated = child.resolve(HPTrackedType.self)
    weak let firstUnderlying = root.resolve(HPTrackedType.self)
    #expect(firstDecorated != nil)
    await root.reset(.cached("session"))
    // The child still keeps the old decorated instance here, and through it the old
    // underlying one, until it decorates the next (see the review notes).
    let second = child.resolve(HPTrackedType.self)
    #expect(second !== firstDecorated)
    #expect(firstDecorated == nil, "replaced: the old decorated instance is released")
    #expect(firstUnderlying == nil, "and the old underlying one with it")
    weak let secondDecorated = second
    _ = consume second
    #expect(secondDecorated != nil, "kept by the child")
    await child.close()
    #expect(secondDecorated == nil, "released on close")
  }

  @Test func aWeakModulesDecoratedInstanceDiesWithItsHoldersAndTheUnderlyingOneToo() {
    let deinits = Counter()
    let root = Dependencies {
      Module(scope: .weak) { HPTracked(deinits: deinits) as HPTrackedType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(HPTrackedType.self) { HPTrackingWrapper($0, deinits: deinits) }
    }
    do {
      let held = child.resolve(HPTrackedType.self)
      #expect(child.resolve(HPTrackedType.self) === held)
    }
    #expect(deinits.value == 2, "the decorated and the underlying instance both released")
    let again = child.resolve(HPTrackedType.self)
    #expect(again is HPTrackingWrapper)
  }

  @Test func aDecoratorReturningItsArgumentOverAWeakModuleKeepsOneInstance() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .weak) { Greeter("weak") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return greeter
      }
    }
    let held = child.resolve(GreeterType.self)
    #expect(child.resolve(GreeterType.self) === held)
    #expect(root.resolve(GreeterType.self) === held)
    #expect(decorations.value == 1)
  }

  @Test func aCachedValueTypeIsDecoratedAtEveryResolutionThroughAChild() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .cached("s")) { Plain(word: "value") as WordType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(WordType.self) { word in
        decorations.increment()
        return Plain(word: word.word + "!")
      }
    }
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(decorations.value == 2)
  }

  @Test func overrideLayersDecorateTheSharedInstanceUnderneathAndLetGoWhenTheyEnd() {
    let decorations = Counter()
    weak var decorated: GreeterType?
    Dependencies.withOverrides {
      Module(scope: .singleton) { Greeter("outer") as GreeterType }
    } operation: {
      let outer = Dependencies.resolve(GreeterType.self)
      Dependencies.withOverrides {
        Module.decorating(GreeterType.self) { greeter in
          decorations.increment()
          return Loud(greeter)
        }
      } operation: {
        let first = Dependencies.resolve(GreeterType.self)
        #expect(first.greeting == "OUTER!")
        #expect(Dependencies.resolve(GreeterType.self) === first)
        let holder = HPGreeterHolder()
        #expect(holder.greeter === first)
        decorated = first
      }
      #expect(decorations.value == 1)
      #expect(decorated == nil, "the layer ended, and with it what it kept")
      #expect(Dependencies.resolve(GreeterType.self) === outer)
    }
  }

  @Test func aSharedContributionUnderneathIsDecoratedOnceThroughAChild() {
    let decorations = Counter()
    let root = Dependencies {
      Module.contribution { Greeter("unique") as GreeterType }
      Module.contribution(scope: .singleton) { Greeter("single") as GreeterType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let first = child.resolve([GreeterType].self)
    let second = child.resolve([GreeterType].self)
    #expect(first.map(\.greeting) == ["UNIQUE!", "SINGLE!"])
    #expect(first[0] !== second[0], "a unique contribution is made and decorated anew")
    #expect(first[1] === second[1], "the shared one is decorated once and kept")
    #expect(decorations.value == 3)
    #expect(root.resolve([GreeterType].self).map(\.greeting) == ["unique", "single"])
  }

  @Test func anAliasedSharedInstanceThroughAChild() {
    let aliasDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, HPOtherGreeterType.self) {
        HPBothGreeter()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        aliasDecorations.increment()
        return Loud(greeter)
      }
    }
    let underlying = root.resolve(HPOtherGreeterType.self)
    #expect(child.resolve(HPOtherGreeterType.self) === underlying, "no decorator of that type")
    let first = child.resolve(GreeterType.self)
    #expect(first.greeting == "BOTH!")
    // Documented: an alias is decorated at every resolution.
    #expect(child.resolve(GreeterType.self).greeting == "BOTH!")
    #expect(aliasDecorations.value == 2)
    #expect(root.resolve(GreeterType.self) === underlying)
  }

  @Test func aNamedSharedInstanceUnderneathIsDecoratedPerName() {
    let root = Dependencies {
      Module("caf\u{E9}", scope: .singleton) { Greeter("a") as GreeterType }
      Module("b", scope: .singleton) { Greeter("b") as GreeterType }
    }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    let a = child.resolve(GreeterType.self, name: "cafe\u{301}")
    let b = child.resolve(GreeterType.self, name: "b")
    #expect(a.greeting == "A!")
    #expect(b.greeting == "B!")
    #expect(child.resolve(GreeterType.self, name: "caf\u{E9}") === a)
    #expect(child.resolve(GreeterType.self, name: "b") === b)
  }

  @Test func aClosedChildResolvesNothingAndKeepsNothing() async {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    weak let decorated = child.resolve(GreeterType.self)
    await child.close()
    #expect(decorated == nil)
    guard case .closed = resolutionError({ try child.resolveOrThrow(GreeterType.self) })?.reason
    else {
      Issue.record("a closed child resolved")
      return
    }
    #expect(decorated == nil)
    #expect(root.resolve(GreeterType.self).greeting == "root")
  }

  @Test func manyThreadsResolvingThroughAChildAtFirstResolutionGetOneInstance() async throws {
    for _ in 0..<20 {
      let deinits = Counter()
      let runs = Counter()
      let root = Dependencies {
        Module(scope: .singleton) { HPTracked(deinits: Counter()) as HPTrackedType }
        Module(scope: .cached("c")) { Greeter("cached") as GreeterType }
      }
      let child = Dependencies(over: root) {
        Module.decorating(HPTrackedType.self) { tracked in
          runs.increment()
          sched_yield()
          return HPTrackingWrapper(tracked, deinits: deinits)
        }
        Module.decorating(GreeterType.self) { Loud($0) }
      }
      let seen = Collector<ObjectIdentifier>()
      let greeters = Collector<ObjectIdentifier>()
      let finished = await onThreads(8) { _ in
        for _ in 0..<20 {
          seen.append(ObjectIdentifier(child.resolve(HPTrackedType.self)))
          greeters.append(ObjectIdentifier(child.resolve(GreeterType.self)))
        }
      }
      try #require(finished)
      #expect(Set(seen.all).count == 1)
      #expect(Set(greeters.all).count == 1)
      #expect(deinits.value == runs.value - 1, "each extra decorated instance released")
      await child.close()
      #expect(deinits.value == runs.value)
    }
  }

  @Test func threadsResolvingThroughAChildWhileTheCachedScopeUnderneathResets() async throws {
    let root = Dependencies {
      Module(scope: .cached("c")) { HPTracked(deinits: Counter()) as HPTrackedType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(HPTrackedType.self) { HPTrackingWrapper($0, deinits: Counter()) }
    }
    let mismatches = Counter()
    let finished = await onThreads(4) { index in
      for _ in 0..<300 {
        if index == 0 {
          root.reset(.cached("c"))
        } else {
          let decorated = child.resolve(HPTrackedType.self)
          if !(decorated is HPTrackingWrapper) { mismatches.increment() }
        }
      }
    }
    try #require(finished)
    #expect(mismatches.value == 0)
    // Quiet now: the child settles on one decorated instance over the current one.
    let settled = child.resolve(HPTrackedType.self) as! HPTrackingWrapper
    #expect(child.resolve(HPTrackedType.self) === settled)
    #expect(settled.wrapped === root.resolve(HPTrackedType.self))
  }

  @MainActor @Test func aMainActorDecoratorInAChild() async throws {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    // Registered on the main actor, so the decorator is bound to it.
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    let offMain = Collector<ResolutionError?>()
    let finished = await onThreads(1) { _ in
      offMain.append(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    }
    try #require(finished)
    let error = try #require(offMain.all.first ?? nil, "a main-actor decorator ran off it")
    guard case .wrongIsolation(let actor, _) = error.reason else {
      Issue.record("expected .wrongIsolation, got \(error)")
      return
    }
    #expect(actor == "MainActor")
    let onMain = child.resolve(GreeterType.self)
    let greeting = onMain.greeting
    #expect(greeting == "ROOT!")
    let kept = child.resolve(GreeterType.self) === onMain
    #expect(kept)
  }

  @Test func aGrandchildsOwnDecoratorWrapsAfterTheChildsInOrder() {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { Tagged($0, "child") }
    }
    let grandchild = Dependencies(over: child) {
      Module.decorating(GreeterType.self) { Tagged($0, "grand") }
    }
    let first = grandchild.resolve(GreeterType.self)
    #expect(first.greeting == "root+child+grand")
    #expect(grandchild.resolve(GreeterType.self) === first)
    #expect(child.resolve(GreeterType.self).greeting == "root+child")
    #expect(root.resolve(GreeterType.self).greeting == "root")
  }

  @Test func whenTheRootClosesAChildResolvesNothingAndItsCloseReleasesWhatItKept() async {
    let wrappers = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { HPTracked(deinits: Counter()) as HPTrackedType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(HPTrackedType.self) { HPTrackingWrapper($0, deinits: wrappers) }
    }
    _ = child.resolve(HPTrackedType.self)
    await root.close()
    #expect(resolutionError { try child.resolveOrThrow(HPTrackedType.self) } != nil)
    // The child's decorated instance, and through it the root's, outlive the root's close.
    #expect(wrappers.value == 0)
    await child.close()
    #expect(wrappers.value == 1)
  }

  /// A decorator that resolves another type whose factory resolves the decorated one: the
  /// second pass through the decorator finds the decorated type on the trace.
  @Test func aChildDecoratorInACycleThroughAnotherModuleIsACycle() throws {
    let box = HPRef<Dependencies>()
    let root = Dependencies {
      Module(scope: .singleton) { Greeter("root") as GreeterType }
      Module { () throws -> HPLeaf in
        _ = try Dependencies.resolveOrThrow(GreeterType.self)
        return HPLeaf()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        _ = try box.value!.resolveOrThrow(HPLeaf.self)
        return Loud(greeter)
      }
    }
    box.value = child
    let error = try #require(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    guard case .cycle(let path) = error.reason else {
      Issue.record("expected a cycle, got \(error)")
      return
    }
    // The decoration is on the trace: the path runs from the decorated type back to it.
    #expect(path == ["GreeterType", "HPLeaf", "GreeterType"])
  }

  // MARK: - Decorators: what the review found

  /// The owner's own decorator resolving its own type is reported as a cycle.
  @Test func aRootDecoratorResolvingItsOwnTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let box = HPRef<Dependencies>()
      let root = Dependencies {
        Module(scope: .singleton) { Greeter("root") as GreeterType }
        Module.decorating(GreeterType.self) { greeter in
          _ = try box.value!.resolveOrThrow(GreeterType.self)
          return Loud(greeter)
        }
      }
      box.value = root
      let error = resolutionError { try root.resolveOrThrow(GreeterType.self) }
      guard case .cycle = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
    }
  }

  /// So is a child's decorator resolving its own type when the module underneath is unique:
  /// the child decorates it inside the module's frame.
  @Test func aChildDecoratorResolvingItsOwnUniqueTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let box = HPRef<Dependencies>()
      let root = Dependencies { Module { Greeter("root") as GreeterType } }
      let child = Dependencies(over: root) {
        Module.decorating(GreeterType.self) { greeter in
          _ = try box.value!.resolveOrThrow(GreeterType.self)
          return Loud(greeter)
        }
      }
      box.value = child
      let error = resolutionError { try child.resolveOrThrow(GreeterType.self) }
      guard case .cycle = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
    }
  }

  /// A child's decorator doing the same: on the trace too, so a cycle.
  @Test
  func aChildDecoratorResolvingItsOwnTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let box = HPRef<Dependencies>()
      let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
      let child = Dependencies(over: root) {
        Module.decorating(GreeterType.self) { greeter in
          _ = try box.value!.resolveOrThrow(GreeterType.self)
          return Loud(greeter)
        }
      }
      box.value = child
      let error = resolutionError { try child.resolveOrThrow(GreeterType.self) }
      guard case .cycle = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
    }
  }

  @Test
  func anOverrideDecoratorResolvingItsOwnTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let error = Dependencies.withOverrides {
        Module(scope: .singleton) { Greeter("outer") as GreeterType }
      } operation: {
        Dependencies.withOverrides {
          Module.decorating(GreeterType.self) { greeter in
            _ = try Dependencies.resolveOrThrow(GreeterType.self)
            return Loud(greeter)
          }
        } operation: {
          resolutionError { try Dependencies.resolveOrThrow(GreeterType.self) }
        }
      }
      guard case .cycle = error?.reason else {
        fatalError("not a cycle: \(String(describing: error))")
      }
    }
  }

  /// A resolution through a child that is still decorating when the child closes: the closed
  /// child does not keep what it finishes.
  @Test func aDecorationFinishingAfterCloseIsNotKeptByTheClosedChild() async throws {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        started.signal()
        proceed.wait()
        return Loud(greeter)
      }
    }
    let decorated = HPRef<HPWeakBox>()
    let resolving = Thread {
      decorated.value = HPWeakBox(child.resolve(GreeterType.self) as AnyObject)
      started.signal()
    }
    resolving.start()
    started.wait()
    await child.close()
    proceed.signal()
    started.wait()
    #expect(child.isClosed)
    #expect(decorated.value?.object == nil, "a closed child kept a decorated instance")

  }

  /// A grandchild that registers no decorator of the type reads through to its parent, which
  /// keeps one decorated instance of the root's singleton, which the grandchild shares.
  @Test func aGrandchildWithoutDecoratorsSharesItsParentsDecoratedInstance() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let grandchild = Dependencies(over: child) { Module { 0 } }
    let fromChild = child.resolve(GreeterType.self)
    let fromGrandchild = grandchild.resolve(GreeterType.self)
    #expect(fromGrandchild.greeting == "ROOT!")
    #expect(grandchild.resolve(GreeterType.self) === fromGrandchild)
    #expect(fromGrandchild === fromChild)
    #expect(decorations.value == 1)

  }
}

extension HotPathAttackTests {
  /// The same through override layers: a spy installed by an outer layer is the spy an inner
  /// layer, which overrides something else, resolves.
  @Test func anInnerOverrideLayerSeesTheOuterLayersDecoratedInstance() {
    let decorations = Counter()
    Dependencies.withOverrides {
      Module(scope: .singleton) { Greeter("app") as GreeterType }
    } operation: {
      Dependencies.withOverrides {
        Module.decorating(GreeterType.self) { greeter in
          decorations.increment()
          return Loud(greeter)
        }
      } operation: {
        let spy = Dependencies.resolve(GreeterType.self)
        Dependencies.withOverrides {
          Module { 0 }
        } operation: {
          let inner = Dependencies.resolve(GreeterType.self)
          #expect(inner.greeting == "APP!")
          #expect(inner === spy)
          #expect(decorations.value == 1)

        }
      }
    }
  }
}

// MARK: - Fixtures

final class HPGreeterHolder {
  @Inject var greeter: GreeterType
}

protocol HPTrackedType: AnyObject {}

/// Counts its deinit.
final class HPTracked: HPTrackedType {
  let deinits: Counter

  init(deinits: Counter) { self.deinits = deinits }

  deinit { deinits.increment() }
}

/// A decorator's wrapper, which counts its own deinit.
final class HPTrackingWrapper: HPTrackedType {
  let wrapped: HPTrackedType
  let deinits: Counter

  init(_ wrapped: HPTrackedType, deinits: Counter) {
    self.wrapped = wrapped
    self.deinits = deinits
  }

  deinit { deinits.increment() }
}

protocol HPOtherGreeterType: AnyObject {}

final class HPBothGreeter: GreeterType, HPOtherGreeterType {
  var greeting: String { "both" }
}

final class HPWeakBox: @unchecked Sendable {
  weak var object: AnyObject?

  init(_ object: AnyObject) { self.object = object }
}

final class HPRef<Value>: @unchecked Sendable {
  var value: Value?
}
