// Whether this process runs tests, for `Module.Context.testing` and the messages of a bare test.

/// Tells whether this process runs tests, from what the test runners give it: its arguments
/// and environment, read with `Platform.environmentValue` and `CommandLine`, without Foundation.
///
/// What each runner gives, as observed or as its tools document it:
/// - `swift test` on Linux runs the package's test executable, named `<Package>PackageTests.xctest`,
///   as `argv[0]`; for Swift Testing it adds `--testing-library swift-testing`, and an exit
///   test's child process gets the same (seen with Swift 6.3.1 in this repository).
/// - `swift test` on macOS runs XCTest bundles with the `xctest` tool and Swift Testing with
///   `swiftpm-testing-helper`, passing `--testing-library` too.
/// - Xcode and `xcodebuild test` run XCTest and Swift Testing alike through XCTest's runner,
///   which sets `XCTestConfigurationFilePath`, `XCTestBundlePath` or `XCTestSessionIdentifier`
///   in the test process, also when the tests are hosted in the app and `argv[0]` is the
///   app's own executable.
/// Apple documents none of these variables. They are the ones IssueReporting's `isTesting`
/// reads (swift-issue-reporting, `Sources/IssueReporting/IsTesting.swift`, which also looks for
/// the runner names in every argument, not only the first), and swift-dependencies takes its
/// test context from that `isTesting` (`Sources/Dependencies/DependencyValues.swift`). Factory's
/// `FactoryContext.isTest` reads `XCTestConfigurationFilePath` or whether the `XCTest` class is
/// loaded (`Sources/Factory/Factory/Contexts.swift`); no class is looked up here, since a
/// hosted test's environment already says it and Swift Testing alone loads no XCTest.
enum TestRun {
  /// Whether this process runs tests.
  static var isRunning: Bool {
    isRunning(arguments: CommandLine.arguments) { Platform.environmentValue($0) != nil }
  }

  /// Whether a process with `arguments` (its executable's path first) and the environment
  /// that `isSet` reads runs tests.
  static func isRunning(arguments: [String], isSet: (String) -> Bool) -> Bool {
    if ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
      .contains(where: isSet)
    {
      return true
    }
    if arguments.dropFirst().contains("--testing-library") { return true }
    guard let executable = arguments.first?.split(separator: "/").last else { return false }
    return executable == "xctest" || executable == "swiftpm-testing-helper"
      || executable.hasSuffix(".xctest")
  }
}
