import Dispatch
import Foundation
import Shank
import Testing

/// The recipes of the Plug-ins and Decorators and the Starting and Observing articles, and each
/// of their promises that the suites of contributions, decorators, `start()` and observation
/// do not already show.
///
/// Observers see every resolution in the process, so each observing test keeps only the events
/// of `Composition` keys that only it resolves.
@Suite struct CompositionRecipeTests {
  // MARK: Plug-ins and analytics sinks

  @Test func everyAnalyticsSinkReceivesEachEventInRegistrationOrder() throws {
    let received = Collector<String>()
    let container = Dependencies {
      Module.contribution { CompositionConsoleSink(received) as CompositionAnalyticsSink }
      Module.contribution("remote", scope: .singleton) {
        CompositionRemoteSink(received) as CompositionAnalyticsSink
      }
      Module { CompositionTracker() as CompositionTrackerType }
    }
    container.resolve(CompositionTrackerType.self).track("launched")
    #expect(received.all == ["console: launched", "remote: launched"])
    let named = container.resolve([String: CompositionAnalyticsSink].self)
    #expect(named.keys.sorted() == ["remote"])
    #expect(named["remote"] is CompositionRemoteSink)
    let error = try #require(
      resolutionError { try container.resolveOrThrow(CompositionAnalyticsSink.self) })
    #expect(error.reason == .notRegistered, "a contribution is never resolved alone")
  }

  @Test func aFeatureContainerAddsItsPlugInsAfterTheApps() {
    let app = Dependencies {
      Module.contribution { CompositionPlugIn("search") as CompositionPlugInType }
      Module.contribution { CompositionPlugIn("share") as CompositionPlugInType }
    }
    let editor = Dependencies(over: app) {
      Module.contribution { CompositionPlugIn("spell-check") as CompositionPlugInType }
    }
    #expect(app.resolve([CompositionPlugInType].self).map(\.id) == ["search", "share"])
    #expect(
      editor.resolve([CompositionPlugInType].self).map(\.id) == ["search", "share", "spell-check"])
    let none = Dependencies {}
    #expect(none.resolve([CompositionPlugInType].self).isEmpty)
    #expect(none.resolve([String: CompositionPlugInType].self).isEmpty)
  }

  @Test func aTestSwapsTheListInAnOverride() {
    let received = Collector<String>()
    let spy = CompositionSpySink()
    Dependencies.withOverrides {
      Module.contribution { CompositionConsoleSink(received) as CompositionAnalyticsSink }
      Module.contribution("remote") { CompositionRemoteSink(received) as CompositionAnalyticsSink }
      Module { CompositionTracker() as CompositionTrackerType }
    } operation: {
      Dependencies.withOverrides {
        Module { [spy] as [CompositionAnalyticsSink] }
      } operation: {
        Dependencies.resolve(CompositionTrackerType.self).track("tapped")
        #expect(spy.events.all == ["tapped"])
        #expect(received.all.isEmpty, "the app's sinks are replaced")
        // `[CompositionAnalyticsSink]` alone leaves the named ones as they were.
        let named = Dependencies.resolve([String: CompositionAnalyticsSink].self)
        #expect(named.keys.sorted() == ["remote"])
        Dependencies.withOverrides {
          Module { [:] as [String: CompositionAnalyticsSink] }
        } operation: {
          #expect(Dependencies.resolve([String: CompositionAnalyticsSink].self).isEmpty)
        }
      }
    }
  }

  // MARK: Decorators

  @Test func loggingAndMetricsDecoratorsStackInRegistrationOrder() {
    let log = Collector<String>()
    let calls = Counter()
    let container = Dependencies {
      Module { CompositionCatalog() as CompositionCatalogType }
      Module.decorating(CompositionCatalogType.self) { CompositionLoggedCatalog($0, log: log) }
      Module.decorating(CompositionCatalogType.self) { CompositionMeteredCatalog($0, calls: calls) }
    }
    let catalog = container.resolve(CompositionCatalogType.self)
    #expect(catalog is CompositionMeteredCatalog, "the last decorator registered is outermost")
    #expect(catalog.title(id: 7) == "widget 7")
    #expect(log.all == ["title(id: 7)"])
    #expect(calls.value == 1)
  }

  @Test func aSpyInAnOverrideWrapsWhatThatLayerMakes() {
    let spy = Collector<Int>()
    Dependencies.withOverrides {
      Module { CompositionCatalog() as CompositionCatalogType }
      Module("shared", scope: .singleton) { CompositionCatalog() as CompositionCatalogType }
    } operation: {
      Dependencies.withOverrides {
        Module.decorating(CompositionCatalogType.self) { CompositionSpyCatalog($0, calls: spy) }
      } operation: {
        // A unique module is made for this resolution, and decorated by the layer it is
        // resolved from: here, for an `@Inject` property read inside the operation.
        #expect(CompositionCatalogScreen().load(id: 1) == "widget 1")
        #expect(spy.all == [1])
        // A singleton that the layer underneath keeps is decorated here once, and kept here.
        let shared = Dependencies.resolve(CompositionCatalogType.self, name: "shared")
        #expect(shared is CompositionSpyCatalog)
        #expect(Dependencies.resolve(CompositionCatalogType.self, name: "shared") === shared)
      }
      Dependencies.withOverrides {
        Module("shared", scope: .singleton) { CompositionCatalog() as CompositionCatalogType }
        Module.decorating(CompositionCatalogType.self) { CompositionSpyCatalog($0, calls: spy) }
      } operation: {
        // Registered again beside the spy, the singleton is this layer's, and decorated once.
        let first = Dependencies.resolve(CompositionCatalogType.self, name: "shared")
        let second = Dependencies.resolve(CompositionCatalogType.self, name: "shared")
        #expect(first is CompositionSpyCatalog)
        #expect(first === second)
        _ = first.title(id: 2)
        #expect(spy.all == [1, 2])
      }
    }
  }

  @Test func aSharedAliasIsDecoratedOnceByTheContainerResolvedFromAndKept() {
    let decorations = Counter()
    let root = Dependencies {
      Module(scope: .singleton, as: CompositionCatalogType.self, CompositionSearchable.self) {
        CompositionCatalog()
      }
    }
    let child = Dependencies(over: root) {
      Module.decorating(CompositionCatalogType.self) { catalog in
        decorations.increment()
        return CompositionMeteredCatalog(catalog, calls: Counter())
      }
    }
    let first = child.resolve(CompositionCatalogType.self)
    let second = child.resolve(CompositionCatalogType.self)
    #expect(first is CompositionMeteredCatalog)
    #expect(first === second, "the child keeps its decoration")
    #expect(decorations.value == 1)
    let kept = root.resolve(CompositionCatalogType.self)
    #expect(kept is CompositionCatalog, "the root has no decorator")
    #expect((first as? CompositionMeteredCatalog)?.wrapped === kept, "around the one kept instance")
    #expect(child.resolve(CompositionSearchable.self) === kept, "another type is not decorated")
  }

  // MARK: Starting

  @Test func aServerMigratesItsDatabaseAtStartAndPrintsTheReport() async throws {
    let migrations = Collector<String>()
    let made = Counter()
    let dependencies = Dependencies {
      // Registered first and made far faster, however a loaded machine (or a sanitizer)
      // schedules the two: listed second in a report of the slowest first.
      Module(scope: .singleton, eager: true) { CompositionCache() as CompositionCacheType }
      Module(scope: .singleton, eager: true) { () -> CompositionDatabaseType in
        usleep(100_000)
        return CompositionDatabase(migrating: migrations)
      }
      Module(scope: .singleton) { () -> CompositionMailerType in
        made.increment()
        return CompositionMailer()
      }
    }
    #expect(migrations.all.isEmpty, "listing the modules makes nothing")
    let report = try await dependencies.start()
    #expect(migrations.all == ["001_widgets", "002_prices"])
    #expect(made.value == 0, "a module that is not eager waits for its first resolution")
    #expect(Set(report.entries.map(\.key)) == ["CompositionDatabaseType", "CompositionCacheType"])
    #expect(report.entries.first?.key == "CompositionDatabaseType", "the slowest first")
    #expect(report.description.hasPrefix("Started 2 eager modules in "))
    _ = dependencies.resolve(CompositionDatabaseType.self)
    #expect(migrations.all.count == 2, "the database started is the one kept")
  }

  @Test func buildMakesNothingEagerlyAndStartMakesTheRootsEagerModules() async {
    await #expect(processExitsWith: .success) {
      let migrations = Collector<String>()
      let dependencies = Dependencies {
        Module(scope: .singleton, eager: true) {
          CompositionDatabase(migrating: migrations) as CompositionDatabaseType
        }
      }
      dependencies.build()
      precondition(migrations.all.isEmpty, "build() makes nothing")
      let report = try await dependencies.start()
      precondition(report.entries.map(\.key) == ["CompositionDatabaseType"])
      precondition(migrations.all.count == 2)
      _ = Dependencies.resolve(CompositionDatabaseType.self)
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
        CompositionServer(database: Dependencies.resolve()) as CompositionServerType
      }
      Module(scope: .singleton, eager: true) { () -> CompositionDatabaseType in
        made.increment()
        usleep(10_000)
        return CompositionDatabase(migrating: Collector())
      }
    }
    let report = try await dependencies.start()
    #expect(report.entries.count == 2)
    #expect(made.value == 1)
    let server = dependencies.resolve(CompositionServerType.self)
    #expect(server.database === dependencies.resolve(CompositionDatabaseType.self))
  }

  @Test func startThrowsTheFirstFailureInRegistrationOrderOnceTheOthersAreMade() async {
    let made = Counter()
    let dependencies = Dependencies {
      Module("first", scope: .singleton, eager: true) { () -> Service in
        usleep(20_000)  // fails after the second has
        throw CompositionFailure.first
      }
      Module("second", scope: .singleton, eager: true) { () -> Service in
        throw CompositionFailure.second
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
        key: "CompositionCatalogType", scope: .unique, madeInstance: made,
        durationNanoseconds: milliseconds * 1_000_000, onMainThread: main, depth: 0,
        site: "App.swift:1")
    }
    #expect(tookAFrameOnTheMainThread(event(made: true, main: true, milliseconds: 17)))
    #expect(!tookAFrameOnTheMainThread(event(made: true, main: true, milliseconds: 15)))
    #expect(!tookAFrameOnTheMainThread(event(made: true, main: false, milliseconds: 17)))
    #expect(!tookAFrameOnTheMainThread(event(made: false, main: true, milliseconds: 17)))
  }

  @Test func aSlowFactoryOffTheMainThreadIsTimedButNotFlagged() async throws {
    let container = Dependencies {
      Module("slow") { () -> CompositionCatalogType in
        usleep(20_000)
        return CompositionCatalog()
      }
    }
    let events = Collector<ResolutionEvent>()
    let flagged = Counter()
    let observation = Dependencies.observe { event in
      guard event.key == #"CompositionCatalogType named "slow""# else { return }
      events.append(event)
      if tookAFrameOnTheMainThread(event) { flagged.increment() }
    }
    defer { observation.cancel() }
    let finished = await onThreads(1) { _ in
      _ = container.resolve(CompositionCatalogType.self, name: "slow")
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
      Module("counted") { CompositionCatalog() as CompositionCatalogType }
      Module("counted", scope: .singleton) { CompositionCache() as CompositionCacheType }
    }
    let child = Dependencies(over: root) {
      Module("counted") { CompositionMailer() as CompositionMailerType }
    }
    let counts = CompositionCounts()
    let observation = Dependencies.observe { event in
      if event.key.hasSuffix(#" named "counted""#) { counts.add(event.key) }
    }
    for _ in 0..<3 { _ = root.resolve(CompositionCatalogType.self, name: "counted") }
    _ = root.resolve(CompositionCacheType.self, name: "counted")
    _ = child.resolve(CompositionCacheType.self, name: "counted")
    _ = child.resolve(CompositionMailerType.self, name: "counted")
    observation.cancel()
    _ = root.resolve(CompositionCatalogType.self, name: "counted")
    #expect(
      counts.byKey == [
        #"CompositionCatalogType named "counted""#: 3, #"CompositionCacheType named "counted""#: 2,
        #"CompositionMailerType named "counted""#: 1,
      ])
  }

  @Test func anEventArrivesOnTheResolvingThreadBeforeTheResolutionReturns() async {
    let container = Dependencies {
      Module("thread") { CompositionCatalog() as CompositionCatalogType }
    }
    let handlerThreads = Collector<ObjectIdentifier>()
    let observation = Dependencies.observe { event in
      if event.key == #"CompositionCatalogType named "thread""# {
        handlerThreads.append(ObjectIdentifier(Thread.current))
      }
    }
    defer { observation.cancel() }
    let seen = Collector<Bool>()
    let finished = await onThreads(2) { _ in
      let before = handlerThreads.all.count
      _ = container.resolve(CompositionCatalogType.self, name: "thread")
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
      if $0.key == #"CompositionMailerType named "screen""# { count.increment() }
    }
    defer { observation.cancel() }
    Dependencies.withOverrides {
      Module("screen") { CompositionMailer() as CompositionMailerType }
    } operation: {
      let screen = CompositionScreen()
      screen.send()
      screen.send()
      screen.send()
    }
    #expect(count.value == 1)
  }
}

