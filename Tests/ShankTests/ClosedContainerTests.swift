import Dispatch
import Foundation
import Shank
import Testing

/// What resolves from a closed container, from the instances it made, and from factories
/// that were running when it closed.
@Suite struct ClosedContainerTests {
  /// A miss from an open layer over a closed one names neither the closed layer's keys nor
  /// near misses among them, which would answer that it closed; those it hides stay hidden.
  @Test func aMissOverAClosedLayerListsOnlyWhatStillResolves() async {
    let root = Dependencies {
      Module("root", scope: .singleton) { ServiceImpl() as Service }
      Module { Greeter("root") as GreeterType }
    }
    let closed = Dependencies(over: root) {
      Module(scope: .singleton) { ServiceImpl() as Service }
      Module { Greeter("closed") as GreeterType }
    }
    let open = Dependencies(over: closed) {}
    await closed.close()
    #expect(throws: ResolutionError.self) { try open.resolveOrThrow(Service.self) }
    let line = #line + 1
    let error = #expect(throws: ResolutionError.self) {
      try open.resolveOrThrow(Service.self, name: "missing")
    }
    #expect(
      error?.description == """
        Shank cannot resolve Service named "missing"
          asked for at ShankTests/ClosedContainerTests.swift:\(line)
          near misses:
            Service named "root": the same type under another name
          registered (1):
            Service named "root"
        """)
  }

  /// A miss of `P` where a closed layer contributes to `[P]` names no contribution as a near
  /// miss, whether an open layer under the closed one or over it makes it: resolving `[P]`, as
  /// such a near miss advises, would stop at the closed layer.
  @Test(arguments: [false, true])
  func aMissWhoseListCrossesAClosedContributorAdvisesNoList(openAbove: Bool) async {
    let rootLine = #line + 1
    let root = Dependencies { Module.contribution("root") { Sink("root") as SinkType } }
    let closed = Dependencies(over: root) {
      Module.contribution("closed") { Sink("closed") as SinkType }
    }
    let openLine = #line + 2
    let open = Dependencies(over: closed) {
      if openAbove { Module.contribution("open") { Sink("open") as SinkType } }
    }
    await closed.close()
    let line = #line + 1
    let error = resolutionError { try open.resolveOrThrow(SinkType.self) }
    let file = "ShankTests/ClosedContainerTests.swift"
    let above =
      openAbove
      ? "    SinkType named \"open\": a contribution to [SinkType], registered at \(file):\(openLine)\n"
      : ""
    #expect(
      error?.description == """
        Shank cannot resolve SinkType
          asked for at \(file):\(line)
          registered (\(openAbove ? 2 : 1)):
        \(above)    SinkType named "root": a contribution to [SinkType], registered at \(file):\(rootLine)
        """)
  }

  @Test func aHeldInstanceReadsItsParentsModulesAfterItsContainerClosed() async {
    let app = Dependencies { Module { HeldAppModule() as HeldAppModuleType } }
    let session = Dependencies(over: app) {
      Module(scope: .singleton) { HeldSessionModule() as HeldSessionModuleType }
    }
    let held = session.resolve(HeldSessionModuleType.self)
    await session.close()
    #expect(held.appName() == "app", "its first @Inject read after the close")
  }

  @Test func aHeldInstanceMadeForTheNextRootReadsTheAppsModulesOnceTheOldRootClosed() async {
    // The "session as the root" recipe, without building: the old root is closed once the
    // next one exists, and a unique module of the app made from it keeps reading the app.
    let app = Dependencies {
      Module { HeldAppModule() as HeldAppModuleType }
      Module { HeldSessionModule() as HeldSessionModuleType }
    }
    let oldRoot = Dependencies(over: app) {}
    let held = oldRoot.resolve(HeldSessionModuleType.self)
    let nextRoot = Dependencies(over: app) {}
    await oldRoot.close()
    #expect(held.appName() == "app")
    #expect(nextRoot.resolve(HeldAppModuleType.self).name == "app")
  }

  @Test func aClosedContainerResolvesWhatItDoesNotRegisterFromItsNearestOpenAncestor() async throws
  {
    let root = Dependencies {
      Module { HeldAppModule() as HeldAppModuleType }
      Module { ServiceImpl() as Service }
    }
    let middle = Dependencies(over: root) { Module { OtherServiceImpl() as OtherService } }
    let middleLine = #line - 1
    let leaf = Dependencies(over: middle) { Module { ServiceImpl() as Service } }
    let leafLine = #line - 1
    await leaf.close()
    await middle.close()
    #expect(try leaf.resolveOrThrow(HeldAppModuleType.self).name == "app")
    #expect(try leaf.resolveOrThrow(HeldAppModuleType?.self)?.name == "app")
    let own = try #require(resolutionError { try leaf.resolveOrThrow(Service.self) })
    #expect(
      own.reason == .closed(container: "made at ShankTests/ClosedContainerTests.swift:\(leafLine)"))
    let middles = try #require(resolutionError { try leaf.resolveOrThrow(OtherService.self) })
    #expect(
      middles.reason
        == .closed(
          container:
            "a container it falls through to, made at ShankTests/ClosedContainerTests.swift:\(middleLine)"
        ))
    #expect(
      resolutionError { try leaf.resolveOrThrow(OtherService?.self) }?.reason == middles.reason)
  }

  /// A closed layer adds nothing to a `[String: P]` when its contributions are unnamed or a
  /// layer over it has their names: the dictionary resolves over it as it did before the
  /// close. The list, which every contribution is part of, says the layer closed.
  /// Resolved from the closed container itself, a dictionary it adds nothing to comes from the
  /// layer under it, optional or not (api.md §3: a `T?` looks up `T`).
  @Test func aClosedContainerWithOnlyUnnamedContributionsResolvesAnOptionalDictionaryFromUnderIt()
    async throws
  {
    let root = Dependencies { Module.contribution("r") { Sink("root r") as SinkType } }
    let child = Dependencies(over: root) { Module.contribution { Sink("child") as SinkType } }
    await child.close()
    let expected = ["r": "root r"]
    #expect(try child.resolveOrThrow([String: SinkType].self).mapValues(\.label) == expected)
    #expect(try child.resolveOrThrow([String: SinkType]?.self)?.mapValues(\.label) == expected)
  }

  @Test func aClosedLayerThatAddsNothingToADictionaryLeavesItResolvable() async throws {
    let root = Dependencies { Module.contribution("x") { Sink("root x") as SinkType } }
    let session = Dependencies(over: root) {
      Module.contribution { Sink("session") as SinkType }
      Module.contribution("y") { Sink("session y") as SinkType }
    }
    let sessionLine = #line - 4
    let screen = Dependencies(over: session) {
      Module.contribution("y") { Sink("screen y") as SinkType }
    }
    let expected = ["x": "root x", "y": "screen y"]
    #expect(try screen.resolveOrThrow([String: SinkType].self).mapValues(\.label) == expected)
    await session.close()
    #expect(try screen.resolveOrThrow([String: SinkType].self).mapValues(\.label) == expected)
    // A closed layer with only unnamed contributions, under one with none: the lookup passes it.
    let unnamed = Dependencies(over: root) { Module.contribution { Sink("unnamed") as SinkType } }
    let bare = Dependencies(over: unnamed) {}
    await unnamed.close()
    #expect(try bare.resolveOrThrow([String: SinkType].self).mapValues(\.label) == ["x": "root x"])
    // Nor with nothing named under it: the dictionary is empty, as over no layer at all.
    let alone = Dependencies(over: Dependencies {}) {
      Module.contribution { Sink("alone") as SinkType }
    }
    let overAlone = Dependencies(over: alone) {}
    await alone.close()
    #expect(try overAlone.resolveOrThrow([String: SinkType].self).isEmpty)
    #expect(try overAlone.resolveOrThrow([String: SinkType]?.self)?.isEmpty == true)
    let list = try #require(resolutionError { try screen.resolveOrThrow([SinkType].self) })
    #expect(
      list.reason
        == .closed(
          container:
            "a container it falls through to, made at ShankTests/ClosedContainerTests.swift:\(sessionLine)"
        ))
  }

  /// A closed layer with a name of its own in the dictionary says it closed.
  @Test func aClosedLayerWithANameOfItsOwnInADictionarySaysItClosed() async throws {
    let root = Dependencies { Module.contribution("x") { Sink("root x") as SinkType } }
    let session = Dependencies(over: root) {
      Module.contribution("y") { Sink("session y") as SinkType }
    }
    let screen = Dependencies(over: session) {}
    await session.close()
    let error = try #require(
      resolutionError { try screen.resolveOrThrow([String: SinkType].self) })
    #expect(
      error.description.hasPrefix(
        "Shank cannot resolve [String: SinkType]: its container was closed (a container it falls through to, made at "
      ))
  }

  @Test func aHeldInstanceStopsWithTheClosedMessageForAKeyItsContainerRegisters() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let session = Dependencies(over: Dependencies {}) {
        Module(scope: .singleton) { HeldSessionModule() as HeldSessionModuleType }
        Module { HeldAppModule() as HeldAppModuleType }
      }
      let held = session.resolve(HeldSessionModuleType.self)
      await session.close()
      _ = held.appName()
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "Shank cannot resolve HeldAppModuleType: its container was closed (made at ShankTests/ClosedContainerTests.swift:"
      ), "\(stderr)")
  }

  @Test func aFactoryRunningWhenItsContainerClosesCompletesItsNestedResolutions() async {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let disposed = Counter()
    let nested = Collector<String>()
    let app = Dependencies { Module { HeldAppModule() as HeldAppModuleType } }
    let session = Dependencies(over: app) {
      Module { OtherServiceImpl() as OtherService }
      Module(scope: .singleton, onClose: { _ in disposed.increment() }) { () -> Service in
        started.signal()
        proceed.wait()
        do throws(ResolutionError) {
          nested.append(try Dependencies.resolveOrThrow(HeldAppModuleType.self).name)
          _ = try Dependencies.resolveOrThrow(OtherService.self)
          nested.append("own")
        } catch {
          nested.append(error.description)
        }
        return ServiceImpl()
      }
    }
    let made = Collector<Bool>()
    Thread { made.append((try? session.resolveOrThrow(Service.self)) != nil) }.start()
    started.wait()
    await session.close()
    proceed.signal()
    await eventually { !made.all.isEmpty && disposed.value == 1 }
    #expect(nested.all == ["app", "own"], "the parent's key and the container's own resolve")
    #expect(made.all == [true], "the resolution completes")
    #expect(disposed.value == 1, "the instance made after the close is disposed of at once")
  }

  /// A resolution that a factory running at the close hands to another thread, and waits for,
  /// is a new one there: it finds the container closed, while the factory's own thread still
  /// resolves from it.
  @Test func aResolutionAFactoryHandsToAnotherThreadAfterTheCloseFindsItClosed() async {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let reasons = Collector<String>()
    let madeAt = #line + 1
    let session = Dependencies(over: Dependencies {}) {
      Module { OtherServiceImpl() as OtherService }
      Module(scope: .singleton) { () -> Service in
        let container = Dependencies.current
        started.signal()
        proceed.wait()
        let handed = DispatchSemaphore(value: 0)
        Thread {
          let error = resolutionError { try container.resolveOrThrow(OtherService.self) }
          reasons.append(error.map { "\($0.reason)" } ?? "resolved")
          handed.signal()
        }.start()
        _ = handed.wait(timeout: .now() + 60)
        let own = resolutionError { try Dependencies.resolveOrThrow(OtherService.self) }
        reasons.append(own.map { "\($0.reason)" } ?? "resolved")
        return ServiceImpl()
      }
    }
    Thread { _ = try? session.resolveOrThrow(Service.self) }.start()
    started.wait()
    await session.close()
    proceed.signal()
    await eventually { reasons.all.count == 2 }
    let closed = ResolutionError.Reason.closed(
      container: "made at ShankTests/ClosedContainerTests.swift:\(madeAt)")
    #expect(reasons.all == ["\(closed)", "resolved"])
  }

  @Test func resolutionsRacingACloseCompleteOrSayItClosedAndDisposeOfEachInstanceOnce() async {
    let runs = Counter()
    let disposed = Counter()
    let handedOut = Counter()
    let failures = Collector<String>()
    for _ in 0..<50 {
      let factoryStarted = DispatchSemaphore(value: 0)
      let app = Dependencies { Module { HeldAppModule() as HeldAppModuleType } }
      let session = Dependencies(over: app) {
        Module(scope: .singleton, onClose: { _ in disposed.increment() }) { () -> Service in
          runs.increment()
          factoryStarted.signal()
          usleep(2_000)
          // The log-out recipe racing a screen: the factory reads a module of the parent.
          do throws(ResolutionError) {
            _ = try Dependencies.resolveOrThrow(HeldAppModuleType.self)
          } catch {
            failures.append("nested: \(error.reason)")
          }
          return ServiceImpl()
        }
      }
      async let closing: Void = {
        await waiting(for: factoryStarted)
        await session.close()
      }()
      let finished = await onThreads(3) { _ in
        do throws(ResolutionError) {
          _ = try session.resolveOrThrow(Service.self)
          handedOut.increment()
        } catch {
          guard case .closed = error.reason else { return failures.append(error.description) }
        }
      }
      await closing
      #expect(finished)
    }
    await eventually { disposed.value == runs.value }
    #expect(failures.all.isEmpty)
    #expect(disposed.value == runs.value, "every instance made was disposed of once")
    #expect(runs.value <= 50, "no thread that waited for the lock made a second instance")
    #expect(handedOut.value >= runs.value, "every instance made was handed out")
  }

  @Test func startOnAClosedContainerThrowsAndMakesNothing() async throws {
    let made = Counter()
    let container = Dependencies {
      Module(scope: .singleton, eager: true) { () -> Service in
        made.increment()
        return ServiceImpl()
      }
    }
    let line = #line - 6
    await container.close()
    do {
      _ = try await container.start()
      Issue.record("start() returned a report for a closed container")
    } catch {
      #expect(
        error.reason == .closed(container: "made at ShankTests/ClosedContainerTests.swift:\(line)"))
      #expect(error.typeName == "Service")
    }
    #expect(made.value == 0)
  }

  /// A closed container that contributes fails its list and its dictionary, and a layer over
  /// it that is still open says it falls through to it.
  @Test(arguments: [false, true])
  func aClosedContainerSaysSoForItsListAndDictionary(underAnOpenLayer: Bool) async throws {
    let container = Dependencies { Module.contribution("a") { Sink("a") as SinkType } }
    let made = #line - 1
    let asked =
      underAnOpenLayer
      ? Dependencies(over: container) { Module.contribution("b") { Sink("b") as SinkType } }
      : container
    #expect(try asked.resolveOrThrow([SinkType].self).count == (underAnOpenLayer ? 2 : 1))
    await container.close()
    let which = underAnOpenLayer ? "a container it falls through to, " : ""
    let errors = [
      resolutionError { try asked.resolveOrThrow([SinkType].self) },
      resolutionError { try asked.resolveOrThrow([String: SinkType].self) },
    ]
    #expect(
      errors.map { $0?.description.split(separator: "\n").first.map(String.init) } == [
        "Shank cannot resolve [SinkType]: its container was closed (\(which)made at ShankTests/ClosedContainerTests.swift:\(made))",
        "Shank cannot resolve [String: SinkType]: its container was closed (\(which)made at ShankTests/ClosedContainerTests.swift:\(made))",
      ])
  }

  @Test func resolvingThroughThousandsOfLayersTakesNoStackPerLayer() async {
    // A debug build's 512 KiB thread overflowed at 800 layers for a list and 3,200 for a
    // module when each layer was a recursion.
    let outcome = await onThread(stackSize: DepthTests.smallStack) { () -> [Int] in
      var container = Dependencies {
        Module { ServiceImpl() as Service }
        Module.contribution { Sink("bottom") as SinkType }
      }
      for _ in 0..<5_000 { container = Dependencies(over: container) {} }
      let top = Dependencies(over: container) { Module.contribution { Sink("top") as SinkType } }
      let named = top.resolve([String: SinkType].self)
      return [
        top.resolve(Service?.self) == nil ? 0 : 1, top.resolve([SinkType].self).count, named.count,
      ]
    }
    #expect(outcome == [1, 2, 0])
  }

  @Test func aKeyNoClosedLayerRegistersSaysTheContainerResolvedFromWasClosed() async throws {
    let root = Dependencies { Module { HeldAppModule() as HeldAppModuleType } }
    let leaf = Dependencies(over: root) { Module { ServiceImpl() as Service } }
    let leafLine = #line - 1
    await leaf.close()
    await root.close()
    let error = try #require(resolutionError { try leaf.resolveOrThrow(OtherService.self) })
    #expect(
      error.reason
        == .closed(container: "made at ShankTests/ClosedContainerTests.swift:\(leafLine)"))
    #expect(error.typeName == "OtherService")
  }

  @Test func aClosedOverrideLayerSaysItIsOneAndWhereItWasMade() async throws {
    let madeAt = #line + 1
    let error = await Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let layer = Dependencies.current
      await layer.close()
      return resolutionError { try layer.resolveOrThrow(Service.self) }
    }
    let line = #line - 2
    #expect(
      error?.description == """
        Shank cannot resolve Service: its container was closed (an override layer made at ShankTests/ClosedContainerTests.swift:\(madeAt))
          asked for at ShankTests/ClosedContainerTests.swift:\(line)
          resolve from a container that is still open; an instance kept from before it closed stays usable
        """)
  }

  @Test func startOnAClosedContainerWithNoEagerModuleSaysItCannotMakeItsEagerModules() async {
    let container = Dependencies { Module { ServiceImpl() as Service } }
    let made = #line - 1
    await container.close()
    let started = #line + 2
    do {
      _ = try await container.start()
      Issue.record("start() returned a report for a closed container")
    } catch {
      #expect(
        error.description == """
          Shank cannot resolve its eager modules: its container was closed (made at ShankTests/ClosedContainerTests.swift:\(made))
            asked for at ShankTests/ClosedContainerTests.swift:\(started)
            resolve from a container that is still open; an instance kept from before it closed stays usable
          """)
    }
  }

  /// The second resolution waits for the creation lock that the first one's factory holds
  /// while the container closes; when that factory fails, nothing is kept, and the waiter
  /// says the container closed rather than making an instance the container would never keep.
  @Test func aResolutionWaitingForAFactoryThatFailsAfterTheCloseMakesNothing() async throws {
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let runs = Counter()
    let session = Dependencies {
      Module(scope: .singleton) { () throws -> Service in
        runs.increment()
        started.signal()
        proceed.wait()
        throw StubFailure()
      }
    }
    let line = #line - 8
    let first = Collector<ResolutionError.Reason?>()
    let waiter = Collector<ResolutionError.Reason?>()
    Thread { first.append(resolutionError { try session.resolveOrThrow(Service.self) }?.reason) }
      .start()
    started.wait()
    Thread { waiter.append(resolutionError { try session.resolveOrThrow(Service.self) }?.reason) }
      .start()
    // Time for the waiter to block on the creation lock; one that comes later finds the
    // container closed before it asks for the lock, and fails the same way.
    try await Task.sleep(for: .milliseconds(200))
    await session.close()
    proceed.signal()
    await eventually { first.all.count == 1 && waiter.all.count == 1 }
    #expect(first.all == [.factoryFailed(error: "StubFailure()")])
    #expect(
      waiter.all == [.closed(container: "made at ShankTests/ClosedContainerTests.swift:\(line)")])
    #expect(runs.value == 1, "the waiter did not run the factory")
  }
}

/// Waits, without blocking a thread of the cooperative pool, until `semaphore` is signalled.
private func waiting(for semaphore: DispatchSemaphore) async {
  await withCheckedContinuation { continuation in
    Thread {
      semaphore.wait()
      continuation.resume()
    }.start()
  }
}

protocol HeldAppModuleType {
  var name: String { get }
}

struct HeldAppModule: HeldAppModuleType {
  let name = "app"
}

protocol HeldSessionModuleType: AnyObject {
  func appName() -> String
}

final class HeldSessionModule: HeldSessionModuleType {
  @Inject private var app: HeldAppModuleType

  func appName() -> String { app.name }
}
