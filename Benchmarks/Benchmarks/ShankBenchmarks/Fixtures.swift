// The modules every scenario resolves, written once and registered with each library.
//
// Modules are structs reached through their protocol, as Shank's README writes them; the
// protocols are `Sendable` only because swift-dependencies requires it of its values.
import Dependencies
import Shank
import Swinject

// MARK: - Ten module protocols (S1, S7, S8)

protocol M0Type: Sendable { func component() -> Int }
protocol M1Type: Sendable { func component() -> Int }
protocol M2Type: Sendable { func component() -> Int }
protocol M3Type: Sendable { func component() -> Int }
protocol M4Type: Sendable { func component() -> Int }
protocol M5Type: Sendable { func component() -> Int }
protocol M6Type: Sendable { func component() -> Int }
protocol M7Type: Sendable { func component() -> Int }
protocol M8Type: Sendable { func component() -> Int }
protocol M9Type: Sendable { func component() -> Int }

struct M0: M0Type { func component() -> Int { 0 } }
struct M1: M1Type { func component() -> Int { 1 } }
struct M2: M2Type { func component() -> Int { 2 } }
struct M3: M3Type { func component() -> Int { 3 } }
struct M4: M4Type { func component() -> Int { 4 } }
struct M5: M5Type { func component() -> Int { 5 } }
struct M6: M6Type { func component() -> Int { 6 } }
struct M7: M7Type { func component() -> Int { 7 } }
struct M8: M8Type { func component() -> Int { 8 } }
struct M9: M9Type { func component() -> Int { 9 } }
/// The test double that S8 layers over `M5`.
struct MockM5: M5Type { func component() -> Int { -5 } }

// MARK: - A shared module and a module that builds a five-object graph (S6)

protocol CacheType: AnyObject, Sendable {}
protocol SessionType: AnyObject, Sendable {}
protocol StoreType: AnyObject, Sendable {}
protocol HTTPClientType: AnyObject, Sendable {}
protocol WorkerType: AnyObject, Sendable {}

final class Cache: CacheType {}
final class Session: SessionType {}
final class Store: StoreType {
  let cache: CacheType
  init(cache: CacheType) { self.cache = cache }
}
final class HTTPClient: HTTPClientType {
  let session: SessionType
  init(session: SessionType) { self.session = session }
}
final class Worker: WorkerType {
  let store: StoreType
  let http: HTTPClientType
  init(store: StoreType, http: HTTPClientType) {
    self.store = store
    self.http = http
  }
}

/// What S6 registers as a singleton: a module that keeps what every feature shares.
protocol SharedModuleType: AnyObject, Sendable { func component() -> SessionType }
final class SharedModule: SharedModuleType {
  let session = Session()
  func component() -> SessionType { session }
}
extension SharedModule {
  static let shared = SharedModule()  // the hand-written singleton
}

/// The parent module that `GraphModule` injects.
protocol AppModuleType: Sendable { func component() -> SessionType }
struct AppModule: AppModuleType { func component() -> SessionType { Session() } }

/// Worker → (Store → Cache, HTTPClient → Session): five objects on three levels.
protocol GraphModuleType: Sendable {
  func component() -> WorkerType
  func component() -> StoreType
  func component() -> HTTPClientType
  func component() -> CacheType
}
struct GraphModule: GraphModuleType {
  @Inject private var app: AppModuleType
  func component() -> WorkerType { Worker(store: component(), http: component()) }
  func component() -> StoreType { Store(cache: component()) }
  func component() -> HTTPClientType { HTTPClient(session: app.component()) }
  func component() -> CacheType { Cache() }
}

/// The same five constructors, by hand.
@inline(never)
func handWrittenGraph() -> WorkerType {
  Worker(store: Store(cache: Cache()), http: HTTPClient(session: Session()))
}

// MARK: - Names (S3, S4, S5, memory)

/// `"n0"`, `"n1"`, … made once, so no scenario times string formatting.
let names: [String] = (0..<100_000).map { "n\($0)" }

/// The name S3 and S4 resolve: registered in every size of container.
let probeName = "n5"

