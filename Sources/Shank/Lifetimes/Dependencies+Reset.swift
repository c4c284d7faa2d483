// `reset(_:)`: drops and disposes of the instances a `.cached` scope keeps.

extension Dependencies {
  /// Drops the instances of every module registered with `scope`, here and in the
  /// containers this one is layered over, so the next resolution makes new ones.
  ///
  /// ```swift
  /// Dependencies.current.reset(.cached("session"))  // at log-out
  /// ```
  ///
  /// The modules' `onClose` handlers run on a task of their own, newest instance first; the
  /// `async` form, ``reset(_:fileID:line:)-53le9``, waits for them.
  ///
  /// - Parameters:
  ///   - scope: A ``Scope/cached(_:)`` scope that a module here or underneath is registered
  ///     with. Any other scope stops the program, with a message that names the line that
  ///     called `reset`: singletons live as long as their container, and other scopes keep
  ///     nothing to drop. So does a cached scope that no module here or underneath uses,
  ///     such as a misspelled name, with a message that lists the cached scopes registered;
  ///     one that only a module ``Module/when(_:)`` left out uses is reset, dropping nothing.
  ///   - fileID: The file that resets, for diagnostics; leave it to its default.
  ///   - line: The line that resets, for diagnostics; leave it to its default.
  ///
  /// `reset` never waits for a factory, so it cannot deadlock, from inside a factory or from
  /// a thread that another thread's factory waits for. An instance that is being made while
  /// its scope is reset, such as one whose own factory resets it, goes to the resolution that
  /// asked for it and is not kept, whether its factory is synchronous or `async`: the next
  /// resolution makes a new one. An `async` factory's goes to no resolution begun after the
  /// reset, and when one of those finds it first, it is disposed of and the asker gets a new one.
  public func reset(_ scope: Scope, fileID: StaticString = #fileID, line: UInt = #line) {
    Disposal.runLater(drop(scope, fileID: fileID, line: line))
  }

  /// Drops the instances of every module registered with `scope`, as
  /// ``reset(_:fileID:line:)-8q5zq`` does, and returns once their `onClose` handlers have
  /// run.
  ///
  /// The handlers run on a task of their own, as ``close()``'s do: each runs to its end even
  /// when the task that resets is cancelled, and sees no override or scope of that task.
  ///
  /// ```swift
  /// await dependencies.reset(.cached("session"))  // signed out before this returns
  /// ```
  ///
  /// - Parameters:
  ///   - scope: A ``Scope/cached(_:)`` scope that a module here or underneath is registered
  ///     with; any other stops the program, as for the synchronous form.
  ///   - fileID: The file that resets, for diagnostics; leave it to its default.
  ///   - line: The line that resets, for diagnostics; leave it to its default.
  public func reset(_ scope: Scope, fileID: StaticString = #fileID, line: UInt = #line) async {
    let disposals = drop(scope, fileID: fileID, line: line)
    guard !disposals.isEmpty else { return }
    let run = ResetRun(scope: scope)
    // A run that has not started waits for nothing, so recording this wait never throws.
    let wait = try? WaitGraph.shared.recordWaitOfThisTask(for: run)
    await Disposal.start(disposals, for: run).value
    if let wait { WaitGraph.shared.remove(wait) }
  }

  /// Drops the instances of `scope` and returns their `onClose` handlers, newest first: this
  /// container's before those underneath, which it was made after.
  private func drop(_ scope: Scope, fileID: StaticString, line: UInt) -> [Disposal] {
    guard case .cached(let name) = scope.kind else {
      let message =
        "Shank: reset(_:) takes a .cached(name) scope, not \(scope); only cached instances can be dropped"
      Self.stop(message, as: .stopped(message), at: SourceSite(fileID: fileID, line: line))
    }
    // The names of the cached scopes registered here and underneath. A module that a later
    // one replaced still counts: overriding a cached module, as a test does, must not turn
    // every reset of its scope into a stop.
    var names: Set<String> = []
    var disposals: [Disposal] = []
    for current in sequence(first: self, next: \.parent) {
      var dropped: [(order: UInt, disposal: Disposal)] = []
      for registration in current.registrations where registration.scope == scope {
        if let disposal = registration.keeper.reset() { dropped.append(disposal) }
      }
      disposals += dropped.sorted { $0.order > $1.order }.map(\.disposal)
      for case .cached(let name) in current.table.cachedScopes.map(\.kind) { names.insert(name) }
    }
    guard names.contains(name) else {
      let message =
        "Shank: reset(\(scope)) at \(fileID):\(line) matches no module here or in the containers underneath; \(Self.listing(names))"
      Self.stop(message, as: .stopped(message), at: SourceSite(fileID: fileID, line: line))
    }
    return disposals
  }

  /// The cached scopes named `names`, sorted, at most the first 20, for the message of a
  /// `reset` that matches none.
  private static func listing(_ names: Set<String>) -> String {
    guard !names.isEmpty else { return "no cached scope is registered" }
    let shown = names.sorted().prefix(20).map { Scope.cached($0).description }
    let count = shown.count < names.count ? " (\(names.count), first \(shown.count))" : ""
    return "cached scopes registered\(count): " + shown.joined(separator: ", ")
  }
}

/// The run of an awaited ``Dependencies/reset(_:fileID:line:)-53le9``'s handlers, as a cycle
/// through it reads.
private final class ResetRun: Sendable, CustomStringConvertible {
  let description: String

  init(scope: Scope) { description = "reset(\(scope))" }
}
