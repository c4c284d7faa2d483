/// Lets generic code see that a type is `Optional` and reach its wrapped type.
///
/// Only the miss path of a lookup asks, so a registered key never pays for it.
protocol OptionalMarker {
  static var wrappedType: Any.Type { get }
  static func resolveWrapped(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Self
}

extension Optional: OptionalMarker {
  static var wrappedType: Any.Type { Wrapped.self }

  static func resolveWrapped(
    in dependencies: Dependencies, name: String?, site: SourceSite
  ) throws(ResolutionError) -> Self {
    guard dependencies.registration(for: Key(Wrapped.self, name: name)) != nil else { return nil }
    return try dependencies.value(Wrapped.self, name: name, site: site)
  }
}
