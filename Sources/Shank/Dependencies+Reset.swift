extension Dependencies {
  /// Drops the instances of every module registered with `scope`, here and in the
  /// containers this one is layered over, so the next resolution makes new ones.
  ///
  /// ```swift
  /// Dependencies.current.reset(.cached("session"))  // at log-out
  /// ```
  ///
  /// - Parameters:
  ///   - scope: A ``Scope/cached(_:)`` scope. Any other scope stops the program, with a
  ///     message that names the line that called `reset`: singletons live as long as their
  ///     container, and other scopes keep nothing to drop.
  ///   - fileID: The file that resets, for diagnostics; leave it to its default.
  ///   - line: The line that resets, for diagnostics; leave it to its default.
  ///
  /// > Note: Call it outside factories: a factory that resets the scope of the instance it is
  /// > making waits for itself.
  public func reset(_ scope: Scope, fileID: StaticString = #fileID, line: UInt = #line) {
    guard case .cached = scope.kind else {
      // `fatalError`, not `preconditionFailure`: the message and the caller's line are
      // reported in release builds too, as for every other trap of Shank's.
      fatalError(
        "Shank: reset(_:) takes a .cached(name) scope, not \(scope); only cached instances can be dropped",
        file: fileID, line: line)
    }
    var container: Dependencies? = self
    while let current = container {
      for registration in current.registrations where registration.scope == scope {
        registration.reset()
      }
      container = current.parent
    }
  }
}
