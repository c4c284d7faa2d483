import Shank
import Testing

/// `Module.contribution`: `[P]` and `[String: P]`.
@Suite struct ContributionTests {
  @Test func aListHasEveryContributionInRegistrationOrder() {
    let container = Dependencies {
      Module.contribution { Sink("console") as SinkType }
      Module { ServiceImpl() as Service }
      Module.contribution("remote") { Sink("remote") as SinkType }
      Module.contribution { Sink("file") as SinkType }
    }
    #expect(container.resolve([SinkType].self).map(\.label) == ["console", "remote", "file"])
    #expect(container.resolve([String: SinkType].self).mapValues(\.label) == ["remote": "remote"])
  }

  /// `[String: P]` makes only the named contributions: an unnamed one's factory never runs
  /// for it, so one that throws, or an async one not made yet, does not fail it.
  @Test func theDictionaryMakesOnlyTheNamedContributions() throws {
    let unnamedMade = Counter()
    let container = Dependencies {
      Module.contribution { () throws -> SinkType in
        unnamedMade.increment()
        throw StubFailure()
      }
      Module.contribution { () async -> SinkType in Sink("async") }
      Module.contribution("remote") { Sink("remote") as SinkType }
    }
    let named = try container.resolveOrThrow([String: SinkType].self)
    #expect(named.mapValues(\.label) == ["remote": "remote"])
    #expect(unnamedMade.value == 0)
  }

  @Test func equivalentNamesOfNamedContributionsAreOneKeyOfTheDictionary() throws {
    let dependencies = Dependencies {
      Module.contribution("caf\u{E9}") { Sink("first") as SinkType }
      Module.contribution("cafe\u{301}") { Sink("second") as SinkType }
    }
    let named = try dependencies.resolveOrThrow([String: SinkType].self)
    #expect(named.count == 1)
    #expect(named["caf\u{E9}"]?.label == "second")
    #expect(named["cafe\u{301}"]?.label == "second")
  }

  /// Of the contributions of one name, in one layer or in a layer over another, only the last,
  /// which the dictionary holds, is made: a test's named stand-in keeps the production one
  /// from running.
  @Test(arguments: [false, true])
  func theDictionaryMakesOnlyTheLastContributionOfAName(inALayerOver: Bool) throws {
    let hiddenMade = Counter()
    let hidden = Module.contribution("remote") { () throws -> SinkType in
      hiddenMade.increment()
      throw StubFailure()
    }
    let stand = Module.contribution("remote") { Sink("stand-in") as SinkType }
    let container =
      inALayerOver
      ? Dependencies(over: Dependencies { hidden }) { stand }
      : Dependencies {
        hidden
        stand
      }
    let named = try container.resolveOrThrow([String: SinkType].self)
    #expect(named.mapValues(\.label) == ["remote": "stand-in"])
    #expect(hiddenMade.value == 0)
  }

  /// The list holds every contribution of a name, where the dictionary holds the last.
  @Test func theListHoldsEveryContributionOfOneName() {
    let container = Dependencies {
      Module.contribution("remote") { Sink("first") as SinkType }
      Module.contribution("remote") { Sink("second") as SinkType }
      Module.contribution { Sink("unnamed") as SinkType }
    }
    #expect(container.resolve([SinkType].self).map(\.label) == ["first", "second", "unnamed"])
    #expect(container.resolve([String: SinkType].self).mapValues(\.label) == ["remote": "second"])
  }

  @Test func noContributionsIsAnEmptyCollection() {
    let container = Dependencies { Module { ServiceImpl() as Service } }
    #expect(container.resolve([SinkType].self).isEmpty)
    #expect(container.resolve([String: SinkType].self).isEmpty)
    #expect(container.resolve(SinkType?.self) == nil)
    // An optional is `nil` where nothing registers its type, a list with no contributions too.
    #expect(container.resolve([SinkType]?.self) == nil)
    #expect(container.resolve([String: SinkType]?.self) == nil)
    let contributed = Dependencies { Module.contribution { Sink("console") as SinkType } }
    #expect(contributed.resolve([SinkType]?.self)?.count == 1)
    // An unnamed contribution is no part of a dictionary, which a decorator of it still wraps.
    #expect(contributed.resolve([String: SinkType]?.self)?.isEmpty == true)
    let decorated = Dependencies {
      Module.contribution { Sink("console") as SinkType }
      Module.decorating([String: SinkType].self) { $0.merging(["added": Sink("added")]) { $1 } }
    }
    #expect(decorated.resolve([String: SinkType].self).mapValues(\.label) == ["added": "added"])
  }

