import Dispatch
import Foundation
import Shank
import Testing

/// Factories that resolve other modules, and factories that throw.
@Suite struct FactoryTests {
  // MARK: What a factory sees as current

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

  @Test func aSharedFactorySeesItsOwnerEvenWhenFirstResolvedThroughAnOverrideLayer() throws {
    let root = Dependencies {
      Module(scope: .singleton) { Router(service: Dependencies.resolve()) as Router }
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

  @Test func anErrorAFactoryThrowsBecomesAResolutionError() {
    let dependencies = Dependencies {
      Module("broken") { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
    }
    let error = #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(Service.self, name: "broken", line: 7)
    }
    #expect(error?.reason == .factoryFailed(error: "ConfigurationMissing(key: \"API_URL\")"))
    #expect(
      error?.description == """
        Shank cannot resolve Service named "broken": its factory threw ConfigurationMissing(key: "API_URL")
          asked for at ShankTests/FactoryTests.swift:7
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
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      let dependencies = Dependencies {
        Module { () throws -> Service in throw ConfigurationMissing(key: "API_URL") }
      }
      _ = dependencies.resolve(Service.self, line: 3)
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      stderr.contains(
        "ShankTests/FactoryTests.swift:3: Fatal error: Shank cannot resolve Service: its factory threw ConfigurationMissing(key: \"API_URL\")"
      ))
  }
}

/// A router that is made from a service another module provides.
final class Router {
  let service: Service
  init(service: Service) { self.service = service }
}

final class MockService: Numbered, Service {}

struct ConfigurationMissing: Error {
  let key: String
}