// MARK: - Fixtures

/// The article's recipe: a factory that ran on the main thread for longer than a frame.
private func tookAFrameOnTheMainThread(_ event: ResolutionEvent) -> Bool {
  if event.madeInstance, event.onMainThread, event.durationNanoseconds > 16_000_000 {
    return true
  }
  return false
}

protocol CompositionAnalyticsSink: AnyObject {
  func send(_ event: String)
}

final class CompositionConsoleSink: CompositionAnalyticsSink {
  private let received: Collector<String>

  init(_ received: Collector<String>) {
    self.received = received
  }

  func send(_ event: String) { received.append("console: \(event)") }
}

final class CompositionRemoteSink: CompositionAnalyticsSink {
  private let received: Collector<String>

  init(_ received: Collector<String>) {
    self.received = received
  }

  func send(_ event: String) { received.append("remote: \(event)") }
}

final class CompositionSpySink: CompositionAnalyticsSink {
  let events = Collector<String>()

  func send(_ event: String) { events.append(event) }
}

protocol CompositionTrackerType {
  func track(_ event: String)
}

struct CompositionTracker: CompositionTrackerType {
  @Inject private var sinks: [CompositionAnalyticsSink]

  func track(_ event: String) {
    for sink in sinks { sink.send(event) }
  }
}

