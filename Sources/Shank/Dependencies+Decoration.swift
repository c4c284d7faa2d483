extension Dependencies {
  /// `value` wrapped by every decorator of `Value` here and underneath: those underneath
  /// first, each container's in registration order.
  @usableFromInline
  func decorated<Value>(_ value: Value, at site: SourceSite) throws(ResolutionError) -> Value {
    var layers: [Dependencies] = []
    var current: Dependencies? = self
    while let layer = current {
      layers.append(layer)
      current = layer.parent
    }
    var decorated = value
    for layer in layers.reversed() {
      for entry in layer.table.decorators[ObjectIdentifier(Value.self)] ?? [] {
        let decoration = Unmanaged<Decoration<Value>>.fromOpaque(entry.toOpaque())
        decorated = try decoration.takeUnretainedValue().apply(decorated, at: site)
      }
    }
    return decorated
  }
}
