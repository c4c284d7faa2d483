/// How long a module's instance lives and who shares it.
///
/// Pass a scope when you register a module; the default, ``unique``, runs the factory at every
/// resolution, as the original Shank did.
///
/// ```swift
/// Dependencies {
///   Module(scope: .singleton) { AppModule() as AppModuleType }
///   Module(scope: .cached("session")) { SessionModule(user: user) as SessionModuleType }
///   Module { WidgetModule() as WidgetModuleType }
/// }
/// ```
public struct Scope: Sendable, Hashable {
  @usableFromInline
  enum Kind: Sendable, Hashable {
    case unique
    case singleton
    case weak
    case cached(String)
  }

  @usableFromInline let kind: Kind

  /// Whether a container keeps the instances, and so disposes of them.
  var keepsInstances: Bool {
    switch kind {
    case .singleton, .cached: true
    case .unique, .weak: false
    }
  }

  /// A new instance at every resolution. The default.
  public static let unique = Scope(kind: .unique)

  /// One instance per built container, made on first use, exactly once even when many
  /// threads ask at the same time, and released with the container.
  ///
  /// > Note: A factory or decorator that catches the error of an async module not made yet,
  /// > inside `start()` or `resolveAsync`, has its instance disposed of and made again once that
  /// > module is made.
  ///
  /// Register a module that holds what every feature shares (an HTTP client, a database) as a
  /// singleton, keep those pieces as stored properties, and return them from `component()`.
  public static let singleton = Scope(kind: .singleton)

  /// Shared while something else holds it, made again once it has been released.
  ///
  /// > Note: Only class instances can be held weakly. A value type registered `.weak` is made
  /// > at every resolution, as with ``unique``, and ``Dependencies/verify()`` reports it.
  public static let weak = Scope(kind: .weak)

  /// Like ``singleton``, but ``Dependencies/reset(_:fileID:line:)-8q5zq`` drops the instances so the next
  /// resolution makes new ones.
  ///
  /// ```swift
  /// extension Scope {
  ///   static let session = Scope.cached("session")
  /// }
  /// // at log-out:
  /// Dependencies.current.reset(.session)
  /// ```
  /// - Parameter name: The name that ``Dependencies/reset(_:fileID:line:)-8q5zq`` is called with.
  /// - Returns: A scope that shares one instance until it is reset.
  public static func cached(_ name: String) -> Scope { Scope(kind: .cached(name)) }
}

extension Scope: CustomStringConvertible {
  /// The scope as it is written in code: `.singleton`, `.cached("session")`, the name as a
  /// Swift string literal (`.cached("log\nout")` for a name with a newline), as messages
  /// write names.
  public var description: String {
    switch kind {
    case .unique: ".unique"
    case .singleton: ".singleton"
    case .weak: ".weak"
    case .cached(let name): ".cached(\(KeyDescription.quoted(name)))"
    }
  }
}
