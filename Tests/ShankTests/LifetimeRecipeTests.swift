import Dispatch
import Foundation
import Shank
import Testing

/// The promises of the Lifetimes article that `LifetimeTests` does not already show: a
/// session, a screen and a request, the order of `onClose`, and how overrides and rebuilt
/// roots meet a scope.
@Suite struct LifetimeRecipeTests {
  // MARK: A session

  @Test func aModuleTheChildMakesInjectsFromTheChildAndItsParent() {
    let app = Dependencies {
      Module(scope: .singleton) { RecipeApp(name: "app") as RecipeAppType }
    }
    let session = Dependencies(over: app) {
      Module(scope: .singleton) { RecipeSession(user: "ada") as RecipeSessionType }
      Module { RecipeProfileModule() as RecipeProfileModuleType }
    }
    let profile: RecipeProfileModuleType = session.resolve()
    #expect(profile.session === session.resolve(RecipeSessionType.self))
    #expect(profile.app === app.resolve(RecipeAppType.self))
    #expect(profile.summary() == "ada on app")
  }

  @Test func closingAChildLeavesItsParentOpen() async {
    let appClosed = Counter()
    let app = Dependencies {
      Module(scope: .singleton, onClose: { _ in appClosed.increment() }) {
        RecipeApp(name: "app") as RecipeAppType
      }
    }
    let session = Dependencies(over: app) {
      Module(scope: .singleton) { RecipeSession(user: "ada") as RecipeSessionType }
    }
    let before = session.resolve(RecipeAppType.self)
    await session.close()
    #expect(!app.isClosed)
    #expect(app.resolve(RecipeAppType.self) === before)
    #expect(appClosed.value == 0)
  }

  @Test func closingAParentLeavesItsChildrenOpenAndTheirInstancesUndisposed() async throws {
    let sessionClosed = Counter()
    let app = Dependencies { Module { RecipeApp(name: "app") as RecipeAppType } }
    let session = Dependencies(over: app) {
      Module(scope: .singleton, onClose: { _ in sessionClosed.increment() }) {
        RecipeSession(user: "ada") as RecipeSessionType
      }
    }
    let held = session.resolve(RecipeSessionType.self)
    await app.close()
    #expect(!session.isClosed)
    #expect(session.resolve(RecipeSessionType.self) === held, "its own instances still resolve")
    #expect(sessionClosed.value == 0)
    let error = try #require(resolutionError { try session.resolveOrThrow(RecipeAppType.self) })
    guard case .closed = error.reason else {
      Issue.record("expected a closed-container error, got \(error)")
      return
    }
    await session.close()
    #expect(sessionClosed.value == 1)
  }

