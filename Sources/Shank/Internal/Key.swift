/// What a registration answers to: a type's identity and an optional name.
///
/// Keyed by `ObjectIdentifier`, never by a type's printed name: printing costs hundreds of
/// nanoseconds, and two types called `Config` in different modules must not collide.
@usableFromInline
struct Key: Hashable, Sendable {
  @usableFromInline let type: ObjectIdentifier
  @usableFromInline let name: String?

  @inlinable
  init(_ type: Any.Type, name: String?) {
    self.type = ObjectIdentifier(type)
    self.name = name
  }
}
