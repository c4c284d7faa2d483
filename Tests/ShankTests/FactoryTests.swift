import Dispatch
import Foundation
import Shank
import Testing

/// Factories that resolve other modules, the container what they make reads from, and factories
/// that throw.
@Suite struct FactoryTests {
  // MARK: What a factory, and the module it makes, see as current

  @Test func currentInsideAUniqueFactoryIsTheContainerResolutionStartedIn() throws {
    let seen = Collector<ObjectIdentifier>()
    let recording = Module { () -> Service in
      seen.append(ObjectIdentifier(Dependencies.current))
      return ServiceImpl()
    }
    let dependencies = Dependencies { recording }
    _ = try dependencies.resolveOrThrow(Service.self)
    let layer = Dependencies.withOverrides {
      recording
    } operation: { () -> ObjectIdentifier in
      _ = Dependencies.resolve(Service.self)
      return ObjectIdentifier(Dependencies.current)
    }
    #expect(seen.all == [ObjectIdentifier(dependencies), layer])
  }

  @Test func aUniqueFactoryResolvesFromAContainerThatWasNeverBuilt() throws {
    let dependencies = Dependencies {
      Module { Router(service: Dependencies.resolve()) as Router }
      Module { ServiceImpl() as Service }
    }
    #expect(try dependencies.resolveOrThrow(Router.self).service is ServiceImpl)
  }

  /// The Designing Modules article's rule for every shared scope: a `.singleton`, `.cached` or
  /// `.weak` factory reads the container that owns it, even when first resolved through an
  /// override layer that replaces what it reads.
  @Test(arguments: [Scope.singleton, .cached("session"), .weak])
  func aSharedFactorySeesItsOwnerEvenWhenFirstResolvedThroughAnOverrideLayer(scope: Scope) throws {
    let root = Dependencies {
      Module(scope: scope) { Router(service: Dependencies.resolve()) as Router }
      Module { ServiceImpl() as Service }
    }
    let fromLayer = Dependencies.withOverrides {
      Module { MockService() as Service }
    } operation: { () -> Router in
      // Resolved through the override, but made by `root`: the mock must not end up inside.
      root.resolve(Router.self)
    }
    #expect(fromLayer.service is ServiceImpl)
    #expect(try root.resolveOrThrow(Router.self) === fromLayer)
  }

