/// The modules of a container and which module injects which, from ``Dependencies/graph()``.
///
/// Render it with Mermaid or Graphviz as it is:
///
/// ```swift
/// let graph = dependencies.graph()
/// print(graph.mermaid)  // paste into a Markdown ```mermaid block
/// print(graph.dot)      // pipe into `dot -Tsvg`
/// ```
///
/// Any name renders as it reads in a message: the text is escaped for each format, and node
/// identifiers are made of plain characters.
public struct DependencyGraph: Sendable, Hashable {
  /// A registered key.
  public struct Node: Sendable, Hashable {
    /// An identifier unique in the graph: ASCII letters, digits and underscores, starting
    /// with a capital letter and never one of DOT's keywords, so that both formats read it
    /// as a name.
    public let id: String
    /// The registered type, as written in code.
    public let typeName: String
    /// The registered name, or `nil`.
    public let name: String?
    /// The scope it was registered with.
    public let scope: Scope
    /// What the node registers: a module, a contribution or a decorator.
    public let kind: Kind
    /// The container it is registered in: 0 for the one graphed, 1 for the container that one
    /// is over (a child's parent, an override layer's container), and so on.
    public let layer: Int

    /// The node as people read it: `SampleModuleType "abc" · .singleton`,
    /// `SinkType "remote" · contribution · .singleton` for a contribution, or
    /// `WidgetModuleType · decorator` for a decorator, its name written
    /// as a Swift string literal, as messages write it (`"a\nb"` for a name with a newline).
    public var label: String {
      let plainly = name.map { "\(typeName) \(KeyDescription.quoted($0))" } ?? typeName
      if kind == .decorator { return "\(plainly) · decorator" }
      let named = kind == .contribution ? "\(plainly) · contribution" : plainly
      if case .unique = scope.kind { return named }
      return "\(named) · \(scope)"
    }

    /// What a node registers.
    public enum Kind: Sendable, Hashable {
      /// A module, resolved by its type and name.
      case module
      /// One element of the list of its type, from
      /// ``Module/contribution(_:scope:eager:isolation:fileID:line:onClose:_:)-458nm``.
      case contribution
      /// A decorator of its type, from ``Module/decorating(_:isolation:fileID:line:_:)``.
      case decorator
    }
  }

  /// A module that injects another, through one of its `@Inject` properties.
  public struct Edge: Sendable, Hashable {
    /// The ``Node/id`` of the module that injects.
    public let from: String
    /// The ``Node/id`` of the module injected.
    public let to: String
    /// The name of the `@Inject` property.
    public let property: String
  }

  /// The registered keys, in registration order.
  public let nodes: [Node]
  /// The injections, in the order the modules and their properties were found.
  public let edges: [Edge]

  /// The graph as a Mermaid flowchart. Nodes of the containers underneath, if any, are
  /// grouped in a subgraph per container.
  public var mermaid: String {
    let nodes = nodeLines(
      subgraph: { ["  subgraph Layer\($0)[\"\(Self.layerTitle($0))\"]"] }, end: "  end",
      node: { "\($0.id)[\"\(Self.escapedForMermaid($0.label))\"]" })
    let edges = edges.map { "  \($0.from) -->|\(Self.escapedForMermaid($0.property))| \($0.to)" }
    return (["flowchart LR"] + nodes + edges).joined(separator: "\n") + "\n"
  }

  /// The graph in Graphviz's DOT language.
  public var dot: String {
    let nodes = nodeLines(
      subgraph: { ["  subgraph cluster_\($0) {", "    label=\"\(Self.layerTitle($0))\";"] },
      end: "  }", node: { "\($0.id) [label=\"\(Self.escapedForDOT($0.label))\"];" })
    let edges = edges.map {
      "  \($0.from) -> \($0.to) [label=\"\(Self.escapedForDOT($0.property))\"];"
    }
    let header = ["digraph Dependencies {", "  rankdir=LR;", "  node [shape=box];"]
    return (header + nodes + edges + ["}"]).joined(separator: "\n") + "\n"
  }

  /// A line per node, grouped by ``Node/layer``, nearest first, each group in registration
  /// order; the groups underneath between their `subgraph` lines and `end`.
  private func nodeLines(
    subgraph: (Int) -> [String], end: String, node: (Node) -> String
  ) -> [String] {
    Dictionary(grouping: nodes, by: \.layer).sorted { $0.key < $1.key }.flatMap { layer, members in
      let lines = members.map { (layer == 0 ? "  " : "    ") + node($0) }
      return layer == 0 ? lines : subgraph(layer) + lines + [end]
    }
  }

  /// A subgraph's title: which container underneath its nodes come from.
  private static func layerTitle(_ layer: Int) -> String {
    layer == 1 ? "underneath" : "underneath, \(layer) down"
  }

  /// `text` as Mermaid shows it literally, between quotes or pipes: every character its parser
  /// or its HTML, Markdown and entity handling reads is written as an entity code (`#35;`),
  /// and a control character as its Swift escape, as in messages.
  private static func escapedForMermaid(_ text: String) -> String {
    var escaped = ""
    for scalar in KeyDescription.escaped(text, keepingQuotes: true).unicodeScalars {
      switch scalar {
      case "\"": escaped += "#quot;"
      case "#", "%", "&", "<", ">", "[", "]", "{", "}", "(", ")", "|", ":", ";", "*", "`", "\\":
        escaped += "#\(scalar.value);"
      // Mermaid reads `direction TB` anywhere on a line as a statement.
      case _ where scalar.properties.isWhitespace && escaped.hasSuffix("direction"):
        escaped += "#\(scalar.value);"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// `text` as Graphviz shows it literally in a quoted string: its escapes (`\n`, `\N`, …)
  /// and HTML entities (`&lt;`) are written so that none is expanded, and a control character
  /// as its Swift escape, as in messages.
  private static func escapedForDOT(_ text: String) -> String {
    var escaped = ""
    for scalar in KeyDescription.escaped(text, keepingQuotes: true).unicodeScalars {
      switch scalar {
      case "\"", "\\": escaped += "\\\(scalar)"
      case "&": escaped += "&amp;"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
