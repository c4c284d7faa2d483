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

  // Written byte by byte: an observer's event carries it at every resolution, where
  // interpolation, or appending the parts, costs ten times as much.
  @usableFromInline var description: String {
    guard fileID.hasPointerRepresentation else { return "\(fileID):\(line)" }
    let file = UnsafeBufferPointer(start: fileID.utf8Start, count: fileID.utf8CodeUnitCount)
    var digits = 1
    var rest = line / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    let count = file.count + 1 + digits
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
      _ = text.initialize(fromContentsOf: file)
      text[file.count] = UInt8(ascii: ":")
      var value = line
      for index in (file.count + 1..<count).reversed() {
        text[index] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
      return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
    }
  }
}