  @Test func resolveFromAClosedContainerStopsWithItsMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let session = Dependencies(over: Dependencies {}) {
        Module { RecipeSession(user: "ada") as RecipeSessionType }
      }
      await session.close()
      _ = session.resolve(RecipeSessionType.self)
    }
    let stderr = standardError(of: result)
    #expect(stderr.contains("Shank cannot resolve RecipeSessionType: its container was closed"))
  }

  @Test func anInjectPropertyKeepsItsInstanceAfterTheScopeCloses() async {
    let closed = Counter()
    let (screen, serial) = await Dependencies.withScope {
      Module(scope: .singleton, onClose: { _ in closed.increment() }) {
        RecipeSession(user: "ada") as RecipeSessionType
      }
    } operation: {
      let screen = RecipeSessionScreen()
      return (screen, screen.session.serial)
    }
    #expect(closed.value == 1)
    #expect(screen.session.serial == serial)
    #expect(screen.session.user == "ada")
  }

  @Test func aClosedContainerFreesItsInstancesWhenLetGo() async {
    let closed = Counter()
    weak var released: RecipeSessionType?
    do {
      let session = Dependencies(over: Dependencies {}) {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) {
          RecipeSession(user: "ada") as RecipeSessionType
        }
      }
      released = session.resolve(RecipeSessionType.self)
      await session.close()
      #expect(released != nil, "the container still holds it")
    }
    await eventually { released == nil }
    #expect(released == nil)
    #expect(closed.value == 1, "freeing a closed container runs no handler again")
  }

  // MARK: A session as the root

  @Test func aSessionRootRebuiltOverABaseKeepsTheAppAndDisposesOfTheSession() async {
    await #expect(processExitsWith: .success) {
      let appClosed = Counter()
      let signedOut = Counter()
      let app = Dependencies {
        Module(scope: .singleton, onClose: { _ in appClosed.increment() }) {
          RecipeApp(name: "app") as RecipeAppType
        }
      }
      Dependencies(over: app) {
        Module(scope: .singleton, onClose: { _ in signedOut.increment() }) {
          RecipeSession(user: "ada") as RecipeSessionType
        }
      }.build()
      let before = Dependencies.resolve(RecipeAppType.self)
      let held = Dependencies.resolve(RecipeSessionType.self)
      let screen = RecipeSessionScreen()
      let serial = screen.session.serial

      Dependencies(over: app) {}.build()  // log-out
      await eventually { signedOut.value == 1 }
      precondition(signedOut.value == 1, "the replaced root's instance was disposed of")
      precondition(Dependencies.resolve(RecipeSessionType?.self) == nil)
      precondition(Dependencies.resolve(RecipeAppType.self) === before, "the app's stays")
      precondition(appClosed.value == 0)
      precondition(held.user == "ada", "an instance still held stays usable")
      precondition(screen.session.serial == serial, "an @Inject property keeps what it read")
    }
  }

  @Test func aReplacedRootIsDisposedOfOnlyOnceNothingHoldsIt() async {
    await #expect(processExitsWith: .success) {
      let closed = Counter()
      /// Builds a session root, makes its instance, and returns a child over it.
      func childOverASessionRoot() -> Dependencies {
        let root = Dependencies {
          Module(scope: .singleton, onClose: { _ in closed.increment() }) {
            RecipeSession(user: "ada") as RecipeSessionType
          }
        }
        root.build()
        _ = Dependencies.resolve(RecipeSessionType.self)
        return Dependencies(over: root) {}
      }
      var child: Dependencies? = childOverASessionRoot()
      Dependencies {}.build()
      try? await Task.sleep(nanoseconds: 200_000_000)
      precondition(closed.value == 0, "a child container over the replaced root keeps it")
      precondition(child?.resolve(RecipeSessionType.self).user == "ada")
      child = nil
      await eventually { closed.value == 1 }
      precondition(closed.value == 1, "freed with the last child, its handler ran")
    }
  }

  @Test func anOverrideLayerOverAReplacedRootKeepsItUntilItsOperationEnds() async {
    await #expect(processExitsWith: .success) {
      let closed = Counter()
      Dependencies {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) {
          RecipeSession(user: "ada") as RecipeSessionType
        }
      }.build()
      await Dependencies.withOverrides {
        Module { RecipeApp(name: "override") as RecipeAppType }
      } operation: {
        _ = Dependencies.resolve(RecipeSessionType.self)
        Dependencies {}.build()
        try? await Task.sleep(nanoseconds: 200_000_000)
        precondition(closed.value == 0, "the override layer keeps the root it was made over")
        precondition(Dependencies.resolve(RecipeSessionType.self).user == "ada")
      }
      await eventually { closed.value == 1 }
      precondition(closed.value == 1, "freed with the layer, its handler ran")
    }
  }

  @Test func closingAReplacedRootAwaitsItsHandlersOnce() async {
    await #expect(processExitsWith: .success) {
      let closed = Counter()
      func logOut() async {
        let session = Dependencies {
          Module(scope: .singleton, onClose: { _ in closed.increment() }) {
            RecipeSession(user: "ada") as RecipeSessionType
          }
        }
        session.build()
        _ = Dependencies.resolve(RecipeSessionType.self)
        Dependencies {}.build()
        precondition(closed.value == 0, "a reference of your own keeps the replaced root")
        await session.close()
        precondition(closed.value == 1, "close() returned once the handler ran")
      }
      await logOut()
      try? await Task.sleep(nanoseconds: 200_000_000)
      precondition(closed.value == 1, "freeing the closed root ran nothing again")
    }
  }

  // MARK: A screen

  @Test func aScreenClosesItsContainerOrLetsItGoWithItsViewModel() async {
    let cancelled = Counter()
    let closing = RecipeCheckoutViewModel(cancelled: cancelled)
    #expect(closing.pay() == "paid")
    await closing.screenDidClose()
    #expect(cancelled.value == 1, "close() returned once the handler ran")

    do {
      let dropped = RecipeCheckoutViewModel(cancelled: cancelled)
      #expect(dropped.pay() == "paid")
    }
    await eventually { cancelled.value == 2 }
    #expect(cancelled.value == 2, "a view model let go takes its container, and its handler runs")
  }

  // MARK: A request

  @Test func concurrentScopesEachKeepTheirOwnInstances() async {
    let closed = Collector<String>()
    let seen = await withTaskGroup(of: [String].self) { group in
      for index in 0..<8 {
        group.addTask {
          await Dependencies.withScope {
            Module(scope: .singleton, onClose: { closed.append($0.path) }) {
              RecipeRequest(path: "/\(index)") as RecipeRequestType
            }
          } operation: {
            let first = Dependencies.resolve(RecipeRequestType.self)
            try? await Task.sleep(nanoseconds: 10_000_000)
            let again = Dependencies.resolve(RecipeRequestType.self)
            async let inChild = Dependencies.resolve(RecipeRequestType.self)
            return [first.path, first === again ? again.path : "other", await inChild.path]
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(Set(seen) == Set((0..<8).map { ["/\($0)", "/\($0)", "/\($0)"] }))
    #expect(Set(closed.all) == Set((0..<8).map { "/\($0)" }))
    #expect(closed.all.count == 8)
  }

  /// The article's middleware, the one of `Samples/WidgetServer` without Hummingbird: each
  /// request's module is a singleton of its scope, a unique module of the root made in the
  /// scope injects it, and its `onClose` has counted the scope closed when `withScope` returns.
  @Test func theServerSamplesRequestScopeIsClosedBeforeItsResponseIsOut() async {
    let stats = RecipeServerStats()
    await Dependencies.withScope {  // the server's root
      Module(scope: .singleton) { stats as RecipeServerStats }
      Module { RecipeWidgetModule() as RecipeWidgetModuleType }
    } operation: {
      let responses = await withTaskGroup(of: RecipeResponse.self) { group in
        for index in 0..<16 {
          group.addTask {
            await recipeRequestScope(id: "r\(index)") {
              try? await Task.sleep(nanoseconds: 5_000_000)  // others run meanwhile
              return Dependencies.resolve(RecipeWidgetModuleType.self).requestID
            }
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
      for response in responses {
        #expect(response.body == response.requestID, "the route's module injected its request's")
        #expect(response.closedWhenOut, "the scope was closed before the response was out")
      }
      #expect(Set(responses.map(\.requestID)) == Set((0..<16).map { "r\($0)" }))
      #expect(stats.opened.value == 16)
      #expect(stats.closed.value == 16)
    }
  }

  @Test func childTasksSeeTheScopeAndDetachedWorkDoesNot() async {
    await Dependencies.withScope {
      Module { RecipeRequest(path: "/widgets") as RecipeRequestType }
    } operation: {
      async let inAsyncLet = Dependencies.resolve(RecipeRequestType?.self)?.path
      let inGroup = await withTaskGroup(of: String?.self) { group in
        group.addTask { Dependencies.resolve(RecipeRequestType?.self)?.path }
        return await group.next() ?? nil
      }
      let inTask = await Task { Dependencies.resolve(RecipeRequestType?.self)?.path }.value
      #expect(await inAsyncLet == "/widgets")
      #expect(inGroup == "/widgets")
      #expect(inTask == "/widgets")

      let detached = await Task.detached { Dependencies.resolve(RecipeRequestType?.self) }.value
      let onQueue = await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          continuation.resume(returning: Dependencies.resolve(RecipeRequestType?.self))
        }
      }
      #expect(detached == nil)
      #expect(onQueue == nil)
    }
  }

  // MARK: Order

  @Test func aDependentIsDisposedOfBeforeWhatItsFactoryResolved() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module(scope: .singleton, onClose: { _ in closed.append("database") }) {
        RecipeDatabase() as RecipeDatabase
      }
      Module(scope: .singleton, onClose: { _ in closed.append("drafts") }) {
        RecipeDrafts(database: Dependencies.resolve()) as RecipeDrafts
      }
    }
    _ = container.resolve(RecipeDrafts.self)
    await container.close()
    #expect(closed.all == ["drafts", "database"])
  }

  @Test func aModuleAnInjectPropertyReadsLaterIsDisposedOfFirst() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module(scope: .singleton, onClose: { _ in closed.append("session") }) {
        RecipeSession(user: "ada") as RecipeSessionType
      }
      Module(scope: .singleton, onClose: { _ in closed.append("screen") }) {
        RecipeSessionScreen() as RecipeSessionScreen
      }
    }
    let screen = container.resolve(RecipeSessionScreen.self)  // kept first
    #expect(screen.session.user == "ada")  // the session is made, and kept, now
    await container.close()
    #expect(closed.all == ["session", "screen"])
  }

  @Test func handlersRunOneAtATime() async {
    let steps = Collector<String>()
    func record(_ name: String) -> (RecipeSessionType) async -> Void {
      { _ in
        steps.append("start \(name)")
        try? await Task.sleep(nanoseconds: 20_000_000)
        steps.append("end \(name)")
      }
    }
    let container = Dependencies {
      Module("a", scope: .singleton, onClose: record("a")) {
        RecipeSession(user: "a") as RecipeSessionType
      }
      Module("b", scope: .cached("b"), onClose: record("b")) {
        RecipeSession(user: "b") as RecipeSessionType
      }
      Module("c", scope: .singleton, onClose: record("c")) {
        RecipeSession(user: "c") as RecipeSessionType
      }
    }
    for name in ["a", "b", "c"] { _ = container.resolve(RecipeSessionType.self, name: name) }
    await container.close()
    #expect(steps.all == ["start c", "end c", "start b", "end b", "start a", "end a"])
  }

  @Test func onlyTheInstancesAContainerKeepsAreDisposedOf() async {
    let closed = Collector<String>()
    let container = Dependencies {
      Module("unique", onClose: { _ in closed.append("unique") }) {
        RecipeSession(user: "unique") as RecipeSessionType
      }
      Module("weak", scope: .weak, onClose: { _ in closed.append("weak") }) {
        RecipeSession(user: "weak") as RecipeSessionType
      }
      Module("singleton", scope: .singleton, onClose: { _ in closed.append("singleton") }) {
        RecipeSession(user: "singleton") as RecipeSessionType
      }
      Module("cached", scope: .cached("c"), onClose: { _ in closed.append("cached") }) {
        RecipeSession(user: "cached") as RecipeSessionType
      }
    }
    let held = ["unique", "weak", "singleton", "cached"].map {
      container.resolve(RecipeSessionType.self, name: $0)
    }
    await container.close()
    #expect(closed.all == ["cached", "singleton"])
    #expect(held.map(\.user) == ["unique", "weak", "singleton", "cached"])
  }

  // MARK: Where onClose runs

  @Test func aHandlerRunsOnTheActorItsModuleWasRegisteredFrom() async {
    let container = await RecipeActorState.shared.modules()
    _ = await container.resolveAsync(RecipeActorBoundType.self)
    await container.close()
    #expect(await RecipeActorState.shared.disposed == ["bound"])
  }

  // MARK: Overrides

  @Test func aScopeSeesTheOverridesUnderneathAndItsOwnModulesWin() async {
    await Dependencies.withOverrides {
      Module { RecipeApp(name: "stub") as RecipeAppType }
      Module { RecipeRequest(path: "/override") as RecipeRequestType }
    } operation: {
      await Dependencies.withScope {
        Module { RecipeRequest(path: "/scope") as RecipeRequestType }
      } operation: {
        #expect(Dependencies.resolve(RecipeAppType.self).name == "stub")
        #expect(Dependencies.resolve(RecipeRequestType.self).path == "/scope")
      }
    }
  }

  @Test func anOverrideInsideAScopeNeverEndsUpInTheScopesSingletons() async {
    await Dependencies.withScope {
      Module { RecipeApp(name: "scope") as RecipeAppType }
      Module(scope: .singleton) {
        RecipeSession(user: Dependencies.resolve(RecipeAppType.self).name) as RecipeSessionType
      }
    } operation: {
      Dependencies.withOverrides {
        Module { RecipeApp(name: "mock") as RecipeAppType }
      } operation: {
        #expect(Dependencies.resolve(RecipeAppType.self).name == "mock")
        #expect(Dependencies.resolve(RecipeSessionType.self).user == "scope")
      }
    }
  }

  @Test func anOverrideLayerDisposesOfItsInstancesOnceItIsGone() async {
    let closed = Counter()
    Dependencies.withOverrides {
      Module(scope: .singleton, onClose: { _ in closed.increment() }) {
        RecipeSession(user: "ada") as RecipeSessionType
      }
    } operation: {
      _ = Dependencies.resolve(RecipeSessionType.self)
    }
    await eventually { closed.value == 1 }
    #expect(closed.value == 1)
  }
}

