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

  @Test func aNodeNamedLikeALayersSubgraphGetsAnotherIdentifier() {
    let root = Dependencies { Module { Layer1Module() as Layer1 } }
    let child = Dependencies(over: root) { Module { ServiceImpl() as Service } }
    let graph = child.graph()
    #expect(graph.nodes.map(\.id) == ["Service", "Layer1_2"])
    #expect(graph.mermaid.contains("  subgraph Layer1[\""))
  }

  /// A shared module is made in the container that registers it, so its injections lead to
  /// what that container resolves; a unique one's, to what the container asked resolves.
  @Test func aSharedModulesInjectionsLeadToWhatItsOwnContainerResolves() {
    let root = Dependencies {
      Module("kept", scope: .singleton) { ServiceReader() }
      Module("made") { ServiceReader() }
      Module { ServiceImpl() as Service }
    }
    let child = Dependencies(over: root) { Module { ServiceImpl() as Service } }
    let graph = child.graph()
    // The root's `Service`, which the child hides, is what the kept reader injects.
    #expect(
      graph.nodes.map { "\($0.id) in layer \($0.layer)" } == [
        "Service in layer 0", "ServiceReader_kept in layer 1", "ServiceReader_made in layer 1",
        "Service_2 in layer 1",
      ])
    #expect(
      graph.edges.map { "\($0.from) -\($0.property)-> \($0.to)" } == [
        "ServiceReader_kept -service-> Service_2", "ServiceReader_made -service-> Service",
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

  /// A suffix that another key's identifier took is skipped, as the next one free.
  @Test func identifiersSkipSuffixesOtherNamesTook() {
    let graph = Dependencies {
      Module("a b") { LedgerModule() as LedgerModuleType }
      Module("a_b_2") { LedgerModule() as LedgerModuleType }
      Module("a-b") { LedgerModule() as LedgerModuleType }
      Module("a.b") { LedgerModule() as LedgerModuleType }
    }.graph()
    #expect(
      graph.nodes.map(\.id) == [
        "LedgerModuleType_a_b", "LedgerModuleType_a_b_2", "LedgerModuleType_a_b_3",
        "LedgerModuleType_a_b_4",
      ])
  }

  /// Each of 16,000 contributions of one type gets the next suffix of that type's identifier.
  @Test func manyNodesOfOneTypeAreNumberedInOrder() {
    let count = 16_000
    let graph = Dependencies {
      for index in 0..<count { Module.contribution { Sink("\(index)") as SinkType } }
    }.graph()
    let contributions = graph.nodes.filter { $0.kind == .contribution }.map(\.id)
    #expect(contributions == ["SinkType"] + (2...count).map { "SinkType_\($0)" })
  }

  @Test(.enabled(if: Graphviz.path != nil, "Graphviz's dot is not installed"))
  func graphvizRendersTheDotText() throws {
    let svg = try Graphviz.render(graph.dot)
    #expect(svg.contains("<svg"))
    #expect(svg.contains("PaymentsModuleType"))
  }

  // MARK: Names the formats read specially

  let hostile = Dependencies { hostileModules() }.graph()

  @Test func labelsSpellNamesAsSwiftStringLiterals() {
    #expect(
      hostile.nodes.map(\.label) == [
        #"HostileModuleType "a\nb \"c\" [d] {e} |f| <g> \\h" · .cached("s\n\"")"#,
        #"LedgerModuleType "x\\y\u{07}<z>""#,
        #"LedgerModuleType "&lt; #quot; %%{init: {}}%% direction TB""#,
        "Node",
        "end",
      ])
  }

  @Test func identifiersAreNeverKeywordsOfEitherFormat() {
    #expect(
      hostile.nodes.map(\.id) == [
        "HostileModuleType_a_b__c___d___e___f___g___h", "LedgerModuleType_x_y__z_",
        "LedgerModuleType__lt___quot_____init________direction_TB", "Node_", "N_end",
      ])
  }

  @Test func mermaidWritesEveryCharacterItReadsAsAnEntityCode() {
    // Reflection names a raw identifier's storage with its backticks and an underscore inside
    // them, and writes its space as a no-break space.
    #expect(
      hostile.mermaid == """
        flowchart LR
          HostileModuleType_a_b__c___d___e___f___g___h["HostileModuleType #quot;a#92;nb #92;#quot;c#92;#quot; #91;d#93; #123;e#125; #124;f#124; #60;g#62; #92;#92;h#quot; · .cached#40;#quot;s#92;n#92;#quot;#quot;#41;"]
          LedgerModuleType_x_y__z_["LedgerModuleType #quot;x#92;#92;y#92;u#123;07#125;#60;z#62;#quot;"]
          LedgerModuleType__lt___quot_____init________direction_TB["LedgerModuleType #quot;#38;lt#59; #35;quot#59; #37;#37;#123;init#58; #123;#125;#125;#37;#37; direction#32;TB#quot;"]
          Node_["Node"]
          N_end["end"]
          HostileModuleType_a_b__c___d___e___f___g___h -->|#96;_p#quot;q#quot;#91;r#93;#123;s#125;#124;t#124;#60;u#62;#38;#35;35#59;direction#160;LR#96;| LedgerModuleType_x_y__z_

        """)
  }

  @Test func dotEscapesEveryCharacterItReads() {
    #expect(
      hostile.dot == #"""
        digraph Dependencies {
          rankdir=LR;
          node [shape=box];
          HostileModuleType_a_b__c___d___e___f___g___h [label="HostileModuleType \"a\\nb \\\"c\\\" [d] {e} |f| <g> \\\\h\" · .cached(\"s\\n\\\"\")"];
          LedgerModuleType_x_y__z_ [label="LedgerModuleType \"x\\\\y\\u{07}<z>\""];
          LedgerModuleType__lt___quot_____init________direction_TB [label="LedgerModuleType \"&amp;lt; #quot; %%{init: {}}%% direction TB\""];
          Node_ [label="Node"];
          N_end [label="end"];
          HostileModuleType_a_b__c___d___e___f___g___h -> LedgerModuleType_x_y__z_ [label="`_p\"q\"[r]{s}|t|<u>&amp;#35;direction\#u{A0}LR`"];
        }

        """#)
  }

  @Test(.enabled(if: Graphviz.path != nil, "Graphviz's dot is not installed"))
  func graphvizShowsEveryNameAsItsLabelReads() throws {
    let svg = try Graphviz.render(hostile.dot)
    for text in hostile.nodes.map(\.label) + hostile.edges.map(\.property) {
      #expect(svg.contains(">\(Graphviz.svgText(text))</text>"), "\(text)")
    }
  }

  @Test func graphListsEveryModuleWhenFactoriesFail() {
    let dependencies = Dependencies {
      scenarioModules
      Module("a") { () -> Service in
        _ = Dependencies.resolve(NeverRegistered.self)
        return ServiceImpl()
      }
      Module("b") { () throws -> Service in throw ConfigurationMissing(key: "b") }
      Module(scope: .singleton) { () -> OtherService in
        _ = Dependencies.resolve(Service.self, name: "a")
        return OtherServiceImpl()
      }
    }
    #expect(dependencies.graph().nodes.count == 8)
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

  /// `text` as Graphviz writes it in an SVG `<text>` element.
  static func svgText(_ text: String) -> String {
    text.reduce(into: "") { escaped, character in
      switch character {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "-": escaped += "&#45;"
      default: escaped.append(character)
      }
    }
  }
}

// MARK: - Hostile names

/// A module whose name, scope name and injected property hold every character Mermaid or
/// DOT reads specially.
protocol HostileModuleType {}

struct HostileModule: HostileModuleType {
  @Inject(#"x\y"# + "\u{7}<z>") private var `p"q"[r]{s}|t|<u>&#35;direction LR`: LedgerModuleType
}

/// Types whose names are keywords: `Node` in DOT, in any case; `end` in Mermaid.
enum Keywords {
  protocol Node {}
  // swift-format-ignore: TypeNamesShouldBeCapitalized
  // Lower-case on purpose: Mermaid reads `end` as the end of a subgraph.
  protocol end {}
  struct Made: Node, end {}
}

func hostileModules() -> [Module] {
  [
    Module("a\nb \"c\" [d] {e} |f| <g> \\h", scope: .cached("s\n\"")) {
      HostileModule() as HostileModuleType
    },
    Module(#"x\y"# + "\u{7}<z>") { LedgerModule() as LedgerModuleType },
    Module("&lt; #quot; %%{init: {}}%% direction TB") { LedgerModule() as LedgerModuleType },
    Module { Keywords.Made() as Keywords.Node },
    Module { Keywords.Made() as Keywords.end },
  ]
}

/// A module type whose name is what the Mermaid text calls the first layer underneath.
protocol Layer1 {}
struct Layer1Module: Layer1 {}

/// Injects a `Service`, for graphs of layers: a shared one reads from the container that
/// registers it, a unique one from the container it is resolved from.
final class ServiceReader {
  static let line = #line + 1
  @Inject var service: Service
}