protocol CompositionPlugInType {
  var id: String { get }
}

struct CompositionPlugIn: CompositionPlugInType {
  let id: String

  init(_ id: String) {
    self.id = id
  }
}

protocol CompositionCatalogType: AnyObject {
  func title(id: Int) -> String
}

protocol CompositionSearchable: AnyObject {}

final class CompositionCatalog: CompositionCatalogType, CompositionSearchable {
  func title(id: Int) -> String { "widget \(id)" }
}

final class CompositionLoggedCatalog: CompositionCatalogType {
  private let wrapped: CompositionCatalogType
  private let log: Collector<String>

  init(_ wrapped: CompositionCatalogType, log: Collector<String>) {
    self.wrapped = wrapped
    self.log = log
  }

  func title(id: Int) -> String {
    log.append("title(id: \(id))")
    return wrapped.title(id: id)
  }
}

final class CompositionMeteredCatalog: CompositionCatalogType {
  let wrapped: CompositionCatalogType
  private let calls: Counter

  init(_ wrapped: CompositionCatalogType, calls: Counter) {
    self.wrapped = wrapped
    self.calls = calls
  }

  func title(id: Int) -> String {
    calls.increment()
    return wrapped.title(id: id)
  }
}

final class CompositionSpyCatalog: CompositionCatalogType {
  private let wrapped: CompositionCatalogType
  private let calls: Collector<Int>

