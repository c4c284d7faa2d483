import Foundation
import Shank
import Testing

/// A review of three hot-path changes: the inlined unnamed lookup and outermost trace entry,
/// `@Inject`'s one-allocation cell, and decorators over a shared instance kept underneath.
@Suite struct HotPathReviewTests {
  // MARK: - @Inject's cell: layouts

  // MARK: - @Inject's cell: the kept value is freed exactly once

  // MARK: - Names: the inlined unnamed lookup and the out-of-line named one

  // MARK: - Cycles at the outermost entry and nested

  // MARK: - Decorators over a shared instance kept underneath

  @Test func aDecoratorThatThrowsOnceSucceedsNextTimeAndIsThenKept() throws {
    let calls = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        if calls.increment() == 1 { throw DecoratorFailure() }
        return Loud(greeter)
      }
    }
    let error = try #require(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    #expect(error.reason == .factoryFailed(error: "DecoratorFailure()"))
    let second = try child.resolveOrThrow(GreeterType.self)
    #expect(second.greeting == "ROOT!")
    #expect(try child.resolveOrThrow(GreeterType.self) === second)
    #expect(calls.value == 2)
    #expect(root.resolve(GreeterType.self).greeting == "root")
  }

  @Test(arguments: [Scope.singleton, .cached("review-scope"), .weak])
  func aChildDecoratesEachSharedScopeOnceAndCloseReleasesIt(scope: Scope) async {
    let decorations = Counter()
    let root = Dependencies { Module(scope: scope) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let underneath = root.resolve(GreeterType.self)
    weak var decorated: GreeterType?
    do {
      let first = child.resolve(GreeterType.self)
      decorated = first
      #expect(first.greeting == "ROOT!")
      #expect(child.resolve(GreeterType.self) === first)
      #expect(root.resolve(GreeterType.self) === underneath)
    }
    #expect(decorations.value == 1)
    await child.close()
    #expect(decorated == nil)
    withExtendedLifetime(underneath) {}
  }

  @Test func threadsAtFirstResolutionThroughAChildShareOneInstance() async {
    let root = Dependencies {
      Module(scope: .cached("review-threads")) { Greeter("root") as GreeterType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        usleep(500)
        return Loud(greeter)
      }
    }
    for _ in 0..<5 {
      let seen = Collector<ObjectIdentifier>()
      let finished = await onThreads(50) { _ in
        seen.append(ObjectIdentifier(child.resolve(GreeterType.self)))
      }
      #expect(finished)
      #expect(Set(seen.all).count == 1)
      await root.reset(.cached("review-threads"))
    }
  }

  @Test func contributionsThroughAChildAreEachDecoratedOnceAndKept() {
    let decorations = Counter()
    let root = Dependencies {
      Module.contribution(scope: .singleton) { Greeter("a") as GreeterType }
      Module.contribution(scope: .cached("review-contribution")) { Greeter("b") as GreeterType }
      Module.contribution { Greeter("c") as GreeterType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let first = child.resolve([GreeterType].self)
    let second = child.resolve([GreeterType].self)
    #expect(first.map(\.greeting) == ["A!", "B!", "C!"])
    #expect(first[0] === second[0])
    #expect(first[1] === second[1])
    #expect(first[2] !== second[2], "a unique contribution is made and decorated anew")
    #expect(decorations.value == 4)
    #expect(root.resolve([GreeterType].self).map(\.greeting) == ["a", "b", "c"])
  }

  @Test func anOverrideLayerDecoratesASingletonKeptUnderneathOnceWhileItLasts() {
    let decorations = Counter()
    weak var decorated: GreeterType?
    Dependencies.withOverrides {
      Module(scope: .singleton) { Greeter("outer") as GreeterType }
    } operation: {
      let underneath = Dependencies.current.resolve(GreeterType.self)
      Dependencies.withOverrides {
        Module.decorating(GreeterType.self) { greeter in
          decorations.increment()
          return Loud(greeter)
        }
      } operation: {
        let first = Dependencies.resolve(GreeterType.self)
        decorated = first
        #expect(first.greeting == "OUTER!")
        #expect(Dependencies.resolve(GreeterType.self) === first)
        #expect(ReviewGreeterReader().greeter === first, "an @Inject read in the layer too")
      }
      #expect(decorated == nil, "the layer's decoration goes with the layer")
      #expect(Dependencies.resolve(GreeterType.self) === underneath)
      Dependencies.withOverrides {
        Module.decorating(GreeterType.self) { greeter in
          decorations.increment()
          return Loud(greeter)
        }
      } operation: {
        #expect(Dependencies.resolve(GreeterType.self).greeting == "OUTER!")
      }
    }
    #expect(decorations.value == 2, "once per layer")
  }

  /// An alias (`Module(scope:as:)`) of a singleton is decorated at every resolution, by the
  /// container resolved from, around the one instance kept: as the article says.
  @Test func aChildDecoratesAnAliasAtEveryResolutionAroundTheOneInstanceKept() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, ReviewProto.self) {
        ReviewTracked("alias", made: Counter(), freed: Counter())
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    #expect(child.resolve(GreeterType.self).greeting == "ALIAS!")
    #expect(child.resolve(GreeterType.self) !== child.resolve(GreeterType.self))
    #expect(decorations.value == 3)
    #expect(root.resolve(ReviewProto.self).label == "alias")
  }

  /// The same alias decorated in the container that keeps it: a new wrapper each time too.
  @Test func anOwnerDecoratesAnAliasAtEveryResolution() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: GreeterType.self) {
        ReviewTracked("alias", made: Counter(), freed: Counter())
      }
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    #expect(root.resolve(GreeterType.self) !== root.resolve(GreeterType.self))
    #expect(decorations.value == 2)
  }

  /// A grandchild with no decorators of its own reads the same shared instance as the child
  /// whose decorator wraps it.
  @Test func aGrandchildWithoutDecoratorsSeesTheChildsDecoratedInstance() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let grandchild = Dependencies(over: child) {}
    let fromChild = child.resolve(GreeterType.self)
    let fromGrandchild = grandchild.resolve(GreeterType.self)
    #expect(fromGrandchild.greeting == "ROOT!")
    #expect(grandchild.resolve(GreeterType.self) === fromGrandchild)
    #expect(fromGrandchild === fromChild)
    #expect(decorations.value == 1)
  }

  /// Memory: the child's kept decoration holds a reset instance until the next resolution
  /// through the child replaces it, as the article says, or the child closes.
  @Test func aResetInstanceIsReleasedByTheChildsNextResolution() async {
    let freed = Counter()
    let root = Dependencies {
      Module(scope: .cached("review-memory")) {
        ReviewTracked("cached", made: Counter(), freed: freed) as GreeterType
      }
    }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    #expect(child.resolve(GreeterType.self).greeting == "CACHED!")
    await root.reset(.cached("review-memory"))
    #expect(freed.value == 0, "the child's decoration still wraps it")
    #expect(child.resolve(GreeterType.self).greeting == "CACHED!")
    #expect(freed.value == 1, "replaced by the next resolution, the old decoration goes")
    await child.close()
    #expect(freed.value == 1, "the root still keeps the new instance")
    await root.reset(.cached("review-memory"))
    #expect(freed.value == 2)
  }

  /// A decorated instance whose `deinit` resolves through the child: replacing it after a
  /// reset underneath releases it while the child's kept-decorations lock is held.
  @Test func replacingAKeptDecorationWhoseDeinitResolvesDoesNotDeadlock() async {
    let finished = await onThreads(1) { _ in
      let box = ReviewWeakBox()
      let root = Dependencies {
        Module(scope: .cached("review-deinit")) { Greeter("cached") as GreeterType }
        Module(scope: .singleton) { ReviewTracked("other", made: Counter(), freed: Counter()) }
      }
      let child = Dependencies(over: root) {
        Module.decorating(GreeterType.self) { ReviewResolvingOnDeinit($0, box) }
        Module.decorating(ReviewTracked.self) { $0 }
      }
      box.container = child
      _ = child.resolve(GreeterType.self).greeting
      root.reset(.cached("review-deinit"))
      _ = child.resolve(GreeterType.self).greeting
    }
    #expect(finished)
  }

  /// A child's decorator that resolves the type it decorates, through the child: a cycle, as
  /// in the container that keeps the instance.
  @Test func aChildDecoratorResolvingItsOwnTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let box = ReviewWeakBox()
      let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
      let child = Dependencies(over: root) {
        Module.decorating(GreeterType.self) { greeter in
          _ = try box.container!.resolveOrThrow(GreeterType.self)
          return Loud(greeter)
        }
      }
      box.container = child
      do throws(ResolutionError) {
        _ = try child.resolveOrThrow(GreeterType.self)
        preconditionFailure("resolved")
      } catch {
        guard case .cycle = error.reason else { preconditionFailure("\(error)") }
      }
    }
  }

  /// The same decorator in the container that keeps the singleton: a cycle, reported.
  @Test func anOwnersDecoratorResolvingItsOwnTypeIsACycle() async {
    await #expect(processExitsWith: .success) {
      let box = ReviewWeakBox()
      let root = Dependencies {
        Module(scope: .singleton) { Greeter("root") as GreeterType }
        Module.decorating(GreeterType.self) { greeter in
          _ = try box.container!.resolveOrThrow(GreeterType.self)
          return Loud(greeter)
        }
      }
      box.container = root
      do throws(ResolutionError) {
        _ = try root.resolveOrThrow(GreeterType.self)
        preconditionFailure("resolved")
      } catch {
        guard case .cycle = error.reason else { preconditionFailure("\(error)") }
      }
    }
  }
}

// MARK: - Fixtures

final class ReviewGreeterReader {
  @Inject var greeter: GreeterType
}

final class ReviewWeakBox: @unchecked Sendable {
  weak var container: Dependencies?
}

/// A decoration whose `deinit` resolves a decorated shared module through the child.
final class ReviewResolvingOnDeinit: GreeterType {
  private let wrapped: GreeterType
  private let box: ReviewWeakBox

  init(_ wrapped: GreeterType, _ box: ReviewWeakBox) {
    self.wrapped = wrapped
    self.box = box
  }

  deinit { _ = box.container?.resolve(ReviewTracked.self) }

  var greeting: String { wrapped.greeting }
}
