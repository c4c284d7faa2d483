import Dispatch
import Shank
import Testing

/// `onClose` in a target with default main-actor isolation: a module registered here has its
/// handler run on the main actor, whichever task closes or frees its container.
@Suite struct MainActorLifetimeTests {
  @Test func onCloseRunsOnTheMainActorWhenAnotherTaskCloses() async {
    let places = MainActorLifetimePlaces()
    let session = Dependencies(over: Dependencies {}) {
      Module(scope: .singleton, onClose: { places.record($0) }) {
        SessionModule() as SessionModuleType
      }
    }
    _ = session.resolve(SessionModuleType.self)
    await Task.detached { await session.close() }.value
    #expect(places.onMainQueue == [true])
    #expect(places.users == ["ada"], "the handler called a main-actor method of the instance")
  }

  @Test func onCloseRunsOnTheMainActorWhenTheContainerIsFreed() async {
    let places = MainActorLifetimePlaces()
    await Task.detached {
      let modules = await MainActorLifetimeModules.session(recordingIn: places)
      let session = Dependencies(over: Dependencies {}) { modules }
      _ = await session.resolveAsync(SessionModuleType.self)
    }.value
    await eventually { places.onMainQueue.count == 1 }
    #expect(places.onMainQueue == [true])
  }
}

/// Modules registered from main-actor code, for a container made elsewhere.
enum MainActorLifetimeModules {
  static func session(recordingIn places: MainActorLifetimePlaces) -> [Module] {
    let record: (SessionModuleType) async -> Void = { places.record($0) }
    return [Module(scope: .singleton, onClose: record) { SessionModule() as SessionModuleType }]
  }
}

/// Where each `onClose` ran, and what it read from its instance; main-actor, as this target's
/// types are, and `Sendable` so that tasks elsewhere may hold it.
///
/// "On the main actor" is told by the main queue, which the main actor runs its jobs on: under
/// `swift test` on Linux another thread than the process's first drains it, so
/// `Thread.isMainThread` is false even in a `@MainActor` test body.
final class MainActorLifetimePlaces: Sendable {
  private static let mainQueue: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  private(set) var onMainQueue: [Bool] = []
  private(set) var users: [String] = []

  init() { _ = Self.mainQueue }

  func record(_ session: SessionModuleType) {
    onMainQueue.append(DispatchQueue.getSpecific(key: Self.mainQueue) == true)
    users.append(session.user())
  }
}

/// Waits on the main actor, without blocking it, until `condition` holds, and records an issue
/// at the caller's line when it still does not after `timeout` seconds: this target's form of
/// the core suites' `eventually(timeout:sourceLocation:_:)`, as patient: the main actor may be
/// held meanwhile by a `verify()` of the core suites, which runs there for seconds.
func eventually(
  timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async {
  let deadline = DispatchTime.now() + timeout
  while !condition() {
    guard DispatchTime.now() < deadline else {
      Issue.record(
        "the condition still did not hold after \(timeout) s", sourceLocation: sourceLocation)
      return
    }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
}
