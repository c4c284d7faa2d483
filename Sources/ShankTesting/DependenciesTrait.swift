public import Shank
public import Testing

/// A test trait that runs a test, or every test of a suite, with modules overridden.
///
/// ```swift
/// @Test(.dependencies { Module { MockWidgetModule() as WidgetModuleType } })
/// func listsWidgets() {
///   #expect(WidgetList().titles == ["Mock"])
/// }
///
/// @Suite(.dependencies { Module { MockStore() as WidgetStore } })
/// struct WidgetTests { … }
/// ```
///
/// The trait wraps the test in ``Shank/Dependencies/withOverrides(_:isolation:operation:)``,
/// so overrides are task-local: tests running in parallel never share them. Applied to a
/// suite, it applies to every test in the suite; a test's own trait layers over its suite's.
public struct DependenciesTrait: TestTrait, SuiteTrait, TestScoping {
  let modules: [Module]

  /// Applies to every test in a suite, not once around the suite.
  public var isRecursive: Bool { true }

  /// Runs each test case inside ``Shank/Dependencies/withOverrides(_:isolation:operation:)``
  /// with this trait's modules.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope runs once around its tests; only each test case takes the overrides.
    guard testCase != nil || !test.isSuite else {
      try await function()
      return
    }
    try await Dependencies.withOverrides {
      modules
    } operation: {
      try await function()
    }
  }
}

extension Trait where Self == DependenciesTrait {
  /// Runs the test, or every test of the suite, with `modules` layered over the root.
  ///
  /// - Parameter modules: The modules to override, written as in ``Shank/Dependencies``.
  /// - Returns: A trait for `@Test` and `@Suite`.
  public static func dependencies(@ModuleBuilder _ modules: () -> [Module]) -> Self {
    DependenciesTrait(modules: modules())
  }
}
