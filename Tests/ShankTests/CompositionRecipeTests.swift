import Dispatch
import Foundation
import Shank
import Testing

/// The recipes of the Plug-ins and Decorators and the Starting and Observing articles, and each
/// of their promises that the suites of contributions, decorators, `start()` and observation
/// do not already show.
///
/// Observers see every resolution in the process, so each observing test keeps only the events
/// of `Recipe15` keys that only it resolves.
@Suite struct CompositionRecipeTests {
  // MARK: Plug-ins and analytics sinks

  @Test func everyAnalyticsSinkReceivesEachEventInRegistrationOrder() throws {
    let received = Collector<String>()
    let container = Dependencies {
      Module.contribution { Recipe15ConsoleSink(received) as Recipe15AnalyticsSink }
      Module.contribution("remote", scope: .singleton) {
        Recipe15RemoteSink(received) as Recipe15AnalyticsSink
      }
      Module { Recipe15Tracker() as Recipe15TrackerType }
    }
    container.resolve(Recipe15TrackerType.self).track("launched")
    #expect(received.all == ["console: launched", "remote: launched"])
    let named = container.resolve([String: Recipe15AnalyticsSink].self)
    #expect(named.keys.sorted() == ["remote"])
    #expect(named["remote"] is Recipe15RemoteSink)
    let error = try #require(
      resolutionError { try container.resolveOrThrow(Recipe15AnalyticsSink.self) })
    #expect(error.reason == .notRegistered, "a contribution is never resolved alone")
  }

  @Test func aFeatureContainerAddsItsPlugInsAfterTheApps() {
    let app = Dependencies {
      Module.contribution { Recipe15PlugIn("search") as Recipe15PlugInType }
      Module.contribution { Recipe15PlugIn("share") as Recipe15PlugInType }
    }
    let editor = Dependencies(over: app) {
      Module.contribution { Recipe15PlugIn("spell-check") as Recipe15PlugInType }
    }
    #expect(app.resolve([Recipe15PlugInType].self).map(\.id) == ["search", "share"])
    #expect(
      editor.resolve([Recipe15PlugInType].self).map(\.id) == ["search", "share", "spell-check"])
    let none = Dependencies {}
    #expect(none.resolve([Recipe15PlugInType].self).isEmpty)
    #expect(none.resolve([String: Recipe15PlugInType].self).isEmpty)
  }

  @Test func aTestSwapsTheListInAnOverride() {
    let received = Collector<String>()
    let spy = Recipe15SpySink()
    Dependencies.withOverrides {
      Module.contribution { Recipe15ConsoleSink(received) as Recipe15AnalyticsSink }
      Module.contribution("remote") { Recipe15RemoteSink(received) as Recipe15AnalyticsSink }
      Module { Recipe15Tracker() as Recipe15TrackerType }
    } operation: {
      Dependencies.withOverrides {
        Module { [spy] as [Recipe15AnalyticsSink] }
      } operation: {
        Dependencies.resolve(Recipe15TrackerType.self).track("tapped")
        #expect(spy.events.all == ["tapped"])
        #expect(received.all.isEmpty, "the app's sinks are replaced")
        // `[Recipe15AnalyticsSink]` alone leaves the named ones as they were.
        let named = Dependencies.resolve([String: Recipe15AnalyticsSink].self)
        #expect(named.keys.sorted() == ["remote"])
        Dependencies.withOverrides {
          Module { [:] as [String: Recipe15AnalyticsSink] }
        } operation: {
          #expect(Dependencies.resolve([String: Recipe15AnalyticsSink].self).isEmpty)
        }
      }
    }
  }

  // MARK: Decorators

  @Test func loggingAndMetricsDecoratorsStackInRegistrationOrder() {
    let log = Collector<String>()
    let calls = Counter()
    let container = Dependencies {
      Module { Recipe15Catalog() as Recipe15CatalogType }
      Module.decorating(Recipe15CatalogType.self) { Recipe15LoggedCatalog($0, log: log) }
      Module.decorating(Recipe15CatalogType.self) { Recipe15MeteredCatalog($0, calls: calls) }
    }
    let catalog = container.resolve(Recipe15CatalogType.self)
    #expect(catalog is Recipe15MeteredCatalog, "the last decorator registered is outermost")
    #expect(catalog.title(id: 7) == "widget 7")
    #expect(log.all == ["title(id: 7)"])
    #expect(calls.value == 1)
  }

  @Test func aSpyInAnOverrideWrapsWhatThatLayerMakes() {
    let spy = Collector<Int>()
    Dependencies.withOverrides {
      Module { Recipe15Catalog() as Recipe15CatalogType }
      Module("shared", scope: .singleton) { Recipe15Catalog() as Recipe15CatalogType }
    } operation: {
      Dependencies.withOverrides {
        Module.decorating(Recipe15CatalogType.self) { Recipe15SpyCatalog($0, calls: spy) }
      } operation: {
        // A unique module is made for this resolution, and decorated by the layer it is
        // resolved from: here, for an `@Inject` property read inside the operation.
        #expect(Recipe15CatalogScreen().load(id: 1) == "widget 1")
        #expect(spy.all == [1])
        // A singleton that the layer underneath keeps is decorated here once, and kept here.
        let shared = Dependencies.resolve(Recipe15CatalogType.self, name: "shared")
        #expect(shared is Recipe15SpyCatalog)
        #expect(Dependencies.resolve(Recipe15CatalogType.self, name: "shared") === shared)
      }
      Dependencies.withOverrides {
        Module("shared", scope: .singleton) { Recipe15Catalog() as Recipe15CatalogType }
        Module.decorating(Recipe15CatalogType.self) { Recipe15SpyCatalog($0, calls: spy) }
      } operation: {
        // Registered again beside the spy, the singleton is this layer's, and decorated once.
        let first = Dependencies.resolve(Recipe15CatalogType.self, name: "shared")
        let second = Dependencies.resolve(Recipe15CatalogType.self, name: "shared")
        #expect(first is Recipe15SpyCatalog)
        #expect(first === second)
        _ = first.title(id: 2)
        #expect(spy.all == [1, 2])
      }
    }
  }

  @Test(arguments: [Scope.singleton, .cached("recipe15"), .weak])
  func anInstanceTheContainerKeepsIsDecoratedOnce(scope: Scope) {
    let decorations = Counter()
    let container = Dependencies {
      Module(scope: scope) { Recipe15Catalog() as Recipe15CatalogType }
      Module.decorating(Recipe15CatalogType.self) { catalog in
        decorations.increment()
        return Recipe15MeteredCatalog(catalog, calls: Counter())
      }
    }
    let first = container.resolve(Recipe15CatalogType.self)
    let second = container.resolve(Recipe15CatalogType.self)
    #expect(first is Recipe15MeteredCatalog)
    #expect(first === second, "the decorated instance is the one kept")
    #expect(decorations.value == 1)
  }

  @Test func anAliasIsDecoratedAtEveryResolutionByTheContainerResolvedFrom() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: Recipe15CatalogType.self, Recipe15Searchable.self) {
        Recipe15Catalog()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(Recipe15CatalogType.self) { catalog in
        decorations.increment()
        return Recipe15MeteredCatalog(catalog, calls: Counter())
      }
    }
    let first = child.resolve(Recipe15CatalogType.self)
    let second = child.resolve(Recipe15CatalogType.self)
    #expect(first is Recipe15MeteredCatalog)
    #expect(first !== second, "each resolution wraps anew")
    #expect(decorations.value == 2)
    let kept = root.resolve(Recipe15CatalogType.self)
    #expect(kept is Recipe15Catalog, "the root has no decorator")
    #expect((first as? Recipe15MeteredCatalog)?.wrapped === kept, "around the one kept instance")
    #expect(child.resolve(Recipe15Searchable.self) === kept, "another type is not decorated")
  }

  // MARK: Starting

  @Test func aServerMigratesItsDatabaseAtStartAndPrintsTheReport() async throws {
    let migrations = Collector<String>()
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton, eager: true) {
        Recipe15Database(migrating: migrations) as Recipe15DatabaseType
      }
      Module(scope: .singleton, eager: true) { Recipe15Cache() as Recipe15CacheType }
      Module(scope: .singleton) { () -> Recipe15MailerType in
        made.increment()
        return Recipe15Mailer()
      }
    }
    #expect(migrations.all.isEmpty, "listing the modules makes nothing")
    let report = try await dependencies.start()
    #expect(migrations.all == ["001_widgets", "002_prices"])
    #expect(made.value == 0, "a module that is not eager waits for its first resolution")
    #expect(Set(report.entries.map(\.key)) == ["Recipe15DatabaseType", "Recipe15CacheType"])
    #expect(report.entries.first?.key == "Recipe15DatabaseType", "the slowest first")
    #expect(report.description.hasPrefix("Started 2 eager modules in "))
    _ = dependencies.resolve(Recipe15DatabaseType.self)
    #expect(migrations.all.count == 2, "the database started is the one kept")
  }

  @Test func buildMakesNothingEagerlyAndStartMakesTheRootsEagerModules() async {
    await #expect(processExitsWith: .success) {
      let migrations = Collector<String>()
      let dependencies = Dependencies {
        Module(scope: .singleton, eager: true) {
          Recipe15Database(migrating: migrations) as Recipe15DatabaseType
        }
      }
      dependencies.build()
      precondition(migrations.all.isEmpty, "build() makes nothing")
      let report = try await dependencies.start()
      precondition(report.entries.map(\.key) == ["Recipe15DatabaseType"])
      precondition(migrations.all.count == 2)
      _ = Dependencies.resolve(Recipe15DatabaseType.self)
      precondition(migrations.all.count == 2, "the root resolves the instance start() made")
    }
  }

  @Test func startMakesThisContainersEagerModulesOnly() async throws {
    let rootMade = Counter()
    let childMade = Counter()
    let root = Dependencies { countedService(by: rootMade, "root", scope: .singleton, eager: true) }
    let child = Dependencies(over: root) {
      countedService(by: childMade, "child", scope: .singleton, eager: true)
    }
    let report = try await child.start()
    #expect(report.entries.map(\.key) == [#"Service named "child""#])
    #expect(childMade.value == 1)
    #expect(rootMade.value == 0)
    _ = try await root.start()
    #expect(rootMade.value == 1)
  }

  @Test func anEagerModuleThatResolvesAnotherWaitsForIt() async throws {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton, eager: true) {
        Recipe15Server(database: Dependencies.resolve()) as Recipe15ServerType
      }
      Module(scope: .singleton, eager: true) { () -> Recipe15DatabaseType in
        made.increment()
        usleep(10_000)
        return Recipe15Database(migrating: Collector())
      }
    }
    let report = try await dependencies.start()
    #expect(report.entries.count == 2)
    #expect(made.value == 1)
    let server = dependencies.resolve(Recipe15ServerType.self)
    #expect(server.database === dependencies.resolve(Recipe15DatabaseType.self))
  }

  @Test func startThrowsTheFirstFailureInRegistrationOrderOnceTheOthersAreMade() async {
    let made = Counter()
    let dependencies = Dependencies {
      Module("first", scope: .singleton, eager: true) { () -> Service in
        usleep(20_000)  // fails after the second has
        throw Recipe15Failure.first
      }
      Module("second", scope: .singleton, eager: true) { () -> Service in
        throw Recipe15Failure.second
      }
      countedService(by: made, "fine", scope: .singleton, eager: true)
    }
    do {
      _ = try await dependencies.start()
      Issue.record("start() should have thrown")
    } catch {
      #expect(error.reason == .factoryFailed(error: "first"))
    }
    #expect(made.value == 1)
  }

  // MARK: Observing

  @Test func theSlowMainThreadRecipeFlagsAFactoryThatTookAFrameThere() {
    func event(made: Bool, main: Bool, milliseconds: UInt64) -> ResolutionEvent {
      ResolutionEvent(
        key: "Recipe15CatalogType", scope: .unique, madeInstance: made,
        durationNanoseconds: milliseconds * 1_000_000, onMainThread: main, depth: 0,
        site: "App.swift:1")
    }
    #expect(recipe15TookAFrame(event(made: true, main: true, milliseconds: 17)))
    #expect(!recipe15TookAFrame(event(made: true, main: true, milliseconds: 15)))
    #expect(!recipe15TookAFrame(event(made: true, main: false, milliseconds: 17)))
    #expect(!recipe15TookAFrame(event(made: false, main: true, milliseconds: 17)))
  }

  @Test func aSlowFactoryOffTheMainThreadIsTimedButNotFlagged() async throws {
    let container = Dependencies {
      Module("slow") { () -> Recipe15CatalogType in
        usleep(20_000)
        return Recipe15Catalog()
      }
    }
    let events = Collector<ResolutionEvent>()
    let flagged = Counter()
    let observation = Dependencies.observe { event in
      guard event.key == #"Recipe15CatalogType named "slow""# else { return }
      events.append(event)
      if recipe15TookAFrame(event) { flagged.increment() }
    }
    defer { observation.cancel() }
    let finished = await onThreads(1) { _ in
      _ = container.resolve(Recipe15CatalogType.self, name: "slow")
    }
    #expect(finished)
    let event = try #require(events.all.first)
    #expect(event.madeInstance)
    #expect(event.durationNanoseconds > 16_000_000)
    #expect(!event.onMainThread)
    #expect(flagged.value == 0)
  }

  @Test func aCounterOfResolutionsPerKey() {
    // Named "counted": observers see every test's resolutions, and only this one uses the name.
    let root = Dependencies {
      Module("counted") { Recipe15Catalog() as Recipe15CatalogType }
      Module("counted", scope: .singleton) { Recipe15Cache() as Recipe15CacheType }
    }
    let child = Dependencies(over: root) {
      Module("counted") { Recipe15Mailer() as Recipe15MailerType }
    }
    let counts = Recipe15Counts()
    let observation = Dependencies.observe { event in
      if event.key.hasSuffix(#" named "counted""#) { counts.add(event.key) }
    }
    for _ in 0..<3 { _ = root.resolve(Recipe15CatalogType.self, name: "counted") }
    _ = root.resolve(Recipe15CacheType.self, name: "counted")
    _ = child.resolve(Recipe15CacheType.self, name: "counted")
    _ = child.resolve(Recipe15MailerType.self, name: "counted")
    observation.cancel()
    _ = root.resolve(Recipe15CatalogType.self, name: "counted")
    #expect(
      counts.byKey == [
        #"Recipe15CatalogType named "counted""#: 3, #"Recipe15CacheType named "counted""#: 2,
        #"Recipe15MailerType named "counted""#: 1,
      ])
  }

  @Test func anEventArrivesOnTheResolvingThreadBeforeTheResolutionReturns() async {
    let container = Dependencies { Module("thread") { Recipe15Catalog() as Recipe15CatalogType } }
    let handlerThreads = Collector<ObjectIdentifier>()
    let observation = Dependencies.observe { event in
      if event.key == #"Recipe15CatalogType named "thread""# {
        handlerThreads.append(ObjectIdentifier(Thread.current))
      }
    }
    defer { observation.cancel() }
    let seen = Collector<Bool>()
    let finished = await onThreads(2) { _ in
      let before = handlerThreads.all.count
      _ = container.resolve(Recipe15CatalogType.self, name: "thread")
      let after = handlerThreads.all
      seen.append(after.count > before && after.contains(ObjectIdentifier(Thread.current)))
    }
    #expect(finished)
    #expect(seen.all == [true, true])
  }

  @Test func anInjectReadAfterTheFirstIsNotObserved() {
    let count = Counter()
    let observation = Dependencies.observe {
      // Named: another test resolves the unnamed one, and observers see every test.
      if $0.key == #"Recipe15MailerType named "screen""# { count.increment() }
    }
    defer { observation.cancel() }
    Dependencies.withOverrides {
      Module("screen") { Recipe15Mailer() as Recipe15MailerType }
    } operation: {
      let screen = Recipe15Screen()
      screen.send()
      screen.send()
      screen.send()
    }
    #expect(count.value == 1)
  }
}

