// How a container applies its decorators and those of the layers underneath.

extension Dependencies {
  /// `value` wrapped by every decorator of `Value` here and underneath: those underneath
  /// first, each container's in registration order.
  @usableFromInline
  func decorated<Value>(_ value: Value, at site: SourceSite) throws(ResolutionError) -> Value {
    try decorated(value, by: layers(downTo: nil), at: site)
  }

  /// `value`, which `owner` underneath keeps and made as `registration` says, wrapped by the
  /// decorators of `Value` from this container down to `owner`, not `owner`'s own, which
  /// wrapped it as it was made. Decorated once for each instance underneath (for a `.cached`
  /// value type, once for each `generation`), and kept by the topmost layer with such
  /// decorators, so that the layers over it share its decoration.
  func decorated<Value>(
    _ value: Value, keptBy registration: Registration, generation: UInt?,
    in owner: Dependencies, at site: SourceSite
  ) throws(ResolutionError) -> Value {
    let type = ObjectIdentifier(Value.self)
    // The keeper is the topmost open layer with decorators for the type; the layer list is
    // only built when it has not kept this instance's decoration yet.
    var current: Dependencies? = self
    while let layer = current, layer !== owner,
      layer.table.decorators[type] == nil || layer.isClosedToThisThread
    {
      current = layer.parent
    }
    guard let keeper = current, keeper !== owner, let keeping = keeper.keptDecorations else {
      return value
    }
    if let kept = keeping.decorated(of: value, madeBy: registration, generation: generation) {
      return kept as! Value
    }
    let layers = keeper.layers(downTo: owner).filter { $0.table.decorators[type] != nil }
    let decorated = try decorated(value, by: layers, at: site)
    return keeping.keep(decorated, of: value, madeBy: registration, generation: generation)
      as! Value
  }

  /// This container and those underneath, down to `bottom` and without it, but for closed
  /// ones: a closed container's decorators are gone with its modules.
  private func layers(downTo bottom: Dependencies?) -> [Dependencies] {
    var layers: [Dependencies] = []
    var current: Dependencies? = self
    while let layer = current, layer !== bottom {
      if !layer.isClosedToThisThread { layers.append(layer) }
      current = layer.parent
    }
    return layers
  }

  /// `value` wrapped by the decorators of `layers`, innermost last: the bottom layer's first.
  private func decorated<Value>(
    _ value: Value, by layers: [Dependencies], at site: SourceSite
  ) throws(ResolutionError) -> Value {
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