// MARK: - Fixtures

protocol RecipeAppType: AnyObject {
  var name: String { get }
}

final class RecipeApp: RecipeAppType {
  let name: String
  init(name: String) { self.name = name }
}

protocol RecipeSessionType: AnyObject {
  var serial: Int { get }
  var user: String { get }
}

final class RecipeSession: Numbered, RecipeSessionType {
  let user: String
  init(user: String) { self.user = user }
}

/// A module made by a child container: its `@Inject` properties read that container.
protocol RecipeProfileModuleType {
  var session: RecipeSessionType { get }
  var app: RecipeAppType { get }
  func summary() -> String
}

struct RecipeProfileModule: RecipeProfileModuleType {
  @Inject var session: RecipeSessionType
  @Inject var app: RecipeAppType

  func summary() -> String { "\(session.user) on \(app.name)" }
}

/// A screen's object that reads the session once and keeps it.
final class RecipeSessionScreen {
  @Inject var session: RecipeSessionType
}

protocol RecipeCheckoutModuleType: AnyObject {
  func pay() -> String
  func cancelPendingPayment()
}

final class RecipeCheckoutModule: RecipeCheckoutModuleType {
  private let cancelled: Counter
  init(cancelled: Counter) { self.cancelled = cancelled }

  func pay() -> String { "paid" }
  func cancelPendingPayment() { cancelled.increment() }
}

