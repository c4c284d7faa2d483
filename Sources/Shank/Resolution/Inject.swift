/// A module resolved on first read and kept in the property from then on.
///
/// ```swift
/// final class WidgetViewController {
///   @Inject private var widgets: WidgetModuleType
///   @Inject("abc") private var sample: SampleModuleType
///   @Inject private var analytics: AnalyticsModuleType?  // nil when not registered
///   private lazy var worker: WidgetWorkerType = widgets.component()
/// }
/// ```
///
/// The first read resolves from ``Dependencies/current``, so it sees the overrides of the task
/// it runs in; later reads return the kept value after one atomic load, with no lock. A module
/// made by a container (its factory declares the module's `@Inject` properties) resolves them
/// from that same container, so `dependencies.resolve(…)` on a container that was never built
/// works all the way down; if that container was released before the first read, the read
/// stops with a message that says so and where it was made. When several threads read first at once, they all get the same
/// instance. A module struct `@Inject`s the modules it
/// needs the same way, and its `component()` functions read them.
///
/// When nothing is registered, the first read stops the program with a message that names
/// the type, the name and this property's file and line; an optional property type gives `nil`.
/// In a test run with no root built and no override applied, the message names the
/// `.dependencies { }` trait and ``Dependencies/withOverrides(_:fileID:line:operation:)``
/// instead of ``Dependencies/build()``.
///
/// > Note: Assigning to the property replaces the kept value for that property only, which
/// > then never resolves: ``Dependencies/verify(consumers:)`` does not check it.
@propertyWrapper
public struct Inject<Value> {
  /// Keeps the cell alive for as long as any copy of the wrapper exists.
  @usableFromInline var owner: InjectionCell<Value>
  /// The address of `owner`'s value, which reads go through: a read through `owner` itself
  /// retains and releases the cell, and that was most of the cost of a read.
  @usableFromInline var kept: OnceValue<InjectedProperty, Value>

  /// Declares a module to resolve on first read.
  ///
  /// - Parameters:
  ///   - name: The name the module was registered under, as in `Module("abc") { … }`; `nil`
  ///     for the unnamed one.
  ///   - fileID: The file that declares the property, for diagnostics; leave it to its default.
  ///   - line: The line that declares the property, for diagnostics; leave it to its default.
  public init(_ name: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
    owner = InjectedProperty.cell(name: name, site: SourceSite(fileID: fileID, line: line))
    kept = owner.value
  }

  /// The module: resolved on the first read, the kept instance afterwards.
  public var wrappedValue: Value {
    @inlinable get {
      if _fastPath(kept.isPublished) { return kept.published }
      return InjectedProperty.resolve(kept)
    }
    // This copy of the wrapper gets a cell of its own that already holds `newValue`, and
    // asks nothing of any container from then on.
    set {
      var property = owner.value.context
      property.isAssigned = true
      owner = InjectionCell.make(property)
      kept = owner.value
      _ = kept.publish(newValue)
    }
  }
}

// The cell publishes its one value through `OnceFlag`; a `Sendable` value may cross threads.
extension Inject: @unchecked Sendable where Value: Sendable {}
