/// The modules of a container and which module injects which, from ``Dependencies/graph()``.
///
/// Render it with Mermaid or Graphviz as it is:
///
/// ```swift
/// let graph = dependencies.graph()
/// print(graph.mermaid)  // paste into a Markdown ```mermaid block
/// print(graph.dot)      // pipe into `dot -Tsvg`
/// ```
public struct DependencyGraph: Sendable, Hashable {
  /// A registered key.
  public struct Node: Sendable, Hashable {
    /// An identifier unique in the graph, made of letters, digits and underscores.
    public let id: String
    /// The registered type, as written in code.
    public let typeName: String
    /// The registered name, or `nil`.
    public let name: String?
    /// The scope it was registered with.
    public let scope: Scope

    /// The node as people read it: `SampleModuleType "abc" · .singleton`.
    public var label: String {
      let named = name.map { "\(typeName) \"\($0)\"" } ?? typeName
      return scope == .unique ? named : "\(named) · \(scope)"
    }

    static func identifier(for key: KeyDescription, avoiding used: inout Set<String>) -> String {
      let raw = key.name.map { "\(key.typeName)_\($0)" } ?? key.typeName
      let base = String(raw.map { $0.isLetter || $0.isNumber ? $0 : "_" })
      var id = base
      var suffix = 2
      while !used.insert(id).inserted {
        id = "\(base)_\(suffix)"
        suffix += 1
      }
      return id
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

  /// The graph as a Mermaid flowchart.
  public var mermaid: String {
    var lines = ["flowchart LR"]
    lines += nodes.map { "  \($0.id)[\"\(Self.escapedForMermaid($0.label))\"]" }
    lines += edges.map { "  \($0.from) -->|\(Self.escapedForMermaid($0.property))| \($0.to)" }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The graph in Graphviz's DOT language.
  public var dot: String {
    var lines = ["digraph Dependencies {", "  rankdir=LR;", "  node [shape=box];"]
    lines += nodes.map { "  \($0.id) [label=\"\(Self.escapedForDOT($0.label))\"];" }
    lines += edges.map {
      "  \($0.from) -> \($0.to) [label=\"\(Self.escapedForDOT($0.property))\"];"
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  // `String.replacing(_:with:)` needs macOS 13; the package supports 10.15.
  private static func escapedForMermaid(_ text: String) -> String {
    text.reduce(into: "") { escaped, character in
      switch character {
      case "\"": escaped += "#quot;"
      case "|": escaped += "#124;"
      default: escaped.append(character)
      }
    }
  }

  private static func escapedForDOT(_ text: String) -> String {
    text.reduce(into: "") { escaped, character in
      if character == "\"" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
  }
}
