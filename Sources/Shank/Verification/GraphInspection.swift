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
  /// The cycles met while making the modules, each once, as first met.
  private var cycles: [[String]] = []
  /// Each of `cycles` from its least key round, so that the same cycle met from another of
  /// its modules is not reported again.
  private var seenCycles: Set<[String]> = []

  init(_ dependencies: Dependencies) {
    registrations = dependencies.visibleRegistrations()
    layers = dependencies.visibleLayers()
    // The copy that modules are made in is open: a closed container's own modules, which
    // no longer resolve, are told here.
    var layer: Dependencies? = dependencies
    while let current = layer {
      if current.isClosed, !current.table.order.isEmpty {
        problems.append(.closed(container: current.origin))
      }
      layer = current.parent
    }
    let outcomes = InspectionThread.inspect(dependencies)
    for (registration, outcome) in zip(registrations, outcomes) {
      inspect(registration, outcome, in: dependencies)
    }
    problems += cycles.map { .cycle(path: $0) }
  }

  private mutating func inspect(
    _ registration: Registration, _ outcome: InspectedModule, in dependencies: Dependencies
  ) {
    let module = registration.keyDescription.description
    switch outcome {
    case .failed(let error):
      // An `@Inject` is resolved when first read, so a cycle is only what making a module
      // meets, never a loop of `@Inject` edges.
      if case .cycle(let path) = error.reason {
        record(cycle: path)
      } else {
        problems.append(Self.problem(error, making: registration))
      }
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

  /// Notes `path`, a cycle met while making a module, unless another of its modules met it.
  private mutating func record(cycle path: [String]) {
    let loop = path.dropLast()
    let least = loop.indices.min { loop[$0] < loop[$1] } ?? loop.startIndex
    if seenCycles.insert(Array(loop[least...] + loop[..<least])).inserted {
      cycles.append(path)
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
