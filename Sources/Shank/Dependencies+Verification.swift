extension Dependencies {
  /// Proves the whole graph resolvable, reporting every problem at once.
  ///
  /// It makes one instance of every module, finds each `@Inject` among its stored properties
  /// (without reading them), and checks that what each asks for is registered. One call in a
  /// test covers the graph:
  ///
  /// ```swift
  /// @Test func graphIsComplete() throws {
  ///   try AppDependencies.make().verify()
  /// }
  /// ```
  ///
  /// It reports missing keys (which module, which property, which type and name), cycles of
  /// modules that inject each other, `as:` types the value does not conform to, and
  /// ``Scope/weak`` on a value type. An optional `@Inject` that finds nothing is not a problem.
  ///
  /// > Note: Making each module runs its factory, so singletons are made here. A module whose
  /// > factory is bound to the main actor is reported as unresolvable unless `verify()` runs
  /// > on the main actor.
  ///
  /// - Throws: A ``VerificationError`` listing every problem, when there is any.
  public func verify() throws(VerificationError) {
    let problems = GraphInspection(self).problems
    if !problems.isEmpty { throw VerificationError(problems: problems) }
  }
}
