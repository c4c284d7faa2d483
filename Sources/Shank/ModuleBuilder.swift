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
  ///
  /// > Note: A component owns the modules in it by hand, so that an array of components (what a
  /// > `for` loop gives) is plain memory: making it retains nothing and freeing it visits no
  /// > element. Every builder step consumes the components it is given exactly once.
  public struct Component: Sendable {
    /// A single module's recipe, retained for this component.
    @usableFromInline var one: Unmanaged<Recipe>?
    /// Several modules, retained for this component.
    @usableFromInline var many: Unmanaged<ModuleList>?

    @inlinable init(one: Unmanaged<Recipe>? = nil, many: Unmanaged<ModuleList>? = nil) {
      self.one = one
      self.many = many
    }

    /// How many modules this component holds.
    @inlinable var count: Int {
      if one != nil { return 1 }
      return many?._withUnsafeGuaranteedRef { $0.modules.count } ?? 0
    }

    /// The modules, in order, released from this component.
    @inlinable consuming func modules() -> [Module] {
      if let one { return [Module(one.takeRetainedValue())] }
      guard let many else { return [] }
      return many.takeRetainedValue().modules
    }
  }

  /// A single module.
  @inlinable
  public static func buildExpression(_ module: consuming Module) -> Component {
    Component(one: .passRetained(module.recipe))
  }

  /// A group of modules.
  @inlinable
  public static func buildExpression(_ modules: [Module]) -> Component {
    Component(many: .passRetained(ModuleList(modules)))
  }

  /// An empty block.
  @inlinable
  public static func buildBlock() -> Component { Component() }

  /// The first statement of a block.
  @inlinable
  public static func buildPartialBlock(first: Component) -> Component { first }

  /// The statements of a block so far, and the next one.
  @inlinable
  public static func buildPartialBlock(accumulated: Component, next: Component) -> Component {
    ModuleList.joining(accumulated, next)
  }

  /// An `if` without `else`.
  @inlinable
  public static func buildOptional(_ component: Component?) -> Component {
    component ?? Component()
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(first component: Component) -> Component { component }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(second component: Component) -> Component { component }

  /// A `for … in` loop.
  @inlinable
  public static func buildArray(_ components: [Component]) -> Component {
    // Room for a module on either side, as in a root of one module, a loop and one more.
    var all: [Module] = []
    all.reserveCapacity(components.count + 2)
    for component in components { ModuleList.move(component, to: &all) }
    return Component(many: .passRetained(ModuleList(all)))
  }

  /// An `if #available` branch.
  @inlinable
  public static func buildLimitedAvailability(_ component: Component) -> Component { component }

  /// The modules of the whole block, in order.
  @inlinable
  public static func buildFinalResult(_ component: Component) -> [Module] {
    component.modules()
  }
}
