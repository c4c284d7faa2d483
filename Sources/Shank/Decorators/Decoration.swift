/// A decorator of `Value`: wraps each instance of `Value` that its container, or a layer over
/// it, makes.
final class Decoration<Value>: Registration {
  private let transform: (Value) throws -> Value

  init(site: SourceSite, isolation: (any Actor)?, transform: @escaping (Value) throws -> Value) {
    self.transform = transform
    let terms = Terms(name: nil, scope: .unique, site: site, isolation: isolation, isEager: false)
    super.init(type: Value.self, terms)
    role = .decorator
  }

  /// `value`, decorated, for a resolution asked for at `site`; inlined into the loop that
  /// applies a type's decorators (see `Dependencies.apply(decoratorsAt:from:to:at:)`).
  @inline(__always)
  func apply(_ value: Value, at site: SourceSite) throws(ResolutionError) -> Value {
    try checkIsolation(at: site)
    // Named as what asks, in a miss or a refusal of what it resolves (see `asker`).
    let trace = ResolutionTrace.unretainedCurrent
    let outer = trace.read { trace in
      defer { trace.decorator = (Unretained(self), trace.depth) }
      return trace.decorator
    }
    defer { trace.read { $0.decorator = outer } }
    do {
      return try transform(value)
    } catch {
      throw decoratorFailure(error, at: site)
    }
  }

  /// What the decorator threw, named by the key whose instance it decorates, as asked for: that
  /// provider is innermost on the trace while its instance is decorated.
  private func decoratorFailure(_ error: any Error, at site: SourceSite) -> ResolutionError {
    let decorated = ResolutionTrace.current.innermost ?? self
    return ResolutionError.thrown(
      error, by: .decorator(registeredAt: self.site), for: decorated.askedKey(),
      at: site)
  }
}
