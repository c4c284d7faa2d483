import Shank

/// Builds the widget feature's objects.
protocol WidgetModuleType {
  func component() -> WidgetWorkerType
  func component() -> WidgetStoreType
  func component() -> WidgetRemoteType
}

/// Builds the worker by plain constructor injection from its own `component()` functions and
/// the shared pieces of `AppModule`, which it injects.
struct WidgetModule: WidgetModuleType {
  @Inject private var app: AppModuleType
  private let environment: Environment

  init(environment: Environment) {
    self.environment = environment
  }

  func component() -> WidgetWorkerType {
    WidgetWorker(store: component(), remote: component(), clock: app.component())
  }

  func component() -> WidgetStoreType {
    let configuration: AppConfiguration = app.component()
    return WidgetFileStore(
      file: configuration.storeFolder.appendingPathComponent(environment.storeFileName))
  }

  func component() -> WidgetRemoteType {
    WidgetRemote(client: app.component(), path: environment.catalogPath)
  }
}
