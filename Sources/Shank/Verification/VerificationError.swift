/// Everything wrong with a dependency graph, found by ``Dependencies/verify()`` in one pass.
///
/// Its ``description`` lists each problem on its own line, so a failing test says all of
/// what to fix at once, and under a missing key the registrations close to it, as a miss's
/// ``ResolutionError`` does:
///
/// ```
/// Shank found 2 problems in the dependency graph:
///   - WidgetModuleType needs AnalyticsModuleType in property "analytics" (Widgets.swift:12), which no container it resolves from registers
///     near misses:
///       AnalyticsModule: registered at App/Root.swift:9 as its own type; if it conforms to AnalyticsModuleType, register it as that type: Module { … as AnalyticsModuleType }
///   - cycle: AModuleType → BModuleType → AModuleType
/// ```
///
/// > Note: Near misses are looked for under the first 20 missing keys only: each look goes
/// > through every registration.
public struct VerificationError: Error, CustomStringConvertible, Sendable {
  /// One thing wrong with the graph.
  public enum Problem: Sendable, Hashable, CustomStringConvertible {
    /// `module`'s `@Inject` property `property`, declared at `declaredAt`, asks for
    /// `requirement` (a type and name), which no container `module` resolves from registers.
    case missing(module: String, property: String, requirement: String, declaredAt: String)
    /// `module`'s `@Inject` property `property`, declared at `declaredAt`, asks for
    /// `requirement`, whose making runs the `async` factory of a ``Scope/unique`` module (it,
    /// for a list one of its contributions, or a module its factory resolves through
    /// ``Scope/unique`` modules alone): only
    /// ``Dependencies/resolveAsync(_:name:isolation:fileID:line:)-swift.type.method`` makes it, so
    /// reading the property always stops.
    case asyncOnly(module: String, property: String, requirement: String, declaredAt: String)
    /// Making a module needs the module being made, through factories or `@Inject`
    /// properties read while modules are made; the path starts and ends with the same one.
    case cycle(path: [String])
    /// `module` was registered with `as:`, but its value, a `valueType`, does not conform.
    case notConforming(module: String, valueType: String, registeredAt: String)
    /// `module` is registered ``Scope/weak`` but its value, a `valueType`, is not a class
    /// instance, so it is made at every resolution.
    case weakValueType(module: String, valueType: String, registeredAt: String)
    /// Making `module` failed with a resolution error, whose message is `message`.
    case unresolvable(module: String, message: String)
    /// `module` has an `onClose` handler but is registered with `scope`, whose instances no
    /// container keeps (``Scope/unique`` or ``Scope/weak``), so the handler never runs.
    case onCloseNeverRuns(module: String, scope: String, registeredAt: String)
    /// `module` is registered `eager: true` with `scope`, whose instances no container keeps
    /// (``Scope/unique`` or ``Scope/weak``), so ``Dependencies/start(fileID:line:)`` makes one
    /// and drops it.
    case eagerNotKept(module: String, scope: String, registeredAt: String)
    /// The container verified, or one it falls through to, was closed (see
    /// ``Dependencies/close()``), and the modules it registers no longer resolve. `container`
    /// says where it was made.
    case closed(container: String)
    /// ``Dependencies/verify(consumers:)`` was given `consumer`, a type or `nil`, where it
    /// checks the `@Inject` properties of an instance.
    case notAnInstance(consumer: String)

    /// The problem in one plain sentence.
    public var description: String {
      switch self {
      case .missing(let module, let property, let requirement, let site):
        "\(module) needs \(requirement) in property \"\(property)\" (\(site)), which no container it resolves from registers"
      case .asyncOnly(let module, let property, let requirement, let site):
        "\(module) needs \(requirement) in property \"\(property)\" (\(site)), which only resolveAsync can make: it runs the async factory of a .unique module, which no container keeps, so reading the property always stops; resolve it with try await Dependencies.resolveAsync instead, or register the module .singleton and eager: true so that start() makes it once"
      case .cycle(let path):
        "cycle: \(path.joined(separator: " → "))"
      case .notConforming(let module, let valueType, let site):
        "\(module), registered at \(site), is made as \(valueType), which does not conform to it"
      case .weakValueType(let module, let valueType, let site):
        "\(module), registered .weak at \(site), is made as \(valueType), a value type: .weak keeps only class instances, so it is made at every resolution"
      case .onCloseNeverRuns(let module, let scope, let site):
        "\(module), registered \(scope) at \(site), has an onClose that never runs: only .singleton and .cached instances are kept, and so disposed of"
      case .eagerNotKept(let module, let scope, let site):
        "\(module), registered \(scope) at \(site), is eager, but start() can only make it and drop it: only .singleton and .cached instances are kept"
      case .closed(let container):
        "the container was closed (\(container)): its modules no longer resolve"
      case .notAnInstance(let consumer):
        "verify(consumers:) was given \(consumer), not an instance: pass an instance, whose @Inject properties it checks"
      case .unresolvable(let module, let message):
        "\(module) could not be made: \(Self.oneLine(message))"
      }
    }

    /// A resolution error's message on one line: its lines joined by semicolons, the entries of
    /// a list, indented under their title, after it and joined by commas.
    private static func oneLine(_ message: String) -> String {
      var text = ""
      var afterEntry = false
      for line in message.split(separator: "\n") {
        let isEntry = line.hasPrefix("    ")
        let words = line.drop(while: \.isWhitespace)
        let separator = text.isEmpty ? "" : isEntry ? (afterEntry ? ", " : " ") : "; "
        text += separator + words
        afterEntry = isEntry
      }
      return text
    }
  }

  /// Every problem found: the modules' in registration order, then cycles, then those of the
  /// consumers passed to ``Dependencies/verify(consumers:)``.
  public let problems: [Problem]

  /// The registrations close to each of the first missing keys, by its problem.
  let nearMisses: [Problem: [String]]

  /// The problems, one per line, each missing key's near misses under it.
  public var description: String {
    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    let lines = problems.flatMap { problem in
      let close = nearMisses[problem] ?? []
      let listed =
        close.isEmpty ? [] : ResolutionError.list("  near misses", close).map { "  \($0)" }
      return ["  - \(problem)"] + listed
    }
    return (["Shank found \(count) in the dependency graph:"] + lines).joined(separator: "\n")
  }
}
