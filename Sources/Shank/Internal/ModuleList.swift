/// The modules of a ``ModuleBuilder/Component`` that holds more than one, boxed so that the
/// component stays plain memory.
@usableFromInline
final class ModuleList {
  @usableFromInline var modules: [Module]

  @inlinable init(_ modules: [Module]) {
    self.modules = modules
  }

  /// Moves `component`'s modules to the end of `modules`, releasing them from it.
  @inlinable
  static func move(_ component: ModuleBuilder.Component, to modules: inout [Module]) {
    if let one = component.one { return modules.append(Module(one.takeRetainedValue())) }
    guard let many = component.many else { return }
    let other = many.takeRetainedValue()
    if modules.isEmpty { return swap(&modules, &other.modules) }
    modules += other.modules
  }

  /// `first`'s modules, then `next`'s, in one component; both are released.
  ///
  /// The shorter side moves into the longer one's list, so that a module written before a
  /// loop of a thousand costs one insertion rather than a copy of the thousand.
  @inlinable
  static func joining(
    _ first: ModuleBuilder.Component, _ next: ModuleBuilder.Component
  ) -> ModuleBuilder.Component {
    if first.count == 0 {
      _ = first.modules()
      return next
    }
    if next.count == 0 {
      _ = next.modules()
      return first
    }
    if let list = first.many, first.count >= next.count {
      list._withUnsafeGuaranteedRef { move(next, to: &$0.modules) }
      return first
    }
    guard let list = next.many else {
      // Two single modules.
      var both: [Module] = []
      both.reserveCapacity(2)
      move(first, to: &both)
      move(next, to: &both)
      return ModuleBuilder.Component(many: .passRetained(ModuleList(both)))
    }
    list._withUnsafeGuaranteedRef { list in
      if let one = first.one {
        list.modules.insert(Module(one.takeRetainedValue()), at: 0)
      } else {
        list.modules.insert(contentsOf: first.modules(), at: 0)
      }
    }
    return next
  }
}

// Only the builder step that owns a component touches its list, one step at a time.
extension ModuleList: @unchecked Sendable {}
