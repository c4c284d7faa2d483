/// Builds a composition root from ``Module`` values, `[Module]` groups and control flow.
///
/// It takes `if`, `if`/`else`, `switch`, `#if`, `for … in` and `if #available`:
///
/// ```swift
/// Dependencies {
///   Module { AppModule() as AppModuleType }
///   if useMocks {
///     Module { MockRemoteModule() as RemoteModuleType }
///   } else {
///     Module { RemoteModule() as RemoteModuleType }
///   }
///   for feature in features { feature.module }
///   FeatureOne.modules  // a [Module]
/// }
/// ```
///
/// A single module passes through the builder without an array of its own, so a `for` loop
/// over a thousand features makes one array, not a thousand.
@resultBuilder
public enum ModuleBuilder {
  /// What the builder passes between its steps: one module or several, in order.
  ///
  /// You never make one yourself; a block written with the builder gives `[Module]`.
  public struct Component: Sendable {
    @usableFromInline var one: Module?
    @usableFromInline var many: [Module]

    @inlinable init(one: Module?, many: [Module]) {
      self.one = one
      self.many = many
    }

    /// Appends `next`'s modules after these, moving them: a module passes through the builder
    /// without its reference count being written, and `next`'s array is taken rather than
    /// copied where it can be.
    @inlinable mutating func append(_ next: consuming Component) {
      if let first = one.take() {
        if let second = next.one.take() {
          many = [first, second]
          return
        }
        swap(&many, &next.many)
        many.insert(first, at: 0)
        return
      }
      if let module = next.one.take() { return many.append(module) }
      if many.isEmpty { return swap(&many, &next.many) }
      many += next.many
    }

    /// Empties this component into a new one, so that an array of components can be drained
    /// without copying its modules.
    @inlinable mutating func take() -> Component {
      var taken = Component(one: one.take(), many: [])
      swap(&taken.many, &many)
      return taken
    }

    /// The modules, in order.
    @inlinable consuming func modules() -> [Module] {
      if let one = one.take() { return [one] }
      return many
    }
  }

  /// A single module.
  @inlinable
  public static func buildExpression(_ module: Module) -> Component {
    Component(one: module, many: [])
  }

  /// A group of modules.
  @inlinable
  public static func buildExpression(_ modules: [Module]) -> Component {
    Component(one: nil, many: modules)
  }

  /// An empty block.
  @inlinable
  public static func buildBlock() -> Component { Component(one: nil, many: []) }

  /// The first statement of a block.
  @inlinable
  public static func buildPartialBlock(first: Component) -> Component { first }

  /// The statements of a block so far, and the next one.
  @inlinable
  public static func buildPartialBlock(
    accumulated: consuming Component, next: consuming Component
  ) -> Component {
    accumulated.append(next)
    return accumulated
  }

  /// An `if` without `else`.
  @inlinable
  public static func buildOptional(_ component: Component?) -> Component {
    component ?? Component(one: nil, many: [])
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(first component: Component) -> Component { component }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(second component: Component) -> Component { component }

  /// A `for … in` loop.
  @inlinable
  public static func buildArray(_ components: consuming [Component]) -> Component {
    var all = Component(one: nil, many: [])
    // Room for a module on either side, as in a root of one module, a loop and one more.
    all.many.reserveCapacity(components.count + 2)
    components.withUnsafeMutableBufferPointer { components in
      for index in components.indices { all.append(components[index].take()) }
    }
    return all
  }

  /// An `if #available` branch.
  @inlinable
  public static func buildLimitedAvailability(_ component: Component) -> Component { component }

  /// The modules of the whole block, in order.
  @inlinable
  public static func buildFinalResult(_ component: consuming Component) -> [Module] {
    component.modules()
  }
}
