/// A weak reference in a box of its own, for the one scope that keeps its instance weakly.
final class WeakReference {
  weak var object: AnyObject?
}
