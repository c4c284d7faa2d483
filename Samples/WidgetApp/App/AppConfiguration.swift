import Foundation

/// Settings read once at launch.
struct AppConfiguration {
  /// The folder the JSON store writes to.
  let storeFolder: URL
}
