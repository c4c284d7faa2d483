/// What a registration answers to: a type's identity and an optional name.
///
/// Keyed by `ObjectIdentifier`, never by a type's printed name: printing costs hundreds of
/// nanoseconds, and two types called `Config` in different modules must not collide.
@usableFromInline
struct Key: Hashable, Sendable {
  @usableFromInline let type: ObjectIdentifier
  @usableFromInline let name: String?

  @inlinable
  init(_ type: Any.Type, name: String?) {
    self.type = ObjectIdentifier(type)
    self.name = name
  }
}

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

/// The place in the caller's source that asked for something, for messages.
///
/// `StaticString` and `UInt` because a trap hands them to `fatalError(_:file:line:)`, so the
/// crash report points at the caller's line, not at Shank's.
@usableFromInline
struct SourceSite: Sendable, CustomStringConvertible {
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  @usableFromInline var description: String { "\(fileID):\(line)" }
}
