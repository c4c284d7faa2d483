/// A type and name as people read them, for messages only.
struct KeyDescription: Hashable, Comparable, Sendable, CustomStringConvertible {
  let typeName: String
  let name: String?

  /// `SampleModuleType named "abc"`, the name spelled as a Swift string literal, so that a
  /// name with a newline or a quote in it stays on its line of a message and reads
  /// unambiguously.
  var description: String {
    name.map { "\(typeName) named \(Self.quoted($0))" } ?? typeName
  }

  static func < (lhs: Self, rhs: Self) -> Bool {
    (lhs.typeName, lhs.name ?? "") < (rhs.typeName, rhs.name ?? "")
  }

  /// `text` as a Swift string literal spells it, quotes included: `"a\nb"`.
  static func quoted(_ text: String) -> String {
    "\"\(escaped(text))\""
  }

  /// `text` as it is spelled between a Swift string literal's quotes: backslashes, quotes and
  /// every character that breaks or hides a line are written as escapes.
  ///
  /// With `keepingQuotes`, backslashes and quotes stay as they are, for text that is shown
  /// without quotes around it.
  static func escaped(_ text: String, keepingQuotes: Bool = false) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\", "\"": escaped += keepingQuotes ? "\(scalar)" : "\\\(scalar)"
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case "\0": escaped += "\\0"
      case _ where isInvisible(scalar):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        escaped += "\\u{\(hex.count < 2 ? "0" + hex : hex)}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// Whether `scalar` is a control character, a format character (zero-width, bidirectional
  /// controls, the byte-order mark) or a line or paragraph separator: what would hide, or
  /// reorder, what a name reads as.
  static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }
}

extension KeyDescription {
  /// `type`'s name, with `name`. In an extension, to keep the memberwise initializer.
  init(_ type: Any.Type, name: String?) {
    self.init(typeName: Self.typeName(of: type), name: name)
  }

  /// `WidgetModuleType`, not `any WidgetModuleType` or the module-qualified name: worked out
  /// once per type and process.
  ///
  /// `String(describing:)` of a metatype walks its metadata, thousands of instructions; an
  /// observer's event names its key at every resolution, so it would pay that every time.
  /// Types are never unloaded, so a name once written stays true.
  static func typeName(of type: Any.Type) -> String {
    let id = ObjectIdentifier(type)
    if let known = typeNames.withLock({ $0[id] }) { return known }
    // Written outside the lock: a collection's name asks for its element's.
    let written =
      (type as? SugaredType.Type)?.sugaredName(naming: typeName(of:))
      ?? withRoom { withoutAny(String(describing: type)) }
    typeNames.withLock { $0[id] = written }
    return written
  }

  /// The names ``typeName(of:)`` has written.
  private static let typeNames = Locked<[ObjectIdentifier: String]>([:])

  /// The types `type` is written with: those inside `[P]`, `[K: P]` and `Optional<P>`, else
  /// itself.
  static func leaves(of type: Any.Type) -> [Any.Type] {
    guard let parts = (type as? SugaredType.Type)?.parts else { return [type] }
    return parts.flatMap(leaves(of:))
  }

  /// The short names that a type `type` is written with shares with another of `requested`,
  /// the leaves of the type asked for: a message naming both would write the two alike.
  static func clashingNames(of type: Any.Type, with requested: [Any.Type]) -> [String] {
    leaves(of: type).compactMap { leaf in
      let name = typeName(of: leaf)
      let clashes = requested.contains {
        ObjectIdentifier($0) != ObjectIdentifier(leaf) && typeName(of: $0) == name
      }
      return clashes ? name : nil
    }
  }

  /// `type`'s name, each type it is written with whose short name is in `clashing` written with
  /// its module and the types it is nested in, `App.Feature.Client`, also inside `[P]`,
  /// `[K: P]` and `Optional<P>`: for a message that names two types of one short name.
  static func typeName(of type: Any.Type, writingInFull clashing: Set<String>) -> String {
    if clashing.isEmpty { return typeName(of: type) }
    let sugared = (type as? SugaredType.Type)?.sugaredName {
      typeName(of: $0, writingInFull: clashing)
    }
    if let sugared { return sugared }
    let short = typeName(of: type)
    guard clashing.contains(short) else { return short }
    return withRoom { withoutAny(fullName(of: type)) }
  }

  /// How a message names `actor`, not the main actor: by its type, written in full where it is
  /// named `MainActor`, as the main actor is.
  static func name(ofActor actor: any Actor) -> String {
    let name = "\(type(of: actor))"
    return name == "MainActor" ? fullName(of: type(of: actor)) : name
  }

  /// `type`'s name with its module and the types it is nested in, but without the private or
  /// local scopes Swift writes with an address, which changes from run to run.
  static func fullName(of type: Any.Type) -> String {
    String(reflecting: type).split(separator: ".")
      .filter { !$0.hasPrefix("(unknown context at ") }.joined(separator: ".")
  }

  /// `body`'s result, on a fresh stack if this thread's is nearly full: the runtime takes tens
  /// of KiB to write a type's name, more than the end of a chain of factories may leave.
  static func withRoom<Result>(_ body: () -> Result) -> Result {
    ResolutionTrace.current.stackBounds.withRoom(body)
  }

  /// `name` without the `any ` that Swift writes before an existential type.
  private static func withoutAny(_ name: String) -> String {
    name.hasPrefix("any ") ? String(name.dropFirst(4)) : name
  }
}
