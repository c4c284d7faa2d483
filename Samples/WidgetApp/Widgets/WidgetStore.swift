/// Keeps the widgets the user added.
protocol WidgetStoreType {
  func load() throws -> [Widget]
  func save(_ widgets: [Widget]) throws
  /// Where the widgets are kept, as the user should read it.
  var location: String { get }
}