// MARK: - Fixtures

/// The article's recipe: a factory that ran on the main thread for longer than a frame.
private func recipe15TookAFrame(_ event: ResolutionEvent) -> Bool {
  if event.madeInstance, event.onMainThread, event.durationNanoseconds > 16_000_000 {
    return true
  }
  return false
}

protocol Recipe15AnalyticsSink: AnyObject {
  func send(_ event: String)
}

final class Recipe15ConsoleSink: Recipe15AnalyticsSink {
  private let received: Collector<String>

  init(_ received: Collector<String>) {
    self.received = received
  }

  func send(_ event: String) { received.append("console: \(event)") }
}

final class Recipe15RemoteSink: Recipe15AnalyticsSink {
  private let received: Collector<String>

  init(_ received: Collector<String>) {
    self.received = received
  }

  func send(_ event: String) { received.append("remote: \(event)") }
}

final class Recipe15SpySink: Recipe15AnalyticsSink {
  let events = Collector<String>()

  func send(_ event: String) { events.append(event) }
}

protocol Recipe15TrackerType {
  func track(_ event: String)
}

struct Recipe15Tracker: Recipe15TrackerType {
  @Inject private var sinks: [Recipe15AnalyticsSink]

  func track(_ event: String) {
    for sink in sinks { sink.send(event) }
  }
}

