// The registration that answers `[P]` or `[String: P]` with the contributions to `P`.

/// Gathers a collection of contributions at each resolution; it keeps nothing, and answers
/// its key only where no module registers that key itself.
final class CollectorProvider<Value>: Provider<Value> {
  private let collect: Conversion
  /// The type whose contributions it gathers: `P`.
  private let contributed: ObjectIdentifier

  init(contributing element: Any.Type, site: SourceSite, collect: @escaping Conversion) {
    self.collect = collect
    contributed = ObjectIdentifier(element)
    super.init(Terms(name: nil, scope: .unique, site: site, isolation: nil, isEager: false))
    role = .collector
  }

  /// The actor of the first contribution bound to one, from `container` down, so that
  /// `resolveAsync([P].self)` runs where the contributions' factories may run.
  override func isolation(resolvedFrom container: Dependencies) -> (any Actor)? {
    var next: Dependencies? = container
    while let layer = next {
      let bound = layer.table.contributions[contributed]?.lazy
        .compactMap { $0.read { $0.isolation } }.first
      if let bound { return bound }
      next = layer.parent
    }
    return nil
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try convert(at: site, from: container, by: collect)
  }
}
