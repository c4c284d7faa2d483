/// The server's side of the catalog.
protocol WidgetRemoteType {
  func catalog() throws -> [Widget]
}

/// Fetches the catalog through the app's shared HTTP client.
struct WidgetRemote: WidgetRemoteType {
  let client: HTTPClientType
  let path: String

  func catalog() throws -> [Widget] {
    try Widget.decodeList(from: client.get(path))
  }
}
