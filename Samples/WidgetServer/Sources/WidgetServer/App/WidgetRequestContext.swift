import Hummingbird
import NIOCore

/// The context of one request: Hummingbird's basics, the caller's address, and a body limit.
struct WidgetRequestContext: RequestContext, RemoteAddressRequestContext {
  var coreContext: CoreRequestContextStorage
  /// The caller's address; `nil` when the request did not come through a socket, as in tests.
  let remoteAddress: SocketAddress?

  /// A widget's JSON is a few dozen bytes: a larger body is refused with 413.
  var maxUploadSize: Int { 16 * 1024 }

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    remoteAddress = source.channel.remoteAddress
  }
}
