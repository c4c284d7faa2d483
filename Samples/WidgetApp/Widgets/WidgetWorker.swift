/// The widget feature's use cases.
protocol WidgetWorkerType {
  /// The catalog followed by the widgets added locally.
  func widgets() throws -> [Widget]
  func widget(id: String) throws -> Widget?
  /// Adds a widget to the local store under the next free ID.
  func add(name: String) throws -> Widget
  /// Where added widgets are kept, to tell the user.
  var storeLocation: String { get }
}

/// Combines the remote catalog with the local store; it knows neither's implementation.
struct WidgetWorker: WidgetWorkerType {
  let store: WidgetStoreType
  let remote: WidgetRemoteType
  let clock: ClockType

  var storeLocation: String { store.location }

  func widgets() throws -> [Widget] {
    try remote.catalog() + store.load()
  }

  func widget(id: String) throws -> Widget? {
    try widgets().first { $0.id == id }
  }

  func add(name: String) throws -> Widget {
    let highest = try widgets().compactMap { Int($0.id.dropFirst()) }.max() ?? 0
    let widget = Widget(id: "w\(highest + 1)", name: name, added: clock.now())
    try store.save(store.load() + [widget])
    return widget
  }
}
