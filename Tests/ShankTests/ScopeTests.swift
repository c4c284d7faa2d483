import Testing

@testable import Shank

/// How each scope shares instances, on local containers (no root is built).
@Suite struct ScopeTests {
  // MARK: .unique

  @Test func uniqueMakesANewInstanceAtEveryResolution() {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made, scope: .unique)
    }
    let first = dependencies.resolve(Service.self)
    let second = dependencies.resolve(Service.self)
    let third = dependencies.resolve(Service.self)
    #expect(first !== second)
    #expect(second !== third)
    #expect(first !== third)
    #expect(made.value == 3)
  }

  @Test func uniqueIsTheDefaultScope() {
    let made = Counter()
    let module = Module { () -> Service in
      made.increment()
      return ServiceImpl()
    }
    #expect(module.scope == .unique)
    let dependencies = Dependencies { module }
    #expect(dependencies.resolve(Service.self) !== dependencies.resolve(Service.self))
    #expect(made.value == 2)
  }

  // MARK: .singleton

  /// A singleton's once-word and its instance's address are read and written atomically: they
  /// must sit on `UInt` boundaries after the creation lock, whose primitive is 4 bytes on Darwin.
  @Test(
    arguments: [
      { OnceBox(for: UInt8.self) }, { OnceBox(for: SIMD16<Float>.self) },
      { OnceBox(for: Database.self) }, { OnceBox(for: (any DatabaseType).self) },
    ] as [@Sendable () -> OnceBox])
  func aSingletonsOnceWordsSitOnWordBoundaries(box: @Sendable () -> OnceBox) {
    let words = Int(bitPattern: box().words)
    #expect(words % MemoryLayout<UInt>.alignment == 0)
  }

  @Test func singletonIsSharedAndMadeOnce() {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made, scope: .singleton)
    }
    #expect(made.value == 0, "a singleton is made on first use, not when registered")
    let first = dependencies.resolve(Service.self)
    let second = dependencies.resolve(Service.self)
    #expect(first === second)
    #expect(made.value == 1)
  }

  @Test func namedSingletonIsSharedUnderItsName() {
    let dependencies = Dependencies {
      Module("a", scope: .singleton) { ServiceImpl() as Service }
      Module("b", scope: .singleton) { ServiceImpl() as Service }
    }
    #expect(
      dependencies.resolve(Service.self, name: "a")
        === dependencies.resolve(Service.self, name: "a"))
    #expect(
      dependencies.resolve(Service.self, name: "a")
        !== dependencies.resolve(Service.self, name: "b"))
  }

  @Test func singletonsArePerContainer() {
    let made = Counter()
    let modules = [
      countedService(by: made, scope: .singleton)
    ]
    let one = Dependencies { modules }
    let two = Dependencies { modules }
    let fromOne = one.resolve(Service.self)
    let fromTwo = two.resolve(Service.self)
    #expect(fromOne !== fromTwo)
    #expect(one.resolve(Service.self) === fromOne)
    #expect(two.resolve(Service.self) === fromTwo)
    #expect(made.value == 2)
  }

  @Test func singletonKeepsAValueLargerThanACacheLineIntactAndFreesItWithItsContainer() {
    let freed = Counter()
    var dependencies: Dependencies? = Dependencies {
      Module(scope: .singleton) { LargeValue(lanes: SIMD32(0..<32), token: FreedToken(freed)) }
    }
    do {
      let first = dependencies!.resolve(LargeValue.self)
      let second = dependencies!.resolve(LargeValue.self)
      #expect(first.lanes == SIMD32(0..<32))
      #expect(second.lanes == first.lanes)
      #expect(second.token === first.token)
    }
    #expect(freed.value == 0, "the container keeps its singleton")
    dependencies = nil
    #expect(freed.value == 1, "the container frees its singleton with it")
  }

  // MARK: .weak

  @Test func weakIsSharedWhileHeld() {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made, scope: .weak)
    }
    let held = dependencies.resolve(Service.self)
    let again = dependencies.resolve(Service.self)
    #expect(held === again)
    #expect(made.value == 1)
  }

  @Test func weakIsMadeAgainAfterRelease() {
    let made = Counter()
    let dependencies = Dependencies {
      countedService(by: made, scope: .weak)
    }
    var held: Service? = dependencies.resolve(Service.self)
    let firstSerial = held?.serial
    held = nil
    #expect(held == nil)
    let remade = dependencies.resolve(Service.self)
    #expect(remade.serial != firstSerial)
    #expect(made.value == 2)
    #expect(dependencies.resolve(Service.self) === remade)
    #expect(made.value == 2)
  }

  @Test func weakValueTypeBehavesLikeUnique() {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .weak) { ValueServiceImpl(serial: made.increment()) as ValueService }
    }
    let first = dependencies.resolve(ValueService.self)
    let second = dependencies.resolve(ValueService.self)
    #expect(first.serial == 1)
    #expect(second.serial == 2)
    #expect(made.value == 2)
  }

  // MARK: .cached

  @Test func cachedIsSharedUntilReset() {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .cached("x")) { () -> Service in
        made.increment()
        return ServiceImpl()
      }
    }
    let first = dependencies.resolve(Service.self)
    #expect(dependencies.resolve(Service.self) === first)
    #expect(made.value == 1)

    dependencies.reset(.cached("x"))
    let afterReset = dependencies.resolve(Service.self)
    #expect(afterReset !== first)
    #expect(dependencies.resolve(Service.self) === afterReset)
    #expect(made.value == 2)
  }

  // MARK: Aliases

  @Test func singletonAliasSharesOneInstanceBetweenItsTypes() {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .singleton, as: Service.self, OtherService.self) { () -> ServiceAndOther in
        made.increment()
        return ServiceAndOther()
      }
    }
    let service = dependencies.resolve(Service.self)
    let other = dependencies.resolve(OtherService.self)
    #expect(service === other)
    #expect(dependencies.resolve(Service.self) === service)
    #expect(made.value == 1)
  }

  /// The types listed are the keys: the factory's own return type is not one of them.
  @Test func anAliasIsNotRegisteredUnderItsFactorysType() {
    let dependencies = Dependencies {
      Module(scope: .singleton, as: Service.self, OtherService.self) { ServiceAndOther() }
    }
    #expect(dependencies.resolve(Service.self) is ServiceAndOther)
    #expect {
      try dependencies.resolveOrThrow(ServiceAndOther.self)
    } throws: { error in
      guard case .notRegistered = (error as? ResolutionError)?.reason else { return false }
      return true
    }
  }

  @Test func uniqueAliasMakesANewInstanceForEachResolution() {
    let made = Counter()
    let dependencies = Dependencies {
      Module(as: Service.self, OtherService.self) { () -> ServiceAndOther in
        made.increment()
        return ServiceAndOther()
      }
    }
    let service = dependencies.resolve(Service.self)
    let other = dependencies.resolve(OtherService.self)
    #expect(service !== other)
    #expect(dependencies.resolve(Service.self) !== service)
    #expect(made.value == 3)
  }

  @Test func namedAliasIsRegisteredUnderItsName() throws {
    let dependencies = Dependencies {
      Module("main", scope: .singleton, as: Service.self, OtherService.self) { ServiceAndOther() }
    }
    let service = dependencies.resolve(Service.self, name: "main")
    #expect(dependencies.resolve(OtherService.self, name: "main") === service)
    #expect(dependencies.resolve(Service?.self) == nil)
    #expect(throws: ResolutionError.self) { try dependencies.resolveOrThrow(OtherService.self) }
  }

  @Test func weakAliasIsSharedWhileHeldAndRemadeAfterRelease() {
    let made = Counter()
    let dependencies = Dependencies {
      Module(scope: .weak, as: Service.self, OtherService.self) { () -> ServiceAndOther in
        made.increment()
        return ServiceAndOther()
      }
    }
    var service: Service? = dependencies.resolve(Service.self)
    #expect(dependencies.resolve(OtherService.self) === service)
    #expect(made.value == 1)
    service = nil
    #expect(service == nil)
    _ = dependencies.resolve(OtherService.self)
    #expect(made.value == 2)
  }

  // MARK: Scope values

  @Test func scopesCompareByKindAndCacheName() {
    #expect(Scope.cached("a") == .cached("a"))
    #expect(Scope.cached("a") != .cached("b"))
    #expect(Scope.singleton != .unique)
    #expect(Set([Scope.unique, .singleton, .weak, .cached("a"), .cached("a")]).count == 4)
  }

  @Test func scopesDescribeThemselvesAsWrittenInCode() {
    #expect(Scope.unique.description == ".unique")
    #expect(Scope.singleton.description == ".singleton")
    #expect(Scope.weak.description == ".weak")
    #expect(Scope.cached("session").description == #".cached("session")"#)
  }

  /// A cached scope whose name has a newline or a quote is written as a string literal in
  /// every message, as a registered name is.
  @Test func aScopeNameIsWrittenAsAStringLiteral() {
    #expect(Scope.cached("a\"b\nc").description == #".cached("a\"b\nc")"#)
  }
}

/// A class that conforms to both alias types.
final class ServiceAndOther: Numbered, Service, OtherService {}

/// A value of 256 bytes and more, which a singleton keeps across several cache lines.
private struct LargeValue: Sendable {
  let lanes: SIMD32<Int>
  let token: FreedToken
}

/// Counts its own deinit.
private final class FreedToken: Sendable {
  let freed: Counter

  init(_ freed: Counter) {
    self.freed = freed
  }

  deinit {
    freed.increment()
  }
}
