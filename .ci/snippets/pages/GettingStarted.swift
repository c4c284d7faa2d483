// For GettingStarted.md: the implementations its blocks use but leave out ("and the classes
// that implement them"), of the protocols its blocks declare.
import Foundation
import SnippetPrelude

struct URLSessionHTTPClient: HTTPClientType {
  init(host: String) {}
  func get(_ path: String) async throws -> Data { Data() }
}

struct SystemClock: ClockType {
  func now() -> Date { Date() }
}

final class WidgetFileStore: WidgetStoreType {
  func load() throws -> [Widget] { [] }
  func save(_ widgets: [Widget]) throws {}
}
