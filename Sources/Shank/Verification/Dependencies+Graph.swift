// `graph()`: the modules of a container and which injects which.

extension Dependencies {
  /// A picture of the graph: the registered modules and which module injects which.
  ///
  /// ```swift
  /// print(dependencies.graph().mermaid)
  /// ```
  ///
  /// Like ``verify()``, it makes one instance of every module to find its `@Inject` properties.
  /// For a child container or an override layer, it shows what resolution reaches: its own
  /// modules and those of the containers underneath that it does not replace, each node with
  /// the ``DependencyGraph/Node/layer`` it comes from. A shared module underneath is made in
  /// its own container and injects from there: its edges lead where that container resolves,
  /// to a module the layer replaced if need be, which then has a node too.
  ///
  /// - Returns: The nodes (registered keys with their scopes) and edges (module → module it
  ///   injects), with ``DependencyGraph/mermaid`` and ``DependencyGraph/dot`` renderings.
  public func graph() -> DependencyGraph {
    let inspection = GraphInspection(self, checkingReads: false)
    return DependencyGraph(nodes: inspection.nodes, edges: inspection.edges)
  }
}