  @Test func aSingletonFactoryReadsItsOwnerWhenItBuildsAnotherRoot() async {
    await #expect(processExitsWith: .success) {
      let other = Dependencies { Module { MockService() as Service } }
      let owner = Dependencies {
        Module(scope: .singleton) { () -> Router in
          other.build()
          return Router(service: Dependencies.resolve())
        }
        Module { ServiceImpl() as Service }
      }
      owner.build()
      let router: Router = Dependencies.resolve()
      precondition(router.service is ServiceImpl, "the singleton was wired from the new root")
    }
  }

  @Test func singletonsAreWiredFromTheirOwnRootWhileOtherThreadsBuildRoots() async {
    await #expect(processExitsWith: .success) {
      let stop = Counter()
      let builder = Thread {
        while stop.value == 0 {
          Dependencies { Module { MockService() as Service } }.build()
        }
      }
      builder.start()
      for _ in 0..<3_000 {
        let root = Dependencies {
          Module(scope: .singleton) { Router(service: Dependencies.resolve()) as Router }
          Module { ServiceImpl() as Service }
        }
        root.build()
        precondition(root.resolve(Router.self).service is ServiceImpl, "wired from another root")
      }
      stop.increment()
    }
  }

  /// A unique factory resolving from the built root keeps reading that root after another
  /// thread builds a new one in the middle of its run, through `resolve()` and an `@Inject`
  /// declared before the build and read after it.
  @Test func aUniqueFactoryKeepsItsRootForItsWholeRunWhileAnotherThreadBuilds() async {
    await #expect(processExitsWith: .success) {
      let rebuilt = DispatchSemaphore(value: 0)
      let original = Dependencies {
        Module { () -> ServiceReadings in
          let first: Service = Dependencies.resolve()
          let holder = InjectReadLater()
          Thread {
            Dependencies { Module { MockService() as Service } }.build()
            rebuilt.signal()
          }.start()
          precondition(rebuilt.wait(timeout: .now() + 60) == .success, "the build hung")
          let second: Service = Dependencies.resolve()
          return ServiceReadings(first: first, second: second, injected: holder.service)
        }
        Module { ServiceImpl() as Service }
      }
      original.build()
      let pair: ServiceReadings = Dependencies.resolve()
      precondition(pair.first is ServiceImpl, "read another root before the build")
      precondition(pair.second is ServiceImpl, "read the new root after the build")
      precondition(pair.injected is ServiceImpl, "the @Inject read the new root")
      // Outside any factory the new root is what resolution reads.
      precondition(Dependencies.resolve(Service.self) is MockService)
    }
  }

  /// An override that a factory installs with `withOverrides` is what its operation resolves
  /// from, over the container making the factory's instance.
  @Test func withOverridesInsideAFactoryIsSeenByItsOperation() throws {
    let dependencies = Dependencies {
      Module { () -> Router in
        let service = Dependencies.withOverrides {
          Module { MockService() as Service }
        } operation: {
          Dependencies.resolve(Service.self)
        }
        return Router(service: service)
      }
      Module { ServiceImpl() as Service }
    }
    #expect(try dependencies.resolveOrThrow(Router.self).service is MockService)
  }

  @Test func currentAcrossUniqueSingletonUniqueThroughTwoLayers() {
    let seen = Collector<String>()
    func current() -> ObjectIdentifier { ObjectIdentifier(Dependencies.current) }
    let (outer, inner) = Dependencies.withOverrides {
      Module { () -> Router in
        seen.append("U1 \(current())")
        _ = Dependencies.resolve(OtherService.self)
        seen.append("U1 again \(current())")
        return Router(service: Dependencies.resolve())
      }
      Module(scope: .singleton) { () -> OtherService in
        seen.append("S \(current())")
        _ = Dependencies.resolve(Service.self)
        return OtherServiceImpl()
      }
      Module { () -> Service in
        seen.append("U2 \(current())")
        return ServiceImpl()
      }
    } operation: { () -> (ObjectIdentifier, ObjectIdentifier) in
      let outer = current()
      return Dependencies.withOverrides {
        Module { () -> Service in
          seen.append("mock \(current())")
          return MockService()
        }
      } operation: { () -> (ObjectIdentifier, ObjectIdentifier) in
        #expect(Dependencies.resolve(Router.self).service is MockService)
        return (outer, current())
      }
    }
    #expect(
      seen.all == [
        "U1 \(inner)", "S \(outer)", "U2 \(outer)", "U1 again \(inner)", "mock \(inner)",
      ])
  }

  @Test func moduleResolvesItsInjectionsFromTheContainerThatMadeIt() {
    // Never built and never current: CartModule's @Inject must still find ShopAppModuleType.
    let dependencies = Dependencies { shopModules() }
    #expect(dependencies.resolve(CartModuleType.self).total() == "12 EUR")
    #expect(dependencies.resolve(PaymentsModuleType.self).pay() == "paid 12 EUR")
  }

  @Test func sharedModuleDoesNotKeepItsContainerAlive() throws {
    weak var released: Dependencies?
    do {
      let dependencies = Dependencies {
        shopModules()
        Module(scope: .singleton) { CartModule() as CartModuleType }
      }
      released = dependencies
      #expect(dependencies.resolve(CartModuleType.self).total() == "12 EUR")
      try dependencies.verify()
    }
    #expect(released == nil)
  }

  @Test func singletonMadeDuringAnOverrideIsMadeByItsOwner() {
    Dependencies.withOverrides {
      shopModules()
      Module(scope: .singleton) { CartModule() as CartModuleType }
    } operation: {
      let insideOverride = Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        Dependencies.resolve(CartModuleType.self).total()
      }
      // The singleton belongs to the layer that registers it, so the override that happened
      // to be active when it was first made never gets inside it.
      #expect(insideOverride == "12 EUR")
      #expect(Dependencies.resolve(CartModuleType.self).total() == "12 EUR")
    }
  }

  @Test func uniqueModuleMadeDuringAnOverrideSeesIt() {
    Dependencies.withOverrides {
      shopModules()
    } operation: {
      // CartModule is registered below the override, but resolution started above it.
      let total = Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        Dependencies.resolve(CartModuleType.self).total()
      }
      #expect(total == "12 USD")
    }
  }

  // MARK: Factories that throw

  @Test func aMissingKeyInsideAThrowingFactoryReachesTheOutermostCaller() {
    let dependencies = Dependencies {
      Module { try Router(service: Dependencies.resolveOrThrow()) as Router }
    }
    let error = #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(Router.self)
    }
    #expect(error?.reason == .notRegistered)
    #expect(error?.typeName == "Service")
    #expect(error?.fileID == "ShankTests/FactoryTests.swift")
  }

  /// A throwing factory's error crosses a shared module in between and reaches the outermost
  /// caller as a `ResolutionError` naming the innermost factory.
  @Test func anErrorThrownThreeFactoriesDownReachesTheOutermostCaller() throws {
    let dependencies = Dependencies {
      Module { try ServiceReadings(wrapping: Dependencies.resolveOrThrow(Router.self)) }
      Module(scope: .singleton) { try Router(service: Dependencies.resolveOrThrow()) }
      Module { () throws -> Service in throw ConfigurationMissing(key: "deep") }
    }
    let error = resolutionError { try dependencies.resolveOrThrow(ServiceReadings.self) }
    #expect(error?.reason == .factoryFailed(error: #"ConfigurationMissing(key: "deep")"#))
    #expect(error?.typeName == "Service")
    // The singleton in between is not kept: the next try makes it again.
    let again = resolutionError { try dependencies.resolveOrThrow(Router.self) }
    #expect(again?.reason == .factoryFailed(error: #"ConfigurationMissing(key: "deep")"#))
  }

  @Test func anErrorAFactoryThrowsBecomesAResolutionError() {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module("broken") { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
    }
    let error = #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(Service.self, name: "broken", line: 7)
    }
    #expect(error?.reason == .factoryFailed(error: "ConfigurationMissing(key: \"API_URL\")"))
    #expect(
      error?.description == """
        Shank cannot resolve Service named "broken": its factory registered at ShankTests/FactoryTests.swift:\(registered) threw ConfigurationMissing(key: "API_URL")
          asked for at ShankTests/FactoryTests.swift:7
        """)
  }

  /// An error a factory threw while another module was being made says which, and where that
  /// one is registered, as a miss there does: the error reaches the outermost caller as it is.
  @Test(arguments: [Scope.unique, .singleton])
  func anErrorAFactoryThrowsNamesTheModuleBeingMade(scope: Scope) {
    let registered = #line + 2
    let dependencies = Dependencies {
      Module(scope: scope) { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
      Module("outer") { try Router(service: Dependencies.resolveOrThrow(line: 9)) as Router }
    }
    let error = resolutionError { try dependencies.resolveOrThrow(Router.self, name: "outer") }
    #expect(
      error?.description == """
        Shank cannot resolve Service: its factory registered at ShankTests/FactoryTests.swift:\(registered) threw ConfigurationMissing(key: "API_URL")
          asked for at ShankTests/FactoryTests.swift:9
          while Router named "outer", registered at ShankTests/FactoryTests.swift:\(registered + 1), was being made
        """)
  }

  @Test func aCycleMetThroughResolveOrThrowIsThrownNotTrapped() {
    let dependencies = Dependencies {
      Module { try Router(service: Dependencies.resolveOrThrow()) as Router }
      Module { () throws -> Service in
        _ = try Dependencies.resolveOrThrow(Router.self)
        return ServiceImpl()
      }
    }
    let error = #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(Router.self)
    }
    #expect(error?.reason == .cycle(path: ["Router", "Service", "Router"]))
  }

  @Test func aSharedInstanceWhoseFactoryThrewIsMadeAgainNextTime() throws {
    let attempts = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton) { () throws -> Service in
        if attempts.increment() == 1 { throw ConfigurationMissing(key: "first") }
        return ServiceImpl()
      }
    }
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(Service.self) }
    let made = try dependencies.resolveOrThrow(Service.self)
    #expect(try dependencies.resolveOrThrow(Service.self) === made)
    #expect(attempts.value == 2)
  }

  @Test func resolveStopsWithTheMessageOfWhatAFactoryThrew() async throws {
    // An exit test's body is written at its macro's line.
    let registered = #line + 1
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      let dependencies = Dependencies {
        Module { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
      }
      _ = dependencies.resolve(Service.self, line: 3)
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        "ShankTests/FactoryTests.swift:3: Fatal error: Shank cannot resolve Service: its factory registered at ShankTests/FactoryTests.swift:\(registered) threw ConfigurationMissing(key: \"API_URL\")"
      ))
  }

  @Test func anInjectReadStopsWithTheMessageOfWhatAFactoryThrew() async throws {
    // An exit test's body is written at its macro's line.
    let registered = #line + 1
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies.withOverrides {
        Module { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
      } operation: {
        _ = ThrowingFactoryReader().service
      }
    }
    let stderr = standardError(of: result)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve Service: its factory registered at ShankTests/FactoryTests.swift:\(registered) threw ConfigurationMissing(key: "API_URL")
          asked for at ShankTests/FactoryTests.swift:\(ThrowingFactoryReader.line)
        """), "\(stderr)")
  }

  /// Two threads fail one singleton in turn (the second waits on the first's creation lock and
  /// the wait graph), then it is made once and every thread reads the same instance.
  @Test func aSingletonThatThrowsOnTwoThreadsIsMadeOnceAfterwards() async throws {
    let attempts = Counter()
    let gate = DispatchSemaphore(value: 0)
    let dependencies = Dependencies {
      Module(scope: .singleton) { () throws -> Service in
        let attempt = attempts.increment()
        if attempt == 1 { gate.wait() }
        if attempt <= 2 { throw ConfigurationMissing(key: "\(attempt)") }
        return ServiceImpl()
      }
    }
    let failures = Counter()
    let finished = await onThreads(2) { index in
      if index == 1 {
        Thread.sleep(forTimeInterval: 0.05)
        gate.signal()
      }
      if (try? dependencies.resolveOrThrow(Service.self)) == nil { failures.increment() }
    }
    try #require(finished, "a creation lock was left held")
    #expect(failures.value == 2)
    let made = try dependencies.resolveOrThrow(Service.self).serial
    let everyone = await onThreads(8) { _ in
      precondition(dependencies.resolve(Service.self).serial == made)
    }
    #expect(everyone)
    #expect(attempts.value == 3)
  }

  @Test func cachedAndWeakAliasesKeepNothingWhenTheirFactoryThrows() throws {
    let attempts = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("s"), as: Service.self, OtherService.self) {
        () throws -> ServiceAndOther in
        if attempts.increment() == 1 { throw ConfigurationMissing(key: "cached") }
        return ServiceAndOther()
      }
      Module(scope: .weak, as: AliasAlpha.self, AliasBeta.self) { () throws -> AliasAlphaBeta in
        if attempts.increment() == 3 { throw ConfigurationMissing(key: "weak") }
        return AliasAlphaBeta()
      }
    }
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(OtherService.self) }
    let service = try dependencies.resolveOrThrow(Service.self)
    #expect(try dependencies.resolveOrThrow(OtherService.self).serial == service.serial)
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(AliasBeta.self) }
    let alpha = try dependencies.resolveOrThrow(AliasAlpha.self)
    #expect(try dependencies.resolveOrThrow(AliasBeta.self) === (alpha as AnyObject))
  }
}

/// A router that is made from a service another module provides.
final class Router {
  let service: Service
  init(service: Service) { self.service = service }
}

final class MockService: Numbered, Service {}

/// Reads a `Service` whose factory throws, in an exit test.
final class ThrowingFactoryReader {
  static let line = #line + 1
  @Inject var service: Service
}

struct ConfigurationMissing: Error {
  let key: String
}

/// Two services resolved at two moments of one factory's run, and one through `@Inject`.
final class ServiceReadings {
  let first: Service?
  let second: Service?
  let injected: Service?

  init(first: Service, second: Service, injected: Service) {
    self.first = first
    self.second = second
    self.injected = injected
  }

  init(wrapping router: Router) {
    first = router.service
    second = nil
    injected = nil
  }
}

/// A holder whose `@Inject` is declared when it is made and read later.
final class InjectReadLater {
  @Inject private var injected: Service
  var service: Service { injected }
}
