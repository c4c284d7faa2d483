import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ShankTesting
import Testing

@testable import WidgetServer

/// The widget API through Hummingbird's router, each test over a database of its own.
@Suite(.dependencies { TestModules.modules })
struct WidgetAPITests {
  @Test func createsGetsUpdatesListsAndDeletes() async throws {
    try await buildApplication().test(.router) { client in
      let created = try await client.send(.post, "/widgets", json: #"{"name":"Gear","quantity":3}"#)
      #expect(created.status == .created)
      let widget = try created.decoded(as: Widget.self)
      let id = try #require(widget.id)
      #expect(widget == Widget(id: id, name: "Gear", quantity: 3))

      let fetched = try await client.send(.get, "/widgets/\(id)")
      #expect(try fetched.decoded(as: Widget.self) == widget)

      let updated = try await client.send(
        .put, "/widgets/\(id)", json: #"{"name":"Big gear","quantity":5}"#)
      #expect(updated.status == .ok)
      #expect(try updated.decoded(as: Widget.self).name == "Big gear")

      _ = try await client.send(.post, "/widgets", json: #"{"name":"Sprocket","quantity":0}"#)
      let list = try await client.send(.get, "/widgets").decoded(as: WidgetList.self)
      #expect(list.widgets.map(\.name) == ["Big gear", "Sprocket"])

      #expect(try await client.send(.delete, "/widgets/\(id)").status == .noContent)
      #expect(try await client.send(.get, "/widgets/\(id)").status == .notFound)
    }
  }

  @Test func pagesThroughTheListWithAfterAndLimit() async throws {
    try await buildApplication().test(.router) { client in
      for index in 1...5 {
        _ = try await client.send(.post, "/widgets", json: #"{"name":"W\#(index)","quantity":1}"#)
      }
      let first = try await client.send(.get, "/widgets?limit=2").decoded(as: WidgetList.self)
      #expect(first.widgets.map(\.name) == ["W1", "W2"])
      let next = try #require(first.next)
      let second = try await client.send(.get, "/widgets?after=\(next)&limit=2")
        .decoded(as: WidgetList.self)
      #expect(second.widgets.map(\.name) == ["W3", "W4"])
    }
  }

  /// Each test has its own database: what another test created is not here.
  @Test func startsEmpty() async throws {
    try await buildApplication().test(.router) { client in
      let list = try await client.send(.get, "/widgets").decoded(as: WidgetList.self)
      #expect(list.widgets.isEmpty)
      #expect(list.next == nil)
    }
  }

  @Test(
    arguments: [
      (#"{"name":"Gear","quantity":3"#, "The given data was not valid input"),
      (#"{"name":"Gear"}"#, "Coding key `quantity` not found."),
      (#"{"name":"Gear","quantity":"three"}"#, "Type mismatch for `quantity` key"),
      (#"{"name":"   ","quantity":1}"#, "`name` must not be empty."),
      (#"{"name":"Gear","quantity":-1}"#, "`quantity` must not be negative."),
      ("", "The given data was not valid input"),
    ])
  func badBodiesAreA400WithAJSONMessage(body: String, message: String) async throws {
    try await buildApplication().test(.router) { client in
      let response = try await client.send(.post, "/widgets", json: body)
      #expect(response.status == .badRequest)
      #expect(response.errorMessage?.contains(message) == true, "\(response.errorMessage ?? "")")
      let list = try await client.send(.get, "/widgets").decoded(as: WidgetList.self)
      #expect(list.widgets.isEmpty)
    }
  }

  @Test func anUnknownIdIsA404WithAJSONMessage() async throws {
    try await buildApplication().test(.router) { client in
      for (method, body) in [
        (HTTPRequest.Method.get, nil), (.delete, nil), (.put, #"{"name":"X","quantity":1}"#),
      ] {
        let response = try await client.send(method, "/widgets/4242", json: body)
        #expect(response.status == .notFound)
        #expect(response.errorMessage == "No widget has the id 4242.")
      }
    }
  }

  @Test func anIdThatIsNotANumberIsA400() async throws {
    try await buildApplication().test(.router) { client in
      let response = try await client.send(.get, "/widgets/abc")
      #expect(response.status == .badRequest)
      #expect(response.errorMessage != nil)
    }
  }

  @Test func anOversizedBodyIsA413WithAJSONMessage() async throws {
    try await buildApplication().test(.router) { client in
      let name = String(repeating: "x", count: 20_000)
      let response = try await client.send(
        .post, "/widgets", json: #"{"name":"\#(name)","quantity":1}"#)
      #expect(response.status == .contentTooLarge)
      #expect(response.errorMessage == "Content Too Large")
    }
  }

  @Test func anUnknownRouteIsA404WithAJSONMessage() async throws {
    try await buildApplication().test(.router) { client in
      let response = try await client.send(.get, "/gadgets")
      #expect(response.status == .notFound)
      #expect(response.errorMessage == "Not Found")
    }
  }
}
