// For GettingStarted.md: the implementations its blocks use but leave out ("and the classes
// that implement them"), of the protocols its blocks declare.
import Foundation
import SnippetPrelude

struct URLSessionHTTPClient: HTTPClient {
  init(host: String) {}
  func get(_ path: String) async throws -> Data { Data() }
}

final class WidgetFileStore: WidgetStore {
  func load() -> [Widget] { [] }
  func save(_ widgets: [Widget]) {}
}
