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
    /// `actor` is `MainActor` for the main actor, else the actor's type: written in full, with
    /// its module, where it is an actor of the app's own also named `MainActor`.
    case wrongIsolation(actor: String, registeredAt: String)
    /// An alias was listed that the made value does not conform to.
    case notConforming(valueType: String)
    /// The module's factory, or a decorator of it, threw `error`, described as
    /// `String(describing:)` gives it; the message says which, and where it is registered. An
    /// error that a resolution inside the factory or the decorator threw is passed on as it is
    /// instead.
    case factoryFailed(error: String)
    /// `depth` factories were running on this thread, each inside the one before, and the
    /// thread's stack had too little room left to start another. `chain` is the keys of the
    /// outermost of them, outermost first: at most the first five. A `depth` of 0 means the
    /// app's own code had filled the stack before any factory ran.
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
    /// yet, or does not keep what it made before (a ``Scope/weak`` instance released, a
    /// ``Scope/cached(_:)`` one reset, one a decorator failed on): a synchronous resolution
    /// cannot await it.
    /// ``Dependencies/start(fileID:line:)`` makes an eager one, and
    /// ``Dependencies/resolveAsync(_:name:isolation:fileID:line:)-swift.type.method`` any one; a
    /// ``Scope/unique`` module with an async factory resolves only from `resolveAsync`, since
    /// nothing keeps what it made. ``Dependencies/verify()`` called on the main actor reports a
    /// main-actor one this way: it holds the main actor, so it cannot await the factory.
    /// `registeredAt` says where the module was registered.
    case notMadeYet(registeredAt: String)
  }

  /// What went wrong.
  public var reason: Reason { storage.fields.reason }
  /// The requested type, as it is written in code.
  public var typeName: String { storage.fields.key.typeName }
  /// The requested name, or `nil` for an unnamed module.
  public var name: String? { storage.fields.key.name }
  /// The file that asked, as `#fileID` gives it.
  public var fileID: String { storage.fields.site.fileID.description }
  /// The line that asked.
  public var line: Int { Int(storage.fields.site.line) }
  /// Whether the resolution ran with no container built (see ``Dependencies/build()``).
  public var noContainerBuilt: Bool { storage.fields.noContainerBuilt }
  /// Registrations close to the one requested: the same type under another name, the same
  /// name under another type, the type registered as an `Optional`, in registration order;
  /// then an unnamed module named as the requested type's implementation or a test's stand-in
  /// would be (`WidgetModule` or `MockWidgetModule` for `WidgetModuleType`, `ServiceImpl`,
  /// `LiveService` or `ServiceMock` for `Service`): likely its concrete type, registered
  /// without `as`, named with where it is registered. All of them; ``description`` lists the first 20 and says
  /// how many there are.
  public var nearMisses: [String] {
    let fields = storage.fields
    return fields.nearMisses.map { $0.line(missing: fields.key) }
  }
  /// What is registered, sorted, at most the first 20.
  public var registered: [String] { storage.fields.registered }
  /// How many keys are registered in all.
  public var registeredCount: Int { storage.fields.registeredCount }
  /// The requested type and name.
  var key: KeyDescription { storage.fields.key }
  /// The async module whose instance is not made yet, for `start()` and `resolveAsync` to
  /// make before they resolve again.
  var pending: AsyncPending? { storage.fields.pending }
  /// The fields, behind one reference. Every frame a resolution passes through throws this
  /// type, and typed throws reserves room for the error in each of them: 128 bytes of fields
  /// made a nested resolution cost kilobytes of stack, one word keeps it small.
  let storage: Storage

  // The signature every resolution's error paths call: a parameter more here is stack that
  // each level of a deep chain reserves for the call in a debug build (see DepthTests).
  init(_ reason: Reason, key: KeyDescription, site: SourceSite) {
    storage = Storage(Fields(reason: reason, key: key, site: site))
  }

  init(_ fields: Fields) {
    storage = Storage(fields)
  }

  /// What a factory or a decorator of `key` threw, other than a ``ResolutionError``, for a
  /// resolution asked for at `site`: an async module not made yet as
  /// ``Reason/notMadeYet(registeredAt:)``; any other wrapped. Apart from its one caller,
  /// ``thrown(_:by:for:askedBy:at:)``: merged into it, a debug build overflowed the stack where a
  /// chain that fits ends with an error (`DepthTests`).
  init(_ error: any Error, thrownFor key: KeyDescription, at site: SourceSite) {
    if let cycle = error as? WaitGraph.Cycle {
      self.init(.cycle(path: cycle.path), key: cycle.closedBy ?? key, site: site)
    } else if let pending = error as? AsyncPending {
      let reason = Reason.notMadeYet(registeredAt: pending.site.description)
      self.init(
        Fields(
          reason: reason, key: key, site: site, pending: pending, askingFactory: pending.asked.by))
      // Noted, for a round of `start()` or `resolveAsync` to find one a factory caught; but not
      // an observer's, which is no part of the making it reports on.
      let trace = ResolutionTrace.current
      guard !trace.isDelivering else { return }
      trace.asyncMisses &+= 1
      AsyncRound.current?.misses.withLock { [self] in $0.append(self) }
    } else {
      // Described here, always: its description, or its values', may read this task's
      // task-locals or take a lock this thread holds.
      self.init(.factoryFailed(error: String(describing: error)), key: key, site: site)
    }
  }

  /// A factory or a decorator that threw, and where it is registered.
  enum Thrower: Sendable {
    case factory(registeredAt: SourceSite)
    /// The factory of one of a list's contributions, which the list was resolving.
    case contribution(registeredAt: SourceSite)
    case decorator(registeredAt: SourceSite)
  }

  /// What `thrower` threw, `error`, as the error of a resolution of `key` asked for at `asked`,
  /// while `asker` was being made; an error from a resolution inside it is passed on as it is,
  /// with no key written: each level of a chain that failed passes it on, and writing a deeply
  /// nested type's name can take more stack than the end of a deep chain leaves.
  static func thrown(
    _ error: any Error, by thrower: Thrower, for key: @autoclosure () -> KeyDescription,
    askedBy asker: @autoclosure () -> ResolutionTrace.Asker? = nil, at asked: SourceSite
  ) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    let failure = ResolutionError(error, thrownFor: key(), at: asked)
    guard case .factoryFailed = failure.reason else { return failure }
    var fields = failure.storage.fields
    (fields.thrower, fields.askingFactory) = (thrower, asker())
    return ResolutionError(fields)
  }

  /// What an error says, made once and never changed.
  struct Fields: Sendable {
    var reason: Reason
    var key: KeyDescription
    var site: SourceSite
    var noContainerBuilt = false
    /// A container was built, but the one resolved from lies over the empty one that
    /// ``Dependencies/current`` gave before.
    var builtSince = false
    /// The resolution ran in a test run with no container built: what applied instead, which
    /// the message of a miss points at rather than at ``Dependencies/build()``.
    var inTest: TestLayers?
    /// Where the container resolved from, and one over it that registers the key, were made:
    /// a shared module underneath asked for what only a layer over it registers.
    var registeredAbove: (resolvedFrom: String, registering: String)?
    /// Written only when shown: a miss among 100,000 keys would spend most of its time writing
    /// near misses its message leaves out.
    var nearMisses: [NearMiss] = []
    var registered: [String] = []
    var registeredCount = 0
    var pending: AsyncPending?
    /// Who threw a ``Reason/factoryFailed(error:)``, the factory or a decorator, and where it
    /// is registered; for ``Reason/wrongIsolation(actor:registeredAt:)``, a decorator that is
    /// bound to the actor.
    var thrower: Thrower?
    /// The module being made, or the decorator running, when the key was asked for: for a
    /// miss, for a factory that threw, and for ``Reason/wrongIsolation(actor:registeredAt:)``,
    /// one running off that actor.
    var askingFactory: ResolutionTrace.Asker?
    /// For ``Reason/notConforming(valueType:)``, where the module with the `as:` list is
    /// registered.
    var registeredAt: SourceSite?
  }

  /// What a test with no container built resolved from.
  enum TestLayers: Sendable {
    /// Nothing: no override or other layer applied.
    case none
    /// Override layers, none of which registers the key.
    case overrides
    /// A container made over the empty one, as a `withScope` makes: where it was made.
    case container(madeAt: String)
  }

  final class Storage: Sendable {
    let fields: Fields
    init(_ fields: Fields) { self.fields = fields }
  }
}
