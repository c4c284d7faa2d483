// The placeholder types, functions and values that the Swift blocks of README.md and of the DocC
// articles use without declaring them, for `.ci/snippets/check.py`. It is compiled once as the
// module `SnippetPrelude`, which every block imports; a block that declares a type of the same
// name shadows the one here. Only what the snippets need to type-check: no behaviour, since
// every promise a snippet makes is tested in Tests/. Keep each group in the order of the pages
// that first use it, and add to it when a new snippet names a new placeholder.

import Foundation
import Shank

// MARK: - Widgets: README, GettingStarted, DesigningModules, TestingWithOverrides, migrations

// The shapes of Samples/WidgetApp: the same type names, initializer labels and properties,
// with the network's calls `async`, as an app's real client makes them.

public struct Widget: Codable, Sendable, Equatable {
  public let id: String
  public let name: String
  public var added: Date?
  public init(id: String, name: String, added: Date? = nil) {
    self.id = id
    self.name = name
    self.added = added
  }
}

public let widget = Widget(id: "w1", name: "Gear")

public protocol HTTPClientType {
  func get(_ path: String) async throws -> Data
}

public enum HTTPError: Error, Equatable {
  case offline
}

public struct URLSessionHTTPClient: HTTPClientType {
  public init(host: String = "api.example.com") {}
  public func get(_ path: String) async throws -> Data { Data() }
}

public struct StubHTTPClient: HTTPClientType {
  public init(json: String) {}
  public func get(_ path: String) async throws -> Data { Data() }
}

public protocol ClockType {
  func now() -> Date
}

public struct SystemClock: ClockType {
  public init() {}
  public func now() -> Date { Date() }
}

public protocol WidgetStoreType {
  func load() throws -> [Widget]
  func save(_ widgets: [Widget]) throws
}

public final class WidgetFileStore: WidgetStoreType {
  public init() {}
  public func load() throws -> [Widget] { [] }
  public func save(_ widgets: [Widget]) throws {}
}

public final class MockWidgetStore: WidgetStoreType {
  public var widgets: [Widget]
  public init(widgets: [Widget] = []) { self.widgets = widgets }
  public func load() throws -> [Widget] { widgets }
  public func save(_ widgets: [Widget]) throws { self.widgets = widgets }
}

public protocol WidgetRemoteType {
  func catalog() async throws -> [Widget]
}

public struct WidgetRemote: WidgetRemoteType {
  public init(client: HTTPClientType, path: String) {}
  public func catalog() async throws -> [Widget] { [] }
}

public struct MockWidgetRemote: WidgetRemoteType {
  public var widgets: [Widget]
  public init(widgets: [Widget]) { self.widgets = widgets }
  public func catalog() async throws -> [Widget] { widgets }
}

public protocol WidgetWorkerType {
  func widgets() async throws -> [Widget]
  func add(name: String) async throws -> Widget
}

public struct WidgetWorker: WidgetWorkerType {
  public init(store: WidgetStoreType, remote: WidgetRemoteType, clock: ClockType) {}
  public func widgets() async throws -> [Widget] { [] }
  public func add(name: String) async throws -> Widget { widget }
}

public protocol AppModuleType {
  func component() -> HTTPClientType
  func component() -> ClockType
}

// For an `alone` block whose app module, like MigratingFromShank's, has no clock of its own.
extension AppModuleType {
  public func component() -> ClockType { SystemClock() }
}

public struct AppModule: AppModuleType {
  public init() {}
  public func component() -> HTTPClientType { URLSessionHTTPClient() }
  public func component() -> ClockType { SystemClock() }
}

public struct StubAppModule: AppModuleType {
  public init() {}
  public func component() -> HTTPClientType { StubHTTPClient(json: "[]") }
  public func component() -> ClockType { SystemClock() }
}

public struct OfflineAppModule: AppModuleType {
  public init() {}
  public func component() -> HTTPClientType { StubHTTPClient(json: "[]") }
  public func component() -> ClockType { SystemClock() }
}

