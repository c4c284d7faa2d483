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
@resultBuilder
public enum ModuleBuilder {
  /// A single module.
  public static func buildExpression(_ module: Module) -> [Module] { [module] }

  /// A group of modules.
  public static func buildExpression(_ modules: [Module]) -> [Module] { modules }

  /// The statements of a block, in order.
  public static func buildBlock(_ components: [Module]...) -> [Module] { components.flatMap { $0 } }

  /// An `if` without `else`.
  public static func buildOptional(_ component: [Module]?) -> [Module] { component ?? [] }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither(first component: [Module]) -> [Module] { component }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither(second component: [Module]) -> [Module] { component }

  /// A `for … in` loop.
  public static func buildArray(_ components: [[Module]]) -> [Module] { components.flatMap { $0 } }

  /// An `if #available` branch.
  public static func buildLimitedAvailability(_ component: [Module]) -> [Module] { component }
}
