import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

@testable import WidgetServer

extension TestClientProtocol {
  /// Sends `body` as JSON text to `uri` and hands back the response.
  func send(_ method: HTTPRequest.Method, _ uri: String, json body: String? = nil) async throws
    -> TestResponse
  {
    try await execute(
      uri: uri, method: method, headers: [.contentType: "application/json"],
      body: body.map { ByteBuffer(string: $0) })
  }
}

extension TestResponse {
  /// The body decoded from JSON as `type`.
  func decoded<T: Decodable>(as type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: Data(buffer: body))
  }

  /// The message of a JSON error body, `{"error": {"message": …}}`.
  var errorMessage: String? {
    (try? decoded(as: ErrorBody.self))?.error.message
  }
}

/// The JSON of an error response.
struct ErrorBody: Decodable {
  struct Detail: Decodable {
    var message: String
  }
  var error: Detail
}
