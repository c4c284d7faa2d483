/// A container as the ``Inject`` properties that its factories declare know it: weakly, since
/// a shared module holding it would otherwise keep its own container alive, and by where it was
/// made, which outlives it for the message of a read after it was released.
///
/// Each container makes one, and every property it makes shares it.
final class ContainerHandle {
  /// The container, until it is released.
  weak var container: Dependencies?
  /// Where the container was made; `nil` for an override layer.
  let site: SourceSite?

  init(site: SourceSite?) {
    self.site = site
  }
}

// `container` is written once, in its container's initializer, before the container or this
// handle is shared; `site` is a constant.
extension ContainerHandle: @unchecked Sendable {}
