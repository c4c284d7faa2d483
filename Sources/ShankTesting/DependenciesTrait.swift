// The `.dependencies { }` and `.mainActorDependencies { }` traits: a test's own modules.

public import Shank
public import Testing

/// A test trait that runs a test, or every test of a suite, with modules overridden.
///
/// ```swift
/// @Test(.dependencies { Module { MockWidgetModule() as WidgetModuleType } })
/// func listsWidgets() {
///   #expect(WidgetViewController().names == ["Mock gear", "Mock sprocket"])
/// }
///
/// @Suite(.dependencies { Module { MockWidgetStore() as WidgetStoreType } })
/// struct WidgetTests { … }
/// ```
///
/// The trait wraps the test in
/// ``Shank/Dependencies/withOverrides(_:isolation:fileID:line:operation:)``, so overrides are
/// task-local: tests running in parallel never share them. Applied to a suite, it applies to
/// every test in the suite; a test's own trait layers over its suite's.
///
/// Make it with ``dependencies(fileID:line:_:)``, or with
/// ``mainActorDependencies(fileID:line:_:)`` when the modules come from main-actor code that
/// the test target cannot reach from a trait: an app target built with default `MainActor`
/// isolation, tested from a target built without it.
public struct DependenciesTrait: TestTrait, SuiteTrait, TestScoping {
  /// The trait's modules, for each test case: listed when the trait was made, or by a builder
  /// that runs on the main actor.
  let modules: @Sendable () async -> [Module]
  /// The test or suite the trait is attached to, which messages about its layer name: Swift
  /// Testing's macro gives the trait the line of that declaration.
  let fileID: StaticString
  let line: UInt

  /// Applies to every test in a suite, not once around the suite.
  public var isRecursive: Bool { true }

  /// Runs each test case inside
  /// ``Shank/Dependencies/withOverrides(_:isolation:fileID:line:operation:)`` with this trait's
  /// modules.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite's own scope runs once around its tests; only each test case takes the overrides.
    guard testCase != nil || !test.isSuite else {
      try await function()
      return
    }
    let layer = await modules()
    try await Dependencies.withOverrides(
      { layer }, fileID: fileID, line: line, operation: { try await function() })
  }
}

extension Trait where Self == DependenciesTrait {
  /// Runs the test, or every test of the suite, with `modules` layered over the root.
  ///
  /// - Parameters:
  ///   - fileID: The file of the test or suite the trait is attached to, for diagnostics;
  ///     leave it to its default.
  ///   - line: The line of the test or suite the trait is attached to, for diagnostics; leave
  ///     it to its default.
  ///   - modules: The modules to override, written as in ``Shank/Dependencies``.
  /// - Returns: A trait for `@Test` and `@Suite`.
  public static func dependencies(
    fileID: StaticString = #fileID, line: UInt = #line, @ModuleBuilder _ modules: () -> [Module]
  ) -> Self {
    let listed = modules()
    return DependenciesTrait(modules: { listed }, fileID: fileID, line: line)
  }

  /// Runs the test, or every test of the suite, with `modules` layered over the root, listing
  /// them on the main actor: for modules that main-actor code provides.
  ///
  /// A test target built without default isolation evaluates traits off the main actor, so
  /// ``dependencies(fileID:line:_:)`` cannot read a list of modules that an app target with default
  /// `MainActor` isolation declares. This trait can:
  ///
  /// ```swift
  /// // In the app target, built with .defaultIsolation(MainActor.self):
  /// enum AppDependencies {
  ///   static var modules: [Module] { [Module { WidgetModule() as WidgetModuleType }] }
  /// }
  ///
  /// // In a test target built without it:
  /// @Suite(.mainActorDependencies { AppDependencies.modules })
  /// @MainActor
  /// struct WidgetTests { … }
  /// ```
  ///
  /// The builder runs on the main actor before each test case, so a ``Shank/Module`` written
  /// inside it is registered from main-actor code: its factory runs only on the main actor,
  /// as one written in the app target does. Resolve such modules from `@MainActor` tests, or
  /// with ``Shank/Dependencies/resolveAsync(_:name:isolation:fileID:line:)-swift.type.method``.
  /// Keep modules that nonisolated tests resolve synchronously in
  /// ``dependencies(fileID:line:_:)``, which leaves their factories nonisolated.
  ///
  /// - Parameters:
  ///   - fileID: The file of the test or suite the trait is attached to, for diagnostics;
  ///     leave it to its default.
  ///   - line: The line of the test or suite the trait is attached to, for diagnostics; leave
  ///     it to its default.
  ///   - modules: The modules to override, written as in ``Shank/Dependencies``; the builder
  ///     runs on the main actor.
  /// - Returns: A trait for `@Test` and `@Suite`.
  public static func mainActorDependencies(
    fileID: StaticString = #fileID, line: UInt = #line,
    @ModuleBuilder _ modules: @escaping @MainActor @Sendable () -> [Module]
  ) -> Self {
    DependenciesTrait(
      modules: { await MainActor.run { modules() } }, fileID: fileID, line: line)
  }
}
