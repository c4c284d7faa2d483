/// One key in a container's table, with where it was registered and how it shares.
///
/// The table holds these as the non-generic base; the entry for `T` under a name is always
/// a ``Provider`` of `T`, so resolution downcasts without a dynamic cast.
@usableFromInline
class Registration: Recipe, CustomStringConvertible {
  let type: Any.Type
  /// The type messages name it by: its own, but for the provider behind the aliases of a
  /// `Module(as:)` that does not list its own type, which is then no key, the first of them.
  var keyType: Any.Type
  /// The container whose table holds this registration, if it keeps instances. Unretained:
  /// the container owns its registrations, and every resolution holds the container it runs in.
  var unretainedOwner: Unretained<Dependencies>?

  /// ``unretainedOwner``, retained.
  var owner: Dependencies? { unretainedOwner?.takeUnretainedValue() }
  /// Whether it was registered from the main actor, worked out once: the most common
  /// isolation, that of every module of an app target with default `MainActor` isolation.
  @usableFromInline let isMainActorOnly: Bool
  /// Whether it was registered from any actor, so that a nonisolated one is checked inline.
  @usableFromInline let isBound: Bool

  init(type: Any.Type, _ terms: Terms) {
    self.type = type
    keyType = type
    isMainActorOnly = terms.isolation != nil && terms.isolation === MainActor.shared
    isBound = terms.isolation != nil
    super.init(terms)
  }

  var keyDescription: KeyDescription { KeyDescription(keyType, name: name) }

  @usableFromInline var description: String { keyDescription.description }

  /// An instance as `Any`, for verification and the graph; a ``Provider`` gives its own. A
  /// decorator has none, and gives verification nothing to reflect on.
  func inspectedInstance(at site: SourceSite, from container: Dependencies) throws(ResolutionError)
    -> Any
  {
    ()
  }

  /// A registration that is its own module's recipe, a unique module's or a decorator's, keeps
  /// nothing: one serves every container the module is listed in, each of whose lists keeps it.
  /// A provider that keeps instances is made per container by its recipe instead.
  override func register(into registrations: inout RegistrationList) {
    registrations.append(self)
  }

  /// The registration whose instances this one gives: itself, or what an alias reads through.
  var keeper: Registration { self }

  /// Whether this is an alias that reads through to `registration`.
  func isAlias(of registration: Registration) -> Bool {
    self !== registration && keeper === registration
  }

  /// The registrations whose factories a resolution of this one from `container` runs: its
  /// keeper, or for a collection, the contributions it gathers there, top layer first.
  func factories(resolvedFrom container: Dependencies) -> [Registration] { [keeper] }

  /// Whether it adds to its key's resolution in `table`, its container's: always, but for the
  /// `[String: P]` collector of a container whose contributions have no name, which a layer
  /// that closed or was released passes over to the layers under it.
  func answersItsKey(in table: RegistrationTable) -> Bool { true }

  /// The actor a resolution of this registration from `container` runs on: that of the first
  /// of its ``factories(resolvedFrom:)`` bound to one.
  final func isolation(resolvedFrom container: Dependencies) -> (any Actor)? {
    factories(resolvedFrom: container).lazy.compactMap(\.isolation).first
  }

  /// How many resets of its `.cached` scope came before the instance it keeps now; `nil` for
  /// any other scope, whose kept instance never changes or has an identity of its own.
  var cachedGeneration: UInt? { nil }

  /// Whether the instance at `instance` (`nil` for a value type), given after `generation`
  /// was read, is what it keeps now, so that `decorations` may keep a decoration of it; when a
  /// reset of its `.cached` scope came since, sets `generation` to the instance's own. Asked
  /// of the ``keeper``, which tells `decorations` of its next reset.
  func keeps(
    _ instance: ObjectIdentifier?, generation: inout UInt?,
    decoratedIn decorations: KeptDecorations
  ) -> Bool { true }

  /// Tells no more of its resets the decorations at `decorations`, which are going.
  func forget(_ decorations: ObjectIdentifier) {}

  /// Whether the module has an `onClose` handler; an alias answers for the provider it reads
  /// through.
  var hasOnClose: Bool { false }

  /// Records `container` as the owner, before the container is shared with anyone: only a
  /// registration that keeps instances has one, and is registered in one container.
  func adopt(by container: Dependencies) {}

  /// Drops a `.cached` instance so the next resolution makes a new one, and returns its
  /// `onClose` handler, taken out of the container's list, for the caller to run, with its
  /// place in that list. Asked of the ``keeper``, since an alias keeps nothing.
  func reset() -> (order: UInt, disposal: Disposal)? { nil }
}

extension Registration {
  /// What this registration's factory threw, as the error of a resolution asked for at `site`,
  /// named by the key it was asked for (see ``askedKey()``), by the factory or, for a list's
  /// contribution, as one, and with the module whose making asked for it, if any; an error
  /// from a resolution inside it as it is (see ``ResolutionError/thrown(_:by:for:askedBy:at:)``).
  ///
  /// Out of line, so that a provider's frame, which a deep chain repeats, holds only the call.
  @usableFromInline @inline(never)
  func failure(_ error: any Error, at site: SourceSite) -> ResolutionError {
    if let error = error as? ResolutionError { return error }
    let trace = ResolutionTrace.current
    let reader = trace.reader(of: self)
    return ResolutionError.thrown(
      error,
      by: reader?.role == .collector
        ? .contribution(registeredAt: self.site) : .factory(registeredAt: self.site),
      for: reader?.keyDescription ?? keyDescription,
      askedBy: trace.asker(besides: self), at: site)
  }

  /// The key that this thread's innermost resolution of this registration was asked for by:
  /// that of an alias reading through to it; for a contribution, that of the list, since a
  /// contribution resolves nothing alone.
  func askedKey() -> KeyDescription {
    ResolutionTrace.current.reader(of: self)?.keyDescription ?? keyDescription
  }
}
