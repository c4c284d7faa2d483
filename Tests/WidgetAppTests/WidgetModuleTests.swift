import Foundation
import Shank
import ShankTesting
import Testing

@testable import WidgetApp

/// The widget module's wiring, resolved the way app code resolves it.
///
/// The suite's trait puts the app's own composition root in place for each test; a test's own
/// trait, or `withOverrides`, layers what it swaps over it.
@Suite("WidgetModule", .dependencies { CompositionRoot.modules(for: Invocation()) })
struct WidgetModuleTests {
  @Test("the default module and the one named \"staging\" serve different catalogs")
  func namedModules() throws {
    let production: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self).component()
    let staging: WidgetRemoteType = Dependencies.resolve(WidgetModuleType.self, name: "staging")
      .component()
    #expect(try production.catalog().count == 3)
    #expect(try staging.catalog().last == Widget(id: "w9", name: "Prototype lever (beta)"))
  }

  @Test(
    "swapping the store and the remote for mocks",
    .dependencies {
      Module(scope: .singleton) {
        MockWidgetModule(
          store: MockWidgetStore(widgets: [Widget(id: "w7", name: "Saved")]),
          remote: MockWidgetRemote(widgets: [Widget(id: "w1", name: "Served")])
        ) as WidgetModuleType
      }
    })
  func mocks() throws {
    let widgets = Dependencies.resolve(WidgetModuleType.self)
    let worker: WidgetWorkerType = widgets.component()
    #expect(try worker.widgets().map(\.name) == ["Served", "Saved"])
    _ = try worker.add(name: "New")
    // The module is a singleton here, so its store is the one the worker wrote to.
    let store: WidgetStoreType = widgets.component()
    #expect(try store.load().map(\.id) == ["w7", "w8"])
  }

  @Test("the real module keeps its JSON file where the shared AppModule's configuration says")
  func realStore() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "WidgetModuleTests-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Dependencies.withOverrides {
      Module(scope: .singleton) {
        AppModule(configuration: AppConfiguration(storeFolder: folder)) as AppModuleType
      }
    } operation: {
      let worker: WidgetWorkerType = Dependencies.resolve(WidgetModuleType.self).component()
      let added = try worker.add(name: "Filed")
      let file = folder.appendingPathComponent("widgets.json")
      #expect(added.id == "w4")
      #expect(worker.storeLocation == file.path)
      #expect(try WidgetFileStore(file: file).load().map(\.id) == [added.id])
    }
  }

  @Test("analytics is absent unless registered, so the optional @Inject path reads nil")
  func analyticsAbsent() {
    #expect(Dependencies.resolve(AnalyticsModuleType?.self) == nil)
  }

  @Test("the composition root verifies: every @Inject of every module resolves")
  func verifies() throws {
    try Dependencies.current.verify()
  }
}
