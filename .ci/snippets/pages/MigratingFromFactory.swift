// For the page's blocks: the bodies they leave out as `/* ... */`, and the test doubles, of the
// protocols its first block declares.
import Foundation
import SnippetPrelude

extension HTTPClient {
  func get(_ path: String) async throws -> Data { Data() }
}

extension WidgetStore {
  func load() -> [Widget] { [] }
  func save(_ widgets: [Widget]) {}
}

struct StubHTTPClient: HTTPClient {
  init(json: String) {}
}
