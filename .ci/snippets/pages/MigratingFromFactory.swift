// For the page's blocks: the bodies they leave out as `/* ... */`, and the test doubles, of the
// protocols its first block declares.
import Foundation
import SnippetPrelude

extension HTTPClientType {
  func get(_ path: String) async throws -> Data { Data() }
}

extension WidgetStoreType {
  func load() -> [Widget] { [] }
  func save(_ widgets: [Widget]) {}
}

struct StubHTTPClient: HTTPClientType {
  init(json: String) {}
}
