/// A store in memory. A class, so a test that holds it sees what the app saved.
final class MockWidgetStore: WidgetStoreType {
  var widgets: [Widget]

  init(widgets: [Widget] = []) {
    self.widgets = widgets
  }

  var location: String { "memory (--mock keeps nothing)" }

  func load() throws -> [Widget] { widgets }

  func save(_ widgets: [Widget]) throws {
    self.widgets = widgets
  }
}
