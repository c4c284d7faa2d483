import Shank

// A small shop whose modules inject each other, for verification, graph and override tests.

protocol ShopAppModuleType { func currency() -> String }
protocol CartModuleType { func total() -> String }
protocol PaymentsModuleType { func pay() -> String }
protocol LedgerModuleType {}
protocol AuditModuleType {}
protocol PromotionsModuleType {}

struct ShopAppModule: ShopAppModuleType {
  func currency() -> String { "EUR" }
}

struct MockShopAppModule: ShopAppModuleType {
  let code: String
  func currency() -> String { code }
}

struct CartModule: CartModuleType {
  @Inject private var app: ShopAppModuleType
  @Inject private var promotions: PromotionsModuleType?
  func total() -> String { "12 \(app.currency())" }
}

final class PaymentsModule: PaymentsModuleType {
  @Inject private var cart: CartModuleType
  @Inject("primary") private var ledger: LedgerModuleType
  func pay() -> String { "paid \(cart.total())" }
}

struct LedgerModule: LedgerModuleType {}

struct PromotionsModule: PromotionsModuleType {}

/// A ledger that reads its audit while it is made, and an audit that reads the ledger back
/// while it is made: a cycle that making either meets.
struct AuditedLedgerModule: LedgerModuleType {
  @Inject private var audit: AuditModuleType

  init() { _ = audit }
}

struct AuditModule: AuditModuleType {
  @Inject("primary") private var ledger: LedgerModuleType

  init() { _ = ledger }
}

/// Conforms to none of the shop's module protocols.
final class StrayModule {}

/// A node of a generated graph: up to three optional injections and one required, all
/// `NodeModuleType` under names chosen at run time, the required one read while it is made
/// when `readingRequired`.
protocol NodeModuleType {}

struct NodeModule: NodeModuleType {
  @Inject private var first: NodeModuleType?
  @Inject private var second: NodeModuleType?
  @Inject private var third: NodeModuleType?
  @Inject private var required: NodeModuleType

  init(optional: [String], required: String, readingRequired: Bool = false) {
    let names = optional + Array(repeating: "unregistered", count: 3 - optional.count)
    _first = Inject(names[0])
    _second = Inject(names[1])
    _third = Inject(names[2])
    _required = Inject(required)
    if readingRequired { _ = self.required }
  }
}

/// The shop as production registers it.
func shopModules() -> [Module] {
  [
    Module(scope: .singleton) { ShopAppModule() as ShopAppModuleType },
    Module { CartModule() as CartModuleType },
    Module { PaymentsModule() as PaymentsModuleType },
    Module("primary") { LedgerModule() as LedgerModuleType },
  ]
}
