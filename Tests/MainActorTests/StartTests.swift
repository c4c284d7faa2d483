import Dispatch
import Foundation
import Shank
import Testing

/// `start()` in a target with default main-actor isolation: its modules are made on the main
/// actor, whatever task starts them.
@Suite struct MainActorStartTests {
  @Test func aMainActorModuleIsMadeOnTheMainActor() async throws {
    // The main actor runs its jobs on the main queue, whichever thread drains it.
    let mainQueue = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mainQueue, value: true)
    let onMainThread = Collector()
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { () -> SessionModuleType in
        onMainThread.record(DispatchQueue.getSpecific(key: mainQueue) == true)
        return SessionModule()
      }
    }
    let report = try await Task.detached { try await container.start() }.value
    #expect(report.entries.map(\.ranOn) == ["the main actor"])
    #expect(onMainThread.values == [true])
  }

  @Test func anAsyncMainActorFactoryRunsOnTheMainActorBesideASyncOne() async throws {
    let mainQueue = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mainQueue, value: true)
    let onMainThread = Collector()
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { () async throws -> SessionModuleType in
        try await Task.sleep(nanoseconds: 1_000_000)
        onMainThread.record(DispatchQueue.getSpecific(key: mainQueue) == true)
        return SessionModule()
      }
      // A synchronous factory still picks the synchronous initializer: it resolves unstarted.
      Module { SampleModule(value: "sync") as SampleModuleType }
    }
    #expect(container.resolve(SampleModuleType.self).test() == "SampleModule.test()sync")
    let made = try await Task.detached { try await container.start() }.value
    #expect(made.entries.map(\.ranOn) == ["the main actor"])
    #expect(onMainThread.values == [true])
    let offMain = await Task.detached { await container.resolveAsync(SessionModuleType.self) }.value
    #expect(offMain === container.resolve(SessionModuleType.self))
  }
}

/// Records what factories saw: they run on the main actor, as this class is.
private final class Collector {
  private(set) var values: [Bool] = []

  func record(_ value: Bool) {
    values.append(value)
  }
}
