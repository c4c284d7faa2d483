import Foundation
import Shank

/// Runs one parsed command against the modules of the composition root in place.
struct CommandRunner {
  let console: Console
  /// nil unless `--analytics` registered the module: the optional `@Inject` path.
  @Inject private var analytics: AnalyticsModuleType?

  init(console: Console) {
    self.console = console
  }

  /// Runs the command and returns the exit code; a failure goes to the error output.
  func run(_ invocation: Invocation) -> Int32 {
    do {
      try perform(invocation)
    } catch {
      console.printError("WidgetApp: \(error)")
      return ExitCode.failure
    }
    return ExitCode.success
  }

  private func perform(_ invocation: Invocation) throws {
    switch invocation.command {
    case .list: try list(invocation)
    case .show(let id): try show(id, invocation)
    case .add(let name): try add(name, invocation)
    // `mermaid` ends with a newline; `print` adds its own.
    case .graph: console.print(String(Dependencies.current.graph().mermaid.dropLast()))
    case .verify: try verify()
    case .help: console.print(HelpText.text)
    }
  }

  /// The widget module the flags select: the default one, or the one named "staging".
  private func worker(_ invocation: Invocation) -> WidgetWorkerType {
    let widgets = Dependencies.resolve(
      WidgetModuleType.self, name: invocation.environment.moduleName)
    return widgets.component()
  }

  private func list(_ invocation: Invocation) throws {
    let widgets = try worker(invocation).widgets()
    let flags = [invocation.environment.rawValue] + (invocation.usesMocks ? ["mock"] : [])
    console.print("Widgets (\(flags.joined(separator: ", ")))")
    let width = widgets.map(\.id.count).max() ?? 0
    for widget in widgets {
      let id = widget.id.padding(toLength: width, withPad: " ", startingAt: 0)
      console.print("  \(id)  \(widget.name)\(widget.added == nil ? "" : " (added)")")
    }
    if !invocation.namesCommand {
      console.print("")
      let example = widgets.first?.id ?? "ID"
      console.print(
        "Try `swift run WidgetApp show \(example)`, or: add NAME · graph · verify · --help")
    }
    analytics?.component().track("widgets_listed")
  }

  private func show(_ id: String, _ invocation: Invocation) throws {
    let worker = worker(invocation)
    guard let widget = try worker.widget(id: id) else {
      throw Failure(description: "no widget with ID \"\(id)\" (see WidgetApp list)")
    }
    console.print("\(widget.id)  \(widget.name)")
    if let added = widget.added {
      console.print(
        "    added \(ISO8601DateFormatter().string(from: added)), kept in \(worker.storeLocation)")
    } else {
      console.print("    from the \(invocation.environment.rawValue) catalog")
    }
    analytics?.component().track("widget_shown")
  }

  private func add(_ name: String, _ invocation: Invocation) throws {
    let worker = worker(invocation)
    let widget = try worker.add(name: name)
    console.print("Added \(widget.id) \"\(widget.name)\" to \(worker.storeLocation)")
    analytics?.component().track("widget_added")
  }

  private func verify() throws {
    do {
      try Dependencies.current.verify()
    } catch {
      throw Failure(description: error.description)
    }
    let count = Dependencies.current.graph().nodes.count
    console.print("Verified: the \(count) registered modules and every @Inject in them resolve.")
  }

  /// A command that ran and failed, in the words the user sees.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }
}
