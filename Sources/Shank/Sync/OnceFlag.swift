/// A value's publication: empty, then claimed by one writer, then published for good.
///
/// A reader that sees it published may read the value the writer stored before publishing;
/// seeing it is one acquiring load, with no lock on any platform.
@usableFromInline
struct OnceFlag: Sendable {
  @usableFromInline static let empty: UInt = 0
  @usableFromInline static let claimed: UInt = 1
  @usableFromInline static let published: UInt = 2

  @usableFromInline let state: AtomicWord

  @usableFromInline init(published: Bool = false) {
    state = AtomicWord(published ? Self.published : Self.empty)
  }

  /// Whether the value is published, and so safe to read from any thread.
  @inlinable var isSet: Bool {
    state.acquiring == Self.published
  }

  /// Publishes what the writer stored before this call.
  @usableFromInline func publish() {
    state.storeReleasing(Self.published)
  }
}
