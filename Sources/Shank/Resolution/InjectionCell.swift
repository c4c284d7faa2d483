// The storage behind an `@Inject` property: resolved once, then read with one acquire load.

import _ShankAtomics

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where an ``Inject`` property keeps what it resolved, shared by copies of the wrapper.
///
/// The property's name, site and container sit in the header; the one element is a
/// ``OnceFlag`` word followed by the value. A read after the first loads the word and copies
/// the value from the cell itself, with no pointer to follow in between.
@usableFromInline
final class InjectionCell<Value>: ManagedBuffer<InjectedProperty, InjectionSlot<Value>> {
  /// A cell that resolves on its first read.
  static func make(name: String?, site: SourceSite) -> InjectionCell {
    let maker = ResolutionTrace.unretainedMakingContainer?.takeUnretainedValue()
    return make(
      InjectedProperty(name: name, site: site, maker: maker, makerOrigin: maker?.handle),
      OnceFlag.empty)
  }

  private static func make(_ property: InjectedProperty, _ state: UInt) -> InjectionCell {
    let cell = unsafeDowncast(create(minimumCapacity: 1) { _ in property }, to: InjectionCell.self)
    _ = cell.withUnsafeMutablePointerToElements {
      UnsafeMutableRawPointer($0).initializeMemory(as: UInt.self, repeating: state, count: 1)
    }
    return cell
  }

  deinit {
    withUnsafeMutablePointerToElements { slot in
      if Self.isPublished(slot) { Self.value(in: slot).deinitialize(count: 1) }
    }
  }

  var name: String? { header.name }
  var site: SourceSite { header.site }

  /// The cell's word and value, at `address`, the cell's own address.
  @inlinable @inline(__always)
  static func slot(at address: UnsafeRawPointer) -> UnsafeMutablePointer<InjectionSlot<Value>> {
    Unmanaged<InjectionCell>.fromOpaque(address)._withUnsafeGuaranteedRef {
      $0.withUnsafeMutablePointerToElements { $0 }
    }
  }

  /// Whether `slot` holds its published value, which any thread may then read.
  @inlinable @inline(__always)
  static func isPublished(_ slot: UnsafeMutablePointer<InjectionSlot<Value>>) -> Bool {
    _shank_load_acquiring(UnsafeRawPointer(slot).assumingMemoryBound(to: UInt.self))
      == OnceFlag.published
  }

  /// The value's place in `slot`, after the word, as the value's alignment allows.
  @inlinable @inline(__always)
  static func value(in slot: UnsafeMutablePointer<InjectionSlot<Value>>)
    -> UnsafeMutablePointer<Value>
  {
    let offset = max(MemoryLayout<UInt>.stride, MemoryLayout<Value>.alignment)
    return (UnsafeMutableRawPointer(slot) + offset).assumingMemoryBound(to: Value.self)
  }

  /// A cell for the same property that already holds `newValue`.
  @usableFromInline
  func replacing(with newValue: Value) -> InjectionCell {
    let cell = Self.make(header, OnceFlag.published)
    cell.withUnsafeMutablePointerToElements { Self.value(in: $0).initialize(to: newValue) }
    return cell
  }

  /// The first read: resolves outside any lock, then publishes, or takes the winner's value.
  @usableFromInline
  func resolve() -> Value {
    // One copy of the header: in a debug build this frame stays on the stack through every
    // resolution nested in the first read, and each `header` read would be a copy of its own.
    let property = header
    let resolved: Value
    do {
      resolved = try property.container(resolving: Value.self)
        .value(Value.self, name: property.name, site: property.site)
    } catch {
      Dependencies.stop(error, at: property.site)
    }
    return withUnsafeMutablePointerToElements { slot in
      let word = UnsafeMutableRawPointer(slot).assumingMemoryBound(to: UInt.self)
      if _shank_compare_exchange_acquiring(word, OnceFlag.empty, OnceFlag.claimed) {
        Self.value(in: slot).initialize(to: resolved)
        _shank_store_releasing(word, OnceFlag.published)
        return resolved
      }
      while !Self.isPublished(slot) { sched_yield() }
      return Self.value(in: slot).pointee
    }
  }
}

/// What an ``Inject`` property was declared with: the header of its ``InjectionCell``.
@usableFromInline
struct InjectedProperty {
  let name: String?
  let site: SourceSite
  /// The container whose factory was running when the property was declared, if any. Weak,
  /// because a shared module holding it would otherwise keep its own container alive; and
  /// here, not in the container's handle, so that only a container whose factories declare
  /// properties pays for a weak reference, which moves every retain and release of it to
  /// the slow path.
  weak var maker: Dependencies?
  /// Where that container was made, which outlives it, for the message of a read after it
  /// was released; `nil` for a property declared outside any factory.
  let makerOrigin: ContainerHandle?

  /// The container to resolve from: the one that made the instance, else, for a property
  /// declared outside any factory, ``Dependencies/current``.
  ///
  /// A function of its own, so that its frame is gone before the resolution it starts: a
  /// chain of first reads nests one `resolve()` frame a level, not this one too.
  ///
  /// A making container released since stops the read: the instance belongs to that
  /// container's graph, and ``Dependencies/current`` may be another graph altogether (a root
  /// built since, a test's overrides), whose module it would be handed without a word.
  @inline(never)
  func container<Value>(resolving: Value.Type) -> Dependencies {
    guard let makerOrigin else { return Dependencies.current }
    if let maker { return maker }
    let error = ResolutionError(
      .released(container: Dependencies.origin(of: makerOrigin.site)),
      key: KeyDescription(Value.self, name: name), site: site)
    Dependencies.stop(error, at: site)
  }
}

/// An ``InjectionCell``'s element, which gives it its size and alignment: a ``OnceFlag``
/// word, then the value, written once by the thread that claimed the word and read only once
/// the word says it is published. Only ever touched through raw pointers.
@usableFromInline
struct InjectionSlot<Value> {
  var state: UInt
  var value: Value
}
