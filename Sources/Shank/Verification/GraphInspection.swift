/// One look at a container's whole graph: each module made once and reflected.
///
/// ``Dependencies/verify()`` reports its problems and ``Dependencies/graph()`` draws its
/// edges, so both read the same facts.
struct GraphInspection {
  /// A node for each visible registration, in their order.
  private(set) var nodes: [DependencyGraph.Node] = []
  private(set) var edges: [DependencyGraph.Edge] = []
  private(set) var problems: [VerificationError.Problem] = []
  /// Each missing key's problem, with what was asked for and the container that missed it,
  /// for ``Dependencies/verify()`` to look for near misses; ``Dependencies/graph()`` does not.
  private(set) var misses: [(VerificationError.Problem, Requirement, Dependencies)] = []
  /// Each node's ``DependencyGraph/Node/id``, by its registration.
  private var ids: [ObjectIdentifier: String] = [:]
  /// The types registered and those they are written with (see
  /// ``KeyDescription/leaves(of:)``), by short name, for a missing one that shares one's.
  private var typesByShortName: [String: Set<ObjectIdentifier>] = [:]
  /// The cycles met while making the modules, each once, as first met.
  private var cycles: [[String]] = []
  /// Each of `cycles` from its least key round, so that the same cycle met from another of
  /// its modules is not reported again.
  private var seenCycles: Set<[String]> = []
  /// The ``DependencyGraph/Node/id``s taken.
  private var usedIDs: Set<String>
  /// For each id's base taken, the suffix to try next: every one below it is taken, so
  /// numbering many nodes of one key is linear, not a search from `_2` for each.
  private var nextSuffix: [String: Int] = [:]
  /// The container inspected, then each one underneath.
  private let layers: [Dependencies]
  /// The modules that a layer replaced and that a shared module underneath injects, found since
  /// the last pass, for the next to make.
  private var replaced: [(registration: Registration, target: InspectionTarget)] = []
  /// The modules, as the container inspected resolves them, that a synchronous read of fails
  /// for want of a `.unique` async module that only `resolveAsync` makes.
  private var readsFail: Set<ObjectIdentifier> = []

  /// Makes and reflects `dependencies`' modules, first as a synchronous read would where
  /// `checkingReads` (see ``InspectionThread``).
  init(_ dependencies: Dependencies, checkingReads: Bool) {
    layers = Array(sequence(first: dependencies, next: \.parent))
    // The Mermaid text names each layer's subgraph `LayerN`, which no node may take.
    usedIDs = Set((1..<layers.count).map { "Layer\($0)" })
    var making: [(registration: Registration, target: InspectionTarget)] = []
    for (registration, layer, position) in dependencies.visibleRegistrations() {
      _ = addNode(for: registration, layer: layer)
      making.append(
        (registration, InspectionTarget(layer: layer, position: position, resolvedFrom: 0)))
    }
    // The copy that modules are made in is open: a closed container's own modules, which
    // no longer resolve, are told here.
    for layer in layers
    where layer.isClosed && layer.table.order.contains(where: { $0.read { $0.role != .decorator } })
    {
      problems.append(.closed(container: layer.origin.description))
    }
    // Each pass makes what the one before found injected from underneath a layer that
    // replaced it.
    while !making.isEmpty {
      let (outcomes, whileFreeing) = InspectionThread.inspect(
        dependencies, making: making.map(\.target), checkingReads: checkingReads)
      for ((registration, target), outcome) in zip(making, outcomes) where target.resolvedFrom == 0
      {
        if case .made(_, _, readFails: true) = outcome {
          readsFail.insert(ObjectIdentifier(registration))
        }
      }
      for ((registration, target), outcome) in zip(making, outcomes) {
        inspect(registration, outcome, resolvedFrom: layers[target.resolvedFrom])
      }
      for (module, outcome) in whileFreeing {
        noteFreeing(outcome, of: module.map { making[$0].registration.keyDescription })
      }
      (making, replaced) = (replaced, [])
    }
    problems += cycles.map { .cycle(path: $0) }
  }

