/// The composition root: the modules an app is made of, registered by type and name.
///
/// Make one at launch with a ``ModuleBuilder`` block and promote it with ``build()``; from then
/// on ``Inject`` and ``resolve(_:name:fileID:line:)-swift.type.method`` read from it.
///
/// ```swift
/// let dependencies = Dependencies {
///   Module(scope: .singleton) { AppModule() as AppModuleType }
///   Module { WidgetModule() as WidgetModuleType }
///   Module("abc") { SampleModule(value: "123") as SampleModuleType }
/// }
/// dependencies.build()
/// ```
///
/// A container is immutable once made, so resolving from it takes no exclusive lock. Each
/// container keeps its own ``Scope/singleton`` instances.
public final class Dependencies: Sendable {
  @usableFromInline let table: RegistrationTable
  /// The container an override layer sits on; `nil` for a root.
  @usableFromInline let parent: Dependencies?
  /// True only for the empty stand-in used before anything was built.
  let isUnbuilt: Bool

  /// Makes a container from modules; a later module replaces an earlier one with the same key.
  ///
  /// - Parameter modules: The modules, written with ``ModuleBuilder``.
  public convenience init(@ModuleBuilder _ modules: () -> [Module]) {
    self.init(modules: modules(), over: nil)
  }

  init(modules: [Module], over parent: Dependencies?, isUnbuilt: Bool = false) {
    table = RegistrationTable(modules)
    self.parent = parent
    self.isUnbuilt = isUnbuilt
    for registration in table.order {
      registration._withUnsafeGuaranteedRef { $0.adopt(by: self) }
    }
  }

  /// The registrations that won their key, in registration order.
  var registrations: [Registration] { table.registrations }

  /// Promotes this container to the root that ``Inject`` and
  /// ``resolve(_:name:fileID:line:)-swift.type.method`` read from.
  ///
  /// Call it once at launch. Calling it on another container later replaces the root
  /// atomically; values that an ``Inject`` property already read stay as they are.
  ///
  /// > Note: A container that was built stays alive for the life of the process, with its
  /// > singletons, so that no reader can ever see it released.
  public func build() {
    Root.shared.replace(with: self)
  }

  /// The container resolution uses here: inside a factory, the container making the instance;
  /// else the innermost override from ``withOverrides(_:operation:)``, else the built root,
  /// else an empty container.
  ///
  /// Inside a factory it is, for the factory's whole run and whatever another thread builds
  /// meanwhile, the container the resolution started in for a ``Scope/unique`` module, and the
  /// container that owns the instance for a shared one. So a graph resolves the same way from a
  /// built root, a container that was never built, an override layer, or ``verify()``.
  @inlinable
  public static var current: Dependencies {
    if let making = ResolutionTrace.unretainedMakingContainer {
      return making.takeUnretainedValue()
    }
    let root = Root.shared
    if root.mayHaveOverrides, let layer = overrides { return layer }
    return root.unretainedContainer?.takeUnretainedValue() ?? unbuilt
  }

  /// A copy of this container and of those it is layered over, with instances of its own,
  /// so that ``verify()`` makes modules without touching this container's instances or locks.
  func privateCopy() -> Dependencies {
    if isUnbuilt { return self }
    return Dependencies(modules: table.modules, over: parent?.privateCopy())
  }

  /// The override layer of this task, if any.
  @usableFromInline @TaskLocal static var overrides: Dependencies?

  /// The empty container resolution falls back to before anything is built.
  @usableFromInline static let unbuilt = Dependencies(modules: [], over: nil, isUnbuilt: true)

  /// The registration for `key`, here or in the containers this one is layered over.
  func registration(for key: Key) -> Registration? {
    registration(for: key.type, name: key.name)
  }

  /// The registration for `type` and `name`, here or in the containers this one is layered
  /// over.
  @inlinable
  func registration(for type: ObjectIdentifier, name: String?) -> Registration? {
    if let found = table.registration(for: type, name: name) { return found }
    return parent?.registration(for: type, name: name)
  }
}