  @Test func aContributionIsNeverResolvedAlone() {
    let container = Dependencies { Module.contribution { Sink("only") as SinkType } }
    #expect(container.resolve(SinkType?.self) == nil)
  }

  @Test func eachContributionIsMadeAsItsScopeSays() {
    let container = Dependencies {
      Module.contribution(scope: .singleton) { Sink("kept") as SinkType }
      Module.contribution { Sink("new") as SinkType }
    }
    let first = container.resolve([SinkType].self)
    let second = container.resolve([SinkType].self)
    #expect(first[0] === second[0])
    #expect(first[1] !== second[1])
  }

  /// A kept contribution's `onClose` disposes of it when its container closes, newest first.
  @Test func closeDisposesOfKeptContributionsNewestFirst() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module.contribution(scope: .singleton, onClose: { closed.append($0.label) }) {
        Sink("first") as SinkType
      }
      Module.contribution("named", scope: .singleton, onClose: { closed.append($0.label) }) {
        Sink("second") as SinkType
      }
    }
    #expect(container.resolve([SinkType].self).map(\.label) == ["first", "second"])
    await container.close()
    #expect(closed.all == ["second", "first"])
  }

  /// A list registered whole is kept as its scope says, but for `.weak`: a list is a value,
  /// which nothing holds weakly, so it is made at every resolution.
  @Test func aListRegisteredWholeIsKeptAsItsScopeSaysButForWeak() {
    let made = Counter()
    let container = Dependencies {
      Module("weak", scope: .weak) { () -> [SinkType] in
        made.increment()
        return [Sink("weak")]
      }
      Module("kept", scope: .singleton) { () -> [SinkType] in
        made.increment()
        return [Sink("kept")]
      }
    }
    _ = container.resolve([SinkType].self, name: "weak")
    _ = container.resolve([SinkType].self, name: "weak")
    #expect(made.value == 2)
    let kept = container.resolve([SinkType].self, name: "kept")
    #expect(container.resolve([SinkType].self, name: "kept")[0] === kept[0])
    #expect(made.value == 3)
  }

  /// Over a kept list registered whole, a child's contributions follow it and only the
  /// child's decorator runs at each resolution: the root's wrapped the list it keeps, once.
  @Test func contributionsOverAKeptListFollowItAndItsOwnDecoratorRunsOnce() {
    let (rootRuns, childRuns) = (Counter(), Counter())
    let root = Dependencies {
      Module(scope: .singleton) { [Sink("kept")] as [SinkType] }
      Module.decorating([SinkType].self) { list in
        rootRuns.increment()
        return list + [Sink("root's")]
      }
    }
    let child = Dependencies(over: root) {
      Module.contribution { Sink("child") as SinkType }
      Module.decorating([SinkType].self) { list in
        childRuns.increment()
        return list + [Sink("child's")]
      }
    }
    for _ in 0..<2 {
      #expect(
        child.resolve([SinkType].self).map(\.label) == ["kept", "root's", "child", "child's"])
    }
    #expect(rootRuns.value == 1)
    #expect(childRuns.value == 2)
  }

  @Test func lowerLayersComeFirst() {
    let root = Dependencies { Module.contribution { Sink("root") as SinkType } }
    let child = Dependencies(over: root) { Module.contribution { Sink("child") as SinkType } }
    let grandchild = Dependencies(over: child) { Module { ServiceImpl() as Service } }
    #expect(root.resolve([SinkType].self).map(\.label) == ["root"])
    #expect(child.resolve([SinkType].self).map(\.label) == ["root", "child"])
    #expect(grandchild.resolve([SinkType].self).map(\.label) == ["root", "child"])
  }

  @Test func aModuleThatRegistersTheListReplacesTheContributionsUnderIt() {
    let root = Dependencies {
      Module.contribution { Sink("console") as SinkType }
      Module.contribution("remote") { Sink("remote") as SinkType }
    }
    #expect(root.resolve([SinkType].self).map(\.label) == ["console", "remote"])
    let layer = Dependencies(over: root) {
      Module { [Sink("mock")] as [SinkType] }
      Module { ["mock": Sink("named mock")] as [String: SinkType] }
    }
    #expect(layer.resolve([SinkType].self).map(\.label) == ["mock"])
    #expect(layer.resolve([String: SinkType].self).mapValues(\.label) == ["mock": "named mock"])
    let above = Dependencies(over: layer) {
      Module.contribution("extra") { Sink("extra") as SinkType }
    }
    #expect(above.resolve([SinkType].self).map(\.label) == ["mock", "extra"])
    #expect(
      above.resolve([String: SinkType].self).mapValues(\.label)
        == ["mock": "named mock", "extra": "extra"])
  }

  /// Under contributions, a unique list registered whole is made as any unique module its
  /// layer lists: its factory reads the layer the resolution started in.
  @Test func aUniqueListRegisteredWholeUnderContributionsReadsTheAskingLayer() {
    let layer = Dependencies {
      Module("label") { "registered" }
      Module { [Sink(Dependencies.resolve(String.self, name: "label"))] as [SinkType] }
    }
    let above = Dependencies(over: layer) {
      Module("label") { "above" }
      Module.contribution { Sink("extra") as SinkType }
    }
    #expect(layer.resolve([SinkType].self).map(\.label) == ["registered"])
    #expect(above.resolve([SinkType].self).map(\.label) == ["above", "extra"])
  }

  /// In its own container, contributions listed before it and after it alike.
  @Test func aModuleThatRegistersTheListReplacesItsOwnContainersContributions() {
    let container = Dependencies {
      Module.contribution { Sink("before") as SinkType }
      Module { [Sink("registered")] as [SinkType] }
      Module.contribution { Sink("after") as SinkType }
    }
    #expect(container.resolve([SinkType].self).map(\.label) == ["registered"])
  }

  /// `[String: P]` is replaced on its own: a layer that registers `[P]` leaves the named
  /// contributions as they were.
  @Test func aRegisteredListLeavesTheNamedContributions() {
    Dependencies.withOverrides {
      Module.contribution { Sink("console") as SinkType }
      Module.contribution("remote") { Sink("remote") as SinkType }
    } operation: {
      Dependencies.withOverrides {
        Module { [Sink("spy")] as [SinkType] }
      } operation: {
        #expect(Dependencies.resolve([SinkType].self).map(\.label) == ["spy"])
        #expect(
          Dependencies.resolve([String: SinkType].self).mapValues(\.label) == ["remote": "remote"])
      }
    }
  }

  /// A scope and an override layer add theirs after those underneath, as a child does.
  @Test func scopesAndOverrideLayersAddTheirContributionsAfterThoseUnderneath() async {
    await Dependencies.withOverrides {
      Module.contribution { Sink("bottom") as SinkType }
    } operation: {
      await Dependencies.withScope {
        Module.contribution { Sink("scope") as SinkType }
      } operation: {
        Dependencies.withOverrides {
          Module.contribution { Sink("override") as SinkType }
        } operation: {
          #expect(
            Dependencies.resolve([SinkType].self).map(\.label) == ["bottom", "scope", "override"])
        }
      }
    }
  }

  @Test func aRegisteredListLongerThanTheContributionsKeepsEveryValueInOrder() {
    let root = Dependencies {
      Module { (1...5).map { Sink("listed \($0)") } as [SinkType] }
    }
    let child = Dependencies(over: root) {
      Module.contribution { Sink("a") as SinkType }
      Module.contribution { Sink("b") as SinkType }
    }
    #expect(
      child.resolve([SinkType].self).map(\.label) == [
        "listed 1", "listed 2", "listed 3", "listed 4", "listed 5", "a", "b",
      ])
  }

  @Test func contributionsMadeBeforeOneThrowsAreReleased() {
    struct Refused: Error {}
    let deinits = Counter()
    let container = Dependencies {
      Module.contribution { CountedSink("first", deinits: deinits) as SinkType }
      Module.contribution { CountedSink("second", deinits: deinits) as SinkType }
      Module.contribution { () throws -> SinkType in throw Refused() }
    }
    #expect(throws: ResolutionError.self) { try container.resolveOrThrow([SinkType].self) }
    #expect(deinits.value == 2, "both sinks made before the failure are released")
  }

  @Test func injectReadsTheList() {
    let container = Dependencies {
      Module.contribution { Sink("a") as SinkType }
      Module.contribution { Sink("b") as SinkType }
      Module { SinkReader() as SinkReader }
    }
    #expect(container.resolve(SinkReader.self).labels == ["a", "b"])
  }

  /// `resolveAsync` gathers contributions registered from a global actor on that actor, as it
  /// runs a module's factory on its own, also under a layer that adds nonisolated ones.
  @Test func resolveAsyncGathersContributionsOnTheActorTheyWereRegisteredFrom() async {
    let root = await actorBoundContributions()
    let child = Dependencies(over: root) {
      Module.contribution("plain") { PlainSink(label: "plain") as ActorSinkType }
    }
    #expect(await root.resolveAsync([ActorSinkType].self).map(\.label) == ["bound"])
    #expect(await child.resolveAsync([ActorSinkType].self).map(\.label) == ["bound", "plain"])
    let named = await child.resolveAsync([String: ActorSinkType].self).mapValues(\.label)
    #expect(named == ["bound": "bound", "plain": "plain"])
  }

  @Test func verifyMakesEveryContributionAndReportsWhatItMisses() throws {
    let container = Dependencies {
      Module.contribution { Sink("fine") as SinkType }
      Module.contribution { NeedyModule() as SinkType }
    }
    let error = try #require(verificationError { try container.verify() })
    #expect(error.problems.count == 1)
    #expect(error.problems.first?.description.hasPrefix("SinkType needs NeverRegistered") == true)
  }

  /// A contribution whose factory throws fails the list or dictionary that was asked for, and
  /// the message names what was asked for and where the contribution is registered.
  @Test(arguments: [false, true])
  func aContributionThatThrowsIsNamedByWhatWasAskedFor(asDictionary: Bool) throws {
    let container = Dependencies {
      Module.contribution("local") { Sink("local") as SinkType }
      Module.contribution("remote") { () throws -> SinkType in throw StubFailure() }
    }
    let registered = #line - 2
    let listed = resolutionError { try container.resolveOrThrow([SinkType].self) }
    let keyed = resolutionError { try container.resolveOrThrow([String: SinkType].self) }
    let asked = #line - 2
    let error = try #require(asDictionary ? keyed : listed)
    let key = asDictionary ? "[String: SinkType]" : "[SinkType]"
    #expect(
      error.description == """
        Shank cannot resolve \(key): its contribution registered at ShankTests/ContributionTests.swift:\(registered) threw StubFailure()
          asked for at ShankTests/ContributionTests.swift:\(asked + (asDictionary ? 1 : 0))
        """)
  }

  /// An async contribution's error, from `resolveAsync`, names the list that was asked for and
  /// the module being made when it was, as a synchronous one's does.
  @Test func anAsyncContributionThatThrowsIsNamedByWhatWasAskedFor() async throws {
    let registered = #line + 2
    let container = Dependencies {
      Module.contribution("remote") { () async throws -> SinkType in throw StubFailure() }
      Module("outer") { () throws -> Reachable in
        _ = try Dependencies.resolveOrThrow([SinkType].self, line: 9)
        return Gateway()
      }
    }
    let error = await #expect(throws: ResolutionError.self) {
      try await container.resolveAsyncOrThrow(Reachable.self, name: "outer")
    }
    #expect(
      error?.description == """
        Shank cannot resolve [SinkType]: its contribution registered at ShankTests/ContributionTests.swift:\(registered) threw StubFailure()
          asked for at ShankTests/ContributionTests.swift:9
          while Reachable named "outer", registered at ShankTests/ContributionTests.swift:\(registered + 1), was being made
        """)
  }

  /// An unnamed contribution that cannot be made is its own problem and its list's, never the
  /// dictionary's, which leaves it out.
  @Test func verifyReportsAnUnnamedContributionThatThrowsForItsListNotTheDictionary() throws {
    let container = Dependencies {
      Module.contribution { () throws -> SinkType in throw StubFailure() }
      Module.contribution("remote") { Sink("remote") as SinkType }
    }
    let error = try #require(verificationError { try container.verify() })
    let site = "ShankTests/ContributionTests.swift:\(#line - 4)"
    let threw = "registered at \(site) threw StubFailure(); asked for at \(site)"
    #expect(
      error.problems.map(\.description) == [
        "SinkType could not be made: Shank cannot resolve SinkType: its factory \(threw)",
        "[SinkType] could not be made: Shank cannot resolve [SinkType]: its contribution \(threw)",
      ])
  }
}

