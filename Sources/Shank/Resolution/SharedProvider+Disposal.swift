// How a shared module's instance is disposed of: now, after its round, or by its owner.

extension SharedProvider {
  /// Runs `value`'s `onClose` on a task of its own: nothing keeps it.
  final func dispose(_ value: Value) {
    guard let onClose else { return }
    Disposal.runLater([Disposal(isolation: isolation) { await onClose(value) }])
  }

  /// Runs `value`'s `onClose` once this task's round of `start()` or `resolveAsync` ends: it
  /// was made without an async module that a factory or decorator caught, and is not kept, but
  /// the run that asked for it goes on with it (``AsyncRound/caughtMiss(since:)``).
  final func discard(_ value: Value) {
    guard scope.keepsInstances, let onClose else { return }
    AsyncRound.discard(Disposal(isolation: isolation) { await onClose(value) })
  }

  /// Adds `value`'s `onClose` to its owner's list, returning the entry's id. Once the owner is
  /// closed, it runs the handler at once instead: the instance was dropped as it was kept.
  final func addDisposal(of value: Value) -> UInt? {
    guard let onClose, let owner else { return nil }
    let disposal = Disposal(isolation: isolation) { await onClose(value) }
    guard let id = owner.disposals?.add(disposal) else {
      Disposal.runLater([disposal])
      return nil
    }
    return id
  }
}
