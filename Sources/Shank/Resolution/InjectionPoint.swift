// What an `@Inject` property asks for, and how `verify()` finds such properties by reflection.

/// What an ``Inject`` property asks for, read by reflection without resolving it.
struct Requirement {
  /// The type looked up: the property's type, or its wrapped type when it is optional.
  let type: Any.Type
  let name: String?
  /// Whether resolving it succeeds where nothing registers it: an optional is `nil`, and an
  /// unnamed list or dictionary is empty.
  let resolvesUnregistered: Bool
  let site: SourceSite
}

/// A property wrapper that ``Dependencies/verify()`` and ``Dependencies/graph()`` can see.
protocol InjectionPoint {
  /// What the property asks for; `nil` once it was assigned a value, when it asks nothing.
  var requirement: Requirement? { get }
}

extension Inject: InjectionPoint {
  var requirement: Requirement? {
    let property = owner.value.context
    guard !property.isAssigned else { return nil }
    let sugared = Value.self as? SugaredType.Type
    let wrapped = sugared?.wrappedType
    return Requirement(
      type: wrapped ?? Value.self, name: property.name,
      resolvesUnregistered: wrapped != nil || (property.name == nil && sugared?.empty != nil),
      site: property.site)
  }
}

/// The `@Inject` properties of `instance` and its superclasses, with their property names.
func injectionPoints(of instance: Any) -> [(property: String, requirement: Requirement)] {
  var found: [(String, Requirement)] = []
  var mirror: Mirror? = Mirror(reflecting: instance)
  while let current = mirror {
    for child in current.children {
      guard let requirement = (child.value as? InjectionPoint)?.requirement else { continue }
      // The compiler stores `@Inject var app` as `_app`.
      let label = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? "?"
      found.append((label, requirement))
    }
    mirror = current.superclassMirror
  }
  return found
}