protocol Recipe15PlugInType {
  var id: String { get }
}

struct Recipe15PlugIn: Recipe15PlugInType {
  let id: String

  init(_ id: String) {
    self.id = id
  }
}

protocol Recipe15CatalogType: AnyObject {
  func title(id: Int) -> String
}

protocol Recipe15Searchable: AnyObject {}

final class Recipe15Catalog: Recipe15CatalogType, Recipe15Searchable {
  func title(id: Int) -> String { "widget \(id)" }
}

final class Recipe15LoggedCatalog: Recipe15CatalogType {
  private let wrapped: Recipe15CatalogType
  private let log: Collector<String>

  init(_ wrapped: Recipe15CatalogType, log: Collector<String>) {
    self.wrapped = wrapped
    self.log = log
  }

  func title(id: Int) -> String {
    log.append("title(id: \(id))")
    return wrapped.title(id: id)
  }
}

final class Recipe15MeteredCatalog: Recipe15CatalogType {
  let wrapped: Recipe15CatalogType
  private let calls: Counter

  init(_ wrapped: Recipe15CatalogType, calls: Counter) {
    self.wrapped = wrapped
    self.calls = calls
  }

  func title(id: Int) -> String {
    calls.increment()
    return wrapped.title(id: id)
  }
}

final class Recipe15SpyCatalog: Recipe15CatalogType {
  private let wrapped: Recipe15CatalogType
  private let calls: Collector<Int>

