import Shank

// Written as an app target with default main-actor isolation writes code: no annotations, so
// every type here is main-actor-isolated unless it says `nonisolated`.

protocol AppModuleType {
  func viewModels() -> ViewModelStore
  func client() -> HTTPClient
}

/// Main-actor state that every feature shares.
final class ViewModelStore {
  var titles: [String] = []
}

final class HTTPClient {
  func get(_ path: String) -> String { "GET \(path)" }
}

/// A singleton module that keeps main-actor components as stored properties.
final class AppModule: AppModuleType {
  private let store = ViewModelStore()
  private let http = HTTPClient()

  func viewModels() -> ViewModelStore { store }
  func client() -> HTTPClient { http }
}

protocol WidgetModuleType {
  func component() -> WidgetWorker
}

struct WidgetModule: WidgetModuleType {
  @Inject private var app: AppModuleType

  func component() -> WidgetWorker { WidgetWorker(http: app.client(), store: app.viewModels()) }
}

final class WidgetWorker {
  let http: HTTPClient
  let store: ViewModelStore

  init(http: HTTPClient, store: ViewModelStore) {
    self.http = http
    self.store = store
  }

  func load() -> String {
    store.titles.append(http.get("/widgets"))
    return store.titles.joined(separator: ",")
  }
}

protocol SampleModuleType {
  func test() -> String
}

struct SampleModule: SampleModuleType {
  let value: String
  func test() -> String { "SampleModule.test()\(value)" }
}

protocol AnalyticsModuleType {
  func track(_ event: String) -> String
}

struct AnalyticsModule: AnalyticsModuleType {
  func track(_ event: String) -> String { "tracked \(event)" }
}

final class WidgetViewController {
  @Inject private var widgets: WidgetModuleType
  @Inject("abc") private var sample: SampleModuleType
  @Inject private var analytics: AnalyticsModuleType?
  private lazy var worker: WidgetWorker = widgets.component()

  func show() -> String {
    [worker.load(), sample.test(), analytics?.track("show") ?? "no analytics"]
      .joined(separator: " | ")
  }
}

/// The app's composition root, as the README writes it.
func appModules(analytics: Bool) -> [Module] {
  [
    Module(scope: .singleton) { AppModule() as AppModuleType },
    Module { WidgetModule() as WidgetModuleType },
    Module("abc") { SampleModule(value: "123") as SampleModuleType },
  ] + (analytics ? [Module { AnalyticsModule() as AnalyticsModuleType }] : [])
}

/// A module protocol whose instances cross actors, so it is `Sendable`; a main-actor class
/// conforms without further ado.
protocol SessionModuleType: AnyObject, Sendable {
  func user() -> String
}

final class SessionModule: SessionModuleType {
  private var name = "ada"
  func user() -> String { name }
}

/// Neither main-actor nor `Sendable`: registered from nonisolated code, it runs anywhere.
nonisolated protocol CounterModuleType: AnyObject {
  func next() -> Int
}

nonisolated final class CounterModule: CounterModuleType {
  private var count = 0
  func next() -> Int {
    count += 1
    return count
  }
}

nonisolated struct CounterReader {
  @Inject var counter: CounterModuleType
}

nonisolated func counterModules() -> [Module] {
  [Module(scope: .singleton) { CounterModule() as CounterModuleType }]
}

/// A nonisolated, `Sendable` module: nothing to hop to.
nonisolated protocol ClockModuleType: Sendable {
  func now() -> Int
}

nonisolated struct FixedClockModule: ClockModuleType {
  func now() -> Int { 1_700_000_000 }
}

nonisolated func clockModules() -> [Module] {
  [Module { FixedClockModule() as ClockModuleType }]
}

/// A nonisolated module that injects a `Sendable` protocol: a final class, since Swift 6.3
/// rejects that `@Inject` in a `nonisolated struct` of this target ("'nonisolated' cannot be
/// applied to mutable stored properties"), as ConcurrencyAndThreadSafety.md says.
nonisolated final class ClockReader {
  @Inject private var clock: ClockModuleType

  func now() -> Int { clock.now() }
}
