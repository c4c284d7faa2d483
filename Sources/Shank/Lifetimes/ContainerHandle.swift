/// Where a container was made, as the ``Inject`` properties that its factories declare keep
/// it: it outlives the container, for the message of a read after the container was released.
///
/// Each container makes one, and every property it makes shares it: one word in a property's
/// header, where a deep chain of first reads copies the header at every level.
final class ContainerHandle {
  /// Where the container was made; `nil` for an override layer.
  let site: SourceSite?

  init(site: SourceSite?) {
    self.site = site
  }
}

// Its one property is a constant.
extension ContainerHandle: Sendable {}
