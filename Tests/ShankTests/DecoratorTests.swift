import Shank
import Testing

/// `Module.decorating`: what it wraps, in which order, and how often.
@Suite struct DecoratorTests {
  @Test func aDecoratorWrapsEveryInstanceOfItsTypeUnderEveryName() {
    let container = Dependencies {
      Module { Greeter("plain") as GreeterType }
      Module("named") { Greeter("named") as GreeterType }
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    #expect(container.resolve(GreeterType.self).greeting == "PLAIN!")
    #expect(container.resolve(GreeterType.self, name: "named").greeting == "NAMED!")
  }

  @Test func decoratorsStackInRegistrationOrderLowerLayersFirst() {
    let root = Dependencies {
      Module.decorating(GreeterType.self) { Tagged($0, "root") }
      Module { Greeter("hi") as GreeterType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { Tagged($0, "first") }
      Module { Greeter("child") as GreeterType }
      Module.decorating(GreeterType.self) { Tagged($0, "second") }
    }
    #expect(root.resolve(GreeterType.self).greeting == "hi+root")
    #expect(child.resolve(GreeterType.self).greeting == "child+root+first+second")
  }

  @Test func aSharedInstanceIsDecoratedOnceAndTheDecoratedOneIsKept() {
    let decorations = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { Greeter("kept") as GreeterType }
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let first = container.resolve(GreeterType.self)
    let second = container.resolve(GreeterType.self)
    #expect(first === second)
    #expect(first is Loud)
    #expect(decorations.value == 1)
  }

  @Test func aUniqueInstanceIsDecoratedByTheContainerItIsResolvedFrom() {
    let root = Dependencies { Module { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    #expect(root.resolve(GreeterType.self).greeting == "root")
    #expect(child.resolve(GreeterType.self).greeting == "ROOT!")
  }

  @Test func aSharedInstanceKeptUnderneathIsDecoratedOnlyByItsKeeper() {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    #expect(child.resolve(GreeterType.self) === root.resolve(GreeterType.self))
    #expect(child.resolve(GreeterType.self).greeting == "root")
  }

  @Test func eachContributionIsDecorated() {
    let container = Dependencies {
      Module.contribution { Greeter("a") as GreeterType }
      Module.contribution(scope: .singleton) { Greeter("b") as GreeterType }
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    #expect(container.resolve([GreeterType].self).map(\.greeting) == ["A!", "B!"])
  }

  @Test func whatADecoratorThrowsIsTheResolutionsError() throws {
    let container = Dependencies {
      Module { Greeter("plain") as GreeterType }
      Module.decorating(GreeterType.self) { _ in throw DecoratorFailure() }
    }
    let error = try #require(resolutionError { try container.resolveOrThrow(GreeterType.self) })
    #expect(error.reason == .factoryFailed(error: "DecoratorFailure()"))
  }

  @Test func verifyAndTheGraphShowDecorators() throws {
    let container = Dependencies {
      Module { Greeter("plain") as GreeterType }
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    try container.verify()
    let graph = container.graph()
    #expect(graph.nodes.map(\.label) == ["GreeterType", "GreeterType · decorator"])
    #expect(graph.nodes.map(\.kind) == [.module, .decorator])
  }
}

// MARK: - Fixtures

protocol GreeterType: AnyObject {
  var greeting: String { get }
}

final class Greeter: GreeterType {
  let greeting: String

  init(_ greeting: String) {
    self.greeting = greeting
  }
}

/// Shouts what it wraps.
final class Loud: GreeterType {
  private let wrapped: GreeterType

  init(_ wrapped: GreeterType) {
    self.wrapped = wrapped
  }

  var greeting: String { wrapped.greeting.uppercased() + "!" }
}

/// Appends a tag to what it wraps, to show the order decorators ran in.
final class Tagged: GreeterType {
  private let wrapped: GreeterType
  private let tag: String

  init(_ wrapped: GreeterType, _ tag: String) {
    self.wrapped = wrapped
    self.tag = tag
  }

  var greeting: String { "\(wrapped.greeting)+\(tag)" }
}

struct DecoratorFailure: Error {}
