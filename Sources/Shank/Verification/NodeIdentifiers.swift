/// The ``DependencyGraph/Node/id``s of one graph, each unique in it.
struct NodeIdentifiers {
  private var used: Set<String> = []
  /// For each base taken, the suffix to try next: every one below it is taken, so numbering
  /// many nodes of one key is linear, not a search from `_2` for each.
  private var nextSuffix: [String: Int] = [:]

  /// Identifiers for a graph whose other identifiers, such as its subgraphs', are `reserved`.
  init(reserving reserved: [String] = []) {
    used = Set(reserved)
  }

  /// The identifier of `key`'s node: its type and name in plain characters, with `_2`, `_3`,
  /// … after it when an earlier node took it.
  mutating func identifier(for key: KeyDescription) -> String {
    let base = Self.base(for: key)
    guard !used.insert(base).inserted else { return base }
    var suffix = nextSuffix[base] ?? 2
    while !used.insert("\(base)_\(suffix)").inserted { suffix += 1 }
    nextSuffix[base] = suffix + 1
    return "\(base)_\(suffix)"
  }

  private static func base(for key: KeyDescription) -> String {
    let raw = key.name.map { "\(key.typeName)_\($0)" } ?? key.typeName
    var base = String(raw.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    // Mermaid's keywords (`end`, `class`, `style`, …) are lower-case and read as such even
    // at the start of a longer word; DOT's (`node`, `graph`, …) are whole words in any case.
    // Every character is ASCII by now, so a capital letter first is an ASCII one.
    if base.first?.isUppercase != true { base = "N_" + base }
    if dotKeywords.contains(base.lowercased()) { base += "_" }
    return base
  }

  private static let dotKeywords: Set<String> = [
    "node", "edge", "graph", "digraph", "subgraph", "strict",
  ]
}