  init(_ wrapped: CompositionCatalogType, calls: Collector<Int>) {
    self.wrapped = wrapped
    self.calls = calls
  }

  func title(id: Int) -> String {
    calls.append(id)
    return wrapped.title(id: id)
  }
}

protocol CompositionDatabaseType: AnyObject {}

final class CompositionDatabase: CompositionDatabaseType {
  init(migrating migrations: Collector<String>) {
    usleep(5_000)
    migrations.append("001_widgets")
    migrations.append("002_prices")
  }
}

protocol CompositionCacheType: AnyObject {}
final class CompositionCache: CompositionCacheType {}

protocol CompositionMailerType {}
struct CompositionMailer: CompositionMailerType {}

protocol CompositionServerType: AnyObject {
  var database: CompositionDatabaseType { get }
}

final class CompositionServer: CompositionServerType {
  let database: CompositionDatabaseType

  init(database: CompositionDatabaseType) {
    self.database = database
  }
}

enum CompositionFailure: Error {
  case first
  case second
}

/// Reads its catalog with `@Inject`.
final class CompositionCatalogScreen {
  @Inject private var catalog: CompositionCatalogType

  func load(id: Int) -> String { catalog.title(id: id) }
}

/// Reads its mailer with `@Inject` at every call.
final class CompositionScreen {
  @Inject("screen") private var mailer: CompositionMailerType

  func send() { _ = mailer }
}

/// Resolutions per key, as the article's observer counts them.
final class CompositionCounts: @unchecked Sendable {
  // `counts` is only touched under `lock`.
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  func add(_ key: String) {
    lock.withLock { counts[key, default: 0] += 1 }
  }

  var byKey: [String: Int] { lock.withLock { counts } }
}
