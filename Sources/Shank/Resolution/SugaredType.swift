// The standard generic types that a miss and a message treat apart: `T?`, `[P]`, `[K: P]`.

/// A type that resolution answers itself where nothing registers it, or that messages write
/// as code writes it: `T?` looks up `T`; an unnamed `[P]` or `[String: P]` is the list of no
/// contributions, and is written so.
///
/// Only the miss path of a lookup and the first message naming a type ask, so a registered
/// key never pays for it.
protocol SugaredType {
  /// The type a miss of this optional type looks up; `nil` for any other.
  static var wrappedType: Any.Type? { get }
  /// What this collection resolves to where nothing answers it unnamed: no contributions.
  static var empty: Any? { get }
  /// `[P]`, `[K: P]` or `Optional<P>`, with `naming` writing each type inside.
  static func sugaredName(naming: (Any.Type) -> String) -> String
  /// The types ``sugaredName(naming:)`` writes inside.
  static var parts: [Any.Type] { get }
  /// What resolving this type under `name` gives where nothing registers it, if anything.
  static func answerMiss(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Any?
}

extension SugaredType {
  static var wrappedType: Any.Type? { nil }
  static var empty: Any? { nil }

  static func answerMiss(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Any? {
    name == nil ? empty : nil
  }
}

extension Optional: SugaredType {
  static var wrappedType: Any.Type? { Wrapped.self }
  static var parts: [Any.Type] { [Wrapped.self] }
  static func sugaredName(naming: (Any.Type) -> String) -> String {
    "Optional<\(naming(Wrapped.self))>"
  }

  /// The wrapped type's value if something registers it, or if it is an optional in turn
  /// (`P??` is `P?`, which always resolves); else `nil`.
  static func answerMiss(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Any? {
    guard dependencies.registration(for: Wrapped.self, name: name) != nil else {
      return try wrappedOptional(in: dependencies, name: name, site: site)
    }
    // Through `slowValue`, not `value`: a level of a chain of `T?` keeps one frame fewer (see
    // "Stack depth" in ARCHITECTURE.md).
    let found = dependencies.unretainedRegistration(for: ObjectIdentifier(Wrapped.self), name: name)
    return Self.some(
      try dependencies.slowValue(Wrapped.self, name: name, site: site, found: found)) as Any
  }

  /// `Wrapped`'s own answer where it is an optional too, else `nil`. A call of its own, out of
  /// line, so that a chain of `T?` takes no more stack a level (see "Stack depth" in
  /// ARCHITECTURE.md).
  @inline(never)
  private static func wrappedOptional(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Any? {
    guard let optional = Wrapped.self as? SugaredType.Type, optional.wrappedType != nil,
      let inner = try optional.answerMiss(in: dependencies, name: name, site: site)
    else { return Self.none as Any }
    return Self.some(inner as! Wrapped) as Any
  }
}

extension Array: SugaredType {
  static var empty: Any? { Self() }
  static var parts: [Any.Type] { [Element.self] }
  static func sugaredName(naming: (Any.Type) -> String) -> String { "[\(naming(Element.self))]" }
}

extension Dictionary: SugaredType {
  /// Only a `[String: P]` collects named contributions.
  static var empty: Any? { Key.self == String.self ? Self() : nil }
  static var parts: [Any.Type] { [Key.self, Value.self] }
  static func sugaredName(naming: (Any.Type) -> String) -> String {
    "[\(naming(Key.self)): \(naming(Value.self))]"
  }
}
