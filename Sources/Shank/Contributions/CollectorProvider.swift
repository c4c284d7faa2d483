// The registration that answers `[P]` or `[String: P]` with the contributions to `P`.

/// Gathers a collection of contributions at each resolution; it keeps nothing, and answers
/// its key only where no module registers that key itself.
final class CollectorProvider<Value>: Provider<Value> {
  private let collect: Conversion

  init(site: SourceSite, collect: @escaping Conversion) {
    self.collect = collect
    super.init(name: nil, scope: .unique, site: site, isolation: nil, isEager: false)
    role = .collector
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try convert(at: site, from: container, by: collect)
  }
}
