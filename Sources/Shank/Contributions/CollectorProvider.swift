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

  /// The contributions gathered from `container` down: `resolveAsync([P].self)` runs where
  /// the first bound to an actor may run.
  override func factories(resolvedFrom container: Dependencies) -> [Registration] {
    sequence(first: container, next: \.parent).flatMap { layer in
      (layer.table.contributions[contributed] ?? []).map { $0.takeUnretainedValue() }
    }
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try convert(at: site, from: container, by: collect)
  }
}
