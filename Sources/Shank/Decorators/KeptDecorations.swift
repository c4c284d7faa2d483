/// What a container's decorators made of the shared instances that a container underneath
/// keeps: each such instance is decorated once here, and the decorated one is returned from
/// then on.
///
/// An entry remembers the instance it wraps, weakly: when the container underneath drops that
/// instance (a reset, or a `.weak` one released) and makes another, the new one is decorated
/// anew. A value type has no identity to tell a new instance by: a `.singleton` one never
/// changes, and a `.cached` one is told by its generation, the resets that came before it.
final class KeptDecorations {
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

    func wraps(_ object: AnyObject?, generation: UInt?, decorators: Int) -> Bool {
      guard decorators == self.decorators else { return false }
      guard let object else { return wrapsValue && self.generation == generation }
      return underlying === object
    }

    var value: Any? { decorated ?? weaklyDecorated }
  }

  private let lock = Lock()
  private var entries: [ObjectIdentifier: Entry] = [:]
  /// Set by ``removeAll()``: a decoration that finishes after its container closed is not kept.
  private var isClosed = false

  /// What was kept for `underlying`, which `registration` made underneath, if anything, when
  /// it was wrapped by as many `decorators` as are open now.
  func decorated(
    of underlying: Any, madeBy registration: Registration, generation: UInt?, decorators: Int
  ) -> Any? {
    let object = Self.identity(of: underlying)
    return lock.withLock {
      guard let entry = entries[ObjectIdentifier(registration)],
        entry.wraps(object, generation: generation, decorators: decorators)
      else {
        return nil
      }
      return entry.value
    }
  }

  /// Keeps `decorated` for `underlying`, unless another thread kept one for it first; returns
  /// the one kept, or `decorated` when its kind cannot be kept.
  func keep(
    _ decorated: Any, of underlying: Any, madeBy registration: Registration, generation: UInt?,
    decorators: Int
  ) -> Any {
    let object = Self.identity(of: underlying)
    var isWeak = false
    var keepsValues = false
    switch registration.scope.kind {
    case .weak: isWeak = true
    case .singleton, .cached: keepsValues = true
    case .unique: break
    }
    guard object != nil || keepsValues else { return decorated }
    let weakly = isWeak ? Self.identity(of: decorated) : nil
    guard !isWeak || weakly != nil else { return decorated }
    let (kept, replaced): (Any, Entry?) = lock.withLock {
      guard !isClosed else { return (decorated, nil) }
      let key = ObjectIdentifier(registration)
      if let entry = entries[key],
        entry.wraps(object, generation: generation, decorators: decorators),
        let kept = entry.value
      {
        return (kept, nil)
      }
      let replaced = entries.updateValue(
        Entry(
          underlying: object, wrapsValue: object == nil, generation: generation,
          decorated: isWeak ? nil : decorated, weaklyDecorated: weakly, decorators: decorators),
        forKey: key)
      return (decorated, replaced)
    }
    // Released outside the lock: the replaced decoration's deinit may resolve through here.
    withExtendedLifetime(replaced) {}
    return kept
  }

  /// Lets go of every decorated instance, and keeps none from now on: the container closes.
  func removeAll() {
    let dropped = lock.withLock {
      isClosed = true
      defer { entries = [:] }
      return entries
    }
    // Released outside the lock: a deinit may resolve.
    withExtendedLifetime(dropped) {}
  }

  private static func identity(of value: Any) -> AnyObject? {
    type(of: value) is AnyObject.Type ? value as AnyObject : nil
  }
}

// `entries` and `isClosed` are only touched under `lock`.
extension KeptDecorations: @unchecked Sendable {}
