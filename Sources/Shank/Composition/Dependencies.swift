// The container: its table, its parent, its state bits, and how one is made.

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
  /// The container this one sits on: an override layer's or a child's; `nil` for a root.
  @usableFromInline let parent: Dependencies?
  /// Where the container was made, for the message of a resolution after ``close()``.
  let origin: Origin
  /// Whether this container or one underneath registers a decorator, which instances made
  /// here then pass through.
  @usableFromInline let decorates: Bool
  /// The decorators of each type, composed with those underneath when the container is made.
  let decorators: [DecoratedType]
  /// What this container's decorators made of shared instances kept underneath; `nil` in a
  /// container without decorators, which never keeps one.
  let keptDecorations: KeptDecorations?
  /// The `onClose` handlers of the instances this container keeps; `nil` in a container whose
  /// modules have none, as most scopes', which then allocates nothing for them.
  let disposals: Disposals?

  /// Makes a container from modules; a later module replaces an earlier one with the same key.
  ///
  /// - Parameters:
  ///   - fileID: The file that makes the container, for diagnostics; leave it to its default.
  ///   - line: The line that makes the container, for diagnostics; leave it to its default.
  ///   - modules: The modules, written with ``ModuleBuilder``.
  public convenience init(
    fileID: StaticString = #fileID, line: UInt = #line, @ModuleBuilder _ modules: () -> [Module]
  ) {
    self.init(
      modules: modules(), over: nil, origin: .made(at: SourceSite(fileID: fileID, line: line)))
  }

  /// Makes a container from `modules`.
  ///
  /// `cachedScopes` are the `.cached` scopes of modules that were given to the container this
  /// one copies but are not in `modules`, because later ones replaced them: a reset of one
  /// still matches (see ``privateCopy()``).
  init(
    modules: [Module], over parent: Dependencies?, origin: Origin,
    cachedScopes: Set<Scope> = []
  ) {
    // Made in a local and moved in last: reading `self.table` before `self` is whole copies it.
    let table = RegistrationTable(modules, cachedScopes: cachedScopes)
    self.parent = parent
    self.origin = origin
    keptDecorations = table.decorators.isEmpty ? nil : KeptDecorations()
    disposals = table.order.hasOnClose ? Disposals() : nil
    decorators = Self.composedDecorators(of: table, over: parent)
    decorates = !decorators.isEmpty
    if decorates { table.setState(RegistrationTable.decoratesBit) }
    self.table = consume table
    // By index: iterating would copy the list, and retain each of its arrays.
    for index in self.table.order.indices {
      self.table.order[index].read { $0.adopt(by: self) }
    }
  }

  /// A container dropped without ``close()`` still disposes of its instances: on a task of
  /// its own, since nothing can wait here.
  deinit {
    if let disposals { Disposal.runLater(disposals.seal()) }
    table.free()
  }

  /// Whether `layer` sits over this container, directly or through others.
  func isUnderneath(_ layer: Dependencies) -> Bool {
    sequence(first: layer, next: \.parent).dropFirst().contains { $0 === self }
  }

  /// The registrations that won their key, in registration order, retained: for the paths
  /// that are not resolution.
  var registrations: [Registration] { table.order.map { $0.takeUnretainedValue() } }

  /// Promotes this container to the root that ``Inject`` and
  /// ``resolve(_:name:fileID:line:)-swift.type.method`` read from.
  ///
  /// Call it once at launch. Calling it on another container later replaces the root
  /// atomically; values that an ``Inject`` property already read stay as they are.
  ///
  /// The root it replaces is released once no resolution still reads it, which reading never
  /// waits for: at once, or when the last resolution reading it returns. If nothing else holds
  /// it (a child container over it, an override layer, your own reference), it is freed then,
  /// and its instances with it, after their `onClose` handlers ran. So rebuilding the root at
  /// every log-out leaves memory and open files flat.
  public func build() {
    Root.shared.replace(with: self)
  }

  /// The container resolution uses here: inside a factory, the container making the instance;
  /// else the innermost override from ``withOverrides(_:fileID:line:operation:)``, else the
  /// built root, else an empty container.
  ///
  /// Inside a factory it is, for the factory's whole run and whatever another thread builds
  /// meanwhile, the container the resolution started in for a ``Scope/unique`` module, and the
  /// container that owns the instance for a shared one. So a graph resolves the same way from a
  /// built root, a container that was never built, an override layer, or ``verify()``.
  @inlinable
  public static var current: Dependencies {
    let (container, saved) = unretainedCurrentForReading
    let retained = container.takeUnretainedValue()
    Hazard.restore(saved)
    return retained
  }

  /// A copy of this container and of those it is layered over, with instances of its own,
  /// so that ``verify()`` makes modules without touching this container's instances or locks.
  ///
  /// It resets as this container does: the `.cached` scopes of modules that later ones
  /// replaced, which the copy is not given, still count (see ``reset(_:fileID:line:)-8q5zq``).
  func privateCopy() -> Dependencies {
    // Copied from the bottom up in a loop, as lookups walk the layers: any number of layers
    // takes no stack.
    let layers = Array(sequence(first: self, next: \.parent).prefix { !$0.isUnbuilt })
    var copy = layers.last?.parent
    for layer in layers.reversed() {
      copy = Dependencies(
        modules: layer.table.modules, over: copy, origin: layer.origin,
        cachedScopes: layer.table.cachedScopes)
    }
    return copy ?? self
  }

  /// The override layer of this task, if any. Declared without the `@TaskLocal` macro, whose
  /// `$overrides` would be internal to the module, where the inlinable `withScope` sets it.
  @usableFromInline static let overrides = TaskLocal(wrappedValue: Layer(nil))

  /// An override layer, or none, as the task-local ``overrides`` holds it: a struct, whose
  /// copies retain directly, where a `TaskLocal<Dependencies?>` copies each read and each
  /// `withValue` through `Optional`'s generic value witnesses.
  @usableFromInline
  struct Layer: Sendable {
    let container: Dependencies?

    @usableFromInline
    init(_ container: Dependencies?) { self.container = container }
  }

  /// The empty container resolution falls back to before anything is built.
  @usableFromInline static let unbuilt = Dependencies(
    modules: [], over: nil, origin: .standIn)

  /// Whether this is the empty stand-in used before anything was built.
  var isUnbuilt: Bool { self === Self.unbuilt }

  /// The registration for `type` and `name`, here or in the containers this one is layered
  /// over, open or closed.
  func registration(for type: Any.Type, name: String?) -> Registration? {
    layer(registering: ObjectIdentifier(type), name: name)?.registration
  }
}
