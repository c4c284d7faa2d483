import Shank

/// The widget module `--mock` swaps in, and the tests' stand-in: an in-memory store and a
/// canned catalog, so nothing touches the disk or the "network".
struct MockWidgetModule: WidgetModuleType {
  @Inject private var app: AppModuleType
  private let store: WidgetStoreType
  private let remote: WidgetRemoteType

  init(store: WidgetStoreType = MockWidgetStore(), remote: WidgetRemoteType = MockWidgetRemote()) {
    self.store = store
    self.remote = remote
  }

  func component() -> WidgetWorkerType {
    WidgetWorker(store: store, remote: remote, clock: app.component())
  }

  func component() -> WidgetStoreType { store }
  func component() -> WidgetRemoteType { remote }
}