public protocol WidgetModuleType {
  func component() -> WidgetWorkerType
  func component() -> WidgetStoreType
  func component() -> WidgetRemoteType
}

public struct WidgetModule: WidgetModuleType {
  public init() {}
  public func component() -> WidgetWorkerType {
    WidgetWorker(store: component(), remote: component(), clock: SystemClock())
  }
  public func component() -> WidgetStoreType { WidgetFileStore() }
  public func component() -> WidgetRemoteType {
    WidgetRemote(client: URLSessionHTTPClient(), path: "/api/widgets")
  }
}

public struct MockWidgetModule: WidgetModuleType {
  public init() {}
  public func component() -> WidgetWorkerType {
    WidgetWorker(store: component(), remote: component(), clock: SystemClock())
  }
  public func component() -> WidgetStoreType { MockWidgetStore() }
  public func component() -> WidgetRemoteType { MockWidgetRemote(widgets: []) }
}

public struct PreviewWidgetModule: WidgetModuleType {
  public init() {}
  public func component() -> WidgetWorkerType {
    WidgetWorker(store: component(), remote: component(), clock: SystemClock())
  }
  public func component() -> WidgetStoreType { MockWidgetStore() }
  public func component() -> WidgetRemoteType { MockWidgetRemote(widgets: []) }
}

public final class WidgetListModel {
  public private(set) var items: [Widget] = []
  public init() {}
  public func refresh() async throws { items = [] }
}

/// The consumers that `verify(consumers:)` is given.
public final class WidgetViewController {
  @Inject private var widgets: WidgetModuleType
  public init() {}
}

extension WidgetViewController {
  public var names: [String] { [] }
}

public final class SettingsViewModel {
  public init() {}
}

/// The app's composition root, as a real app writes it.
public enum AppDependencies {
  public static var modules: [Module] {
    [
      Module(scope: .singleton) { AppModule() as AppModuleType },
      Module { WidgetModule() as WidgetModuleType },
    ]
  }
}

public struct WidgetDetailModel {
  public init(id: String, store: WidgetStoreType) {}
}

/// UIKit's, on Linux.
@MainActor open class UIResponder {
  public init() {}
}

@MainActor public protocol UIApplicationDelegate {}

// MARK: - Names and aliases: DesigningModules, Scopes

public protocol RemoteModuleType {}

public struct RemoteModule: RemoteModuleType {
  public init(host: String) {}
}

public struct MockRemoteModule: RemoteModuleType {
  public init() {}
}

public protocol WidgetSettingsModuleType {}

public struct WidgetSettingsModule: WidgetSettingsModuleType {
  public init() {}
}

public protocol DebugMenuModuleType {}

public struct DebugMenuModule: DebugMenuModuleType {
  public init() {}
}

public let useMockServer = false

public protocol Router {}
public protocol DeeplinkHandler {}

public struct RouterConfig: Sendable {}

public final class RouterImpl: Router, DeeplinkHandler {
  public init() {}
  public init(config: RouterConfig) throws {}
}

public protocol AccountModuleType {}

public struct AccountModule: AccountModuleType {
  public init() {}
}

public protocol PlayerModuleType {
  func stopPlayback()
}

public struct PlayerModule: PlayerModuleType {
  public init() {}
  public func stopPlayback() {}
}

// MARK: - Lifetimes: README, Lifetimes

public struct User: Sendable {
  public let name: String
}

public let user = User(name: "Ada")

public protocol SessionModuleType {
  var user: User { get }
  func signOut() async
}

public struct SessionModule: SessionModuleType {
  public let user: User
  public init(user: User) { self.user = user }
  public func signOut() async {}
}

public protocol ProfileModuleType {}

public struct Request: Sendable {
  public let path: String
}

public let request = Request(path: "/widgets")

public func handle(_ request: Request) async throws {}