  private mutating func inspect(
    _ registration: Registration, _ outcome: InspectedModule, resolvedFrom container: Dependencies
  ) {
    let key = registration.keyDescription
    let module = key.description
    let site = registration.site.description
    let scope = registration.scope
    switch outcome {
    case .failed(let error):
      switch error.reason {
      // An `@Inject` is resolved when first read, so a cycle is only what making a module
      // meets, never a loop of `@Inject` edges.
      case .cycle(let path): record(cycle: path)
      // This registration's own alias, rather than one of something it depends on.
      case .notConforming(let valueType) where error.key == key:
        problems.append(.notConforming(module: module, valueType: valueType, registeredAt: site))
      default: problems.append(.unresolvable(module: module, message: error.description))
      }
    case .stopped(let message):
      problems.append(.unresolvable(module: module, message: message))
    case .made(let valueType, let injections, _):
      if registration.isEager, !scope.keepsInstances {
        problems.append(
          .eagerNotKept(module: module, scope: scope.description, registeredAt: site))
      }
      if registration.keeper.hasOnClose, !scope.keepsInstances {
        problems.append(
          .onCloseNeverRuns(module: module, scope: scope.description, registeredAt: site))
      }
      if case .weak = scope.kind, !(valueType is AnyObject.Type) {
        problems.append(
          .weakValueType(
            module: module, valueType: KeyDescription.typeName(of: valueType),
            registeredAt: site))
      }
      // A shared instance is made in the container that registers it, and resolves from there.
      check(
        injections, of: module, madeBy: registration, in: registration.keeper.owner ?? container)
    }
  }

  /// Notes a problem for each of `injections` that nothing in `dependencies` answers, and an
  /// edge for each that something does, if `registration` (a module, not a consumer) has them.
  mutating func check(
    _ injections: [(property: String, requirement: Requirement)], of module: String,
    madeBy registration: Registration?, in dependencies: Dependencies
  ) {
    for (property, requirement) in injections {
      let type = ObjectIdentifier(requirement.type)
      if let (owner, target) = dependencies.layer(registering: type, name: requirement.name) {
        // Only `resolveAsync` makes a unique async module: nothing keeps one made.
        let factories = target.factories(resolvedFrom: dependencies)
        if factories.contains(where: { $0.terms.isAsync && $0.scope.kind == .unique })
          || dependencies === layers[0]
            && ([target] + factories).contains(where: {
              readsFail.contains(ObjectIdentifier($0))
            })
        {
          problems.append(
            .asyncOnly(
              module: module, property: property,
              requirement: KeyDescription(requirement.type, name: requirement.name).description,
              declaredAt: requirement.site.description))
        }
        guard let registration else { continue }
        edges.append(
          DependencyGraph.Edge(
            from: ids[ObjectIdentifier(registration)]!,
            to: node(of: target, in: owner, resolvedFrom: dependencies), property: property))
      } else if !requirement.resolvesUnregistered {
        let problem = VerificationError.Problem.missing(
          module: module, property: property, requirement: missingKey(requirement).description,
          declaredAt: requirement.site.description)
        problems.append(problem)
        misses.append((problem, requirement, dependencies))
      }
    }
  }

  /// Adds the node of `registration`, registered `layer` containers down, and returns its id.
  private mutating func addNode(for registration: Registration, layer: Int) -> String {
    let key = registration.keyDescription
    let id = identifier(for: key)
    ids[ObjectIdentifier(registration)] = id
    for leaf in KeyDescription.leaves(of: registration.type) {
      typesByShortName[KeyDescription.typeName(of: leaf), default: []].insert(
        ObjectIdentifier(leaf))
    }
    let kind: DependencyGraph.Node.Kind =
      switch registration.role {
      // A collector stands for its list.
      case .module, .collector: .module
      case .contribution: .contribution
      case .decorator: .decorator
      }
    nodes.append(
      DependencyGraph.Node(
        id: id, typeName: key.typeName, name: key.name, scope: registration.scope, kind: kind,
        layer: layer))
    return id
  }

