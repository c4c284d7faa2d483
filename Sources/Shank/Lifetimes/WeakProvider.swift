// A `.weak` module's registration: shared while someone holds the instance.

/// Keeps its instance weakly: resolutions share it while someone holds it. A value type has
/// no identity to share, so it is made anew at each resolution.
@usableFromInline
final class WeakProvider<Value>: SharedProvider<Value> {
  private weak var object: AnyObject?

  override func keptInstance(generation: inout UInt) throws(NothingKept) -> Value {
    guard let value = object.flatMap({ $0 as? Value }) else { throw NothingKept() }
    return value
  }

  override func store(_ value: Value, madeIn generation: UInt) {
    guard Swift.type(of: value as Any) is AnyObject.Type else { return }
    object = value as AnyObject
    // An async one, decorated or not, lives until the `resolveAsync` or `start()` that made
    // it returns, so that reading it twice there does not make it twice.
    if terms.isAsync { AsyncRound.current?.held.withLock { $0.append(Handed(value)) } }
  }
}
