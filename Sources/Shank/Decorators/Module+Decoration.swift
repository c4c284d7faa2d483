// `Module.decorating`: a wrapper for every instance resolved as a type.

extension Module {
  /// Wraps every instance of `type` that this container and the layers over it make: for
  /// logging, metrics, caching or a test's spy, without touching the module that makes it.
  ///
  /// ```swift
  /// Dependencies {
  ///   Module { WidgetModule() as WidgetModuleType }
  ///   Module.decorating(WidgetModuleType.self) { widgets in LoggedWidgetModule(widgets) }
  /// }
  /// ```
  ///
  /// Several decorators stack: those of the containers underneath first, then each
  /// container's in registration order, each wrapping what the one before returned.
  /// Contributions to `[type]` are decorated one by one. A shared instance is decorated once,
  /// by the container that keeps it, and the decorated one is what it keeps; a unique one is
  /// decorated at every resolution, by the decorators of the container resolved from.
  ///
  /// > Note: An instance that a container underneath keeps (a ``Scope/singleton`` of the
  /// > root, say) is decorated by the decorators of a child container or override layer too,
  /// > once: the layer keeps the decorated instance until it closes. So is each type of a
  /// > shared alias (`Module(as:)`), once per layer that decorates it.
  ///
  /// - Parameters:
  ///   - type: The type whose instances to wrap, as modules are resolved by it.
  ///   - isolation: The isolation the decorator runs on. Leave it to its default, the caller's.
  ///   - fileID: The file that registers it, for diagnostics; leave it to its default.
  ///   - line: The line that registers it, for diagnostics; leave it to its default.
  ///   - decorator: Returns the instance to use in place of the one given; it may throw.
  /// - Returns: The module to list in a ``Dependencies`` block.
  public static func decorating<Value>(
    _ type: Value.Type,
    isolation: isolated (any Actor)? = #isolation,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    _ decorator: @escaping (Value) throws -> Value
  ) -> Module {
    Module(
      Decoration(
        site: SourceSite(fileID: fileID, line: line), isolation: isolation, transform: decorator))
  }
}
