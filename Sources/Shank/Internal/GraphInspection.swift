/// One look at a container's whole graph: each module made once and reflected.
///
/// ``Dependencies/verify()`` reports its problems and ``Dependencies/graph()`` draws its
/// edges, so both read the same facts.
struct GraphInspection {
  struct Edge {
    let from: Registration
    let to: Registration
    let property: String
  }

  private(set) var registrations: [Registration] = []
  /// How far down each registration's container is: 0 for the one inspected.
  private(set) var layers: [Int] = []
  private(set) var edges: [Edge] = []
  private(set) var problems: [VerificationError.Problem] = []

  init(_ dependencies: Dependencies) {
    registrations = dependencies.visibleRegistrations()
    layers = dependencies.visibleLayers()
    if let closed = dependencies.closedContainer {
      problems.append(.closed(container: closed.origin))
    }
    let outcomes = InspectionThread.inspect(dependencies)
    for (registration, outcome) in zip(registrations, outcomes) {
      inspect(registration, outcome, in: dependencies)
    }
    problems += Self.cycles(among: registrations, edges: edges).map { .cycle(path: $0) }
  }

  private mutating func inspect(
    _ registration: Registration, _ outcome: InspectedModule, in dependencies: Dependencies
  ) {
    let module = registration.keyDescription.description
    switch outcome {
    case .failed(let error):
      problems.append(Self.problem(error, making: registration))
    case .stopped(let message):
      problems.append(.unresolvable(module: module, message: message))
    case .made(let valueType, let injections):
      if registration.isEager, !registration.scope.keepsInstances {
        problems.append(
          .eagerNotKept(
            module: module, scope: registration.scope.description,
            registeredAt: registration.site.description))
      }
      if registration.hasOnClose, !registration.scope.keepsInstances {
        problems.append(
          .onCloseNeverRuns(
            module: module, scope: registration.scope.description,
            registeredAt: registration.site.description))
      }
      if case .weak = registration.scope.kind, !(valueType is AnyObject.Type) {
        problems.append(
          .weakValueType(
            module: module, valueType: KeyDescription.typeName(of: valueType),
            registeredAt: registration.site.description))
      }
      for (property, requirement) in injections {
        if let target = dependencies.registration(for: requirement.key) {
          edges.append(Edge(from: registration, to: target, property: property))
        } else if !requirement.resolvesUnregistered {
          problems.append(.missing(requirement, property: property, of: module))
        }
      }
    }
  }

  /// The problems of `consumer`'s `@Inject` properties that nothing in `dependencies` answers.
  static func missingInjections(
    of consumer: Any, in dependencies: Dependencies
  ) -> [VerificationError.Problem] {
    let name = KeyDescription.typeName(of: type(of: consumer))
    return injectionPoints(of: consumer).compactMap { property, requirement in
      guard !requirement.resolvesUnregistered,
        dependencies.registration(for: requirement.key) == nil
      else { return nil }
      return .missing(requirement, property: property, of: name)
    }
  }

  /// The problem `error` is: this registration's own alias, or something it depends on.
  private static func problem(
    _ error: ResolutionError, making registration: Registration
  ) -> VerificationError.Problem {
    let module = registration.keyDescription
    if case .notConforming(let valueType) = error.reason, error.typeName == module.typeName,
      error.name == module.name
    {
      return .notConforming(
        module: module.description, valueType: valueType,
        registeredAt: registration.site.description)
    }
    return .unresolvable(module: module.description, message: error.description)
  }

  /// Every cycle of module injections, each once, starting from its earliest registration.
  private static func cycles(among registrations: [Registration], edges: [Edge]) -> [[String]] {
    let index = Dictionary(
      registrations.enumerated().map { (ObjectIdentifier($0.element), $0.offset) },
      uniquingKeysWith: { first, _ in first })
    var next = Array(repeating: [Int](), count: registrations.count)
    for edge in edges {
      guard let from = index[ObjectIdentifier(edge.from)], let to = index[ObjectIdentifier(edge.to)]
      else { continue }
      if !next[from].contains(to) { next[from].append(to) }
    }
    var found: [[String]] = []
    var seen: Set<[Int]> = []
    var onPath = Array(repeating: false, count: registrations.count)
    var done = Array(repeating: false, count: registrations.count)
    // The path from the root, each node with how many of its targets it has walked: a stack
    // of its own, so that a chain as long as the graph needs none of the thread's.
    var path: [(node: Int, walked: Int)] = []
    for root in registrations.indices where !done[root] {
      path.append((root, 0))
      onPath[root] = true
      while let (node, walked) = path.last {
        guard walked < next[node].count else {
          path.removeLast()
          onPath[node] = false
          done[node] = true
          continue
        }
        path[path.count - 1].walked += 1
        let target = next[node][walked]
        if onPath[target], let start = path.firstIndex(where: { $0.node == target }) {
          var cycle = path[start...].map(\.node)
          let rotation = cycle.firstIndex(of: cycle.min()!)!
          cycle = Array(cycle[rotation...] + cycle[..<rotation])
          if seen.insert(cycle).inserted {
            found.append((cycle + [cycle[0]]).map { registrations[$0].description })
          }
        } else if !onPath[target], !done[target] {
          path.append((target, 0))
          onPath[target] = true
        }
      }
    }
    return found
  }
}

extension VerificationError.Problem {
  /// `module`'s `property` asks for `requirement`, which nothing registers.
  fileprivate static func missing(
    _ requirement: Requirement, property: String, of module: String
  ) -> Self {
    .missing(
      module: module, property: property,
      requirement: KeyDescription(requirement.type, name: requirement.name).description,
      declaredAt: requirement.site.description)
  }
}