public protocol RequestModuleType {}

public struct RequestModule: RequestModuleType {
  public init(_ request: Request) {}
  public init(path: String) {}
}

public protocol CheckoutModuleType {
  func cancelPendingPayment()
}

public struct CheckoutModule: CheckoutModuleType {
  public init() {}
  public func cancelPendingPayment() {}
}

public protocol DatabaseModuleType {
  func close() async
  func disconnect() async
}

public struct DatabaseLocation: Sendable {}

public struct DatabaseModule: DatabaseModuleType {
  public init() {}
  public init(location: DatabaseLocation) throws {}
  public func close() async {}
  public func disconnect() async {}
}

/// Hummingbird's, in Samples/WidgetServer.
public protocol AppArguments {
  var hostname: String { get }
  var port: Int { get }
  var databaseLocation: DatabaseLocation { get }
}

public protocol ApplicationProtocol {}

struct Application: ApplicationProtocol {}

public func buildApplication(hostname: String, port: Int) -> some ApplicationProtocol {
  Application()
}

public protocol DraftsModuleType {
  func flush() async
}

public struct DraftsModule: DraftsModuleType {
  public init(database: DatabaseModuleType) {}
  public func flush() async {}
}

// MARK: - Plug-ins, decorators, start-up and observation

public protocol AnalyticsSinkType {
  func send(_ event: String)
}

public struct ConsoleSink: AnalyticsSinkType {
  public init() {}
  public func send(_ event: String) {}
}

public struct RemoteSink: AnalyticsSinkType {
  public init() {}
  public func send(_ event: String) {}
}

public final class SpySink: AnalyticsSinkType {
  public private(set) var events: [String] = []
  public init() {}
  public func send(_ event: String) { events.append(event) }
}

public protocol AnalyticsType {
  func track(_ event: String)
}

public protocol PlugIn {}

public struct SearchPlugIn: PlugIn {
  public init() {}
}

public struct SharePlugIn: PlugIn {
  public init() {}
}

public struct SpellCheckPlugIn: PlugIn {
  public init() {}
}

public protocol CatalogType {
  func title(id: Int) -> String
}

public struct Catalog: CatalogType {
  public init() {}
  public func title(id: Int) -> String { "" }
}

public final class LoggedCatalog: CatalogType {
  public init(_ wrapped: CatalogType) {}
  public func title(id: Int) -> String { "" }
}

public final class MeteredCatalog: CatalogType {
  public init(_ wrapped: CatalogType) {}
  public func title(id: Int) -> String { "" }
}

public final class SpyCalls {
  public private(set) var ids: [Int] = []
  public init() {}
}

public final class SpyCatalog: CatalogType {
  public init(_ wrapped: CatalogType, calls: SpyCalls) {}
  public func title(id: Int) -> String { "" }
}

public final class CatalogViewModel {
  @Inject private var catalog: CatalogType
  public init() {}
  public func load(id: Int) -> String { catalog.title(id: id) }
}

public struct Logger: Sendable {
  public func debug(_ message: String) {}
}

public let logger = Logger()

public protocol DatabaseType {}

public enum Migrations {
  public static let all: [String] = []
}

public final class Database: DatabaseType {
  public init(path: String) {}
  public init(path: String, migrating: [String]) throws {}
  public static func migrated() throws -> Database { Database(path: "widgets.sqlite") }
  public static func open(path: String) async throws -> Database { Database(path: path) }
}

public protocol DatabasePoolType {
  func close() async
}

public final class DatabasePool: DatabasePoolType {
  public static func connect(_ url: String) async throws -> DatabasePool { DatabasePool() }
  public func close() async {}
}

public protocol PriceCacheType {}

public struct PriceCache: PriceCacheType {
  public init() {}
}

public protocol MailerType {}

public struct Mailer: MailerType {
  public init() {}
}

public func serve() async throws {}

public func showCatalog() {}
