import Synchronization

/// Counters the load check reads: widgets created and deleted, request scopes opened and closed.
final class ServerStats: Sendable {
  private let created = Atomic<Int>(0)
  private let deleted = Atomic<Int>(0)
  private let opened = Atomic<Int>(0)
  private let closed = Atomic<Int>(0)

  func widgetCreated() { created.add(1, ordering: .relaxed) }
  func widgetDeleted() { deleted.add(1, ordering: .relaxed) }
  func scopeOpened() { opened.add(1, ordering: .relaxed) }
  func scopeClosed() { closed.add(1, ordering: .relaxed) }

  var widgetsCreated: Int { created.load(ordering: .relaxed) }
  var widgetsDeleted: Int { deleted.load(ordering: .relaxed) }
  var scopesOpened: Int { opened.load(ordering: .relaxed) }
  var scopesClosed: Int { closed.load(ordering: .relaxed) }
}
