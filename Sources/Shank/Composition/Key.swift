/// What a registration answers to: a type's identity and an optional name.
///
/// Keyed by `ObjectIdentifier`, never by a type's printed name: printing costs hundreds of
/// nanoseconds, and two types called `Config` in different modules must not collide.
struct Key: Hashable, Sendable {
  let type: ObjectIdentifier
  let name: String?

  init(_ type: Any.Type, name: String?) {
    self.type = ObjectIdentifier(type)
    self.name = name
  }
}
