// `verify()`: makes every module once and reports everything wrong.

extension Dependencies {
  /// Checks that every module resolves and that what each module injects is registered,
  /// reporting every problem at once.
  ///
  /// It makes one instance of every module (two where a synchronous read of it fails for want
  /// of a ``Scope/unique`` module with an `async` factory), finds each `@Inject` among its
  /// stored properties (without reading them), and checks that what each asks for is
  /// registered. One call in a test covers the modules:
  ///
  /// ```swift
  /// @Test func graphIsComplete() throws {
  ///   try Dependencies { AppDependencies.modules }.verify()
  /// }
  /// ```
  ///
  /// It reports missing keys (which module, which property, which type and name), cycles that
  /// making a module meets (factories, or `@Inject` properties read while modules are made,
  /// that need the module being made), factories that fail (a missing key met through
  /// `resolve()` inside one, or an error it throws), `as:` types the value does not conform
  /// to, and ``Scope/weak`` on a value type. Modules that inject each other and read those
  /// properties later are no cycle: each resolves. An optional `@Inject` that finds nothing is not a
  /// problem. To check the `@Inject` properties of view controllers and view models too, pass
  /// them to ``verify(consumers:)``.
  ///
  /// It never stops the program. It makes the modules in a private copy of this container and
  /// of those it is layered over, on a thread of its own, so its answer is the same whether or
  /// not a root was built and whatever overrides are active, and this container's own
  /// singletons are not made by it. What it made is disposed of with the copy: their `onClose`
  /// handlers run on a task of their own.
  ///
  /// > Note: A module whose factory is bound to the main actor is made only when `verify()`
  /// > runs on the main actor, which then waits while verification's thread makes it; off the
  /// > main actor such a module is reported as unresolvable, as is one bound to another actor.
  /// > `verify()` does not call `component()` functions, so it does not see `resolve()` calls
  /// > inside them, nor the `@Inject` properties of what they make.
  ///
  /// > Note: A factory that fails through ``resolve(_:name:fileID:line:)-swift.type.method`` or
  /// > an `@Inject` read cannot return: its thread stays parked until the program ends, one
  /// > thread for each such module at each call. One that fails through `resolveOrThrow`
  /// > returns the error, and keeps nothing.
  ///
  /// > Note: A factory that has not returned after 60 seconds is reported as unresolvable, and
  /// > verification goes on with the next module: one that waits for the main queue while
  /// > `verify()` holds the main actor would otherwise never return.
  ///
  /// - Throws: A ``VerificationError`` listing every problem, when there is any.
  public func verify() throws(VerificationError) {
    try verify(consumers: [])
  }

  /// Checks the modules, as ``verify()`` does, and the `@Inject` properties of `consumers`.
  ///
  /// A module that only a view controller injects is registered or not, and ``verify()``
  /// cannot tell which view controllers ask for what. Pass an instance of each consumer (view
  /// controllers, view models, anything that is not a module) and their `@Inject` properties,
  /// found by reflection as for modules without being read, are checked too:
  ///
  /// ```swift
  /// @MainActor @Test func everyScreenResolves() throws {
  ///   try Dependencies { AppDependencies.modules }.verify(
  ///     consumers: WidgetViewController(), SettingsViewModel())
  /// }
  /// ```
  ///
  /// An `Optional` consumer is checked as the instance it holds; a type or `nil`, which holds
  /// no properties to check, is a problem of its own,
  /// ``VerificationError/Problem/notAnInstance(consumer:)``.
  ///
  /// - Parameter consumers: Instances whose `@Inject` properties to check.
  /// - Throws: A ``VerificationError`` listing every problem of the modules and the consumers.
  public func verify(consumers: Any...) throws(VerificationError) {
    try verify(consumers: consumers)
  }

  /// How long ``verify()`` and ``graph()`` wait for one module's factory before they report it
  /// and go on; shorter in tests of that.
  @TaskLocal package static var verificationPatience: Duration = .seconds(60)

  private func verify(consumers: [Any]) throws(VerificationError) {
    var inspection = GraphInspection(self, checkingReads: true)
    var notInstances: [VerificationError.Problem] = []
    for consumer in consumers {
      guard let instance = Self.instance(in: consumer) else {
        notInstances.append(.notAnInstance(consumer: Self.describe(notAnInstance: consumer)))
        continue
      }
      inspection.check(
        injectionPoints(of: instance), of: KeyDescription.typeName(of: type(of: instance)),
        madeBy: nil, in: self)
    }
    let problems = inspection.problems + notInstances
    guard !problems.isEmpty else { return }
    // Each look goes through every registration: only the first missing keys get one.
    var nearMisses: [VerificationError.Problem: [String]] = [:]
    for (problem, requirement, container) in inspection.misses
    where nearMisses.count < Self.listedKeyLimit && nearMisses[problem] == nil {
      nearMisses[problem] = container.nearMisses(of: requirement.type, name: requirement.name)
    }
    throw VerificationError(problems: problems, nearMisses: nearMisses)
  }

  /// The instance `consumer` is or holds in `Optional`s; `nil` for `nil` or a type.
  private static func instance(in consumer: Any) -> Any? {
    if consumer is Any.Type { return nil }
    let mirror = Mirror(reflecting: consumer)
    guard mirror.displayStyle == .optional else { return consumer }
    return mirror.children.first.flatMap { instance(in: $0.value) }
  }

  /// How a problem names a consumer that is no instance: a type as `T.self`, `nil` with its
  /// type.
  private static func describe(notAnInstance consumer: Any) -> String {
    if let type = consumer as? Any.Type { return "\(KeyDescription.typeName(of: type)).self" }
    return "nil (\(KeyDescription.typeName(of: type(of: consumer))))"
  }
}
