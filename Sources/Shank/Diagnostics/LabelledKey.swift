/// A key and what its line of a message says after it: how a near miss is close to the key
/// asked for, or what a registered key is. Kept as its parts: a miss among many keys writes
/// only the lines its message shows, and ``ResolutionError/nearMisses`` the rest when asked.
struct LabelledKey: Sendable, CustomStringConvertible {
  let key: KeyDescription
  let label: String

  var description: String { key.description + label }
}
