import Foundation
import Shank

@testable import WidgetApp

/// Runs the app in-process, as `swift run WidgetApp` would, with a store folder of its own.
///
/// The app's modules become this test's task-local scope instead of the process-wide root,
/// so tests running in parallel never share a root; `overrides` follow them, so they win.
final class TestApp {
  /// A folder unique to this test, removed with the app.
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("WidgetAppTests-\(UUID().uuidString)", isDirectory: true)

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// What one run printed and returned.
  struct Run {
    let exitCode: Int32
    let output: [String]
    let errors: [String]

    var text: String { output.joined(separator: "\n") }
  }

  /// Runs `arguments` with `--store` set to this app's folder and `overrides` over its modules.
  @discardableResult
  func run(_ arguments: String..., @ModuleBuilder overrides: () -> [Module] = { [] }) async -> Run {
    await run(arguments: arguments, overrides: overrides)
  }

  /// `run` with the arguments as an array, for parameterized tests.
  @discardableResult
  func run(arguments: [String], @ModuleBuilder overrides: () -> [Module] = { [] }) async -> Run {
    let console = RecordingConsole()
    let cli = WidgetCLI(console: console, root: .taskLocal(overrides: overrides()))
    let exitCode = await cli.run(["--store", folder.path] + arguments)
    return Run(exitCode: exitCode, output: console.output, errors: console.errors)
  }
}
