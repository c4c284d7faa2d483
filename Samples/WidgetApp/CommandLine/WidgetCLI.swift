import Shank

/// The command line: reads the arguments, puts the composition root in place, runs the command.
///
/// `main.swift` runs it with the terminal; tests run it in-process with a recording console.
struct WidgetCLI {
  /// How the composition root is put in place.
  enum Root {
    /// `build()`: the process-wide root, as an app makes once at launch.
    case processWide
    /// A task-local scope with `overrides` after the app's modules, so they win. Tests use it:
    /// they run in parallel, so each needs a root of its own.
    case taskLocal(overrides: [Module])
  }

  let console: Console
  var root: Root = .processWide

  /// Runs one command line and returns the process's exit code; never traps on bad input.
  ///
  /// The run's container is closed at its end, which runs the modules' `onClose` handlers:
  /// the analytics module sends its batch of events then.
  func run(_ arguments: [String]) async -> Int32 {
    let invocation: Invocation
    do {
      invocation = try Invocation(parsing: arguments)
    } catch {
      console.printError("WidgetApp: \(error.message) (see WidgetApp --help)")
      return ExitCode.usage
    }
    if invocation.command == .help {
      console.print(HelpText.text)
      return ExitCode.success
    }
    let trace = invocation.traces ? TraceLog() : nil
    defer { for line in trace?.finish() ?? [] { console.print(line) } }
    let runner = CommandRunner(console: console)
    let modules = CompositionRoot.modules(for: invocation, console: console)
    switch root {
    case .processWide:
      let dependencies = Dependencies { modules }
      dependencies.build()
      let code = runner.run(invocation)
      await dependencies.close()
      return code
    case .taskLocal(let overrides):
      // A scope rather than an override layer: it is closed, and its handlers awaited, at the
      // end of the run, as the process-wide root is.
      return await Dependencies.withScope {
        modules
        overrides
      } operation: {
        runner.run(invocation)
      }
    }
  }
}
