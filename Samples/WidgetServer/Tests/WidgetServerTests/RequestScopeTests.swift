import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Shank
import ShankTesting
import Testing

@testable import WidgetServer

/// Every request runs in a scope of its own, which is closed when its response is ready.
@Suite(.dependencies { TestModules.modules })
struct RequestScopeTests {
  @Test func everyRequestsScopeIsClosedByItsEnd() async throws {
    try await buildApplication().test(.router) { client in
      _ = try await client.send(.post, "/widgets", json: #"{"name":"Gear","quantity":3}"#)
      _ = try await client.send(.get, "/widgets/1")
      _ = try await client.send(.get, "/widgets/999")
      _ = try await client.send(.post, "/widgets", json: "{")
      let stats = try await client.send(.get, "/stats").decoded(as: StatsReport.self)
      // Five requests, the last still open while it counts.
      #expect(stats.scopesOpened == 5)
      #expect(stats.scopesClosed == 4)
      #expect(stats.widgetsCreated == 1)
      #expect(stats.widgetRows == 1)
    }
  }

  @Test func eachResponseCarriesItsRequestsID() async throws {
    try await buildApplication().test(.router) { client in
      let first = try await client.send(.get, "/widgets")
      let second = try await client.send(.get, "/gadgets")
      let ids = [first, second].compactMap { $0.headers[HTTPField.Name("x-request-id")!] }
      #expect(ids.count == 2)
      #expect(Set(ids).count == 2)
    }
  }

  /// The request module resolves inside its scope and nowhere else, and closing the scope runs
  /// its `onClose`.
  @Test func theRequestModuleIsOnlyInTheScope() async throws {
    let stats = ServerStats()
    let request = RequestModule(
      id: "r1", caller: "test", logger: .init(label: "test"), stats: stats)
    let seen = await Dependencies.withScope {
      AppDependencies.requestModules(request)
    } operation: {
      Dependencies.resolve(RequestModuleType.self).id
    }
    #expect(seen == "r1")
    #expect(stats.scopesClosed == 1)
    #expect(Dependencies.resolve(RequestModuleType?.self) == nil)
  }
}