  /// The id of `target`'s node, which `owner` registers and `container` resolves. A module
  /// that a container over `owner` hides with its own key has no node until a shared module of
  /// `owner` or underneath injects it; the next pass makes it then, from `container`.
  private mutating func node(
    of target: Registration, in owner: Dependencies, resolvedFrom container: Dependencies
  ) -> String {
    if let id = ids[ObjectIdentifier(target)] { return id }
    let layer = layers.firstIndex { $0 === owner }!
    let position = owner.table.order.firstIndex { $0.takeUnretainedValue() === target }!
    let from = layers.firstIndex { $0 === container }!
    replaced.append(
      (target, InspectionTarget(layer: layer, position: position, resolvedFrom: from)))
    return addNode(for: target, layer: layer)
  }

  /// A key nothing registers, its types written in full where a type registered, or another
  /// it is written with, has the short name of one of them, as a miss's message writes it.
  private func missingKey(_ requirement: Requirement) -> KeyDescription {
    let leaves = KeyDescription.leaves(of: requirement.type)
    let clashing = leaves.compactMap { leaf -> String? in
      let name = KeyDescription.typeName(of: leaf)
      let registered = typesByShortName[name, default: []]
      return registered.contains { $0 != ObjectIdentifier(leaf) } ? name : nil
    }
    let inFull = Set(clashing + KeyDescription.clashingNames(of: requirement.type, with: leaves))
    return KeyDescription(
      typeName: KeyDescription.typeName(of: requirement.type, writingInFull: inFull),
      name: requirement.name)
  }

  /// Notes what stopped as an instance was freed, a deinit, as the problem of `module`, whose
  /// instance it was, or, once the copy was freed, of what it asked for; once, however many
  /// passes' copies meet it.
  private mutating func noteFreeing(_ outcome: InspectedModule, of module: KeyDescription?) {
    let problem: VerificationError.Problem
    switch outcome {
    case .failed(let error):
      let name = (module ?? error.key).description
      problem = .unresolvable(module: name, message: error.description)
    case .stopped(let message):
      let name = module?.description ?? "an instance freed by verify()"
      problem = .unresolvable(module: name, message: message)
    case .made: return
    }
    if !problems.contains(problem) { problems.append(problem) }
  }

  /// Notes `path`, a cycle met while making a module, unless another of its modules met it.
  private mutating func record(cycle path: [String]) {
    let loop = path.dropLast()
    let least = loop.indices.min { loop[$0] < loop[$1] } ?? loop.startIndex
    if seenCycles.insert(Array(loop[least...] + loop[..<least])).inserted {
      cycles.append(path)
    }
  }

  /// The identifier of `key`'s node: its type and name in plain characters, with `_2`, `_3`,
  /// … after it when an earlier node took it.
  private mutating func identifier(for key: KeyDescription) -> String {
    let base = Self.base(for: key)
    guard !usedIDs.insert(base).inserted else { return base }
    var suffix = nextSuffix[base] ?? 2
    while !usedIDs.insert("\(base)_\(suffix)").inserted { suffix += 1 }
    nextSuffix[base] = suffix + 1
    return "\(base)_\(suffix)"
  }

  private static func base(for key: KeyDescription) -> String {
    let raw = key.name.map { "\(key.typeName)_\($0)" } ?? key.typeName
    var base = String(raw.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    // Mermaid's keywords (`end`, `class`, `style`, …) are lower-case and read as such even
    // at the start of a longer word; DOT's (`node`, `graph`, …) are whole words in any case.
    // Every character is ASCII by now, so a capital letter first is an ASCII one.
    if base.first?.isUppercase != true { base = "N_" + base }
    if dotKeywords.contains(base.lowercased()) { base += "_" }
    return base
  }

  private static let dotKeywords: Set<String> = [
    "node", "edge", "graph", "digraph", "subgraph", "strict",
  ]
}
