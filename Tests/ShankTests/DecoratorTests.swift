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

  @Test func aChildDecoratesASharedInstanceKeptUnderneathOnceAndKeepsIt() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let first = child.resolve(GreeterType.self)
    #expect(first.greeting == "ROOT!")
    #expect(child.resolve(GreeterType.self) === first)
    #expect(decorations.value == 1)
    // The root keeps its own instance, undecorated: the child's decorators are the child's.
    #expect(root.resolve(GreeterType.self).greeting == "root")
    #expect(root.resolve(GreeterType.self) !== first)
  }

  @Test func aChildDecoratesTheNewInstanceAfterAResetUnderneath() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .cached("session")) { Greeter("session") as GreeterType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Tagged(greeter, "\(decorations.value)")
      }
    }
    let first = child.resolve(GreeterType.self)
    #expect(child.resolve(GreeterType.self) === first)
    root.reset(.cached("session"))
    let second = child.resolve(GreeterType.self)
    #expect(second !== first)
    #expect(second.greeting == "session+2")
    #expect(child.resolve(GreeterType.self) === second)
  }

  @Test func aChildKeepsItsDecoratedWeakInstanceOnlyWhileItIsHeld() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .weak) { Greeter("weak") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    var held: GreeterType? = child.resolve(GreeterType.self)
    #expect(child.resolve(GreeterType.self) === held)
    #expect(decorations.value == 1)
    weak let released = held
    held = nil
    #expect(released == nil, "the child kept the decorated .weak instance alive")
    #expect(child.resolve(GreeterType.self).greeting == "WEAK!")
    #expect(decorations.value == 2)
  }

  @Test func aChildDecoratesAValueTypeSingletonOnce() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .singleton) { Plain(word: "value") as WordType } }
    let child = Dependencies(over: root) {
      Module.decorating(WordType.self) { word in
        decorations.increment()
        return Plain(word: word.word + "!")
      }
    }
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(decorations.value == 1)
  }

  @Test func closingAChildLetsGoOfWhatItsDecoratorsMade() async {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    weak let decorated = child.resolve(GreeterType.self)
    #expect(decorated != nil)
    await child.close()
    #expect(decorated == nil)
  }

  @Test func threadsResolvingThroughAChildAtOnceGetOneDecoratedInstance() async {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    let seen = Collector<ObjectIdentifier>()
    let finished = await onThreads(16) { _ in
      for _ in 0..<50 { seen.append(ObjectIdentifier(child.resolve(GreeterType.self))) }
    }
    #expect(finished)
    #expect(Set(seen.all).count == 1)
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

protocol WordType {
  var word: String { get }
}

/// A value type, which has no identity of its own.
struct Plain: WordType {
  let word: String
}
