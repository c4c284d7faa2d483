// `Module.when(_:)` and `Module.Context`: modules registered only in tests, previews, debug builds or on a flag.

extension Module {
  /// Registers this module only when one of `contexts` holds; otherwise leaves it out, as an
  /// `if` around it in the ``ModuleBuilder`` block would.
  ///
  /// ```swift
  /// Dependencies {
  ///   Module { LiveAPI() as APIType }
  ///   Module { MockAPI() as APIType }.when(.testing)
  ///   Module { StubAPI() as APIType }.when(.launchArgument("-stubAPI"), .previews)
  /// }
  /// ```
  ///
  /// A module left out is not in the container at all: ``Dependencies/graph()`` and
  /// ``Dependencies/verify()`` show only the modules that were registered, and a later module
  /// for the same key is not replaced by it. A miss of its key names it among the near misses,
  /// with where it is registered and the contexts that did not hold.
  ///
  /// > Note: The contexts are read when `when` is called: inside a `Dependencies { … }` block,
  /// > when the container is made; in a `[Module]` list kept in a `static let`, when that
  /// > list is first read. Read them once, at launch: ``Context/environmentVariable(_:fileID:line:)``
  /// > reads the environment as it is at that moment.
  ///
  /// - Parameter contexts: The contexts in which to register the module; none of them holding,
  ///   or none given, leaves it out.
  /// - Returns: This module, or, when no context holds, a module that registers nothing.
  public func when(_ contexts: Context...) -> Module {
    guard !contexts.contains(where: \.isActive) else { return self }
    return Module(LeftOutRecipe(self, when: contexts.map(\.written).joined(separator: ", ")))
  }

  /// A circumstance the process runs in, that ``Module/when(_:)`` registers a module in.
  ///
  /// ```swift
  /// Module { MockAPI() as APIType }.when(.testing)
  /// if Module.Context.previews.isActive { … }
  /// ```
  ///
  /// Every context is read from the process itself: its arguments, its environment, and how
  /// Shank was compiled.
  public struct Context: Sendable, Hashable {
    enum Kind: Hashable {
      case testing
      case previews
      case debug
      case launchArgument(String)
      case environmentVariable(String)
    }

    let kind: Kind

    /// The process runs tests: `swift test`, `xcodebuild test` or Xcode's test action, on
    /// Linux and Apple platforms, with XCTest or Swift Testing.
    ///
    /// It holds in the test runner's process and in the app that hosts an Xcode test bundle,
    /// which the runner tells by its name and arguments (`xctest`, `swiftpm-testing-helper`,
    /// a `.xctest` executable, `--testing-library`) and Xcode by the environment variables it
    /// sets in the test process (`XCTestConfigurationFilePath`, `XCTestBundlePath`,
    /// `XCTestSessionIdentifier`). It holds in the child process of an exit test too.
    ///
    /// > Note: A UI test drives the app in a process of its own, which is not a test run: pass
    /// > the app a launch argument and use ``launchArgument(_:)`` there.
    public static let testing = Context(kind: .testing)

    /// The process renders Xcode previews: Xcode sets `XCODE_RUNNING_FOR_PREVIEWS` to `1` in
    /// the process that runs a `#Preview`.
    public static let previews = Context(kind: .previews)

    /// Shank was compiled in a debug build (`DEBUG` defined).
    ///
    /// SwiftPM and Xcode compile a package dependency in the configuration of the app they
    /// build, so this holds in the app's debug builds and not in its release builds.
    ///
    /// > Note: A Shank linked as a prebuilt binary keeps the configuration it was built in.
    public static let debug = Context(kind: .debug)

    /// The process was launched with `argument` among its arguments, as Xcode's scheme editor
    /// passes them: `-stubAPI` holds when one argument is exactly `-stubAPI`.
    ///
    /// The executable's own path, the first argument, never holds.
    ///
    /// - Parameter argument: The argument to look for, compared whole.
    /// - Returns: A context that holds when the process has that argument.
    public static func launchArgument(_ argument: String) -> Context {
      Context(kind: .launchArgument(argument))
    }

    /// The environment variable `name` is set, and to something other than `0` or `false`
    /// (in any case); set to nothing, it holds.
    ///
    /// A name that is empty, or has `=` or a NUL character in it, names no variable: it stops
    /// the program with a message saying so, rather than reading another variable.
    ///
    /// - Parameters:
    ///   - name: The variable's name, such as `"STUB_API"`.
    ///   - fileID: The file that asks, for diagnostics; leave it to its default.
    ///   - line: The line that asks, for diagnostics; leave it to its default.
    /// - Returns: A context that holds when the variable is set, and not to an off value.
    public static func environmentVariable(
      _ name: String, fileID: StaticString = #fileID, line: UInt = #line
    ) -> Context {
      if name.isEmpty || name.contains("=") || name.contains("\0") {
        let message =
          "Shank: \(KeyDescription.quoted(name)) names no environment variable: a name is not empty and has no = or NUL in it"
        Dependencies.stop(
          message, as: .stopped(message), at: SourceSite(fileID: fileID, line: line))
      }
      return Context(kind: .environmentVariable(name))
    }

    /// Whether the context holds now, for use in an `if` of a ``ModuleBuilder`` block or
    /// anywhere else.
    public var isActive: Bool {
      switch kind {
      case .testing: TestRun.isRunning
      // Not documented by Apple: the variable that Factory's `FactoryContext.isPreview` and
      // swift-dependencies' default context read, compared to "1" as they do.
      case .previews: Platform.environmentValue("XCODE_RUNNING_FOR_PREVIEWS") == "1"
      case .debug: Self.isDebugBuild
      case .launchArgument(let argument): CommandLine.arguments.dropFirst().contains(argument)
      case .environmentVariable(let name): Self.isOn(Platform.environmentValue(name))
      }
    }

    /// The context as it is written: `.testing`, `.launchArgument("-stubAPI")`.
    var written: String {
      switch kind {
      case .testing: ".testing"
      case .previews: ".previews"
      case .debug: ".debug"
      case .launchArgument(let argument): ".launchArgument(\(KeyDescription.quoted(argument)))"
      case .environmentVariable(let name): ".environmentVariable(\(KeyDescription.quoted(name)))"
      }
    }

    #if DEBUG
      private static let isDebugBuild = true
    #else
      private static let isDebugBuild = false
    #endif

    /// Whether an environment variable's `value` switches something on: set (even to nothing,
    /// as `STUB_API= app` sets it), and not to `0` or `false`.
    static func isOn(_ value: String?) -> Bool {
      guard let value else { return false }
      return value != "0" && value.lowercased() != "false"
    }
  }
}
