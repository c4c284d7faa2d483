/// The exit codes the app returns, so scripts can tell a failed command from a mistyped one.
enum ExitCode {
  static let success: Int32 = 0
  /// The command ran and failed: an unknown widget, an unreadable store, a graph that does not verify.
  static let failure: Int32 = 1
  /// The command line itself is wrong.
  static let usage: Int32 = 2
}
