// Resolution's entry points and the one path they share, from lookup to provider.

import _ShankAtomics

extension Dependencies {
  /// Resolves a module from ``current``, for initializers and function bodies.
  ///
  /// ```swift
  /// let widgets: WidgetModuleType = Dependencies.resolve()
  /// let sample = Dependencies.resolve(SampleModuleType.self, name: "abc")
  /// let analytics = Dependencies.resolve(AnalyticsModuleType?.self)  // nil when absent
  /// ```
  ///
  /// When nothing is registered under the type and name, this stops the program with a
  /// ``ResolutionError`` message that says where it was asked for; for an optional `T` it gives
  /// `nil` instead.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  @inlinable
  public static func resolve<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    // Borrowed as in `resolveOrThrow`, written out for the same reason.
    let (container, saved) = unretainedCurrentForReading
    defer { _shank_restore_hazard(saved) }
    #if DEBUG
      // Called directly in a debug build, as `value` calls its provider (see there).
      do {
        return try container.takeUnretainedValue().value(T.self, name: name, site: site)
      } catch {
        stop(error, at: site)
      }
    #else
      do {
        return try container._withUnsafeGuaranteedRef {
          try $0.value(T.self, name: name, site: site)
        }
      } catch {
        stop(error as! ResolutionError, at: site)
      }
    #endif
  }

  /// Resolves a module from ``current``, throwing instead of stopping the program.
  ///
  /// ```swift
  /// do {
  ///   let widgets = try Dependencies.resolveOrThrow(WidgetModuleType.self)
  /// } catch {
  ///   print(error)  // names the type, the name, where it was asked for, and near misses
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` when the key is missing, a factory closes a cycle, the
  ///   module is bound to an actor this code is not on, or factories resolving one another
  ///   have nearly filled this thread's stack.
  @inlinable
  public static func resolveOrThrow<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(ResolutionError) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    // Borrowed, not retained: a retain per resolution would make threads contend for the
    // root's reference count. Written out rather than shared with `resolve`: in a debug build
    // every call is one more frame on the stack of each resolution nested in a factory.
    let (container, saved) = unretainedCurrentForReading
    defer { _shank_restore_hazard(saved) }
    #if DEBUG
      // Called directly in a debug build, as `value` calls its provider (see there).
      return try container.takeUnretainedValue().value(T.self, name: name, site: site)
    #else
      do {
        return try container._withUnsafeGuaranteedRef {
          try $0.value(T.self, name: name, site: site)
        }
      } catch {
        throw error as! ResolutionError
      }
    #endif
  }

  /// Resolves a module from this container.
  ///
  /// The same as ``resolve(_:name:fileID:line:)-swift.type.method`` but reading this
  /// container, whether or not it was built.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  @inlinable
  public func resolve<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) -> T {
    let site = SourceSite(fileID: fileID, line: line)
    do {
      return try value(T.self, name: name, site: site)
    } catch {
      Self.stop(error, at: site)
    }
  }

  /// Resolves a module from this container, throwing instead of stopping the program.
  ///
  /// - Parameters:
  ///   - type: The type to resolve; inferred from the context when left out.
  ///   - name: The name the module was registered under, or `nil` for the unnamed one.
  ///   - fileID: The file that asks, for diagnostics; leave it to its default.
  ///   - line: The line that asks, for diagnostics; leave it to its default.
  /// - Returns: The module's instance, made or shared as its ``Scope`` says.
  /// - Throws: ``ResolutionError`` when the key is missing, a factory closes a cycle, the
  ///   module is bound to an actor this code is not on, or factories resolving one another
  ///   have nearly filled this thread's stack.
  @inlinable
  public func resolveOrThrow<T>(
    _ type: T.Type = T.self, name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(ResolutionError) -> T {
    try value(T.self, name: name, site: SourceSite(fileID: fileID, line: line))
  }

  /// The instance for `T` and `name`; the one path every resolution takes.
  @inlinable
  func value<T>(_ type: T.Type, name: String?, site: SourceSite) throws(ResolutionError) -> T {
    // Everything but a plain hit takes one call, so that in a debug build this frame, which
    // stays on the stack through every nested resolution, holds one result buffer, not three.
    let found = unretainedRegistration(for: ObjectIdentifier(T.self), name: name)
    guard let registration = found, table.state == 0, _shank_is_observing() == 0
    else { return try slowValue(T.self, name: name, site: site, found: found) }
    // Borrowed, not retained: the tables of this container and those under it keep the
    // registration alive, and a retain on every resolution would make threads contend for its
    // reference count.
    let provider = Unmanaged<Provider<T>>.fromOpaque(registration.toOpaque())
    #if DEBUG
      // A debug build inlines nothing, so the closure that borrows would leave frames of its
      // own on the stack through every resolution nested in the factory: about a sixth of a
      // level. The direct call costs a retain, which only a debug build pays.
      return try provider.takeUnretainedValue().instance(at: site, from: self)
    #else
      do {
        return try provider._withUnsafeGuaranteedRef { try $0.instance(at: site, from: self) }
      } catch {
        throw error as! ResolutionError
      }
    #endif
  }

  /// The registration for `type` and `name`, here or in the containers this one is layered
  /// over, unretained: their tables keep it alive.
  @inlinable
  func unretainedRegistration(for type: ObjectIdentifier, name: String?) -> Unmanaged<Registration>?
  {
    if let found = table.unretainedRegistration(for: type, name: name) { return found }
    return parent?.openRegistration(for: type, name: name)
  }

  /// The registration for `type` and `name` here or underneath, unless the container that
  /// registers it was closed: a closed layer that does not register the key is passed over.
  ///
  /// A loop, not a recursion, so that any number of layers takes no stack.
  @usableFromInline
  func openRegistration(for type: ObjectIdentifier, name: String?) -> Unmanaged<Registration>? {
    // Unretained: each layer keeps the one under it alive, and a retain per layer would make
    // threads contend for the parent's reference count.
    var layer = Unmanaged.passUnretained(self)
    while true {
      let (found, next) = layer._withUnsafeGuaranteedRef { layer in
        (
          layer.table.unretainedRegistration(for: type, name: name),
          layer.parent.map(Unmanaged.passUnretained)
        )
      }
      if let found {
        return layer._withUnsafeGuaranteedRef { $0.isClosedToThisThread } ? nil : found
      }
      guard let next else { return nil }
      layer = next
    }
  }

  /// ``current``, unretained, and what this thread's hazard slot held before, which the caller
  /// puts back with `_shank_restore_hazard` once it is done with the container.
  ///
  /// Reading the built root puts it in the slot, so that no `build()` frees it meanwhile. A
  /// factory's container is held by the resolution running it, an override layer by the
  /// task-local, and a root already in the slot by the outer resolution that put it there: a
  /// resolution nested in it reads the same root, whatever was built meanwhile.
  @inlinable
  static var unretainedCurrentForReading: (Unmanaged<Dependencies>, saved: UInt) {
    // The usual case, kept small enough to inline: no factory running, no override, no outer
    // read of the root on this thread.
    if _shank_hazard() == 0, let raw = _shank_trace(), ResolutionTrace.isIdle(raw),
      !Root.mayHaveOverrides
    {
      guard let address = UnsafeRawPointer(bitPattern: Root.protectedLatest) else {
        return (.passUnretained(unbuilt), 0)
      }
      return (.fromOpaque(address), 0)
    }
    return unretainedCurrentForReadingSlowly()
  }

  /// ``unretainedCurrentForReading`` in every other case.
  @usableFromInline
  static func unretainedCurrentForReadingSlowly() -> (Unmanaged<Dependencies>, saved: UInt) {
    let held = _shank_hazard()
    if let raw = _shank_trace() {
      if let making = ResolutionTrace.makingContainer(of: raw) { return (making, held) }
    } else {
      ResolutionTrace.makeCurrent()
    }
    if Root.mayHaveOverrides, let layer = overrides { return (.passUnretained(layer), held) }
    if held != 0 { return (Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: held)!), held) }
    guard let address = UnsafeRawPointer(bitPattern: Root.protectedLatest) else {
      return (.passUnretained(unbuilt), 0)
    }
    return (.fromOpaque(address), 0)
  }

  /// Stops the program with `error`'s message, pointing the report at the asking line; on a
  /// ``verify()`` thread, reports the error as the module's problem instead.
  @usableFromInline
  static func stop(_ error: ResolutionError, at site: SourceSite) -> Never {
    ResolutionTrace.current.inspection?.abandon(with: error)
    guard case .tooDeep = error.reason else {
      fatalError(error.description, file: site.fileID, line: site.line)
    }
    // Reporting a crash can take more stack than this thread has left: stopped from a thread
    // of its own, the message is sure to be written.
    StackBounds.onFreshStack { fatalError(error.description, file: site.fileID, line: site.line) }
    fatalError(error.description, file: site.fileID, line: site.line)  // never reached
  }

  /// A resolution that is not a plain hit: observed, decorated, from a closed container, or a
  /// miss; `found` is what ``value(_:name:site:)`` looked up.
  ///
  /// One frame between ``value(_:name:site:)`` and the provider's, whatever the path: in a
  /// debug build every frame here stays on the stack through each resolution nested in the
  /// factory.
  @usableFromInline
  func slowValue<T>(
    _ type: T.Type, name: String?, site: SourceSite, found: Unmanaged<Registration>?
  ) throws(ResolutionError) -> T {
    guard !isClosedToThisThread, let registration = found else {
      return try missing(T.self, name: name, site: site)
    }
    let pending = _shank_is_observing() == 0 ? nil : PendingEvent(for: registration)
    let provider = Unmanaged<Provider<T>>.fromOpaque(registration.toOpaque()).takeUnretainedValue()
    let instance = try provider.resolve(at: site, from: self)
    pending?.deliver(askedForAt: site)
    return instance
  }

  /// The miss path, and a closed container's: an optional `T` looks up its wrapped type; an
  /// empty list is the list of no contributions; anything else is an error.
  @usableFromInline
  func missing<T>(_ type: T.Type, name: String?, site: SourceSite) throws(ResolutionError) -> T {
    if isClosedToThisThread { return try valueAfterClose(T.self, name: name, site: site) }
    if let closed = layer(registering: ObjectIdentifier(T.self), name: name)?.container,
      closed.isClosedToThisThread
    {
      throw closedError(T.self, name: name, closed: closed, site: site)
    }
    if let optional = T.self as? OptionalMarker.Type {
      return try optional.resolveWrapped(in: self, name: name, site: site) as! T
    }
    if let empty = ContributedCollection.empty(T.self, name: name) { return empty as! T }
    throw notRegistered(T.self, name: name, site: site)
  }
}