// MARK: - Fixtures

protocol SinkType: AnyObject {
  var label: String { get }
}

final class Sink: SinkType {
  let label: String

  init(_ label: String) {
    self.label = label
  }
}

/// A sink that counts its deinitializations.
final class CountedSink: SinkType {
  let label: String
  private let deinits: Counter

  init(_ label: String, deinits: Counter) {
    self.label = label
    self.deinits = deinits
  }

  deinit { deinits.increment() }
}

struct SinkReader {
  @Inject private var sinks: [SinkType]

  var labels: [String] { sinks.map(\.label) }
}

/// Reads `[String: SinkType]` on its first read.
final class NamedSinkReader {
  @Inject private var sinks: [String: SinkType]

  var labels: [String: String] { sinks.mapValues(\.label) }
}

final class NeedyModule: SinkType {
  @Inject private var missing: NeverRegistered
  let label = "needy"
}

/// A global actor of the tests' own, for contributions registered from it.
@globalActor actor ContributionActor {
  static let shared = ContributionActor()
}

protocol ActorSinkType: Sendable {
  var label: String { get }
}

/// A sink that only code on `ContributionActor` can make.
@ContributionActor final class ActorSink: ActorSinkType {
  nonisolated let label: String

  init(_ label: String) {
    self.label = label
  }
}