/// The article's screen: a view model that holds a child container for the screen's modules.
final class RecipeCheckoutViewModel {
  private let dependencies: Dependencies
  private lazy var checkout: RecipeCheckoutModuleType = dependencies.resolve()

  init(cancelled: Counter) {
    dependencies = Dependencies(over: .current) {
      Module(scope: .singleton, onClose: { $0.cancelPendingPayment() }) {
        RecipeCheckoutModule(cancelled: cancelled) as RecipeCheckoutModuleType
      }
    }
  }

  func pay() -> String { checkout.pay() }

  func screenDidClose() async {
    await dependencies.close()
  }
}

protocol RecipeRequestType: AnyObject, Sendable {
  var path: String { get }
}

final class RecipeRequest: RecipeRequestType, Sendable {
  let path: String
  init(path: String) { self.path = path }
}

/// What the request scope's middleware returns: the route's body, the id it sent back, and
/// whether the request's module had been closed by then.
struct RecipeResponse: Sendable {
  let body: String
  let requestID: String
  let closedWhenOut: Bool
}

/// The server's counters of request scopes, as `ServerStats` in `Samples/WidgetServer`.
final class RecipeServerStats: Sendable {
  let opened = Counter()
  let closed = Counter()
}

protocol RecipeRequestModuleType: Sendable {
  var id: String { get }
  func finish()
}

