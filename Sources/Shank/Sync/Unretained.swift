// A reference that neither retains nor releases the object it names.
//
// Sound because an `Unretained` is only ever read while something else owns its object, and
// each one that is stored says what that is where it is declared: a container's table owns its
// registrations (through its list of them), each layer owns its parent,
// the running resolution owns its container (hazard slot, task-local or trace frame), and the
// thread owns its trace. A `downcast` is sound because the caller knows the object's class: the
// table entry for `T` under a name is always a `Provider<T>`, a decorator of `T` always a
// `Decoration<T>`.

/// A reference that costs no reference counting, for the paths every resolution takes: a
/// retain on each would make threads contend for the object's count.
///
/// Only valid while something else keeps the object alive; see where each is stored.
@usableFromInline
struct Unretained<Object: AnyObject>: BitwiseCopyable {
  @usableFromInline let reference: Unmanaged<Object>

  /// `object`, which something else keeps alive.
  @inlinable @inline(__always)
  init(_ object: borrowing Object) {
    reference = .passUnretained(object)
  }

  @inlinable @inline(__always)
  init(_ reference: Unmanaged<Object>) {
    self.reference = reference
  }

  /// The object at `address`, from a word that holds it; `nil` for 0.
  @inlinable @inline(__always)
  init?(address: UInt) {
    guard let raw = UnsafeRawPointer(bitPattern: address) else { return nil }
    reference = .fromOpaque(raw)
  }

  /// The object's address, to keep in a word or to compare.
  @inlinable @inline(__always)
  var address: UInt { UInt(bitPattern: reference.toOpaque()) }

  /// A strong reference to the object, for paths that are not resolution's.
  @inlinable @inline(__always)
  func takeUnretainedValue() -> Object {
    reference.takeUnretainedValue()
  }

  /// Runs `body` with the object, neither retained nor released.
  ///
  /// The standard library's `_withUnsafeGuaranteedRef` rethrows untyped errors; this keeps
  /// ``ResolutionError`` typed, and costs nothing unless something is thrown.
  @inlinable @inline(__always)
  func borrow<Result>(_ body: (Object) throws(ResolutionError) -> Result)
    throws(ResolutionError) -> Result
  {
    do {
      return try reference._withUnsafeGuaranteedRef(body)
    } catch {
      // `body` throws nothing else.
      throw error as! ResolutionError
    }
  }

  /// Runs `body`, which throws nothing, with the object, neither retained nor released.
  @inlinable @inline(__always)
  func read<Result>(_ body: (Object) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef(body)
  }

  /// The same object as `Subclass`, which the caller knows it to be: no dynamic cast.
  @inlinable @inline(__always)
  func downcast<Subclass: AnyObject>(to subclass: Subclass.Type) -> Unretained<Subclass> {
    Unretained<Subclass>(.fromOpaque(reference.toOpaque()))
  }

  /// Whether both name the same object.
  @inlinable @inline(__always)
  static func === (lhs: Unretained, rhs: Unretained) -> Bool {
    lhs.reference.toOpaque() == rhs.reference.toOpaque()
  }
}
