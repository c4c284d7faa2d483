/// What a container's decorators made of the shared instances that a container underneath
/// keeps: each such instance is decorated once here, and the decorated one is returned from
/// then on.
///
/// An entry remembers the instance it wraps, weakly: when the container underneath drops that
/// instance (a reset, or a `.weak` one released) and makes another, the new one is decorated
/// anew. A value type has no identity to tell a new instance by: a `.singleton` one never
/// changes, and a `.cached` one is told by its generation, the resets that came before it.
final class KeptDecorations: Sendable {
  private struct Entry {
    /// The class instance underneath that the entry wraps; `nil` for a value type.
    weak var underlying: AnyObject?
    /// Whether the entry wraps a value type, which no identity tells apart.
    let wrapsValue: Bool
    /// For a `.cached` value type, the generation of the instance the entry wraps.
    let generation: UInt?
    /// The decorated instance; `nil` when kept weakly, as for a `.weak` module.
    let decorated: Any?
    /// The decorated instance of a `.weak` module, which only its holders keep alive.
    weak var weaklyDecorated: AnyObject?
    /// How many decorators wrapped it: fewer are open once a layer in between closes, and its
    /// decorators are then gone from the instance too.
    let decorators: Int

    /// The decorated instance, if the entry wraps `object` (`nil` for a value type, told
    /// apart by its `generation`) under as many `decorators`, and still keeps it. A value type
    /// is never kept weakly.
    func decoration(of object: AnyObject?, generation: UInt?, decorators: Int) -> Any? {
      guard decorators == self.decorators else { return nil }
      guard let object else { return wrapsValue && self.generation == generation ? decorated : nil }
      return underlying === object ? decorated ?? weaklyDecorated : nil
    }
  }

  /// The entry of each registration underneath; whether ``removeAll()`` closed the container,
  /// so that a decoration that finishes after that is not kept; and the first generation still
  /// kept (see ``drop(before:)``).
  private let state = Locked(
    (entries: [ObjectIdentifier: Handed<Entry>](), isClosed: false, kept: UInt(0)))

  /// The decoration kept for `underlying`, which `registration` made underneath, when it was
  /// wrapped by as many `decorators` as are open now; else what `decorate` makes, kept unless
  /// another thread kept one for it first (then that one is returned), or unless its kind
  /// cannot be kept.
  func decorated(
    _ underlying: Any, madeBy registration: Registration, generation: UInt?, decorators: Int,
    by decorate: () throws(ResolutionError) -> Any
  ) throws(ResolutionError) -> Any {
    let key = ObjectIdentifier(registration)
    let object = Self.identity(of: underlying)
    if let kept = state.withLock({ $0.entries[key] })?.value.decoration(
      of: object, generation: generation, decorators: decorators)
    {
      return kept
    }
    let decorated = try decorate()
    let isWeak = registration.scope.kind == .weak
    guard object != nil || registration.scope.keepsInstances else { return decorated }
    let weakly = isWeak ? Self.identity(of: decorated) : nil
    guard !isWeak || weakly != nil else { return decorated }
    let made = Handed(
      Entry(
        underlying: object, wrapsValue: object == nil, generation: generation,
        decorated: isWeak ? nil : decorated, weaklyDecorated: weakly, decorators: decorators))
    let (kept, replaced): (Handed<Any>?, Handed<Entry>?) = state.withLock {
      guard !$0.isClosed, generation ?? .max >= $0.kept else { return (nil, nil) }
      if let kept = $0.entries[key]?.value.decoration(
        of: object, generation: generation, decorators: decorators)
      {
        return (Handed(kept), nil)
      }
      // A decoration begun before a reset, finished after one begun since, is not kept.
      if let generation, let newer = $0.entries[key]?.value.generation, newer > generation {
        return (nil, nil)
      }
      return (nil, $0.entries.updateValue(made, forKey: key))
    }
    // Released outside the lock: the replaced decoration's deinit may resolve through here.
    withExtendedLifetime(replaced) {}
    return kept?.value ?? decorated
  }

  /// Lets go of the decorations of `.cached` instances made before `generation`, and keeps
  /// none of them from now on: a reset dropped those instances.
  func drop(before generation: UInt) {
    let dropped = state.withLock { state in
      state.kept = max(state.kept, generation)
      defer {
        state.entries = state.entries.filter { $0.value.value.generation ?? .max >= generation }
      }
      return state.entries
    }
    // Released outside the lock: a deinit may resolve.
    withExtendedLifetime(dropped) {}
  }

  /// Lets go of every decorated instance, and keeps none from now on: the container closes.
  func removeAll() {
    let dropped = state.withLock { state in
      state.isClosed = true
      defer { state.entries = [:] }
      return state.entries
    }
    // Released outside the lock: a deinit may resolve.
    withExtendedLifetime(dropped) {}
  }

  private static func identity(of value: Any) -> AnyObject? {
    type(of: value) is AnyObject.Type ? value as AnyObject : nil
  }
}