/// The name S4's miss asks for: one past the last of 100,000, registered in none.
let missingName = "n100000"

// MARK: - Shank containers

enum ShankFixtures {
  static func tenModules() -> Dependencies {
    Dependencies {
      Module { M0() as M0Type }
      Module { M1() as M1Type }
      Module { M2() as M2Type }
      Module { M3() as M3Type }
      Module { M4() as M4Type }
      Module { M5() as M5Type }
      Module { M6() as M6Type }
      Module { M7() as M7Type }
      Module { M8() as M8Type }
      Module { M9() as M9Type }
    }
  }

  /// `count` modules of one type told apart by name.
  static func named(_ count: Int) -> Dependencies {
    Dependencies {
      for name in names.prefix(count) {
        Module(name) { M0() as M0Type }
      }
    }
  }

  static func singleton() -> Dependencies {
    Dependencies {
      Module(scope: .singleton) { SharedModule() as SharedModuleType }
    }
  }

  static func graph() -> Dependencies {
    Dependencies {
      Module { AppModule() as AppModuleType }
      Module { GraphModule() as GraphModuleType }
    }
  }
}

extension ShankFixtures {
  // Each promotes a root for a benchmark's setup and checks that it resolves what the
  // benchmark times. A built root stays alive for the process, as `build()` documents.

  static func buildTenModules() {
    tenModules().build()
    check(Dependencies.resolve(M5Type.self).component() == 5, "the ten-module root")
  }

  static func buildNamed(_ count: Int) {
    named(count).build()
    check(Dependencies.resolve(M0Type.self, name: probeName).component() == 0, "a named root")
  }

  static func buildSingleton() {
    singleton().build()
    checkSingletonIsShared()
  }

  /// S7's in-turn runs alternate the new-instance and the singleton resolution, and the
  /// static `resolve` they time reads the one built root, so the root holds both.
  static func buildModuleAndSingleton() {
    Dependencies {
      Module { M5() as M5Type }
      Module(scope: .singleton) { SharedModule() as SharedModuleType }
    }
    .build()
    check(Dependencies.resolve(M5Type.self).component() == 5, "the S7 root")
    checkSingletonIsShared()
  }

  private static func checkSingletonIsShared() {
    check(
      Dependencies.resolve(SharedModuleType.self) === Dependencies.resolve(SharedModuleType.self),
      ".singleton made two instances")
  }

  static func buildGraph() {
    graph().build()
    let worker: WorkerType = Dependencies.resolve(GraphModuleType.self).component()
    check(worker is Worker, "the graph module")
  }
}

// MARK: - Lifetimes (S10, S11, S12)

extension ShankFixtures {
  /// S10's child container: S8's mock as its own module, over the ten modules, from which
  /// `M3Type` falls through.
  static func child() -> Dependencies {
    let child = Dependencies(over: tenModules()) {
      Module { MockM5() as M5Type }
    }
    check(child.resolve(M5Type.self).component() == -5, "the child's own module")
    check(child.resolve(M3Type.self).component() == 3, "a key falling through to the parent")
    return child
  }

  /// Checks what S11 times: the scope's singleton is seen inside, kept for the scope, and new
  /// in the next scope.
  static func checkScope() async {
    func scoped() async -> SharedModuleType {
      await Dependencies.withScope {
        Module(scope: .singleton) { SharedModule() as SharedModuleType }
      } operation: {
        let first = Dependencies.resolve(SharedModuleType.self)
        check(first === Dependencies.resolve(SharedModuleType.self), "the scope's singleton")
        return first
      }
    }
    let first = await scoped()
    let second = await scoped()
    check(first !== second, "a new scope made the same singleton")
  }

  /// Checks what S12 times: `build()` frees the root it replaces when no resolution reads it.
  static func checkReplacedRootIsFreed() {
    weak var replaced: Dependencies?
    do {
      let root = tenModules()
      root.build()
      replaced = root
    }
    buildTenModules()
    check(replaced == nil, "build() kept the root it replaced")
  }
}

// MARK: - Swinject containers

