import Shank
import Testing

/// Names that Swift compares equal are one key everywhere, however their bytes are spelled.
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
}
