import Foundation

/// An HTTP client that serves fixed responses from memory: the sample's stand-in for a real
/// network client, so `swift run WidgetApp` works offline.
struct LocalHTTPClient: HTTPClientType {
  /// The response body for each path.
  let routes: [String: String]

  /// Serves each environment's bundled catalog at its path.
  static func bundled() -> LocalHTTPClient {
    LocalHTTPClient(routes: [
      Environment.production.catalogPath: BundledCatalog.production,
      Environment.staging.catalogPath: BundledCatalog.staging,
    ])
  }

  func get(_ path: String) throws -> Data {
    guard let body = routes[path] else { throw HTTPError.notFound(path: path) }
    return Data(body.utf8)
  }
}
