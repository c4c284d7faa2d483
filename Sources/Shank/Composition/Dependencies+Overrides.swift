// Override layers: `withOverrides`, and the layer it puts in the task-local `overrides`.

extension Dependencies {
  /// Runs `operation` with `modules` layered over ``current``, for this task only.
  ///
  /// ```swift
  /// Dependencies.withOverrides {
  ///   Module { MockWidgetModule() as WidgetModuleType }
  /// } operation: {
  ///   let widgets: WidgetModuleType = Dependencies.resolve()  // the mock
  ///   let app: AppModuleType = Dependencies.resolve()          // still the root's
  /// }
  /// ```
  ///
  /// Inside `operation`, ``Inject`` and ``resolve(_:name:fileID:line:)-swift.type.method`` read
  /// the overrides first and everything else from the container underneath. Overrides nest:
  /// an inner call layers over the outer one. They are task-local: child tasks (`async let`,
  /// task groups, `Task { }`) inherit them, while other tasks and tests running in parallel
  /// never see them.
  ///
  /// > Note: Threads and dispatch queues started by hand do not inherit overrides, and an
  /// > ``Inject`` property that was read before keeps the value it read.
  ///
  /// - Parameters:
  ///   - modules: The modules to layer over the current container.
  ///   - fileID: The file that overrides, for diagnostics; leave it to its default.
  ///   - line: The line that overrides, for diagnostics; leave it to its default.
  ///   - operation: The code that sees them.
  /// - Returns: What `operation` returns.
  public static func withOverrides<Result>(
    @ModuleBuilder _ modules: () -> [Module],
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () throws -> Result
  ) rethrows -> Result {
    let layer = layer(modules(), site: SourceSite(fileID: fileID, line: line), overriding: true)
    let trace = ResolutionTrace.current
    let entered = trace.enterOverride(layer)
    defer { if entered { trace.leave() } }
    return try overrides.withValue(Layer(layer), operation: operation)
  }

  /// Runs the asynchronous `operation` with `modules` layered over ``current``, for this task
  /// and its child tasks only.
  ///
  /// ```swift
  /// @Test func showsWidgets() async throws {
  ///   try await Dependencies.withOverrides {
  ///     Module { MockWidgetModule() as WidgetModuleType }
  ///   } operation: {
  ///     try await controller.load()
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - modules: The modules to layer over the current container.
  ///   - isolation: The caller's isolation, which `operation` keeps; leave it to its default.
  ///   - fileID: The file that overrides, for diagnostics; leave it to its default.
  ///   - line: The line that overrides, for diagnostics; leave it to its default.
  ///   - operation: The code that sees them.
  /// - Returns: What `operation` returns.
  public static func withOverrides<Result>(
    @ModuleBuilder _ modules: () -> [Module],
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    let layer = layer(modules(), site: SourceSite(fileID: fileID, line: line), overriding: true)
    return try await overrides.withValue(Layer(layer), operation: operation, isolation: isolation)
  }

  /// A container of `modules` made at `site` whose misses fall through to ``current``: an
  /// override layer when `overriding`, else the scope of a `withScope`.
  @usableFromInline
  static func layer(_ modules: [Module], site: SourceSite, overriding: Bool = false)
    -> Dependencies
  {
    Switches.noteOverridesInstalled()
    return Dependencies(
      modules: modules, over: current,
      origin: overriding ? .overrideLayer(madeAt: site) : .made(at: site))
  }
}
