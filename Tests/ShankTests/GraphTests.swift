import Foundation
import Shank
import Testing

@Suite struct GraphTests {
  let graph = Dependencies { shopModules() }.graph()

  @Test func nodesAreTheRegisteredKeysWithTheirScopes() {
    #expect(
      graph.nodes.map(\.label) == [
        "ShopAppModuleType · .singleton", "CartModuleType", "PaymentsModuleType",
        "LedgerModuleType \"primary\"",
      ])
  }

  @Test func edgesAreTheModulesEachOneInjects() {
    #expect(
      graph.edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "CartModuleType -app-> ShopAppModuleType",
        "PaymentsModuleType -cart-> CartModuleType",
        "PaymentsModuleType -ledger-> LedgerModuleType_primary",
      ])
  }

  @Test func mermaidTextIsExact() {
    #expect(
      graph.mermaid == """
        flowchart LR
          ShopAppModuleType["ShopAppModuleType · .singleton"]
          CartModuleType["CartModuleType"]
          PaymentsModuleType["PaymentsModuleType"]
          LedgerModuleType_primary["LedgerModuleType #quot;primary#quot;"]
          CartModuleType -->|app| ShopAppModuleType
          PaymentsModuleType -->|cart| CartModuleType
          PaymentsModuleType -->|ledger| LedgerModuleType_primary

        """)
  }

  @Test func dotTextIsExact() {
    #expect(
      graph.dot == """
        digraph Dependencies {
          rankdir=LR;
          node [shape=box];
          ShopAppModuleType [label="ShopAppModuleType · .singleton"];
          CartModuleType [label="CartModuleType"];
          PaymentsModuleType [label="PaymentsModuleType"];
          LedgerModuleType_primary [label="LedgerModuleType \\"primary\\""];
          CartModuleType -> ShopAppModuleType [label="app"];
          PaymentsModuleType -> CartModuleType [label="cart"];
          PaymentsModuleType -> LedgerModuleType_primary [label="ledger"];
        }

        """)
  }

  @Test func identifiersStayUniqueWhenNamesCollideAfterCleaning() {
    let graph = Dependencies {
      Module("a b") { LedgerModule() as LedgerModuleType }
      Module("a-b") { LedgerModule() as LedgerModuleType }
    }.graph()
    #expect(graph.nodes.map(\.id) == ["LedgerModuleType_a_b", "LedgerModuleType_a_b_2"])
  }

  @Test(.enabled(if: Graphviz.path != nil, "Graphviz's dot is not installed"))
  func graphvizRendersTheDotText() throws {
    let svg = try Graphviz.render(graph.dot)
    #expect(svg.contains("<svg"))
    #expect(svg.contains("PaymentsModuleType"))
  }
}

/// Graphviz's `dot`, where it is installed.
enum Graphviz {
  static let path = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  static func render(_ text: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path!)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let svg = output.fileHandleForReading.readDataToEndOfFile()
    let warnings = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(String(decoding: warnings, as: UTF8.self) == "")
    return String(decoding: svg, as: UTF8.self)
  }
}
