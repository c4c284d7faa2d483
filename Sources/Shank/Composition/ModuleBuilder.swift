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
///     Module { RemoteModule(host: "api.example.com") as RemoteModuleType }
///   }
///   for feature in features { feature.module }
///   FeatureOne.modules  // a [Module]
/// }
/// ```
///
/// Every step passes a single ``Module`` on: several become one module that groups them, and
/// the block's result flattens the groups once. A `for` loop over a thousand features hands
/// its array on whole, with no work per module.
@resultBuilder
public enum ModuleBuilder {
  /// A single module.
  @inlinable
  public static func buildExpression(_ module: consuming Module) -> Module { module }

  /// A group of modules.
  @inlinable
  public static func buildExpression(_ modules: [Module]) -> Module {
    ModuleGroup.grouping(modules)
  }

  /// An empty block.
  @inlinable
  public static func buildBlock() -> Module { ModuleGroup.grouping([]) }

  /// The first statement of a block.
  @inlinable
  public static func buildPartialBlock(first: consuming Module) -> Module { first }

  /// The statements of a block so far, and the next one.
  @inlinable
  public static func buildPartialBlock(accumulated: consuming Module, next: consuming Module)
    -> Module
  {
    ModuleGroup.grouping([accumulated, next])
  }

  /// An `if` without `else`.
  @inlinable
  public static func buildOptional(_ module: consuming Module?) -> Module {
    module ?? ModuleGroup.grouping([])
  }

  /// The first branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(first module: consuming Module) -> Module { module }

  /// The second branch of an `if`/`else` or `switch`.
  @inlinable
  public static func buildEither(second module: consuming Module) -> Module { module }

  /// A `for … in` loop.
  @inlinable
  public static func buildArray(_ modules: consuming [Module]) -> Module {
    ModuleGroup.grouping(modules)
  }

  /// An `if #available` branch.
  @inlinable
  public static func buildLimitedAvailability(_ module: consuming Module) -> Module {
    module
  }

  /// The modules of the whole block, in order.
  @inlinable
  public static func buildFinalResult(_ module: consuming Module) -> [Module] {
    ModuleGroup.modules(in: module)
  }
}
