/// A catalog given up front, with no client behind it.
struct MockWidgetRemote: WidgetRemoteType {
  var widgets = [Widget(id: "m1", name: "Mock gear"), Widget(id: "m2", name: "Mock sprocket")]

  func catalog() throws -> [Widget] { widgets }
}
