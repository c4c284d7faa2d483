// An alias: one of the types a `Module(as:)` factory is registered under.

/// Resolves one type of a `Module(as:)` by casting what the provider it aliases gives, so
/// that every type shares that provider's instances. It keeps nothing itself.
final class AliasProvider<Value>: Provider<Value> {
  /// The provider this alias reads through to, which keeps the instances it shares.
  private let upstream: Registration
  private let conversion: Conversion

  init(readingThrough upstream: Registration, conversion: @escaping Conversion) {
    self.upstream = upstream
    self.conversion = conversion
    super.init(upstream.terms)
  }

  override func resolve(at site: SourceSite, from container: Dependencies)
    throws(ResolutionError) -> Value
  {
    try convert(at: site, from: container, by: conversion)
  }

  override var keeper: Registration { upstream.keeper }

  override var hasOnClose: Bool { upstream.hasOnClose }

  override func adopt(by container: Dependencies) {
    upstream.adopt(by: container)
  }
}
