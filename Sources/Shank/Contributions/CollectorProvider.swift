// The registration that answers `[P]` or `[String: P]` with the contributions to `P`.

/// Gathers a collection of contributions at each resolution; it keeps nothing, and answers
/// its key only where no module registers that key itself.
final class CollectorProvider<Value>: Provider<Value> {
  private let collect: Conversion
  /// The registrations whose factories a resolution from a container runs.
  private let making: (Dependencies) -> [Registration]
  /// Whether a table's contributions add to the collection.
  private let adds: (RegistrationTable) -> Bool

  init(
    site: SourceSite, making: @escaping (Dependencies) -> [Registration],
    adds: @escaping (RegistrationTable) -> Bool, collect: @escaping Conversion
  ) {
    self.collect = collect
    self.making = making
    self.adds = adds
    super.init(Terms(name: nil, scope: .unique, site: site, isolation: nil, isEager: false))
    role = .collector
  }

  /// The contributions gathered from `container` down, a collection registered whole under
  /// them, and the elements' decorators: `resolveAsync([P].self)` runs where the first bound
  /// to an actor may run.
  override func factories(resolvedFrom container: Dependencies) -> [Registration] {
    making(container)
  }

  override func answersItsKey(in table: RegistrationTable) -> Bool { adds(table) }

  /// What `collect` gathers, with this collector on the trace; `collect` decorates it.
  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try checkIsolation(at: site)
    let trace = ResolutionTrace.unretainedCurrent
    try trace.enter(self, from: container, at: site)
    defer { trace.leave() }
    return try collect(site, container)
  }
}
