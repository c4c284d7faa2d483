/// Where an ``Inject`` property keeps what it resolved, shared by copies of the wrapper.
@usableFromInline
final class InjectionCell<Value> {
  let name: String?
  let site: SourceSite
  /// The container whose factory was running when the property was declared, if any. Weak,
  /// because a shared module holding it would otherwise keep its own container alive.
  weak var container: Dependencies?
  @usableFromInline let flag: OnceFlag
  /// Written once by the thread that claimed `flag`, read only after `flag` is published.
  /// A pointer rather than a `Value?`, so a read copies the value and never an `Optional`.
  @exclusivity(unchecked) @usableFromInline var value: UnsafeMutablePointer<Value>?

  init(name: String?, site: SourceSite) {
    self.name = name
    self.site = site
    self.container = ResolutionTrace.unretainedMakingContainer?.takeUnretainedValue()
    self.flag = OnceFlag()
  }

  init(name: String?, site: SourceSite, container: Dependencies?, value: Value) {
    self.name = name
    self.site = site
    self.container = container
    self.value = UnsafeMutablePointer.boxing(value)
    self.flag = OnceFlag(published: true)
  }

  deinit {
    value?.deinitialize(count: 1).deallocate()
  }

  /// A cell for the same property that already holds `newValue`.
  @usableFromInline
  func replacing(with newValue: Value) -> InjectionCell {
    InjectionCell(name: name, site: site, container: container, value: newValue)
  }

  /// The value, once the first read has published it.
  @inlinable var published: UnsafeMutablePointer<Value>? {
    flag.isSet ? value : nil
  }

  /// The first read: resolves outside any lock, then publishes, or takes the winner's value.
  @usableFromInline
  func resolve() -> Value {
    let resolved: Value
    do {
      resolved = try (container ?? Dependencies.current).value(Value.self, name: name, site: site)
    } catch {
      Dependencies.stop(error, at: site)
    }
    if flag.claim() {
      value = UnsafeMutablePointer.boxing(resolved)
      flag.publish()
      return resolved
    }
    flag.waitUntilPublished()
    return value.unsafelyUnwrapped.pointee
  }
}
