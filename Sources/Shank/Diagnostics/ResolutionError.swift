/// Why a module could not be resolved, and what to do about it.
///
/// ``Dependencies/resolveOrThrow(_:name:fileID:line:)-swift.type.method`` throws it;
/// ``Dependencies/resolve(_:name:fileID:line:)-swift.type.method`` and ``Inject`` stop the
/// program with its ``description``, which names the type and name, where it was asked for,
/// near misses, and what is registered, at most the first 20 of each list with how many there
/// are. Names are written as Swift string literals, so that one with a newline or a quote in
/// it stays on its line:
///
/// ```
/// Shank cannot resolve WidgetModuleType named "staging"
///   asked for at WidgetApp/Controller.swift:12
///   near misses:
///     WidgetModuleType: the same type with no name
///   registered (2):
///     AppModuleType
///     WidgetModuleType
/// ```
public struct ResolutionError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  public enum Reason: Sendable, Equatable {
    /// Nothing is registered under the type and name.
    case notRegistered
    /// A factory asked, directly or through others, for the key it was making.
    /// The path starts and ends with the same key, and each key in it asked for the next,
    /// whether the factories ran on one thread or on several that waited for each other.
    case cycle(path: [String])
    /// The module was registered from code isolated to `actor`, and was resolved off it.
    case wrongIsolation(actor: String, registeredAt: String)
    /// An alias was listed that the made value does not conform to.
    case notConforming(valueType: String)
    /// The module's factory threw `error`, described as `String(describing:)` gives it. An
    /// error that a resolution inside the factory threw is passed on as it is instead.
    case factoryFailed(error: String)
    /// `depth` factories were running on this thread, each inside the one before, and the
    /// thread's stack had too little room left to start another. `chain` is the keys of the
    /// outermost of them, outermost first: at most the first five.
    case tooDeep(depth: Int, chain: [String])
    /// The container that registers the key, the one resolved from or one it falls through
    /// to, was closed (see ``Dependencies/close()``). `container` says which, and where it
    /// was made.
    case closed(container: String)
    /// The instance whose ``Inject`` property asked was made by a container that has since
    /// been released, so nothing is left to resolve from in its graph. `container` says where
    /// that container was made.
    case released(container: String)
    /// The module's factory is `async`, and nothing has made its instance in this container
    /// yet: a synchronous resolution cannot await it. ``Dependencies/start(fileID:line:)``
    /// makes an eager one, and ``Dependencies/resolveAsync(_:name:fileID:line:)-swift.type.method``
    /// any one; a ``Scope/unique`` module with an async factory resolves only from
    /// `resolveAsync`, since nothing keeps what it made. `registeredAt` says where the module
    /// was registered.
    case notMadeYet(registeredAt: String)
  }

  /// What went wrong.
  public var reason: Reason { storage.reason }
  /// The requested type, as it is written in code.
  public var typeName: String { storage.typeName }
  /// The requested name, or `nil` for an unnamed module.
  public var name: String? { storage.name }
  /// The file that asked, as `#fileID` gives it.
  public var fileID: String { storage.fileID }
  /// The line that asked.
  public var line: Int { storage.line }
  /// Whether the resolution ran with no container built (see ``Dependencies/build()``).
  public var noContainerBuilt: Bool { storage.noContainerBuilt }
  /// Registrations close to the one requested: the same type under another name, the same
  /// name under another type, the type registered as an `Optional`. All of them, in
  /// registration order; ``description`` lists the first 20 and says how many there are.
  public var nearMisses: [String] { storage.nearMisses.map(\.description) }
  /// What is registered, sorted, at most the first 20.
  public var registered: [String] { storage.registered }
  /// How many keys are registered in all.
  public var registeredCount: Int { storage.registeredCount }
  /// The async module whose instance is not made yet, for `start()` and `resolveAsync` to
  /// make before they resolve again.
  var pending: AsyncPending? { storage.pending }

  /// The fields, behind one reference. Every frame a resolution passes through throws this
  /// type, and typed throws reserves room for the error in each of them: 128 bytes of fields
  /// made a nested resolution cost kilobytes of stack, one word keeps it small.
  private let storage: Storage

  // The signature every resolution's error paths call: a parameter more here is stack that
  // each level of a deep chain reserves for the call in a debug build (see DepthTests).
  init(
    _ reason: Reason, key: KeyDescription, site: SourceSite, noContainerBuilt: Bool = false,
    nearMisses: [NearMiss] = [], registered: [String] = [], registeredCount: Int = 0
  ) {
    self.init(
      reason, key: key, site: site, noContainerBuilt: noContainerBuilt,
      inBareTest: false, nearMisses: nearMisses, registered: registered,
      registeredCount: registeredCount)
  }

  /// `inBareTest`: the resolution ran in a test run, with no container built and no override
  /// applied, where the message points at the test's ways to give modules rather than at
  /// ``Dependencies/build()``.
  init(
    _ reason: Reason, key: KeyDescription, site: SourceSite,
    noContainerBuilt: Bool, inBareTest: Bool, nearMisses: [NearMiss], registered: [String],
    registeredCount: Int
  ) {
    storage = Storage(
      reason: reason, typeName: key.typeName, name: key.name, fileID: site.fileID.description,
      line: Int(site.line), noContainerBuilt: noContainerBuilt, inBareTest: inBareTest,
      nearMisses: nearMisses, registered: registered, registeredCount: registeredCount,
      pending: nil)
  }

  /// The error of a synchronous resolution that met an async module not made yet.
  init(_ pending: AsyncPending, key: KeyDescription, site: SourceSite) {
    storage = Storage(
      reason: .notMadeYet(registeredAt: pending.registeredAt.description),
      typeName: key.typeName, name: key.name, fileID: site.fileID.description,
      line: Int(site.line), noContainerBuilt: false, inBareTest: false, nearMisses: [],
      registered: [], registeredCount: 0, pending: pending)
  }

  /// What an error says, made once and never changed.
  private final class Storage: Sendable {
    let reason: Reason
    let typeName: String
    let name: String?
    let fileID: String
    let line: Int
    let noContainerBuilt: Bool
    let inBareTest: Bool
    /// Written only when shown: a miss among 100,000 keys would spend most of its time writing
    /// near misses its message leaves out.
    let nearMisses: [NearMiss]
    let registered: [String]
    let registeredCount: Int
    let pending: AsyncPending?

    init(
      reason: Reason, typeName: String, name: String?, fileID: String, line: Int,
      noContainerBuilt: Bool, inBareTest: Bool, nearMisses: [NearMiss], registered: [String],
      registeredCount: Int, pending: AsyncPending?
    ) {
      self.reason = reason
      self.typeName = typeName
      self.name = name
      self.fileID = fileID
      self.line = line
      self.noContainerBuilt = noContainerBuilt
      self.inBareTest = inBareTest
      self.nearMisses = nearMisses
      self.registered = registered
      self.registeredCount = registeredCount
      self.pending = pending
    }
  }

  /// The message, in plain words, over several lines: a list longer than 20 shows its first
  /// 20 and its count, so even a miss among a hundred thousand keys stays a short message.
  public var description: String {
    let key = KeyDescription(typeName: typeName, name: name)
    var lines: [String]
    switch reason {
    case .notRegistered:
      lines = ["Shank cannot resolve \(key)", "  asked for at \(fileID):\(line)"]
      if storage.inBareTest {
        lines.append(
          "  no container was built and no override applies: give this test its modules with the .dependencies { } trait of ShankTesting, or run it inside Dependencies.withOverrides { } operation: { }"
        )
      } else if noContainerBuilt {
        lines.append(
          "  no container was built: did you call build() on your Dependencies at launch?")
      }
      let nearMisses = storage.nearMisses
      if !nearMisses.isEmpty {
        let shown = nearMisses.prefix(Dependencies.listedKeyLimit)
        let count =
          shown.count < nearMisses.count
          ? " (\(Self.grouped(nearMisses.count)), first \(shown.count))" : ""
        lines.append("  near misses\(count):")
        lines += shown.map { "    \($0)" }
      }
      if registeredCount > 0 {
        let shown = registered.prefix(Dependencies.listedKeyLimit)
        let first = shown.count < registeredCount ? ", first \(shown.count)" : ""
        lines.append("  registered (\(Self.grouped(registeredCount))\(first)):")
        lines += shown.map { "    \($0)" }
      } else if !noContainerBuilt {
        lines.append("  nothing is registered")
      }
    case .cycle(let path):
      lines = [
        "Shank found a dependency cycle resolving \(key)",
        "  asked for at \(fileID):\(line)",
        "  cycle: \(path.joined(separator: " → "))",
      ]
    case .wrongIsolation(let actor, let registeredAt):
      let place = actor == "MainActor" ? "the main actor" : actor
      lines = [
        "Shank cannot resolve \(key) off \(place)",
        "  asked for at \(fileID):\(line)",
        "  it was registered at \(registeredAt) from code isolated to \(actor), so its factory runs only there",
        "  resolve it on \(place), or from async code with Dependencies.resolveAsync(\(typeName).self)",
      ]
      if actor == "MainActor" {
        // A server registers at launch and resolves on its request threads: the way out is
        // where it registers, not how it resolves.
        lines.append(
          "  or, if its factory needs no main actor, register it from nonisolated code, such as a `nonisolated static func make() -> Dependencies` of an enum of yours"
        )
        if registeredAt.contains("/main.swift:") || registeredAt.hasPrefix("main.swift:") {
          lines.append(
            "  the top-level code of main.swift is main-actor code: move the Dependencies { } from there into such a function"
          )
        }
      }
    case .notConforming(let valueType):
      lines = [
        "Shank cannot resolve \(key): the module's value, a \(valueType), does not conform to \(typeName)",
        "  asked for at \(fileID):\(line)",
        "  remove \(typeName).self from the module's as: list, or make \(valueType) conform to it",
      ]
    case .factoryFailed(let error):
      lines = [
        "Shank cannot resolve \(key): its factory threw \(error)",
        "  asked for at \(fileID):\(line)",
      ]
    case .closed(let container):
      lines = [
        "Shank cannot resolve \(key): its container was closed (\(container))",
        "  asked for at \(fileID):\(line)",
        "  resolve from a container that is still open; an instance kept from before it closed stays usable",
      ]
    case .released(let container):
      lines = [
        "Shank cannot resolve \(key): the container that made the instance holding it was released (\(container))",
        "  asked for at \(fileID):\(line)",
        "  keep that container for as long as what it made is in use, or read the property while it is",
      ]
    case .notMadeYet(let registeredAt):
      lines = [
        "Shank cannot resolve \(key) synchronously: its factory is async, and nothing has made it in this container yet",
        "  asked for at \(fileID):\(line)",
        "  it was registered at \(registeredAt) with an async factory",
        "  make it first: register it eager: true and call try await dependencies.start() at launch, or resolve it from async code with await Dependencies.resolveAsync(\(typeName).self); a .unique one resolves only that way",
      ]
    case .tooDeep(let depth, let chain):
      let more = depth > chain.count ? " → …" : ""
      lines = [
        "Shank cannot resolve \(key): \(depth) factories are running, each resolving the next, and this thread's stack is nearly full",
        "  asked for at \(fileID):\(line)",
        "  chain (\(depth) deep): \(chain.joined(separator: " → "))\(more)",
        "  resolve a long run of modules one after another rather than each from the one before, or resolve on a thread with a larger stack",
      ]
    }
    return lines.joined(separator: "\n")
  }

  /// `100,000`: a count as people read it, without Foundation's formatters.
  private static func grouped(_ count: Int) -> String {
    let digits = Array(String(count))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index).isMultiple(of: 3) { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
