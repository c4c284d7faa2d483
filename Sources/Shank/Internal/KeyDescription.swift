/// A type and name as people read them, for messages only.
struct KeyDescription: Hashable, Comparable, Sendable, CustomStringConvertible {
  let typeName: String
  let name: String?

  init(_ type: Any.Type, name: String?) {
    self.init(typeName: Self.typeName(of: type), name: name)
  }

  init(typeName: String, name: String?) {
    self.typeName = typeName
    self.name = name
  }

  var description: String {
    guard let name else { return typeName }
    return "\(typeName) named \"\(name)\""
  }

  static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.typeName, lhs.name ?? "") < (rhs.typeName, rhs.name ?? "")
  }

  /// `WidgetModuleType`, not `any WidgetModuleType` or the module-qualified name.
  static func typeName(of type: Any.Type) -> String {
    let name = String(describing: type)
    return name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
  }
}
