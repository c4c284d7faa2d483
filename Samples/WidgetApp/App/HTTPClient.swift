import Foundation

/// The app's way to talk to a server; `LocalHTTPClient` answers from memory.
protocol HTTPClientType {
  /// The body of a successful GET of `path`.
  func get(_ path: String) throws -> Data
}

/// A request the server did not answer with a body.
enum HTTPError: Error, CustomStringConvertible {
  case notFound(path: String)

  var description: String {
    switch self {
    case .notFound(let path): "GET \(path) failed: 404 Not Found"
    }
  }
}