/// One request's module, made by the middleware and kept as a singleton of its scope.
final class RecipeRequestModule: RecipeRequestModuleType, Sendable {
  let id: String
  let stats: RecipeServerStats
  let finished = Counter()

  init(id: String, stats: RecipeServerStats) {
    self.id = id
    self.stats = stats
  }

  func finish() {
    finished.increment()
    stats.closed.increment()
  }
}

protocol RecipeWidgetModuleType {
  var requestID: String { get }
}

/// Registered unique in the root, so made in each request's scope, where it injects that
/// request's module.
struct RecipeWidgetModule: RecipeWidgetModuleType {
  @Inject private var request: RecipeRequestModuleType

  var requestID: String { request.id }
}

/// The Lifetimes article's `RequestScopeMiddleware.handle`, with `next` for the route.
func recipeRequestScope(
  id: String, next: @Sendable () async -> String
) async -> RecipeResponse {
  let stats = Dependencies.resolve(RecipeServerStats.self)
  let module = RecipeRequestModule(id: id, stats: stats)
  stats.opened.increment()
  let (body, sentID) = await Dependencies.withScope {
    Module(scope: .singleton, onClose: { $0.finish() }) { module as RecipeRequestModuleType }
  } operation: {
    let body = await next()
    return (body, Dependencies.resolve(RecipeRequestModuleType.self).id)
  }
  return RecipeResponse(body: body, requestID: sentID, closedWhenOut: module.finished.value == 1)
}

final class RecipeDatabase {}

final class RecipeDrafts {
  let database: RecipeDatabase
  init(database: RecipeDatabase) { self.database = database }
}

/// A global actor of the tests' own, for a module registered from it.
@globalActor actor RecipeActor {
  static let shared = RecipeActor()
}

protocol RecipeActorBoundType: AnyObject, Sendable {
  var name: String { get }
}

@RecipeActor final class RecipeActorBound: RecipeActorBoundType {
  nonisolated let name: String
  nonisolated init(name: String) { self.name = name }
}

/// State isolated to `RecipeActor`, which only code running there can touch synchronously.
@RecipeActor final class RecipeActorState {
  static let shared = RecipeActorState()
  private(set) var disposed: [String] = []

  /// A container whose module is registered from `RecipeActor`; its handler touches this
  /// actor's state without `await`, which compiles only because it runs there.
  func modules() -> Dependencies {
    Dependencies {
      Module(scope: .singleton, onClose: { self.disposed.append($0.name) }) {
        RecipeActorBound(name: "bound") as RecipeActorBoundType
      }
    }
  }
}
