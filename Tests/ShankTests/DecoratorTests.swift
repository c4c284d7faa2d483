import Dispatch
import Foundation
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

  /// A kept instance that a decorator failed on is disposed of then: it is never kept, so
  /// nothing would drop it later. Its factory's next run makes the one that is kept.
  /// A `.weak` one's `onClose` never runs, as the Lifetimes article says, failed on or not.
  @Test(arguments: [Scope.singleton, .cached("session"), .weak], [false, true])
  func anInstanceADecoratorFailedOnIsDisposedOf(scope: Scope, async: Bool) async {
    let made = Counter()
    let closed = Counter()
    let failures = Counter()
    let decorator = Module.decorating(DatabaseType.self) { database in
      if failures.increment() == 1 { throw StubFailure() }
      return WrappedDatabase(database)
    }
    let onClose: (DatabaseType) -> Void = { _ in closed.increment() }
    let container = Dependencies {
      if async {
        Module(scope: scope, onClose: onClose) { () async -> DatabaseType in
          made.increment()
          return Database()
        }
      } else {
        Module(scope: scope, onClose: onClose) { () -> DatabaseType in
          made.increment()
          return Database()
        }
      }
      decorator
    }
    for _ in 0..<2 { _ = try? await container.resolveAsyncOrThrow(DatabaseType.self) }
    #expect(made.value == 2)
    await container.close()
    if scope == .weak {
      try? await Task.sleep(nanoseconds: 100_000_000)
      #expect(closed.value == 0)
    } else {
      await eventually { closed.value == 2 }
      #expect(closed.value == 2)
    }
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

  @Test func aUniqueInstanceIsDecoratedByTheContainerItIsResolvedFrom() {
    let root = Dependencies { Module { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    #expect(root.resolve(GreeterType.self).greeting == "root")
    #expect(child.resolve(GreeterType.self).greeting == "ROOT!")
  }

  // MARK: Each shared scope, decorated by its owner, by a child over it, or by both

  /// A shared instance is made once, and each layer that decorates it does so once and keeps
  /// what it made: the owner its decorated instance, a child its wrapper of the owner's, a
  /// grandchild without decorators the child's; whichever layer is asked first.
  @Test(arguments: [ScopeCase.singleton, .cached, .weak], DecoratingLayers.allCases)
  func aSharedInstanceIsDecoratedOncePerLayerAndEachLayerKeepsItsOwn(
    scope: ScopeCase, layers: DecoratingLayers
  ) {
    for childFirst in [true, false] {
      let layered = DecoratedLayers(layers, scope: scope.scope)
      let grandchild = Dependencies(over: layered.child) {}
      let fromChild: TextType
      let fromRoot: TextType
      if childFirst {
        // The owner makes and decorates its instance under the child's call.
        fromChild = layered.child.resolve(TextType.self)
        fromRoot = layered.root.resolve(TextType.self)
      } else {
        fromRoot = layered.root.resolve(TextType.self)
        fromChild = layered.child.resolve(TextType.self)
      }
      #expect(fromChild.text == layers.childText(of: "v1"))
      #expect(fromRoot.text == layers.rootText(of: "v1"))
      #expect(layers.underneath(fromChild) === fromRoot, "the child wraps the owner's instance")
      #expect(layered.child.resolve(TextType.self) === fromChild)
      #expect(grandchild.resolve(TextType.self) === fromChild)
      #expect(layered.root.resolve(TextType.self) === fromRoot)
      #expect(layered.made.value == 1)
      #expect(layered.ownerDecorations.value == (layers.ownerDecorates ? 1 : 0))
      #expect(layered.childDecorations.value == (layers.childDecorates ? 1 : 0))
    }
  }

  @Test(arguments: DecoratingLayers.allCases)
  func afterAResetUnderneathEachLayerDecoratesTheNewInstanceOnce(layers: DecoratingLayers) {
    let layered = DecoratedLayers(layers, scope: .cached("session"))
    let first = layered.child.resolve(TextType.self)
    #expect(first.text == layers.childText(of: "v1"))
    #expect(layered.child.resolve(TextType.self) === first)
    layered.root.reset(.cached("session"))
    let second = layered.child.resolve(TextType.self)
    #expect(second !== first)
    #expect(second.text == layers.childText(of: "v2"))
    #expect(layered.child.resolve(TextType.self) === second)
    #expect(layered.root.resolve(TextType.self).text == layers.rootText(of: "v2"))
    #expect(layered.made.value == 2)
    #expect(layered.ownerDecorations.value == (layers.ownerDecorates ? 2 : 0))
    #expect(layered.childDecorations.value == (layers.childDecorates ? 2 : 0))
  }

  @Test(arguments: DecoratingLayers.allCases)
  func aDecoratedWeakInstanceLivesOnlyAsLongAsItsHolders(layers: DecoratingLayers) {
    let layered = DecoratedLayers(layers, scope: .weak)
    var held: TextType? = layered.child.resolve(TextType.self)
    #expect(held?.text == layers.childText(of: "v1"))
    #expect(layered.child.resolve(TextType.self) === held)
    #expect(layered.root.resolve(TextType.self) === held.flatMap(layers.underneath))
    #expect(layered.ownerDecorations.value == (layers.ownerDecorates ? 1 : 0))
    #expect(layered.childDecorations.value == (layers.childDecorates ? 1 : 0))
    weak let released = held
    held = nil
    #expect(released == nil, "a layer kept the decorated .weak instance alive")
    #expect(layered.child.resolve(TextType.self).text == layers.childText(of: "v2"))
    #expect(layered.ownerDecorations.value == (layers.ownerDecorates ? 2 : 0))
    #expect(layered.childDecorations.value == (layers.childDecorates ? 2 : 0))
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

  /// The message names the key asked for, its name too, and the decorator that threw, not the
  /// factory, whether the decorator is the module's container's or a child's over it.
  @Test(arguments: [false, true])
  func whatADecoratorThrowsNamesTheKeyAskedForAndTheDecorator(inAChild: Bool) throws {
    let decoratorLine = #line + 2
    let decorating = [
      Module.decorating(GreeterType.self) { _ in throw DecoratorFailure() }
    ]
    let named = [Module("abc", scope: .singleton) { Greeter("plain") as GreeterType }]
    let container =
      inAChild
      ? Dependencies(over: Dependencies { named }) { decorating }
      : Dependencies {
        named
        decorating
      }
    let askedLine = #line + 1  // the #require, whose line its argument reports
    let error = try #require(
      resolutionError { try container.resolveOrThrow(GreeterType.self, name: "abc") })
    #expect(error.name == "abc")
    #expect(
      error.description == """
        Shank cannot resolve GreeterType named "abc": its decorator registered at ShankTests/DecoratorTests.swift:\(decoratorLine) threw DecoratorFailure()
          asked for at ShankTests/DecoratorTests.swift:\(askedLine)
        """)
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

  // MARK: Over a shared instance kept underneath

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

  @Test(arguments: [Scope.singleton, .cached("decorated-scope"), .weak])
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

  /// Memory: a reset underneath lets go of the child's kept decoration of the instance it
  /// drops, so the instance is freed at once, though nothing resolved through the child since.
  @Test func aResetUnderneathFreesTheInstanceTheChildDecorated() async {
    let freed = Counter()
    let root = Dependencies {
      Module(scope: .cached("decorated-memory")) {
        CountedGreeter("cached", made: Counter(), freed: freed) as GreeterType
      }
    }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    #expect(child.resolve(GreeterType.self).greeting == "CACHED!")
    await root.reset(.cached("decorated-memory"))
    #expect(freed.value == 1)
    #expect(child.resolve(GreeterType.self).greeting == "CACHED!")
    await child.close()
    #expect(freed.value == 1, "the root still keeps the new instance")
    weak var released: Dependencies?
    do {
      let other = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
      _ = other.resolve(GreeterType.self)
      released = other
    }
    #expect(released == nil, "what a reset tells does not keep a decorating layer alive")
    await root.reset(.cached("decorated-memory"))
    #expect(freed.value == 2)
  }

  /// After a reset underneath, the child's next resolution decorates the new instance and
  /// keeps that decoration until the child closes.
  @Test func afterAResetUnderneathTheChildKeepsItsDecorationOfTheNewInstanceUntilItCloses() async {
    let deinits = Counter()
    let root = Dependencies {
      Module(scope: .cached("session")) { TrackedModule(deinits: deinits) as TrackedModuleType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TrackedModuleType.self) { TrackingWrapper($0, deinits: deinits) }
    }
    weak let firstDecorated = child.resolve(TrackedModuleType.self)
    weak let firstUnderlying = root.resolve(TrackedModuleType.self)
    #expect(firstDecorated != nil)
    await root.reset(.cached("session"))
    #expect(firstDecorated == nil, "the reset lets go of the old decorated instance")
    #expect(firstUnderlying == nil, "and of the old underlying one with it")
    let second = child.resolve(TrackedModuleType.self)
    #expect(child.resolve(TrackedModuleType.self) === second)
    weak let secondDecorated = second
    _ = consume second
    #expect(secondDecorated != nil, "kept by the child")
    await child.close()
    #expect(secondDecorated == nil, "released on close")
  }

  /// A reset lets go of the decorations of the instances it drops, and of no other: the
  /// layer over it keeps its one decoration of another scope's instance, of another scope's
  /// value, and of the same scope's instance in a layer above the container reset, which the
  /// reset does not reach.
  @Test func aResetKeepsTheDecorationsOfWhatItDoesNotDrop() async {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .cached("reset")) { ServiceImpl() as Service }
      Module(scope: .cached("kept")) { Greeter("kept") as GreeterType }
      Module(scope: .cached("kept")) { ValueServiceImpl(serial: 7) as ValueService }
    }
    let middle = Dependencies(over: root) {
      Module("middle", scope: .cached("reset")) { Greeter("middle") as GreeterType }
    }
    let top = Dependencies(over: middle) {
      Module.decorating(Service.self) { $0 }
      Module.decorating(GreeterType.self) {
        decorations.increment()
        return Tagged($0, "d")
      }
      Module.decorating(ValueService.self) {
        ValueServiceImpl(serial: $0.serial * 1_000 + decorations.increment()) as ValueService
      }
    }
    let service = top.resolve(Service.self)
    let kept = top.resolve(GreeterType.self)
    let inTheMiddle = top.resolve(GreeterType.self, name: "middle")
    let value = top.resolve(ValueService.self).serial
    await root.reset(.cached("reset"))
    #expect(top.resolve(Service.self) !== service, "the reset scope's instance is made anew")
    #expect(top.resolve(GreeterType.self) === kept)
    #expect(top.resolve(GreeterType.self, name: "middle") === inTheMiddle)
    #expect(top.resolve(ValueService.self).serial == value)
    #expect(decorations.value == 3)
  }

  /// A layer freed on one thread while another decorates through a sibling layer, whose
  /// decorated instance's deinit resolves the `.cached` module underneath, deadlocks nothing:
  /// the layer's decorations are never freed under a lock a deinit may take.
  @Test func layersFreedWhileOthersDecorateACachedInstanceDoNotDeadlock() async {
    let root = Dependencies { Module(scope: .cached("session")) { Greeter("a") as GreeterType } }
    let finished = await onThreads(3) { _ in
      for _ in 0..<50_000 {
        let child = Dependencies(over: root) {
          Module.decorating(GreeterType.self) { ResolvingOnDeinit($0, from: root) }
        }
        _ = child.resolve(GreeterType.self)
      }
    }
    #expect(finished)
  }

  /// A decorated instance whose `deinit` resolves through the child: replacing it after a
  /// reset underneath releases it while the child's kept-decorations lock is held.
  @Test func replacingAKeptDecorationWhoseDeinitResolvesDoesNotDeadlock() async {
    let finished = await onThreads(1) { _ in
      let box = WeakBox()
      let root = Dependencies {
        Module(scope: .cached("decorated-deinit")) { Greeter("cached") as GreeterType }
        Module(scope: .singleton) { CountedGreeter("other", made: Counter(), freed: Counter()) }
      }
      let child = Dependencies(over: root) {
        Module.decorating(GreeterType.self) { ResolvingOnDeinitGreeter($0, box) }
        Module.decorating(CountedGreeter.self) { $0 }
      }
      box.container = child
      _ = child.resolve(GreeterType.self).greeting
      root.reset(.cached("decorated-deinit"))
      _ = child.resolve(GreeterType.self).greeting
    }
    #expect(finished)
  }

  @Test func aWeakModulesDecoratedInstanceDiesWithItsHoldersAndTheUnderlyingOneToo() {
    let deinits = Counter()
    let root = Dependencies {
      Module(scope: .weak) { TrackedModule(deinits: deinits) as TrackedModuleType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TrackedModuleType.self) { TrackingWrapper($0, deinits: deinits) }
    }
    do {
      let held = child.resolve(TrackedModuleType.self)
      #expect(child.resolve(TrackedModuleType.self) === held)
    }
    #expect(deinits.value == 2, "the decorated and the underlying instance both released")
    let again = child.resolve(TrackedModuleType.self)
    #expect(again is TrackingWrapper)
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

  @Test func aCachedValueTypeIsDecoratedOnceThroughAChildUntilItsScopeIsReset() async {
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
    #expect(decorations.value == 1)
    await root.reset(.cached("s"))
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(decorations.value == 2, "the instance made after the reset is decorated anew")
    #expect(child.resolve(WordType.self).word == "value!")
    #expect(decorations.value == 2)
  }

  /// A reset that races the resolution decorating a `.cached` value type drops what that
  /// resolution decorated: the next resolution decorates the one made after the reset, once.
  @Test func aCachedValueTypeDecoratedAcrossAResetIsDecoratedAgainOnce() async {
    let decorations = Counter()
    let (entered, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let made = Counter()
    let root = Dependencies {
      Module(scope: .cached("s")) { Plain(word: "value \(made.increment())") as WordType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(WordType.self) { word in
        if decorations.increment() == 1 {
          entered.signal()
          release.wait()
        }
        return Plain(word: word.word + "!")
      }
    }
    let racing = Thread { _ = child.resolve(WordType.self) }
    racing.start()
    await Task.detached { entered.wait() }.value
    await root.reset(.cached("s"))
    release.signal()
    await eventually { racing.isFinished }
    #expect(child.resolve(WordType.self).word == "value 2!")
    #expect(decorations.value == 2, "the one made after the reset is decorated anew")
    #expect(child.resolve(WordType.self).word == "value 2!")
    #expect(decorations.value == 2)
  }

  /// A `.weak` value type is made at every resolution, as a unique one is, and nothing tells
  /// one from the next: a child decorates each.
  @Test func aWeakValueTypeIsDecoratedAtEveryResolutionThroughAChild() {
    let made = Counter()
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .weak) { () -> WordType in
        Plain(word: "value \(made.increment())")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(WordType.self) { word in
        decorations.increment()
        return Plain(word: word.word + "!")
      }
    }
    #expect(child.resolve(WordType.self).word == "value 1!")
    #expect(child.resolve(WordType.self).word == "value 2!")
    #expect(decorations.value == 2)
  }

  /// A decorator of `[P]` wraps the list whether a module registers it or contributions
  /// gather it; each contribution is decorated as `P` first.
  @Test(arguments: [false, true])
  func aDecoratorOfAListWrapsTheListHoweverItIsMade(registeredAsAList: Bool) {
    let container = Dependencies {
      if registeredAsAList {
        Module { [Greeter("a"), Greeter("b")] as [GreeterType] }
      } else {
        Module.contribution { Greeter("a") as GreeterType }
        Module.contribution { Greeter("b") as GreeterType }
      }
      Module.decorating([GreeterType].self) { $0 + [Greeter("added")] }
    }
    #expect(container.resolve([GreeterType].self).map(\.greeting) == ["a", "b", "added"])
  }

  /// Over a layer that registers the list whole, the contributions of the layers over it are
  /// added to that list, and each decorator of `[P]` runs once: on the whole, wherever it is,
  /// unless the list's scope is not `.unique`: its layer gives it wrapped by the decorators
  /// there and underneath, and keeps it so (but a `.weak` one, a value nothing holds weakly).
  @Test(
    arguments: [Scope.unique, .singleton, .cached("lists"), .weak],
    ["under", "in its layer", "over"])
  func aDecoratorOfAListRunsOnceOverAListRegisteredWhole(scope: Scope, decoratorLayer: String) {
    let decorations = Counter()
    let decorator = Module.decorating([GreeterType].self) {
      decorations.increment()
      return $0 + [Greeter("added")]
    }
    let root = Dependencies {
      Module.contribution { Greeter("replaced") as GreeterType }
      if decoratorLayer == "under" { decorator }
    }
    let registering = Dependencies(over: root) {
      Module(scope: scope) { [Greeter("a"), Greeter("b")] as [GreeterType] }
      if decoratorLayer == "in its layer" { decorator }
    }
    let top = Dependencies(over: registering) {
      Module.contribution { Greeter("c") as GreeterType }
      if decoratorLayer == "over" { decorator }
    }
    // A `.weak` list, a value, is not kept: made and decorated in its layer at each resolution.
    let decoratedInItsLayer = scope != .unique && decoratorLayer != "over"
    let keptDecorated = decoratedInItsLayer && scope != .weak
    let expected = decoratedInItsLayer ? ["a", "b", "added", "c"] : ["a", "b", "c", "added"]
    #expect(top.resolve([GreeterType].self).map(\.greeting) == expected)
    #expect(top.resolve([GreeterType].self).map(\.greeting) == expected)
    #expect(decorations.value == (keptDecorated ? 1 : 2))
  }

  /// The same for a dictionary: a decorator over the layer that registers it runs once.
  @Test func aDecoratorOfADictionaryRunsOnceOverADictionaryRegisteredWhole() {
    let decorations = Counter()
    let registering = Dependencies { Module { ["a": Greeter("a")] as [String: GreeterType] } }
    let top = Dependencies(over: registering) {
      Module.contribution("c") { Greeter("c") as GreeterType }
      Module.decorating([String: GreeterType].self) {
        decorations.increment()
        return $0.merging(["added": Greeter("added")]) { $1 }
      }
    }
    let greetings = top.resolve([String: GreeterType].self).mapValues(\.greeting)
    #expect(greetings == ["a": "a", "c": "c", "added": "added"])
    #expect(decorations.value == 1)
  }

  /// A closed layer's decorators are gone with it: a child over it gets what the layer itself
  /// would, the parent's instance, undecorated and the same one each time.
  @Test func aClosedMiddleLayersDecoratorsNoLongerApplyToTheChildOverIt() async {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { Greeter("root") as GreeterType }
      Module.contribution(scope: .singleton) { Greeter("listed") as GreeterType }
    }
    let middle = Dependencies(over: root) {
      Module.decorating(GreeterType.self) {
        decorations.increment()
        return Loud($0)
      }
      Module.decorating([GreeterType].self) { $0 + [Greeter("added")] }
    }
    let child = Dependencies(over: middle) {}
    #expect(child.resolve(GreeterType.self) is Loud)
    await middle.close()
    let counted = decorations.value
    let first = child.resolve(GreeterType.self)
    #expect(first === child.resolve(GreeterType.self))
    #expect(first === root.resolve(GreeterType.self))
    #expect(first === middle.resolve(GreeterType.self))
    #expect(decorations.value == counted)
    #expect(child.resolve([GreeterType].self).map(\.greeting) == ["listed"])
  }

  /// A child with decorators of its own over a closed layer: what it kept before the close
  /// carried the closed layer's decoration, which must go with the layer, as "as if the closed
  /// one were not there, its decorators included" says; its own decoration stays.
  @Test(arguments: [Scope.singleton, .cached("closed-middle-kept")])
  func aChildsKeptDecorationLosesAClosedMiddleLayersDecorator(scope: Scope) async {
    let root = Dependencies { Module(scope: scope) { Greeter("s") as GreeterType } }
    let middle = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { Tagged($0, "middle") }
    }
    let child = Dependencies(over: middle) {
      Module.decorating(GreeterType.self) { Tagged($0, "child") }
    }
    #expect(child.resolve(GreeterType.self).greeting == "s+middle+child")
    await middle.close()
    #expect(child.resolve(GreeterType.self).greeting == "s+child")
  }

  /// Of two threads that decorate one shared instance underneath at once, one keeps its
  /// decoration; the other's is let go of once its resolution has ended, so that its deinit,
  /// which resolves the same key, gets the one kept rather than a cycle.
  @Test func aDecorationThatLostTheRaceToBeKeptIsLetGoOfOnceItsResolutionEnds() async throws {
    let (box, decorating, outcomes) = (WeakBox(), Counter(), Collector<String>())
    let root = Dependencies { Module(scope: .singleton) { Gateway() as Reachable } }
    let child = Dependencies(over: root) {
      Module.decorating(Reachable.self) { (gateway: Reachable) -> Reachable in
        decorating.increment()
        _ = holdUntil(atMost: 5) { decorating.value >= 2 }
        return Wrapped(gateway) {
          outcomes.append(box.container?.outcome(resolving: Reachable.self) ?? "")
        }
      }
    }
    box.container = child
    try #require(await onThreads(2, timeout: 20) { _ in _ = child.resolve(Reachable.self) })
    #expect(decorating.value == 2)
    #expect(outcomes.all == ["resolved"])
  }

  @Test func contributionsThroughAChildAreEachDecoratedOnceAndKept() {
    let decorations = Counter()
    let root = Dependencies {
      Module.contribution(scope: .singleton) { Greeter("a") as GreeterType }
      Module.contribution(scope: .cached("decorated-contribution")) { Greeter("b") as GreeterType }
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

  /// An alias (`Module(scope:as:)`) of a singleton is made once and decorated once by each
  /// layer that decorates it, around the one instance kept, as a module's own type is: the
  /// child wraps what the owner kept. Its other type is not decorated.
  @Test(arguments: DecoratingLayers.allCases)
  func aSharedAliasIsDecoratedOnceByEachLayerAroundTheOneInstanceKept(layers: DecoratingLayers) {
    let made = Counter()
    let ownerDecorations = Counter()
    let childDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, Labelled.self) {
        CountedGreeter("alias", made: made, freed: Counter())
      }
      if layers.ownerDecorates {
        Module.decorating(GreeterType.self) {
          ownerDecorations.increment()
          return Tagged($0, "p")
        }
      }
    }
    let child = Dependencies(over: root) {
      if layers.childDecorates {
        Module.decorating(GreeterType.self) {
          childDecorations.increment()
          return Tagged($0, "c")
        }
      }
    }
    // Asked where the outermost decorator is.
    let asked = layers.childDecorates ? child : root
    let first = asked.resolve(GreeterType.self)
    #expect(first.greeting == layers.childText(of: "alias"))
    #expect(asked.resolve(GreeterType.self) === first)
    #expect(root.resolve(GreeterType.self).greeting == layers.rootText(of: "alias"))
    #expect(root.resolve(GreeterType.self) === root.resolve(GreeterType.self))
    #expect(ownerDecorations.value == (layers.ownerDecorates ? 1 : 0))
    #expect(childDecorations.value == (layers.childDecorates ? 1 : 0))
    #expect(root.resolve(Labelled.self).label == "alias")
    #expect(made.value == 1)
  }

  /// An alias is decorated once per instance its scope keeps, and the decoration kept: a
  /// `.cached` one again once its scope is reset, a `.weak` one while it is held; a unique one
  /// at every resolution.
  @Test(arguments: [Scope.singleton, .cached("session"), .weak, .unique])
  func anAliasIsDecoratedOncePerInstanceItsScopeKeeps(scope: Scope) {
    let made = Counter()
    let decorations = Counter()
    let container = Dependencies {
      Module(scope: scope, as: GreeterType.self, Labelled.self) {
        CountedGreeter("alias", made: made, freed: Counter())
      }
      Module.decorating(GreeterType.self) {
        decorations.increment()
        return Tagged($0, "d")
      }
    }
    let first = container.resolve(GreeterType.self)
    let second = container.resolve(GreeterType.self)
    #expect(first.greeting == "alias+d")
    #expect((first === second) == (scope != .unique))
    #expect(made.value == (scope == .unique ? 2 : 1))
    #expect(decorations.value == made.value)
    if scope == .cached("session") { container.reset(scope) }
    let third = container.resolve(GreeterType.self)
    #expect((third === first) == (scope == .singleton || scope == .weak))
    #expect(decorations.value == made.value)
  }

  /// A layer's shared alias is its own, decorated by the layers under it too: layers made one
  /// after another over one decorating layer never see each other's values, nor a value of
  /// another of their types, where a freed layer's registrations are made again at its address.
  @Test(arguments: AliasLayer.allCases)
  func eachLayersSharedAliasIsItsOwnOverADecoratingLayer(layer: AliasLayer) async {
    let decorators: [Module] = [
      Module.decorating(SerialA.self) { WrappedSerialA(inner: $0) },
      Module.decorating(SerialB.self) { WrappedSerialB(inner: $0) },
    ]
    let base = Dependencies { decorators }
    var seen: [[Int]] = []
    await Dependencies.withOverrides {
      decorators
    } operation: {
      for serial in 0..<200 {
        let alias = Module(scope: .singleton, as: SerialA.self, SerialB.self) {
          Serial(serial: serial)
        }
        seen.append(await layer.serials(of: alias, over: base))
      }
    }
    #expect(seen == (0..<200).map { [$0, $0] })
  }

  /// A `.cached` alias decorated in its own container is freed by a reset of its scope, as a
  /// module's own type is: the alias lets go of its decoration.
  @Test func aCachedAliasDecoratedInItsContainerIsFreedByAReset() async {
    let freed = Counter()
    let container = Dependencies {
      Module.decorating(GreeterType.self) { Tagged($0, "d") }
      Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) {
        CountedGreeter("alias", made: Counter(), freed: freed)
      }
    }
    #expect(container.resolve(GreeterType.self).greeting == "alias+d")
    await container.reset(.cached("session"))
    #expect(freed.value == 1)
    #expect(container.resolve(GreeterType.self).greeting == "alias+d")
  }

  /// A decoration begun before a reset of a `.cached` scope, and finished after a resolution
  /// that followed the reset, is not kept: later resolutions get that resolution's, and the
  /// instance the reset dropped is freed. So in a shared alias's own container, and in a child
  /// that decorates a module's own type underneath.
  @Test(arguments: [false, true])
  func aDecorationBegunBeforeAResetIsNotKeptOverANewerOne(throughAChild: Bool) async {
    let freed = Counter()
    let decorations = Counter()
    let (started, go) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let decorate = Module.decorating(GreeterType.self) { greeter in
      if decorations.increment() == 1 {
        started.signal()
        go.wait()
      }
      return Tagged(greeter, "d")
    }
    let made = { CountedGreeter("made", made: Counter(), freed: freed) }
    let owner = Dependencies {
      if throughAChild {
        Module(scope: .cached("session")) { made() as GreeterType }
      } else {
        Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) { made() }
        decorate
      }
    }
    let asked = throughAChild ? Dependencies(over: owner) { decorate } : owner
    let fresh = Collector<ObjectIdentifier>()
    let finished = await onThreads(2) { index in
      if index == 0 {
        _ = asked.resolve(GreeterType.self)
      } else {
        started.wait()
        owner.reset(.cached("session"))
        fresh.append(ObjectIdentifier(asked.resolve(GreeterType.self)))
        go.signal()
      }
    }
    #expect(finished)
    #expect(fresh.all == [ObjectIdentifier(asked.resolve(GreeterType.self))])
    #expect(decorations.value == 2)
    #expect(freed.value == 1)
  }

  /// A resolution that waited for an instance made after a reset keeps its decoration, and
  /// one made before the reset, which went unkept to its own resolution, keeps none even when
  /// its decoration finishes last: later resolutions get the waiter's, and the dropped instance
  /// is freed, whatever the shape.
  @Test(arguments: CachedDecorationShape.allCases)
  func aWaiterAcrossAResetKeepsItsDecorationOfTheNewInstance(
    shape: CachedDecorationShape
  ) async {
    let (made, freed, decorations) = (Counter(), Counter(), Counter())
    let (making, go, waiterDone) =
      (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let decorate = Module.decorating(GreeterType.self) { greeter in
      decorations.increment()
      // The decoration of the instance the reset dropped finishes after the waiter's.
      if greeter.greeting.hasPrefix("dropped") { waiterDone.wait() }
      return Tagged(greeter, "d")
    }
    let factory = { () -> CountedGreeter in
      guard made.increment() == 1 else {
        return CountedGreeter("kept", made: Counter(), freed: freed)
      }
      making.signal()
      making.signal()
      go.wait()
      return CountedGreeter("dropped", made: Counter(), freed: freed)
    }
    let owner = Dependencies {
      switch shape {
      case .aliasInItsContainer:
        Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) { factory() }
        decorate
      case .moduleThroughAChild:
        Module(scope: .cached("session")) { factory() as GreeterType }
      case .aliasThroughAChild:
        Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) { factory() }
        Module.decorating(GreeterType.self) { Tagged($0, "owner") }
      }
    }
    let asked = shape == .aliasInItsContainer ? owner : Dependencies(over: owner) { decorate }
    let waiter = Collector<ObjectIdentifier>()
    let finished = await onThreads(3) { index in
      switch index {
      case 0:
        _ = asked.resolve(GreeterType.self)
      case 1:
        making.wait()
        waiter.append(ObjectIdentifier(asked.resolve(GreeterType.self)))
        waiterDone.signal()
      default:
        making.wait()
        // Time for the waiter to block on the creation lock.
        Thread.sleep(forTimeInterval: 0.1)
        owner.reset(.cached("session"))
        go.signal()
      }
    }
    #expect(finished)
    #expect(waiter.all == [ObjectIdentifier(asked.resolve(GreeterType.self))])
    #expect(made.value == 2)
    #expect(decorations.value == 2)
    #expect(freed.value == 1)
  }

  /// A reset that drops a shared alias's instance while a child decorates it, through an
  /// owner's decoration that does not hold the instance, frees it on the resetting thread: the
  /// resolution through the child holds only its address, so the instance's deinit, which
  /// resolves the alias, is not freed inside that resolution, where it would meet a cycle.
  @Test func anAliasInstanceAResetDropsDuringAChildsDecorationIsFreedOutsideIt() async {
    let errors = Counter()
    let asking = WeakBox()
    let handOff = HandOff()
    let owner = Dependencies {
      Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) {
        InstanceResolvingOnDeinit(from: asking, errors: errors)
      }
      Module.decorating(GreeterType.self) { Greeter("fresh " + $0.greeting) as GreeterType }
    }
    let middle = Dependencies(over: owner) { Module.decorating(GreeterType.self) { Loud($0) } }
    let child = Dependencies(over: middle) {
      Module.decorating(GreeterType.self) { HandingOffGreeter($0, handOff) }
    }
    asking.container = child
    _ = child.resolve(GreeterType.self)
    await middle.close()
    handOff.arm()
    // Replaces the child's decoration, kept with the closed layer's decorator, whose deinit
    // has the other thread reset the scope while this resolution runs.
    let finished = await handOff.run({ _ = child.resolve(GreeterType.self) }, resetting: owner)
    #expect(finished)
    #expect(handOff.handedOff, "the replaced decoration was released")
    #expect(errors.value == 0, "the dropped instance's deinit met a cycle")
  }

  /// A reset that drops a shared alias's instance while its own container decorates it, into a
  /// decoration that does not hold the instance, frees it outside that decoration: its deinit,
  /// which resolves the alias, meets no cycle.
  @Test func anAliasInstanceAResetDropsDuringItsOwnDecorationIsFreedOutsideIt() async {
    let errors = Counter()
    let asking = WeakBox()
    let handOff = HandOff()
    let owner = Dependencies {
      Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) {
        InstanceResolvingOnDeinit(from: asking, errors: errors)
      }
      Module.decorating(GreeterType.self) { _ in
        // Has the other thread reset the scope while this decoration runs, the first time.
        handOff.decorationGoes()
        return Greeter("fresh") as GreeterType
      }
    }
    asking.container = owner
    handOff.arm()
    let finished = await handOff.run({ _ = owner.resolve(GreeterType.self) }, resetting: owner)
    #expect(finished)
    #expect(handOff.handedOff, "the reset ran during the decoration")
    #expect(errors.value == 0, "the dropped instance's deinit met a cycle")
  }

  /// A child's kept decoration that a resolution replaces, because a layer in between closed,
  /// is released outside the child's decoration: its deinit, which resolves the type through
  /// the child, meets no cycle, for a module's own type and for a shared alias.
  @Test(arguments: [false, true])
  func aReplacedDecorationIsReleasedOutsideTheDecoration(aliased: Bool) async {
    let errors = Counter()
    let asking = WeakBox()
    let owner = Dependencies {
      if aliased {
        Module(scope: .cached("session"), as: GreeterType.self, Labelled.self) {
          CountedGreeter("kept", made: Counter(), freed: Counter())
        }
      } else {
        Module(scope: .cached("session")) { Greeter("kept") as GreeterType }
      }
    }
    let middle = Dependencies(over: owner) { Module.decorating(GreeterType.self) { Loud($0) } }
    let child = Dependencies(over: middle) {
      Module.decorating(GreeterType.self) {
        DecorationResolvingOnDeinit($0, from: asking, errors: errors)
      }
    }
    asking.container = child
    let first = ObjectIdentifier(child.resolve(GreeterType.self))
    await middle.close()
    let replacement = ObjectIdentifier(child.resolve(GreeterType.self))
    #expect(replacement != first)
    #expect(errors.value == 0, "the replaced decoration's deinit met a cycle")
  }

  /// A resolution of a `.cached` alias while a reset of its scope drops the instance, from
  /// that instance's deinit, keeps its decoration: the next resolution gets the same one.
  @Test func aResolutionDuringAResetOfAnAliasKeepsItsDecoration() {
    let decorations = Counter()
    let made = Counter()
    let duringReset = Collector<ObjectIdentifier>()
    let box = Collector<Dependencies>()
    let container = Dependencies {
      Module(scope: .cached("session"), as: GreeterType.self) { () -> DeinitHook in
        let serial = made.increment()
        return DeinitHook {
          guard serial == 1, let container = box.all.first else { return }
          duringReset.append(ObjectIdentifier(container.resolve(GreeterType.self)))
        }
      }
      // A decoration that holds nothing of what it decorates, so the reset frees the instance.
      Module.decorating(GreeterType.self) { _ in
        decorations.increment()
        return Greeter("d")
      }
    }
    box.append(container)
    _ = container.resolve(GreeterType.self)
    container.reset(.cached("session"))
    #expect(duringReset.all == [ObjectIdentifier(container.resolve(GreeterType.self))])
    #expect(made.value == 2)
    #expect(decorations.value == 2)
  }

  /// Threads that first resolve a decorated shared alias at the same time all get the one
  /// decoration kept, though its decorator may run for each, as the article's note says.
  @Test func threadsFirstResolvingADecoratedSharedAliasGetTheOneDecorationKept() async {
    let container = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, Labelled.self) {
        CountedGreeter("alias", made: Counter(), freed: Counter())
      }
      Module.decorating(GreeterType.self) {
        Thread.sleep(forTimeInterval: 0.002)
        return Tagged($0, "d")
      }
    }
    let seen = Collector<ObjectIdentifier>()
    let finished = await onThreads(8) { _ in
      seen.append(ObjectIdentifier(container.resolve(GreeterType.self)))
    }
    #expect(finished)
    #expect(Set(seen.all).count == 1)
  }

  /// A child's shared alias, decorated by its parent, is freed with the child: the parent keeps
  /// no decoration of it.
  @Test func aChildsSharedAliasDecoratedByItsParentIsFreedWithTheChild() async {
    let parent = Dependencies { Module.decorating(GreeterType.self) { Tagged($0, "p") } }
    let freed = Counter()
    do {
      let child = Dependencies(over: parent) {
        Module(scope: .singleton, as: GreeterType.self, Labelled.self) {
          CountedGreeter("child", made: Counter(), freed: freed)
        }
      }
      #expect(child.resolve(GreeterType.self).greeting == "child+p")
      await child.close()
    }
    #expect(freed.value == 1)
  }

  @Test func anAliasedSharedInstanceThroughAChild() {
    let aliasDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, OtherGreeterType.self) {
        BothGreeter()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        aliasDecorations.increment()
        return Loud(greeter)
      }
    }
    let underlying = root.resolve(OtherGreeterType.self)
    #expect(child.resolve(OtherGreeterType.self) === underlying, "no decorator of that type")
    let first = child.resolve(GreeterType.self)
    #expect(first.greeting == "BOTH!")
    #expect(child.resolve(GreeterType.self) === first)
    #expect(aliasDecorations.value == 1)
    #expect(root.resolve(GreeterType.self) === underlying)
  }

  /// Named contributions as the dictionary gives them, as the list does.
  @Test func aDecoratorWrapsTheNamedContributionsOfTheDictionary() {
    let container = Dependencies {
      Module.contribution("a") { Greeter("a") as GreeterType }
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    #expect(container.resolve([GreeterType].self).map(\.greeting) == ["A!"])
    #expect(container.resolve([String: GreeterType].self).mapValues(\.greeting) == ["a": "A!"])
  }

  /// A value its own container keeps is decorated once: a `.singleton` one once, a `.cached`
  /// one once per reset of its scope.
  @Test func aValueTypeItsOwnContainerKeepsIsDecoratedOncePerInstance() async {
    let decorations = Counter()
    let container = Dependencies {
      Module(scope: .singleton) { Plain(word: "one") as WordType }
      Module("cached", scope: .cached("words")) { Plain(word: "two") as WordType }
      Module.decorating(WordType.self) { word in
        decorations.increment()
        return Plain(word: word.word + "!")
      }
    }
    for _ in 0..<2 { #expect(container.resolve(WordType.self).word == "one!") }
    #expect(decorations.value == 1)
    for _ in 0..<2 { #expect(container.resolve(WordType.self, name: "cached").word == "two!") }
    #expect(decorations.value == 2)
    await container.reset(.cached("words"))
    for _ in 0..<2 { #expect(container.resolve(WordType.self, name: "cached").word == "two!") }
    #expect(decorations.value == 3)
  }

  /// In the container that registers it too: the types share the one instance, and only the
  /// decorated type gets the wrapper.
  @Test func aDecoratorOfOneOfAnAliasesTypesLeavesTheOthersUndecorated() {
    let container = Dependencies {
      Module(scope: .singleton, as: GreeterType.self, OtherGreeterType.self) { BothGreeter() }
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    let other = container.resolve(OtherGreeterType.self)
    #expect(other is BothGreeter)
    #expect(container.resolve(GreeterType.self).greeting == "BOTH!")
    #expect(container.resolve(GreeterType?.self)?.greeting == "BOTH!")
  }

  /// Every instance of the type, however it is asked for: as a `T?` and through an optional
  /// `@Inject` too.
  @Test(arguments: [Scope.unique, .singleton])
  func aDecoratorWrapsAnInstanceAskedForAsAnOptional(scope: Scope) {
    let greeting = Dependencies.withOverrides {
      Module(scope: scope) { Greeter("hi") as GreeterType }
      Module.decorating(GreeterType.self) { Loud($0) }
    } operation: {
      #expect(Dependencies.resolve(GreeterType?.self)?.greeting == "HI!")
      return OptionalGreeterReader().greeter?.greeting
    }
    #expect(greeting == "HI!")
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

  /// `resolveAsync` resolves on the actor the module needs; a main-actor decorator of a
  /// nonisolated module needs the main actor too, as the error of a synchronous resolution off
  /// it advises: "or, if it is Sendable, from async code with Dependencies.resolveAsync".
  @Test func resolveAsyncOffTheMainActorRunsAMainActorDecoratorOnIt() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 20)
      let container = await MainActor.run {
        Dependencies {
          Module(scope: .singleton, isolation: nil) { "made" }
          // Registered on the main actor, so the decorator is bound to it.
          Module.decorating(String.self) { $0 + "+decorated" }
        }
      }
      let resolved = await Task.detached { await container.resolveAsync(String.self) }.value
      precondition(resolved == "made+decorated", resolved)
    }
  }

  /// So does a list whose elements a main-actor decorator wraps.
  @Test func resolveAsyncOfAListRunsAMainActorDecoratorOfItsElementsOnIt() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 20)
      let container = await MainActor.run {
        Dependencies {
          Module.contribution(isolation: nil) { "made" }
          Module.decorating(String.self) { $0 + "+decorated" }
        }
      }
      let resolved = await Task.detached { await container.resolveAsync([String].self) }.value
      precondition(resolved == ["made+decorated"], "\(resolved)")
    }
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

  @MainActor @Test func aMainActorDecoratorOfAUniqueModuleRefusesToRunOffIt() async throws {
    let decoratorLine = #line + 4
    let container = Dependencies {
      Module(isolation: nil) { Greeter("plain") as GreeterType }
      // Registered on the main actor, so the decorator is bound to it.
      Module.decorating(GreeterType.self) { Loud($0) }
    }
    let offMain = Collector<ResolutionError?>()
    let finished = await onThreads(1) { _ in
      offMain.append(resolutionError { try container.resolveOrThrow(GreeterType.self) })
    }
    try #require(finished)
    let error = try #require(offMain.all.first ?? nil, "a main-actor decorator ran off it")
    #expect(
      error.reason
        == .wrongIsolation(
          actor: "MainActor", registeredAt: "ShankTests/DecoratorTests.swift:\(decoratorLine)"))
    #expect(container.resolve(GreeterType.self).greeting == "PLAIN!")
  }

  /// As a module bound to another actor: the resolution is refused before the decorator runs
  /// off its actor, and `resolve()` stops with Shank's message.
  @Test func aDecoratorBoundToAnotherActorRefusesToRunOffIt() async throws {
    let container = await DecoratingActor().container()
    let error = try #require(resolutionError { try container.resolveOrThrow(GreeterType.self) })
    #expect(
      error.reason
        == .wrongIsolation(
          actor: "DecoratingActor",
          registeredAt: "ShankTests/DecoratorTests.swift:\(DecoratingActor.decoratorLine)"))
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      exitIfStillRunning(after: 20)
      let container = await DecoratingActor().container()
      _ = container.resolve(GreeterType.self, line: 2)
    }
    #expect(
      standardError(of: result).contains(
        """
        ShankTests/DecoratorTests.swift:2: Fatal error: Shank cannot resolve GreeterType off DecoratingActor
          asked for at ShankTests/DecoratorTests.swift:2
          its decorator was registered at ShankTests/DecoratorTests.swift:\(DecoratingActor.decoratorLine) \
        from code isolated to DecoratingActor, so it runs only there

        """))
  }

  @Test func verifyReportsATypeWhoseDecoratorIsBoundToAnotherActor() async throws {
    let container = await DecoratingActor().container()
    let error = try #require(throws: VerificationError.self) { try container.verify() }
    #expect(error.problems.count == 1)
    guard case .unresolvable(let module, let message) = error.problems.first else {
      Issue.record("expected an unresolvable module, got \(error.problems)")
      return
    }
    #expect(module == "GreeterType")
    #expect(
      message.hasPrefix(
        """
        Shank cannot resolve GreeterType off DecoratingActor
          asked for at
        """))
  }

  // MARK: Grandchildren and override layers

  /// A grandchild with no decorators of its own reads through to its parent, and so shares the
  /// one decorated instance the child keeps of the root's singleton.
  @Test func aGrandchildWithoutDecoratorsSeesTheChildsDecoratedInstance() {
    let decorations = Counter()
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        decorations.increment()
        return Loud(greeter)
      }
    }
    let fromChild = child.resolve(GreeterType.self)
    // One that registers nothing, and one that registers a module of another type.
    for grandchild in [Dependencies(over: child) {}, Dependencies(over: child) { Module { 0 } }] {
      let fromGrandchild = grandchild.resolve(GreeterType.self)
      #expect(fromGrandchild.greeting == "ROOT!")
      #expect(grandchild.resolve(GreeterType.self) === fromGrandchild)
      #expect(fromGrandchild === fromChild)
    }
    #expect(decorations.value == 1)
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
        #expect(GreeterReader().greeter === first, "an @Inject read in the layer too")
      }
      #expect(decorations.value == 1)
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

  // MARK: Closing

  /// A decorator registers no key: once its child closes, what the child took from its parent
  /// comes from the parent, undecorated, and the child keeps nothing.
  @Test func aClosedChildKeepsNothingAndGivesItsParentsInstanceUndecorated() async throws {
    let root = Dependencies { Module(scope: .singleton) { Greeter("root") as GreeterType } }
    let child = Dependencies(over: root) { Module.decorating(GreeterType.self) { Loud($0) } }
    weak let decorated = child.resolve(GreeterType.self)
    #expect(decorated != nil)
    await child.close()
    #expect(decorated == nil)
    let afterClose = try child.resolveOrThrow(GreeterType.self)
    #expect(afterClose === root.resolve(GreeterType.self))
    #expect(afterClose.greeting == "root")
    #expect(decorated == nil)
  }

  @Test func whenTheRootClosesAChildResolvesNothingAndItsCloseReleasesWhatItKept() async {
    let wrappers = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { TrackedModule(deinits: Counter()) as TrackedModuleType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TrackedModuleType.self) { TrackingWrapper($0, deinits: wrappers) }
    }
    _ = child.resolve(TrackedModuleType.self)
    await root.close()
    #expect(resolutionError { try child.resolveOrThrow(TrackedModuleType.self) } != nil)
    // The child's decorated instance, and through it the root's, outlive the root's close.
    #expect(wrappers.value == 0)
    await child.close()
    #expect(wrappers.value == 1)
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
    let decorated = ValueRef<WeakObjectBox>()
    let resolving = Thread {
      decorated.value = WeakObjectBox(child.resolve(GreeterType.self) as AnyObject)
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

  // MARK: Threads

  @Test func threadsAtFirstResolutionThroughAChildShareOneInstance() async {
    let root = Dependencies {
      Module(scope: .cached("decorated-threads")) { Greeter("root") as GreeterType }
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
      await root.reset(.cached("decorated-threads"))
    }
  }

  @Test func manyThreadsResolvingThroughAChildAtFirstResolutionGetOneInstance() async throws {
    for _ in 0..<20 {
      let deinits = Counter()
      let runs = Counter()
      let root = Dependencies {
        Module(scope: .singleton) { TrackedModule(deinits: Counter()) as TrackedModuleType }
        Module(scope: .cached("c")) { Greeter("cached") as GreeterType }
      }
      let child = Dependencies(over: root) {
        Module.decorating(TrackedModuleType.self) { tracked in
          runs.increment()
          sched_yield()
          return TrackingWrapper(tracked, deinits: deinits)
        }
        Module.decorating(GreeterType.self) { Loud($0) }
      }
      let seen = Collector<ObjectIdentifier>()
      let greeters = Collector<ObjectIdentifier>()
      let finished = await onThreads(8) { _ in
        for _ in 0..<20 {
          seen.append(ObjectIdentifier(child.resolve(TrackedModuleType.self)))
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
      Module(scope: .cached("c")) { TrackedModule(deinits: Counter()) as TrackedModuleType }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TrackedModuleType.self) { TrackingWrapper($0, deinits: Counter()) }
    }
    let mismatches = Counter()
    let finished = await onThreads(4) { index in
      for _ in 0..<300 {
        if index == 0 {
          root.reset(.cached("c"))
        } else {
          let decorated = child.resolve(TrackedModuleType.self)
          if !(decorated is TrackingWrapper) { mismatches.increment() }
        }
      }
    }
    try #require(finished)
    #expect(mismatches.value == 0)
    // Quiet now: the child settles on one decorated instance over the current one.
    let settled = child.resolve(TrackedModuleType.self) as! TrackingWrapper
    #expect(child.resolve(TrackedModuleType.self) === settled)
    #expect(settled.wrapped === root.resolve(TrackedModuleType.self))
  }

  // MARK: Cycles

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

  /// A decorator that resolves what it decorates from a layer it makes over its own is a
  /// cycle, for a module's own type and a shared alias, in the owner or in a child: each new
  /// layer would decorate again.
  @Test(arguments: [false, true], [false, true])
  func aDecoratorResolvingItsTypeThroughANewLayerIsACycle(aliased: Bool, inChild: Bool) async {
    let path = await onThread(stackSize: 8 << 20) { () -> [String]? in
      let box = WeakBox()
      let module =
        aliased
        ? Module(as: GreeterType.self, Labelled.self) {
          CountedGreeter("s", made: Counter(), freed: Counter())
        } : Module { Greeter("s") as GreeterType }
      let decorator = Module.decorating(GreeterType.self) { greeter in
        _ = try Dependencies(over: box.container!) {}.resolveOrThrow(GreeterType.self)
        return Tagged(greeter, "d")
      }
      let container = decorating(module, with: decorator, inChild: inChild)
      box.container = container
      guard
        case .cycle(let path) = resolutionError({ try container.resolveOrThrow(GreeterType.self) })?
          .reason
      else { return nil }
      return path
    }
    #expect(path == ["GreeterType", "GreeterType"])
  }

  /// A decorator that resolves another type whose factory resolves the decorated one: the
  /// second pass through the decorator finds the decorated type on the trace.
  @Test func aChildDecoratorInACycleThroughAnotherModuleIsACycle() throws {
    let box = ContainerBox()
    let root = Dependencies {
      Module(scope: .singleton) { Greeter("root") as GreeterType }
      Module { () throws -> LeafModule in
        _ = try Dependencies.resolveOrThrow(GreeterType.self)
        return LeafModule()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        _ = try box.dependencies!.resolveOrThrow(LeafModule.self)
        return Loud(greeter)
      }
    }
    box.dependencies = child
    let error = try #require(resolutionError { try child.resolveOrThrow(GreeterType.self) })
    guard case .cycle(let path) = error.reason else {
      Issue.record("expected a cycle, got \(error)")
      return
    }
    // The decoration is on the trace: the path runs from the decorated type back to it.
    #expect(path == ["GreeterType", "LeafModule", "GreeterType"])
  }

  /// The owner's decorators run as its factory does, with the owner as `current`; a child's
  /// with the child.
  @Test func eachLayersDecoratorResolvesFromItsOwnLayer() {
    let root = Dependencies {
      Module(scope: .singleton) { PlainText("s") as TextType }
      Module { LayerTag("root") }
      Module.decorating(TextType.self) {
        TaggedText($0, "tag:" + Dependencies.resolve(LayerTag.self).value)
      }
    }
    let child = Dependencies(over: root) {
      Module { LayerTag("child") }
      Module.decorating(TextType.self) {
        TaggedText($0, "tag:" + Dependencies.resolve(LayerTag.self).value)
      }
    }
    #expect(child.resolve(TextType.self).text == "s+tag:root+tag:child")
    #expect(root.resolve(TextType.self).text == "s+tag:root")
  }

  /// A module that lists its own type among its aliases is decorated once as that type, and
  /// shares the instance with its other types where its scope shares.
  @Test(arguments: ScopeCase.allCases)
  func aModuleListingItsOwnTypeAmongItsAliasesIsDecoratedOnceAsThatType(scope: ScopeCase) throws {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: scope.scope, as: GreeterType.self, CountedGreeter.self) {
        CountedGreeter("s", made: Counter(), freed: Counter())
      }
      Module.decorating(CountedGreeter.self) { greeter in
        decorations.increment()
        return greeter
      }
    }
    let asItself = try root.resolveOrThrow(CountedGreeter.self)
    #expect(decorations.value == 1)
    let asAlias = try root.resolveOrThrow(GreeterType.self)
    #expect((asAlias === asItself) == (scope != .unique))
  }

  /// A child's decorator that resolves what it decorates from the container underneath gets
  /// what it is wrapping, not a cycle, whether the type is the module's own or a shared alias
  /// and whether the owner decorates it or not: the owner's instance is kept, so nothing is
  /// made.
  @Test(arguments: [ScopeCase.singleton, .cached, .weak], [false, true])
  func aChildsDecoratorResolvingItsTypeFromUnderneathGetsWhatItWraps(
    scope: ScopeCase, aliased: Bool
  ) throws {
    for ownerDecorates in [false, true] {
      try childDecoratorResolvingFromUnderneath(
        scope: scope, aliased: aliased, ownerDecorates: ownerDecorates)
    }
  }

  private func childDecoratorResolvingFromUnderneath(
    scope: ScopeCase, aliased: Bool, ownerDecorates: Bool
  ) throws {
    let made = Counter()
    let root = Dependencies {
      if aliased {
        Module(scope: scope.scope, as: GreeterType.self, Labelled.self) {
          CountedGreeter("s", made: made, freed: Counter())
        }
      } else {
        Module(scope: scope.scope) {
          CountedGreeter("s", made: made, freed: Counter()) as GreeterType
        }
      }
      if ownerDecorates { Module.decorating(GreeterType.self) { Tagged($0, "p") } }
    }
    let child = Dependencies(over: root) {
      Module.decorating(GreeterType.self) { greeter in
        let underneath = try root.resolveOrThrow(GreeterType.self)
        return Tagged(greeter, underneath === greeter ? "c" : "another")
      }
    }
    let decorated = try child.resolveOrThrow(GreeterType.self)
    #expect(decorated.greeting == (ownerDecorates ? "s+p+c" : "s+c"))
    #expect(try child.resolveOrThrow(GreeterType.self) === decorated)
    #expect(made.value == 1)
  }

  /// A child's decorator that resolves what it decorates from a layer underneath is no cycle,
  /// for a module's own type and a shared alias: from a layer over the owner of a `.unique`
  /// module, which makes another, or from a decorating layer in between, which wraps what the
  /// owner keeps.
  @Test(arguments: [false, true], [false, true])
  func aChildsDecoratorResolvingItsTypeFromALayerUnderneathIsNoCycle(
    aliased: Bool, middleDecorates: Bool
  ) throws {
    let made = Counter()
    let scope: Scope = middleDecorates ? .singleton : .unique
    let root = Dependencies {
      if aliased {
        Module(scope: scope, as: GreeterType.self, Labelled.self) {
          CountedGreeter("s", made: made, freed: Counter())
        }
      } else {
        Module(scope: scope) { CountedGreeter("s", made: made, freed: Counter()) as GreeterType }
      }
    }
    let middle = Dependencies(over: root) {
      if middleDecorates { Module.decorating(GreeterType.self) { Loud($0) } }
    }
    let child = Dependencies(over: middle) {
      Module.decorating(GreeterType.self) { greeter in
        Tagged(greeter, try middle.resolveOrThrow(GreeterType.self).greeting)
      }
    }
    let greeting = try child.resolveOrThrow(GreeterType.self).greeting
    #expect(greeting == (middleDecorates ? "S!+S!" : "s+s"))
    #expect(made.value == (middleDecorates ? 1 : 2))
  }

  /// An `@Inject` property declared by a layer's decorator binds to that layer, also when a
  /// child's decorator resolved the type from that layer: the owner of a `.unique` alias, or a
  /// decorating layer in between over a singleton.
  @Test(arguments: [false, true])
  func anInjectDeclaredByALowerLayersDecoratorBindsToThatLayer(throughMiddle: Bool) throws {
    let (lowerService, childService) = (ServiceImpl(), ServiceImpl())
    let scope: Scope = throughMiddle ? .singleton : .unique
    let root = Dependencies {
      Module(scope: scope, as: GreeterType.self, Labelled.self) {
        CountedGreeter("s", made: Counter(), freed: Counter())
      }
      if !throughMiddle {
        Module { lowerService as Service }
        Module.decorating(GreeterType.self) { InjectingGreeter($0) }
      }
    }
    let lower =
      throughMiddle
      ? Dependencies(over: root) {
        Module { lowerService as Service }
        Module.decorating(GreeterType.self) { InjectingGreeter($0) }
      } : root
    let underneath = Collector<GreeterType>()
    let child = Dependencies(over: lower) {
      Module { childService as Service }
      Module.decorating(GreeterType.self) { greeter in
        underneath.append(try lower.resolveOrThrow(GreeterType.self))
        return Tagged(greeter, "c")
      }
    }
    _ = try child.resolveOrThrow(GreeterType.self)
    let fromLower = try #require(underneath.all.first as? InjectingGreeter)
    #expect(fromLower.service === lowerService)
  }

  /// A child closed while its resolution makes the instance underneath: that resolution runs
  /// to its end as it began, decorated by the child, and the layer in between keeps only its own
  /// decoration.
  @Test(arguments: [false, true], [false, true])
  func aChildClosedDuringItsResolutionLeavesNoDecoratorInTheLayerUnderneath(
    aliased: Bool, middleDecorates: Bool
  ) async {
    let box = WeakBox()
    let greetings = await onThread(stackSize: 8 << 20) { () -> [String] in
      let root = Dependencies {
        if aliased {
          Module(scope: .singleton, as: GreeterType.self, Labelled.self) { () -> CountedGreeter in
            Self.close(box)
            return CountedGreeter("s", made: Counter(), freed: Counter())
          }
        } else {
          Module(scope: .singleton) { () -> GreeterType in
            Self.close(box)
            return Greeter("s")
          }
        }
      }
      let middle = Dependencies(over: root) {
        if middleDecorates { Module.decorating(GreeterType.self) { Loud($0) } }
      }
      let child = Dependencies(over: middle) {
        Module.decorating(GreeterType.self) { Tagged($0, "c") }
      }
      box.container = child
      let fromChild = (try? child.resolveOrThrow(GreeterType.self))?.greeting ?? "error"
      let fromMiddle = (try? middle.resolveOrThrow(GreeterType.self))?.greeting ?? "error"
      return [fromChild, fromMiddle, child.isClosed ? "closed" : "open"]
    }
    let underneath = middleDecorates ? "S!" : "s"
    #expect(greetings == [underneath + "+c", underneath, "closed"])
  }

  /// Closes the container in `box` on another task and waits for it.
  private static func close(_ box: WeakBox) {
    guard let container = box.container else { return }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      await container.close()
      done.signal()
    }
    done.wait()
  }

  /// An override active at the first resolution of a decorated singleton ends up neither in
  /// the instance nor in its owner's decoration.
  @Test func anOverrideActiveAtTheFirstResolutionIsNotInAnOwnersDecoration() {
    let root = Dependencies {
      Module(scope: .singleton) { PlainText("s") as TextType }
      Module { LayerTag("root") }
      Module.decorating(TextType.self) {
        TaggedText($0, "tag:" + Dependencies.resolve(LayerTag.self).value)
      }
    }
    let inside = withOverrides(over: root) {
      Module { LayerTag("override") }
    } operation: {
      Dependencies.resolve(TextType.self)
    }
    #expect(inside.text == "s+tag:root")
    #expect(root.resolve(TextType.self) === inside)
  }

  /// An override layer with no decorators over a decorating root gives the root's kept
  /// instance, decorated once.
  @Test func anOverrideLayerWithoutDecoratorsGivesTheRootsDecoratedSingleton() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton) { PlainText("s") as TextType }
      Module.decorating(TextType.self) {
        decorations.increment()
        return TaggedText($0, "p")
      }
    }
    let first = withOverrides(over: root) {
      Module { LayerTag("unrelated") }
    } operation: {
      Dependencies.resolve(TextType.self)
    }
    let second = withOverrides(over: root) {
      Module { LayerTag("unrelated") }
    } operation: {
      Dependencies.resolve(TextType.self)
    }
    #expect(first.text == "s+p")
    #expect(first === second)
    #expect(first === root.resolve(TextType.self))
    #expect(decorations.value == 1)
  }

  /// A decorator that resolves what it decorates is a cycle, for every scope, in the owner or
  /// in a child, whether it asks the resolving container or the one it decorates in by name,
  /// observed or not: never a recursion until the stack runs out, never a deadlock.
  @Test(arguments: ScopeCase.allCases, [false, true])
  func aDecoratorResolvingWhatItDecoratesIsACycle(scope: ScopeCase, inChild: Bool) async {
    await #expect(processExitsWith: .success) { [scope, inChild] in
      exitIfStillRunning(after: 20)
      for asksItsContainer in [false, true] {
        for observed in [false, true] {
          let observation = observed ? Dependencies.observe { _ in } : nil
          defer { observation?.cancel() }
          let box = WeakBox()
          let decorator = Module.decorating(TextType.self) { greeter in
            if asksItsContainer {
              _ = try box.container!.resolveOrThrow(TextType.self)
            } else {
              _ = try Dependencies.resolveOrThrow(TextType.self)
            }
            return TaggedText(greeter, "d")
          }
          let module = Module(scope: scope.scope) { PlainText("s") as TextType }
          let container = decorating(module, with: decorator, inChild: inChild)
          box.container = container
          // Held, so that a `.weak` instance kept underneath stays the same.
          var holder: [Any] = []
          for _ in 0..<2 {
            let error = resolutionError {
              holder.append(try container.resolveOrThrow(TextType.self))
            }
            guard case .cycle(let path) = error?.reason else {
              fatalError("not a cycle: \(String(describing: error))")
            }
            precondition(path.first == "TextType" && path.last == "TextType", "\(path)")
          }
          withExtendedLifetime(holder) {}
        }
      }
    }
  }

  @Test func aDecoratorThatThrowsOnceLeavesTheSingletonUnmadeAndTheNextResolutionMakesIt()
    async throws
  {
    let made = Counter()
    let attempts = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"TextType named "throw-once""# { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("throw-once", scope: .singleton) { () -> TextType in
        PlainText("v\(made.increment())")
      }
      Module.decorating(TextType.self) { greeter in
        if attempts.increment() == 1 { throw StubFailure() }
        return TaggedText(greeter, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TextType.self) { TaggedText($0, "c") }
    }
    let error = try #require(
      resolutionError { try child.resolveOrThrow(TextType.self, name: "throw-once") })
    #expect(error.reason == .factoryFailed(error: "StubFailure()"))
    #expect(events.all.isEmpty, "a failed resolution is not delivered")
    // Another thread resolves it: no creation lock was left held.
    let results = Collector<String>()
    let finished = await onThreads(1, timeout: 20) { _ in
      results.append(child.resolve(TextType.self, name: "throw-once").text)
    }
    try #require(finished, "a creation lock was left held")
    results.append(child.resolve(TextType.self, name: "throw-once").text)
    #expect(results.all == ["v2+p+c", "v2+p+c"])
    #expect(made.value == 2)
    #expect(root.resolve(TextType.self, name: "throw-once").text == "v2+p")
    #expect(events.all.count == 3)
    #expect(events.all.filter(\.madeInstance).count == 1, "\(events.all.map(\.madeInstance))")
  }

  @Test(arguments: ScopeCase.allCases)
  func aFactoryThatThrowsOnceInADecoratedObservedContainerIsMadeNextTime(scope: ScopeCase)
    async throws
  {
    let attempts = Counter()
    let decorations = Counter()
    let key = "factory-throws-\(scope)"
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == "TextType named \"\(key)\"" { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module(key, scope: scope.scope) { () throws -> TextType in
        if attempts.increment() == 1 { throw StubFailure() }
        return PlainText("made")
      }
      Module.decorating(TextType.self) {
        decorations.increment()
        return TaggedText($0, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TextType.self) { TaggedText($0, "c") }
    }
    let error = try #require(
      resolutionError { try child.resolveOrThrow(TextType.self, name: key) })
    #expect(error.reason == .factoryFailed(error: "StubFailure()"))
    #expect(error.typeName == "TextType")
    #expect(error.name == key)
    #expect(decorations.value == 0)
    let finished = await onThreads(1, timeout: 20) { _ in
      _ = child.resolve(TextType.self, name: key)
    }
    try #require(finished, "a creation lock was left held")
    let value = child.resolve(TextType.self, name: key)
    #expect(value.text == "made+p+c")
    #expect(events.all.count == 2)
    #expect(events.all.first?.madeInstance == true)
    #expect(events.all.allSatisfy { $0.depth == 0 })
  }

  @Test func anAliasedSingletonInADecoratingParentAndChildIsMadeOnceAndDecoratedOncePerLayer() {
    let made = Counter()
    let aDecorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: AliasedA.self, AliasedB.self) { () -> AliasedBoth in
        made.increment()
        return AliasedBoth()
      }
      Module.decorating(AliasedA.self) {
        aDecorations.increment()
        return $0
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(AliasedA.self) {
        aDecorations.increment()
        return $0
      }
    }
    let a = child.resolve(AliasedA.self)
    let b = child.resolve(AliasedB.self)
    #expect(a === b)
    #expect(root.resolve(AliasedA.self) === a)
    #expect(made.value == 1)
    // The root decorates what it keeps once, and the child wraps that once.
    #expect(aDecorations.value == 2)
    _ = child.resolve(AliasedA.self)
    #expect(aDecorations.value == 2)
  }

  @Test func contributionsOfADecoratingParentThroughAnObservedDecoratingChild() {
    let made = Counter()
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == "[PartType]" { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module.contribution("kept", scope: .singleton) { () -> PartType in
        made.increment()
        return Part("kept")
      }
      Module.contribution { Part("fresh") as PartType }
      Module.decorating(PartType.self) { TaggedPart($0, "p") }
    }
    let child = Dependencies(over: root) {
      Module.contribution { Part("child") as PartType }
      Module.decorating(PartType.self) { TaggedPart($0, "c") }
    }
    let first = child.resolve([PartType].self)
    let second = child.resolve([PartType].self)
    #expect(first.map(\.text) == ["kept+p+c", "fresh+p+c", "child+p+c"])
    #expect(first[0] === second[0])
    #expect(first[1] !== second[1])
    #expect(root.resolve([PartType].self).map(\.text) == ["kept+p", "fresh+p"])
    #expect(made.value == 1)
    #expect(events.all.count == 3)
    #expect(child.resolve([String: PartType].self).mapValues(\.text) == ["kept": "kept+p+c"])
  }

  @Test func verifyAndStartOfADecoratingChildOverADecoratingParent() async throws {
    let made = Counter()
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, eager: true) { () -> TextType in
        made.increment()
        return PlainText("s")
      }
      Module { LayerTag("root") }
      Module.decorating(TextType.self) {
        decorations.increment()
        return TaggedText($0, "tag:" + Dependencies.resolve(LayerTag.self).value)
      }
    }
    let child = Dependencies(over: root) {
      Module { () -> InjectedTextHolder in InjectedTextHolder() }
      Module.decorating(TextType.self) { TaggedText($0, "c") }
    }
    try child.verify()
    let graph = child.graph()
    #expect(graph.mermaid.contains("InjectedTextHolder"))
    // verify() made its own copies, not the root's instance.
    let madeByVerify = made.value
    let decoratedByVerify = decorations.value
    _ = try await root.start()
    #expect(made.value == madeByVerify + 1)
    #expect(decorations.value == decoratedByVerify + 1)
    let fromChild = child.resolve(TextType.self)
    #expect(fromChild.text == "s+tag:root+c")
    #expect(made.value == madeByVerify + 1, "start() made and decorated it")
    #expect(decorations.value == decoratedByVerify + 1)
    #expect(child.resolve(InjectedTextHolder.self).text === fromChild)
  }

  @Test func verifyReportsADecoratorThatResolvesWhatItDecoratesWithoutStopping() async {
    await #expect(processExitsWith: .success) {
      exitIfStillRunning(after: 20)
      let root = Dependencies { Module(scope: .singleton) { PlainText("s") as TextType } }
      let child = Dependencies(over: root) {
        Module.decorating(TextType.self) { greeter in
          _ = try Dependencies.resolveOrThrow(TextType.self)
          return greeter
        }
      }
      do {
        try child.verify()
      } catch {
        precondition("\(error)".contains("TextType"), "\(error)")
        return
      }
      // Verification found nothing: resolving must still report the cycle.
      let error = resolutionError { try child.resolveOrThrow(TextType.self) }
      guard case .cycle = error?.reason else { fatalError("\(String(describing: error))") }
    }
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
      if $0.key == #"TextType named "many""# { events.append($0) }
    }
    defer { observation.cancel() }
    let root = Dependencies {
      Module("many", scope: .singleton) { () -> TextType in
        made.increment()
        usleep(20_000)
        return PlainText("s")
      }
      Module.decorating(TextType.self) {
        parentDecorations.increment()
        return TaggedText($0, "p")
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(TextType.self) {
        childDecorations.increment()
        usleep(5_000)
        return TaggedText($0, "c")
      }
    }
    let results = Collector<ObjectIdentifier>()
    let finished = await onThreads(16, timeout: 60) { _ in
      for _ in 0..<20 {
        results.append(ObjectIdentifier(child.resolve(TextType.self, name: "many")))
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
}

// MARK: - Fixtures

/// Which containers decorate a module: the one that keeps it, a child over it, or both.
/// How a layer with a shared alias is made over a decorating one.
enum AliasLayer: CaseIterable, Sendable {
  case child, overrides, scope

  /// What the layer with `alias`, over `base` or the task's override layer, gives as each type.
  func serials(of alias: Module, over base: Dependencies) async -> [Int] {
    let read = {
      [Dependencies.resolve(SerialA.self).serial, Dependencies.resolve(SerialB.self).serial]
    }
    switch self {
    case .child:
      let child = Dependencies(over: base) { alias }
      return [child.resolve(SerialA.self).serial, child.resolve(SerialB.self).serial]
    case .overrides:
      return Dependencies.withOverrides {
        alias
      } operation: {
        read()
      }
    case .scope:
      return await Dependencies.withScope {
        alias
      } operation: {
        read()
      }
    }
  }
}

/// A greeter that runs a closure as it is freed.
final class DeinitHook: GreeterType, @unchecked Sendable {
  let greeting = "hook"
  private let onDeinit: @Sendable () -> Void

  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }

  deinit { onDeinit() }
}

/// A value seen as either of two types, which decorators wrap.
protocol SerialA { var serial: Int { get } }
protocol SerialB { var serial: Int { get } }
struct Serial: SerialA, SerialB { let serial: Int }
struct WrappedSerialA: SerialA {
  let inner: SerialA
  var serial: Int { inner.serial }
}
struct WrappedSerialB: SerialB {
  let inner: SerialB
  var serial: Int { inner.serial }
}

/// Where a decorated `.cached` instance is kept and decorated: a shared alias decorated in its
/// own container, a module's own type decorated by a child over it, or a shared alias
/// decorated by its own container and by a child over it.
enum CachedDecorationShape: CaseIterable, Sendable {
  case aliasInItsContainer, moduleThroughAChild, aliasThroughAChild
}

enum DecoratingLayers: CaseIterable, Sendable {
  case owner, child, ownerAndChild

  var ownerDecorates: Bool { self != .child }
  var childDecorates: Bool { self != .owner }

  /// What the owner gives for an instance whose text is `made`: tagged "p" if it decorates.
  func rootText(of made: String) -> String { made + (ownerDecorates ? "+p" : "") }

  /// What the child gives: the owner's, then tagged "c" if the child decorates.
  func childText(of made: String) -> String { rootText(of: made) + (childDecorates ? "+c" : "") }

  /// The owner's instance inside what the child gave.
  func underneath(_ fromChild: TextType) -> TextType? {
    childDecorates ? (fromChild as? TaggedText)?.wrapped : fromChild
  }
}

/// A root that keeps a `TextType` in a scope and a child over it, decorating as `layers` say,
/// counting what the root makes and what each layer decorates.
struct DecoratedLayers {
  let made = Counter()
  let ownerDecorations = Counter()
  let childDecorations = Counter()
  let root: Dependencies
  let child: Dependencies

  init(_ layers: DecoratingLayers, scope: Scope) {
    let (made, ownerDecorations, childDecorations) = (
      self.made, self.ownerDecorations, self.childDecorations
    )
    root = Dependencies {
      Module(scope: scope) { () -> TextType in PlainText("v\(made.increment())") }
      if layers.ownerDecorates {
        Module.decorating(TextType.self) {
          ownerDecorations.increment()
          return TaggedText($0, "p")
        }
      }
    }
    child = Dependencies(over: root) {
      if layers.childDecorates {
        Module.decorating(TextType.self) {
          childDecorations.increment()
          return TaggedText($0, "c")
        }
      }
    }
  }
}

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

/// A container of `module` and its `decorator`, or, `inChild`, of `decorator` over one of
/// `module`.
func decorating(_ module: Module, with decorator: Module, inChild: Bool) -> Dependencies {
  guard inChild else {
    return Dependencies {
      module
      decorator
    }
  }
  return Dependencies(over: Dependencies { module }) { decorator }
}

final class GreeterReader {
  @Inject var greeter: GreeterType
}

final class OptionalGreeterReader {
  @Inject var greeter: GreeterType?
}

/// A decoration whose `deinit` resolves a decorated shared module through the child.
final class ResolvingOnDeinitGreeter: GreeterType {
  private let wrapped: GreeterType
  private let box: WeakBox

  init(_ wrapped: GreeterType, _ box: WeakBox) {
    self.wrapped = wrapped
    self.box = box
  }

  deinit { _ = box.container?.resolve(CountedGreeter.self) }

  var greeting: String { wrapped.greeting }
}

protocol TrackedModuleType: AnyObject {}

/// Counts its deinit.
final class TrackedModule: TrackedModuleType {
  let deinits: Counter

  init(deinits: Counter) { self.deinits = deinits }

  deinit { deinits.increment() }
}

/// A decorator's wrapper, which counts its own deinit.
final class TrackingWrapper: TrackedModuleType {
  let wrapped: TrackedModuleType
  let deinits: Counter

  init(_ wrapped: TrackedModuleType, deinits: Counter) {
    self.wrapped = wrapped
    self.deinits = deinits
  }

  deinit { deinits.increment() }
}

protocol OtherGreeterType: AnyObject {}

final class BothGreeter: GreeterType, OtherGreeterType {
  var greeting: String { "both" }
}

final class WeakObjectBox: @unchecked Sendable {
  weak var object: AnyObject?

  init(_ object: AnyObject) { self.object = object }
}

final class ValueRef<Value>: @unchecked Sendable {
  var value: Value?
}

/// Composes a container on an actor of its own, so that the decorator it registers is bound
/// to it.
actor DecoratingActor {
  static let decoratorLine = #line + 3

  func container() -> Dependencies {
    let decorator = Module.decorating(GreeterType.self) { Loud($0) }
    return Dependencies {
      Module(isolation: nil) { Greeter("plain") as GreeterType }
      decorator
    }
  }
}

/// A decorated instance whose deinit resolves the type it decorates from `container`.
final class ResolvingOnDeinit: GreeterType, @unchecked Sendable {
  private let wrapped: GreeterType
  private let container: Dependencies

  init(_ wrapped: GreeterType, from container: Dependencies) {
    self.wrapped = wrapped
    self.container = container
  }

  deinit { _ = container.resolve(GreeterType.self) }

  var greeting: String { wrapped.greeting }
}

/// Has another thread reset a scope, and waits for it, when a decoration armed for it goes.
final class HandOff: @unchecked Sendable {
  let resetNow = DispatchSemaphore(value: 0)
  let resetDone = DispatchSemaphore(value: 0)
  private let lock = NSLock()
  private var armed = false
  private var wentArmed = false

  var handedOff: Bool { lock.withLock { wentArmed } }
  func arm() { lock.withLock { armed = true } }

  /// Lets the other thread go if no decoration went.
  func disarm() {
    if lock.withLock({ armed }) { resetNow.signal() }
  }

  /// Runs `resolution` on one thread while another resets `owner`'s "session" scope when a
  /// decoration armed for it asks; whether both finished before the watchdog.
  func run(_ resolution: @escaping @Sendable () -> Void, resetting owner: Dependencies) async
    -> Bool
  {
    await onThreads(2) { index in
      if index == 0 {
        resolution()
        self.disarm()
      } else {
        self.resetNow.wait()
        owner.reset(.cached("session"))
        self.resetDone.signal()
      }
    }
  }

  func decorationGoes() {
    let wasArmed = lock.withLock {
      defer { (armed, wentArmed) = (false, wentArmed || armed) }
      return armed
    }
    guard wasArmed else { return }
    resetNow.signal()
    resetDone.wait()
  }
}

/// A decoration that hands off to `HandOff` as it goes.
final class HandingOffGreeter: GreeterType, @unchecked Sendable {
  private let wrapped: GreeterType
  private let handOff: HandOff

  init(_ wrapped: GreeterType, _ handOff: HandOff) {
    self.wrapped = wrapped
    self.handOff = handOff
  }

  deinit { handOff.decorationGoes() }

  var greeting: String { wrapped.greeting }
}

/// A decoration with an `@Inject` property, declared as the decorator makes it.
final class InjectingGreeter: GreeterType {
  @Inject var service: Service
  private let wrapped: GreeterType

  init(_ wrapped: GreeterType) { self.wrapped = wrapped }

  var greeting: String { wrapped.greeting + "+i" }
}

/// A decoration whose deinit resolves `GreeterType` from the container in `box`, counting what
/// that throws.
final class DecorationResolvingOnDeinit: GreeterType, @unchecked Sendable {
  private let wrapped: GreeterType
  private let box: WeakBox
  private let errors: Counter

  init(_ wrapped: GreeterType, from box: WeakBox, errors: Counter) {
    self.wrapped = wrapped
    self.box = box
    self.errors = errors
  }

  deinit {
    guard let container = box.container else { return }
    if (try? container.resolveOrThrow(GreeterType.self)) == nil { errors.increment() }
  }

  var greeting: String { wrapped.greeting }
}

/// An instance whose deinit resolves `GreeterType` from the container in `box`, counting what
/// that throws.
final class InstanceResolvingOnDeinit: GreeterType, Labelled, @unchecked Sendable {
  let greeting = "instance"
  let label = "instance"
  private let box: WeakBox
  private let errors: Counter

  init(from box: WeakBox, errors: Counter) {
    self.box = box
    self.errors = errors
  }

  deinit {
    guard let container = box.container else { return }
    if (try? container.resolveOrThrow(GreeterType.self)) == nil { errors.increment() }
  }
}
