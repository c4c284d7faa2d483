import Shank
import ShankTesting
import Testing

@Suite struct OverridesTests {
  @Test func overrideIsSeenInsideAndTheRestComesFromBelow() {
    Dependencies.withOverrides {
      shopModules()
    } operation: {
      Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        let cart: CartModuleType = Dependencies.resolve()
        #expect(cart.total() == "12 USD")
        let payments: PaymentsModuleType = Dependencies.resolve()
        #expect(payments.pay() == "paid 12 USD")
      }
      let cart: CartModuleType = Dependencies.resolve()
      #expect(cart.total() == "12 EUR")
    }
  }

  @Test func overridesNestInnermostFirst() {
    Dependencies.withOverrides {
      shopModules()
    } operation: {
      Dependencies.withOverrides {
        Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
      } operation: {
        Dependencies.withOverrides {
          Module { MockShopAppModule(code: "JPY") as ShopAppModuleType }
        } operation: {
          #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "JPY")
          #expect(Dependencies.resolve(CartModuleType.self).total() == "12 JPY")
        }
        #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "USD")
      }
    }
  }

  @Test func returnsTheOperationsValueAndRethrows() throws {
    struct Expected: Error {}
    let value = Dependencies.withOverrides {
    } operation: {
      42
    }
    #expect(value == 42)
    #expect(throws: Expected.self) {
      try Dependencies.withOverrides {
      } operation: {
        throw Expected()
      }
    }
  }

  @Test func childTasksInheritOverrides() async {
    await Dependencies.withOverrides {
      shopModules()
      Module { MockShopAppModule(code: "CHF") as ShopAppModuleType }
    } operation: {
      async let fromAsyncLet = Dependencies.resolve(ShopAppModuleType.self).currency()
      let fromTask = await Task { Dependencies.resolve(ShopAppModuleType.self).currency() }.value
      let fromGroup = await withTaskGroup(of: String.self) { group in
        group.addTask { Dependencies.resolve(ShopAppModuleType.self).currency() }
        return await group.next()!
      }
      #expect(await fromAsyncLet == "CHF")
      #expect(fromTask == "CHF")
      #expect(fromGroup == "CHF")
    }
  }

  @Test func detachedTasksDoNotInherit() async {
    await Dependencies.withOverrides {
      shopModules()
      Module { MockShopAppModule(code: "CHF") as ShopAppModuleType }
    } operation: {
      let seen = await Task.detached {
        (try? Dependencies.resolveOrThrow(ShopAppModuleType.self)).map { $0.currency() }
      }.value
      #expect(seen != "CHF")
    }
  }

  @Test func parallelOperationsNeverSeeEachOthersOverrides() async {
    let codes = (0..<200).map { "C\($0)" }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for code in codes {
        group.addTask {
          await Dependencies.withOverrides {
            shopModules()
            Module { MockShopAppModule(code: code) as ShopAppModuleType }
          } operation: {
            var wrong = 0
            for _ in 0..<20 {
              await Task.yield()
              if Dependencies.resolve(CartModuleType.self).total() != "12 \(code)" { wrong += 1 }
            }
            return wrong
          }
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  @Test func injectReadInsideAnOverrideSeesIt() {
    struct Reader {
      @Inject var app: ShopAppModuleType
    }
    let reader = Reader()
    Dependencies.withOverrides {
      Module { MockShopAppModule(code: "SEK") as ShopAppModuleType }
    } operation: {
      #expect(reader.app.currency() == "SEK")
    }
    // The first read kept the value it read.
    #expect(reader.app.currency() == "SEK")
  }
}

@Suite(
  .dependencies {
    shopModules()
    Module { MockShopAppModule(code: "NOK") as ShopAppModuleType }
  })
struct TraitTests {
  @Test func suiteTraitAppliesToEachTest() {
    #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "NOK")
  }

  @Test(.dependencies { Module { MockShopAppModule(code: "DKK") as ShopAppModuleType } })
  func testTraitLayersOverTheSuites() {
    #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == "DKK")
  }

  @Test(.dependencies { Module { CartModule() as CartModuleType } })
  func keysNotOverriddenComeFromTheLayersBelow() {
    #expect(Dependencies.resolve(CartModuleType.self).total() == "12 NOK")
  }

  @Test(arguments: ["ISK", "PLN", "HUF"])
  func parameterizedCasesEachGetTheOverrides(code: String) {
    Dependencies.withOverrides {
      Module { MockShopAppModule(code: code) as ShopAppModuleType }
    } operation: {
      #expect(Dependencies.resolve(ShopAppModuleType.self).currency() == code)
    }
  }
}
