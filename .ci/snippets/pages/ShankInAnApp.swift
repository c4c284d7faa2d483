// For ShankInAnApp.md: the stub its test registers and the counter it observes with, as
// Tests/ViewModelTests/Fixtures.swift writes them.
import Foundation
import SnippetPrelude

struct StubCatalog: CatalogModuleType {
  let stored: [String]
  func titles() -> [String] { stored }
}

final class ChangeCount: @unchecked Sendable {  // `lock` guards `recorded`
  private let lock = NSLock()
  private var recorded = 0

  var count: Int { lock.withLock { recorded } }

  func record() {
    lock.withLock { recorded += 1 }
  }
}

struct LiveCatalog: CatalogModuleType {
  func titles() -> [String] { ["Anvil", "Bolt"] }
}

struct PreviewCatalog: CatalogModuleType {
  func titles() -> [String] { ["Preview"] }
}

protocol LogType {}
final class VerboseLog: LogType {}
