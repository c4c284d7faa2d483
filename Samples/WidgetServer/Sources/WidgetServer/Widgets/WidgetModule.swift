import Shank

/// The widget feature: what a request needs to read and change widgets.
protocol WidgetModuleType {
  /// The widget service of the current request.
  func component() -> WidgetService
}

/// Made in each request's scope (it is unique), so it injects the process's database and
/// that request's module: the service logs with the request's id and caller.
struct WidgetModule: WidgetModuleType {
  @Inject private var database: DatabaseModuleType
  @Inject private var request: RequestModuleType
  @Inject private var stats: StatsModuleType

  func component() -> WidgetService {
    WidgetService(
      repository: database.component(), logger: request.logger, stats: stats.component())
  }
}