enum SwinjectFixtures {
  static func tenModules(synchronized: Bool = false) -> Resolver {
    let container = Container()
    container.register(M0Type.self) { _ in M0() }.inObjectScope(.transient)
    container.register(M1Type.self) { _ in M1() }.inObjectScope(.transient)
    container.register(M2Type.self) { _ in M2() }.inObjectScope(.transient)
    container.register(M3Type.self) { _ in M3() }.inObjectScope(.transient)
    container.register(M4Type.self) { _ in M4() }.inObjectScope(.transient)
    container.register(M5Type.self) { _ in M5() }.inObjectScope(.transient)
    container.register(M6Type.self) { _ in M6() }.inObjectScope(.transient)
    container.register(M7Type.self) { _ in M7() }.inObjectScope(.transient)
    container.register(M8Type.self) { _ in M8() }.inObjectScope(.transient)
    container.register(M9Type.self) { _ in M9() }.inObjectScope(.transient)
    return synchronized ? container.synchronize() : container
  }

  static func named(_ count: Int) -> Container {
    let container = Container()
    for name in names.prefix(count) {
      container.register(M0Type.self, name: name) { _ in M0() }.inObjectScope(.transient)
    }
    return container
  }

  static func singleton() -> Container {
    let container = Container()
    container.register(SharedModuleType.self) { _ in SharedModule() }.inObjectScope(.container)
    return container
  }

  /// S8's nearest equivalent of an override: a child container with the mock.
  static func overriding(_ parent: Container) -> Container {
    let child = Container(parent: parent)
    child.register(M5Type.self) { _ in MockM5() }.inObjectScope(.transient)
    return child
  }

  /// S10's child container: S8's, over the ten modules.
  static func child() -> Container {
    let child = overriding(tenModules() as! Container)
    check(child.resolve(M5Type.self)!.component() == -5, "the Swinject child's own module")
    check(child.resolve(M3Type.self)!.component() == 3, "a key falling through to the parent")
    return child
  }

  /// S11's nearest equivalent of a scope: a child container over `parent` with one
  /// `.container` module, resolved once; the child is released on return.
  static func scope(over parent: Container) -> SharedModuleType {
    let child = Container(parent: parent)
    child.register(SharedModuleType.self) { _ in SharedModule() }.inObjectScope(.container)
    return child.resolve(SharedModuleType.self)!
  }
}

// MARK: - swift-dependencies keys (it has no names and no registration)

private enum M3Key: DependencyKey { static let liveValue: any M3Type = M3() }
private enum M5Key: DependencyKey { static let liveValue: any M5Type = M5() }
private enum SharedKey: DependencyKey {
  static let liveValue: any SharedModuleType = SharedModule()
}

extension DependencyValues {
  var m3: any M3Type {
    get { self[M3Key.self] }
    set { self[M3Key.self] = newValue }
  }
  var m5: any M5Type {
    get { self[M5Key.self] }
    set { self[M5Key.self] = newValue }
  }
  var sharedModule: any SharedModuleType {
    get { self[SharedKey.self] }
    set { self[SharedKey.self] = newValue }
  }
}

// MARK: - Hand-written

/// What a developer writes without a library: typed factory closures, a dictionary of them.
///
/// Reached through `identity(_:)` so the optimizer cannot see which closures it holds.
final class HandWritten: @unchecked Sendable {
  let m5: () -> any M5Type = { M5() }
  let byType: [ObjectIdentifier: () -> any M5Type]
  let byName: [String: () -> any M0Type]
  /// A factory that returns one shared instance, as a resolver must: the caller gets an owned
  /// reference, so every call retains the instance.
  let shared: [ObjectIdentifier: () -> any SharedModuleType] = [
    ObjectIdentifier(SharedModuleType.self): { SharedModule.shared }
  ]

  init(namedCount: Int = 10) {
    byType = [ObjectIdentifier(M5Type.self): { M5() }]
    var byName: [String: () -> any M0Type] = [:]
    for name in names.prefix(namedCount) { byName[name] = { M0() } }
    self.byName = byName
  }
}
