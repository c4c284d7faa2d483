import Synchronization

/// Counters the load check reads: widgets created and deleted, request scopes opened and closed.
final class ServerStats: Sendable {
  private let created = Atomic<Int>(0)
  private let deleted = Atomic<Int>(0)
  private let opened = Atomic<Int>(0)
  private let closed = Atomic<Int>(0)

  /// Counts a widget the database committed.
  func widgetCreated() { created.add(1, ordering: .relaxed) }
  /// Counts a widget the database deleted.
  func widgetDeleted() { deleted.add(1, ordering: .relaxed) }
  /// Counts a request scope opened.
  func scopeOpened() { opened.add(1, ordering: .relaxed) }
  /// Counts a request scope closed, from its `onClose`.
  func scopeClosed() { closed.add(1, ordering: .relaxed) }

  /// Widgets created so far.
  var widgetsCreated: Int { created.load(ordering: .relaxed) }
  /// Widgets deleted so far.
  var widgetsDeleted: Int { deleted.load(ordering: .relaxed) }
  /// Request scopes opened so far.
  var scopesOpened: Int { opened.load(ordering: .relaxed) }
  /// Request scopes closed so far.
  var scopesClosed: Int { closed.load(ordering: .relaxed) }
}
