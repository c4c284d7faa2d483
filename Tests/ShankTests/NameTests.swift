import Foundation
import Shank
import Testing

/// Names that Swift compares equal are one key everywhere, however their bytes are spelled;
/// any other name, the empty one too, is a key of its own.
@Suite struct NameTests {
  /// Twenty names, each in its precomposed and its decomposed spelling.
  static let pairs: [(precomposed: String, decomposed: String)] = (0..<20).map {
    ("caf\u{E9}\($0)", "cafe\u{301}\($0)")
  }

  @Test func equalNamesSpelledApartAreOneKeyAndTheLaterWins() throws {
    let dependencies = Dependencies {
      for pair in Self.pairs {
        Module(pair.precomposed, scope: .singleton) { "first " + pair.precomposed }
        Module(pair.decomposed, scope: .singleton) { "second " + pair.decomposed }
      }
      Module { 1 }
      Module { 2 }
    }
    for pair in Self.pairs {
      let either = [pair.precomposed, pair.decomposed]
      for name in either {
        #expect(
          try dependencies.resolveOrThrow(String.self, name: name) == "second " + pair.decomposed)
      }
    }
    #expect(dependencies.resolve(Int.self) == 2)
    #expect(dependencies.graph().nodes.count == Self.pairs.count + 1)
  }

  @Test func aScalarEquivalentToAsciiIsTheAsciiName() throws {
    // U+212A KELVIN SIGN is canonically equivalent to "K"; U+037E to ";".
    let dependencies = Dependencies {
      Module("\u{212A}elvin\u{37E}") { "sign" }
      Module("Kelvin;") { "letter" }
    }
    #expect(try dependencies.resolveOrThrow(String.self, name: "Kelvin;") == "letter")
    #expect(try dependencies.resolveOrThrow(String.self, name: "\u{212A}elvin\u{37E}") == "letter")
    #expect(dependencies.graph().nodes.count == 1)
  }

  @Test func eitherSpellingFindsTheOtherInAnOverrideLayer() {
    let root = Dependencies { Module("caf\u{E9}") { "root" } }
    let found = Dependencies.withOverrides {
      Module("cafe\u{301}") { "override" }
    } operation: {
      Dependencies.current.resolve(String.self, name: "caf\u{E9}")
    }
    _ = root
    #expect(found == "override")
  }

  @Test func anOverrideUnderTheOtherSpellingReplacesTheRootsSingleton() throws {
    let root = Dependencies { Module("caf\u{E9}", scope: .singleton) { "root" } }
    let child = Dependencies(over: root) { Module("cafe\u{301}", scope: .singleton) { "child" } }
    #expect(try child.resolveOrThrow(String.self, name: "caf\u{E9}") == "child")
    #expect(try child.resolveOrThrow(String.self, name: "cafe\u{301}") == "child")
    #expect(try root.resolveOrThrow(String.self, name: "cafe\u{301}") == "root")
  }

  @Test func aMissListsTheOtherSpellingAsRegistered() {
    let dependencies = Dependencies { Module("caf\u{E9}") { 1 } }
    #expect(throws: Never.self) { try dependencies.resolveOrThrow(Int.self, name: "cafe\u{301}") }
    #expect(throws: ResolutionError.self) {
      try dependencies.resolveOrThrow(Int.self, name: "cafe")
    }
  }

  @Test func namesWithNewlinesAndControlCharactersAreKeysLikeAnyOther() throws {
    let names = ["a\nb", "a\r\nb", "\t", "", "\u{0}", String(repeating: "ü", count: 300)]
    let dependencies = Dependencies {
      for (index, name) in names.enumerated() { Module(name) { index } }
    }
    for (index, name) in names.enumerated() {
      #expect(try dependencies.resolveOrThrow(Int.self, name: name) == index)
    }
  }

  @Test func canonicallyEquivalentNamesAreOneKey() {
    let container = Dependencies {
      Module("caf\u{E9}") { "composed" }
      Module("\u{212A}elvin") { "kelvin sign" }
      Module { "unnamed" }
      Module("") { "empty name" }
    }
    #expect(container.resolve(String.self, name: "caf\u{E9}") == "composed")
    #expect(container.resolve(String.self, name: "cafe\u{301}") == "composed")
    #expect(container.resolve(String.self, name: "Kelvin") == "kelvin sign")
    #expect(container.resolve(String.self) == "unnamed")
    #expect(container.resolve(String.self, name: "") == "empty name")
    #expect(container.resolve(String?.self, name: "cafe") == nil)

    let replaced = Dependencies {
      Module("caf\u{E9}") { "first" }
      Module("cafe\u{301}") { "second" }
    }
    #expect(replaced.resolve(String.self, name: "caf\u{E9}") == "second")
    #expect(replaced.resolve(String.self, name: "cafe\u{301}") == "second")
    #expect(replaced.graph().nodes.count == 1, "one key, so one module")

    Dependencies.withOverrides {
      Module("cafe\u{301}") { 1 }
    } operation: {
      let holder = ComposedNameHolder()
      #expect(holder.composed == 1)
    }
  }

  @Test func shortAndLongNamesAreOneKeyInEitherSpellingAndNotTheUnnamedKey() throws {
    let container = Dependencies {
      Module("caf\u{E9}") { NamedValue(value: "composed") }
      Module("r\u{E9}sum\u{E9} of a name longer than sixteen bytes") { NamedValue(value: "long") }
    }
    #expect(try container.resolveOrThrow(NamedValue.self, name: "cafe\u{301}").value == "composed")
    #expect(
      try container.resolveOrThrow(
        NamedValue.self, name: "re\u{301}sume\u{301} of a name longer than sixteen bytes"
      ).value == "long")
    let error = try #require(resolutionError { try container.resolveOrThrow(NamedValue.self) })
    #expect(error.reason == .notRegistered)
  }

  @Test func injectWithTheOtherSpellingReadsTheModule() {
    Dependencies.withOverrides {
      Module("caf\u{E9}") { NamedValue(value: "composed") }
    } operation: {
      #expect(DecomposedNameHolder().decomposed.value == "composed")
    }
  }

  @Test func equivalentNamesInALayerOverABuiltRootThroughInjectVerifyAndGraph() async {
    await #expect(processExitsWith: .success) {
      Dependencies {
        Module("\u{212A}ey-caf\u{E9}") { ServiceImpl() as Service }
        Module("\u{212A}ey-caf\u{E9}", scope: .singleton) { OtherServiceImpl() as OtherService }
      }.build()
      Dependencies.withOverrides {
        Module("Key-cafe\u{301}") { MockService() as Service }
      } operation: {
        let consumer = EquivalentNameConsumer()
        precondition(consumer.service is MockService)
        precondition(consumer.other is OtherServiceImpl)
        let graph = Dependencies.current.graph()
        precondition(graph.nodes.count == 2, "\(graph.nodes)")
        try! Dependencies.current.verify(consumers: consumer)
      }
    }
  }

  /// Scalars whose spellings differ but compare equal, or nearly so: every non-ASCII scalar
  /// canonically equal to ASCII (U+212A, U+037E, U+1FEF), precomposed and decomposed letters,
  /// Hangul syllables and jamo, grapheme joiners, compatibility-only lookalikes.
  static let alphabet: [String] = [
    "K", "\u{212A}", "e", "\u{301}", "\u{E9}", ";", "\u{37E}", "`", "\u{1FEF}", "\u{300}",
    "\u{340}", "A", "\u{212B}", "\u{C5}", "\u{30A}", "\u{1100}", "\u{1161}", "\u{AC00}", "\r",
    "\n", "\u{200D}", "\u{1F469}", "a", "\u{0}", "\u{FB01}", "\u{1E30}", "\u{327}", "\u{323}",
    "\u{1E0B}", "\u{1E0D}", "d", "\u{307}", "\u{2126}", "\u{3A9}",
  ]

  @Test(arguments: 0..<3)
  func randomNamesThatCompareEqualAreOneKeyAndTheLastWins(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let names = (0..<4_000).map { _ in
      (0..<Int(random.next() % 7)).map { _ in
        Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
      }.joined()
    }
    // The same names again, round-tripped through Foundation and cut out of longer strings.
    var registered = names
    for name in names.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
      registered.append(String(NSString(string: name)))
      registered.append(String(("<" + name + ">").dropFirst().dropLast()))
    }
    let dependencies = Dependencies {
      for (index, name) in registered.enumerated() { Module(name) { index } }
    }
    var winner: [String: Int] = [:]
    for (index, name) in registered.enumerated() { winner[name] = index }
    var wrong: [String] = []
    for name in Set(registered)
    where try dependencies.resolveOrThrow(Int.self, name: name) != winner[name] {
      wrong.append(name)
    }
    #expect(wrong.isEmpty, "\(wrong.map { Array($0.unicodeScalars) })")
    #expect(dependencies.graph().nodes.count == winner.count)
  }

  @Test func aHundredThousandRegistrationsWithEquivalentPairs() throws {
    let count = 100_000
    let dependencies = Dependencies {
      for index in 0..<count {
        switch index % 3 {
        case 0: Module("caf\u{E9}\(index / 3)") { index }
        case 1: Module("cafe\u{301}\(index / 3)") { index }
        default: Module("\u{212A}elvin\(index)") { index }
        }
      }
    }
    for index in stride(from: 0, to: count, by: 97) {
      let pair = index / 3
      #expect(try dependencies.resolveOrThrow(Int.self, name: "caf\u{E9}\(pair)") == pair * 3 + 1)
      #expect(try dependencies.resolveOrThrow(Int.self, name: "cafe\u{301}\(pair)") == pair * 3 + 1)
      if index % 3 == 2 {
        #expect(try dependencies.resolveOrThrow(Int.self, name: "Kelvin\(index)") == index)
      }
    }
  }

  @Test func emptyAndMissingNamesAreDifferentKeys() throws {
    let dependencies = Dependencies {
      Module { 1 }
      Module("") { 2 }
      Module(String(repeating: "\u{212A}", count: 10_000)) { 3 }
    }
    #expect(try dependencies.resolveOrThrow(Int.self) == 1)
    #expect(try dependencies.resolveOrThrow(Int.self, name: "") == 2)
    #expect(
      try dependencies.resolveOrThrow(Int.self, name: String(repeating: "K", count: 10_000)) == 3)
  }

  @Test func anEmptyNameIsNotTheUnnamedKey() throws {
    let container = Dependencies {
      Module("") { NamedValue(value: "empty") }
    }
    #expect(try container.resolveOrThrow(NamedValue.self, name: "").value == "empty")
    let error = try #require(resolutionError { try container.resolveOrThrow(NamedValue.self) })
    #expect(error.reason == .notRegistered)
  }

  @Test func manyNamesOfOneTypeAndTheUnnamedOneAllResolve() {
    let names = (0..<300).map { "name-\($0)" }
    let container = Dependencies {
      for name in names { Module(name) { name } }
      Module { "unnamed" }
      Module("\u{1F600}") { "emoji" }
    }
    #expect(container.resolve(String.self) == "unnamed")
    for name in names { #expect(container.resolve(String.self, name: name) == name) }
    #expect(container.resolve(String.self, name: "\u{1F600}") == "emoji")
    #expect(container.resolve(String?.self, name: "name-300") == nil)
    // Through a child that adds nothing of the type: the child's miss falls through.
    let child = Dependencies(over: container) { Module { 0 } }
    #expect(child.resolve(String.self) == "unnamed")
    #expect(child.resolve(String.self, name: "name-299") == "name-299")
  }

  @Test func aNearMissUnderAnEquivalentNameIsTheSameName() {
    let dependencies = Dependencies { Module("caf\u{E9}") { ServiceImpl() as Service } }
    let error = resolutionError {
      try dependencies.resolveOrThrow(OtherService.self, name: "cafe\u{301}")
    }
    #expect(error?.nearMisses == ["Service named \"caf\u{E9}\": the same name, another type"])
  }
}

// MARK: - Fixtures

final class ComposedNameHolder {
  @Inject("caf\u{E9}") var composed: Int
}

final class DecomposedNameHolder {
  @Inject("cafe\u{301}") var decomposed: NamedValue
}

final class EquivalentNameConsumer {
  @Inject("Key-cafe\u{301}") var service: Service
  @Inject("Key-cafe\u{301}") var other: OtherService
}