struct PlainSink: ActorSinkType {
  let label: String
}

/// A container whose contribution is registered from `ContributionActor`; its factory makes an
/// `ActorSink`, which compiles only because it runs there.
@ContributionActor func actorBoundContributions() -> Dependencies {
  Dependencies { Module.contribution("bound") { ActorSink("bound") as ActorSinkType } }
}

/// How the graph shows contributions and the lists they make.
@Suite struct ContributionGraphTests {
  @Test func theGraphShowsEachContributionAndTheListsAsCodeWritesThem() {
    let container = Dependencies {
      Module.contribution { Sink("console") as SinkType }
      Module.contribution("remote", scope: .singleton) { Sink("remote") as SinkType }
      Module { SinkReader() as SinkReader }
    }
    let graph = container.graph()
    #expect(
      graph.nodes.map(\.label) == [
        "SinkType · contribution", "[SinkType]", "[String: SinkType]",
        #"SinkType "remote" · contribution · .singleton"#, "SinkReader",
      ])
    #expect(graph.nodes.map(\.kind) == [.contribution, .module, .module, .contribution, .module])
    #expect(
      graph.edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "SinkReader -sinks-> N__SinkType_"
      ])
  }

  /// A list that nothing contributes to resolves empty and has no node: no edge leads to it.
  @Test func theGraphDrawsNoEdgeToAListNothingContributesTo() {
    let graph = Dependencies { Module { SinkReader() as SinkReader } }.graph()
    #expect(graph.nodes.map(\.label) == ["SinkReader"])
    #expect(graph.edges.isEmpty)
  }
}
