// An `@Inject` property's context and first read: the container it resolves from, then the
// value published to its cell (`OnceCell`, in `Sync/Once.swift`).

/// Where an ``Inject`` property keeps what it resolved, shared by copies of the wrapper: a
/// ``OnceCell`` whose context is the property's name, site and making container.
@usableFromInline
typealias InjectionCell<Value> = OnceCell<InjectedProperty, Value>

/// What an ``Inject`` property was declared with: the context of its ``InjectionCell``.
@usableFromInline
struct InjectedProperty {
  let name: String?
  let site: SourceSite
  /// The container whose factory was running when the property was declared, if any. Weak,
  /// because a shared module holding it would otherwise keep its own container alive.
  weak var maker: Dependencies?
  /// The container under the maker, where the maker does not register the property's key
  /// itself: once the maker is released, as once it is closed, the key resolves from there.
  /// Weak as well, because a module of it that held the instance would otherwise keep it alive.
  weak var makerParent: Dependencies?
  /// Where that container was made, for the message of a read after it was released; `nil`
  /// for a property declared outside any factory.
  let makerOrigin: Dependencies.Origin?
  /// The override layer or scope that the factory opened, if the property was declared in its
  /// operation: read while the operation still runs, as `resolve()` there reads it, and not
  /// after, as a property declared in any other operation.
  weak var override: Dependencies?
  /// Whether the property was assigned a value: it never resolves, so ``Dependencies/verify()``
  /// and ``Dependencies/graph()`` pass it by.
  var isAssigned = false

  /// A cell that resolves on its first read, for a property declared now.
  static func cell<Value>(name: String?, site: SourceSite) -> InjectionCell<Value> {
    let making = ThreadTrace.current?.read { $0.makingContainerAndOverride }
    // In an async factory, the container it makes its module in, and a layer it opened over
    // it since, which `current`, and so `resolve()`, reads there, as a synchronous factory's
    // frames say.
    let async = making == nil ? AsyncMaking.current?.containers.last : nil
    let maker = making?.container.takeUnretainedValue() ?? async
    var layer: Dependencies?
    if let async, Dependencies.current !== async { layer = .current }
    return InjectionCell.make(
      InjectedProperty(
        name: name, site: site, maker: maker,
        // Asked only of a container with one under it: a root's instances pay nothing for it.
        makerParent: maker?.parent.flatMap { maker!.registers(Value.self, name: name) ? nil : $0 },
        makerOrigin: maker.map(\.origin),
        override: making?.override?.takeUnretainedValue() ?? layer))
  }

  /// The first read of `value`'s cell: resolves outside any lock, then publishes, or takes the
  /// value another thread published first.
  @usableFromInline @inline(never)
  static func resolve<Value>(_ value: OnceValue<InjectedProperty, Value>) -> Value {
    // One copy of the context (see "Stack depth" in ARCHITECTURE.md).
    let property = value.context
    let resolved: Value
    do {
      resolved = try property.container(resolving: Value.self)
        .value(Value.self, name: property.name, site: property.site)
    } catch {
      Dependencies.stop(error, at: property.site)
    }
    return value.publish(resolved)
  }

  /// The container to resolve from: the one that made the instance, else, for a property
  /// declared outside any factory, ``Dependencies/current``.
  ///
  /// A function of its own, so that its frame is gone before the resolution it starts: a
  /// chain of first reads nests one `resolve(_:)` frame a level, not this one too.
  ///
  /// Once the making container is released, a key it does not register resolves from the
  /// container under it, as from a closed one; its own keys, or any once that container is
  /// released too, stop the read: the instance belongs to that container's graph, and
  /// ``Dependencies/current`` may be another graph altogether (a root built since, a test's
  /// overrides), whose module it would be handed without a word.
  @inline(never)
  func container<Value>(resolving: Value.Type) -> Dependencies {
    guard let makerOrigin else { return Dependencies.current }
    if let override, isRunning(override) { return override }
    if let maker { return maker }
    if let makerParent { return makerParent }
    let error = ResolutionError(
      .released(container: makerOrigin.description),
      key: KeyDescription(Value.self, name: name), site: site)
    Dependencies.stop(error, at: site)
  }

  /// Whether the operation that `layer` was opened for still runs here: a synchronous one
  /// on this thread's trace, an async one in this task, where it is the task's layer or lies
  /// under it.
  private func isRunning(_ layer: Dependencies) -> Bool {
    if ResolutionTrace.isMaking(in: layer) { return true }
    guard let top = Dependencies.overrides.get().container else { return false }
    return sequence(first: top, next: \.parent).contains { $0 === layer }
  }
}
