/// The place in the caller's source that asked for something, for messages.
///
/// `StaticString` and `UInt` because a trap hands them to `fatalError(_:file:line:)`, so the
/// crash report points at the caller's line, not at Shank's.
@usableFromInline
struct SourceSite: Sendable, CustomStringConvertible {
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(fileID: StaticString, line: UInt) {
    self.fileID = fileID
    self.line = line
  }

  /// `file:line`, as messages and observers' events show it.
  @usableFromInline var description: String { "\(fileID):\(line)" }
}
