/// Which catalog and store a widget module serves.
///
/// The production module is registered with no name; the staging one beside it as `"staging"`.
enum Environment: String {
  case production
  case staging

  /// The name the module is registered under.
  var moduleName: String? {
    self == .production ? nil : rawValue
  }

  /// Where the app's client serves this environment's catalog.
  var catalogPath: String {
    self == .production ? "/api/widgets" : "/staging/api/widgets"
  }

  /// The store's file in the store folder; staging keeps its own.
  var storeFileName: String {
    self == .production ? "widgets.json" : "widgets-staging.json"
  }
}