  init(_ wrapped: Recipe15CatalogType, calls: Collector<Int>) {
    self.wrapped = wrapped
    self.calls = calls
  }

  func title(id: Int) -> String {
    calls.append(id)
    return wrapped.title(id: id)
  }
}

protocol Recipe15DatabaseType: AnyObject {}

final class Recipe15Database: Recipe15DatabaseType {
  init(migrating migrations: Collector<String>) {
    usleep(5_000)
    migrations.append("001_widgets")
    migrations.append("002_prices")
  }
}

protocol Recipe15CacheType: AnyObject {}
final class Recipe15Cache: Recipe15CacheType {}

protocol Recipe15MailerType {}
struct Recipe15Mailer: Recipe15MailerType {}

protocol Recipe15ServerType: AnyObject {
  var database: Recipe15DatabaseType { get }
}

final class Recipe15Server: Recipe15ServerType {
  let database: Recipe15DatabaseType

  init(database: Recipe15DatabaseType) {
    self.database = database
  }
}

enum Recipe15Failure: Error {
  case first
  case second
}

/// Reads its catalog with `@Inject`.
final class Recipe15CatalogScreen {
  @Inject private var catalog: Recipe15CatalogType

  func load(id: Int) -> String { catalog.title(id: id) }
}

/// Reads its mailer with `@Inject` at every call.
final class Recipe15Screen {
  @Inject("screen") private var mailer: Recipe15MailerType

  func send() { _ = mailer }
}

/// Resolutions per key, as the article's observer counts them.
final class Recipe15Counts: @unchecked Sendable {
  // `counts` is only touched under `lock`.
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  func add(_ key: String) {
    lock.withLock { counts[key, default: 0] += 1 }
  }

  var byKey: [String: Int] { lock.withLock { counts } }
}
