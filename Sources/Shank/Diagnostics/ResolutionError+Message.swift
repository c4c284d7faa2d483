// The message of a `ResolutionError`: what failed, where it was asked for, and what to do.

extension ResolutionError {
  /// The message, in plain words, over several lines: a list longer than 20 shows its first
  /// 20 and its count, so even a miss among a hundred thousand keys stays a short message.
  public var description: String {
    let (headline, advice) = explanation
    return ([headline, "  asked for at \(fileID):\(line)"] + advice).joined(separator: "\n")
  }

  /// The message's first line, and those after where it was asked for.
  private var explanation: (String, [String]) {
    switch reason {
    case .notRegistered:
      return ("Shank cannot resolve \(key)", listing)
    case .cycle(let path):
      return (
        "Shank found a dependency cycle resolving \(key)",
        ["  cycle: \(path.joined(separator: " → "))"]
      )
    case .wrongIsolation(let actor, let registeredAt):
      let place = actor == "MainActor" ? "the main actor" : actor
      let isDecorator = if case .decorator? = storage.fields.thrower { true } else { false }
      let (bound, registered, runs) =
        isDecorator ? ("decorator", "its decorator", "it") : ("factory", "it", "its factory")
      var advice = [
        "  \(registered) was registered at \(registeredAt) from code isolated to \(actor), so \(runs) runs only there",
        "  resolve it on \(place), or, if it is Sendable, from async code with \(resolvingAsync)",
      ]
      if actor != "MainActor" {
        advice.append(
          "  \(registered) is bound to the very actor whose code registered it, not to any other \(actor) instance; a Task { } started there runs off it unless it inherits that actor"
        )
      }
      if let asking = askingFactory {
        advice.append(
          "  it was asked for off \(place) while \(asking): register what asked for it from code isolated to \(actor) too, or, if it is Sendable, have it resolve from async code with await \(resolvingAsync)"
        )
      }
      if actor == "MainActor" {
        // A server registers at launch and resolves on its request threads: the way out is
        // where it registers, not how it resolves.
        advice.append(
          "  or, if its \(bound) needs no main actor, register it from nonisolated code, such as a `nonisolated static func make() -> Dependencies` of an enum of yours"
        )
        if registeredAt.contains("/main.swift:") || registeredAt.hasPrefix("main.swift:") {
          advice.append(
            "  if that is the top-level code of main.swift, it is main-actor code: move the Dependencies { } from there into such a function"
          )
        }
      }
      return ("Shank cannot resolve \(key) off \(place)", advice)
    case .notConforming(let valueType):
      let module = storage.fields.registeredAt.map { "the module registered at \($0)" }
      return (
        "Shank cannot resolve \(key): the module's value, a \(valueType), does not conform to \(typeName)",
        [
          "  remove \(typeName).self from the as: list of \(module ?? "the module"), or make \(valueType) conform to it"
        ]
      )
    case .factoryFailed(let error):
      let thrower =
        switch storage.fields.thrower {
        case .factory(let site)?: "its factory registered at \(site)"
        case .contribution(let site)?: "its contribution registered at \(site)"
        case .decorator(let site)?: "its decorator registered at \(site)"
        case nil: "its factory"
        }
      // Its lines after the first indented, so that they read as part of it.
      let error = error.split(separator: "\n", omittingEmptySubsequences: false)
        .joined(separator: "\n    ")
      return (
        "Shank cannot resolve \(key): \(thrower) threw \(error)",
        askingFactory.map { ["  while \($0)"] } ?? []
      )
    case .closed(let container):
      return (
        "Shank cannot resolve \(key): its container was closed (\(container))",
        [
          "  resolve from a container that is still open; an instance kept from before it closed stays usable"
        ]
      )
    case .released(let container):
      return (
        "Shank cannot resolve \(key): the container that made the instance holding it was released (\(container))",
        [
          "  keep that container for as long as what it made is in use, or read the property while it is"
        ]
      )
    case .notMadeYet(let registeredAt):
      let (headline, advice) = notMadeYet(registeredAt: registeredAt)
      return (headline, (askingFactory.map { ["  while \($0)"] } ?? []) + advice)
    case .tooDeep(0, _):
      // The stack was full before any factory ran: the app's own frames, such as deinits that
      // each resolve as they let go of what the one before made.
      return (
        "Shank cannot resolve \(key): this thread's stack is nearly full, though no factory is running on it",
        [
          "  resolve it from code nearer the top of the stack, or on a thread with a larger stack"
        ]
      )
    case .tooDeep(let depth, let chain):
      let more = depth > chain.count ? " → …" : ""
      return (
        "Shank cannot resolve \(key): \(depth) factories are running, each resolving the next, and this thread's stack is nearly full",
        [
          "  chain (\(depth) deep): \(chain.joined(separator: " → "))\(more)",
          "  resolve a long run of modules one after another rather than each from the one before, or resolve on a thread with a larger stack",
        ]
      )
    }
  }

  /// The explanation of ``Reason/notMadeYet(registeredAt:)``: why nothing made the module, and
  /// how to.
  private func notMadeYet(registeredAt: String) -> (String, [String]) {
    let registered = "  it was registered at \(registeredAt) with an async factory"
    let pending = storage.fields.pending
    // What replaces the usual advice: why the resolution gave up, or, in a round, where only a
    // resolution that stops the program is told (the round makes the module for one that
    // throws), how to ask instead.
    let instead =
      pending?.gaveUp.map(Self.advice(gaveUp:)) ?? (pending?.isInRound == true ? Self.inRound : nil)
    if pending?.gaveUp == .rounds, let instead {
      return (
        "Shank cannot resolve \(key) synchronously: its factory is async, and the resolution that makes what the synchronous factories ask for gave up",
        [registered, instead]
      )
    }
    switch pending?.absence {
    case .notKept:
      return (
        "Shank cannot resolve \(key) synchronously: its factory is async, and this container does not keep what it made before",
        [registered, instead ?? "  make it again from async code with await \(resolvingAsync)"]
      )
    case .mainActorHeld:
      return (
        "Shank cannot resolve \(key) synchronously: its factory is async and bound to the main actor, which verify() holds, so it cannot await it",
        [
          registered,
          "  check it in an async test instead, with try await dependencies.start() or await \(resolvingAsync)",
        ]
      )
    default:
      guard pending?.isKept != false else {
        return (
          "Shank cannot resolve \(key) synchronously: its factory is async, and it is .unique, so no container keeps what it makes",
          [
            registered,
            instead
              ?? "  resolve it from async code with await \(resolvingAsync), or register it .singleton or .cached with eager: true and call try await dependencies.start() at launch",
          ]
        )
      }
      let eager = pending?.isEager == true
      return (
        "Shank cannot resolve \(key) synchronously: its factory is async, and nothing has made it in this container yet",
        [
          registered,
          instead
            ?? (eager
              ? "  it is eager: resolve it once try await dependencies.start() has returned, or from async code with await \(resolvingAsync)"
              : "  make it first: register it eager: true and call try await dependencies.start() at launch, or resolve it from async code with await \(resolvingAsync)"),
        ]
      )
    }
  }

  /// What a resolution in a round of `start()` or `resolveAsync` that stops is told to do.
  private static let inRound =
    "  it was asked for while start() or resolveAsync made what asked for it, with resolve() or an @Inject read, which stop here: ask with try Dependencies.resolveOrThrow, and the module is made before that factory runs again"

  /// Why `start()` or `resolveAsync`, which the advice would otherwise point at, gave up.
  private static func advice(gaveUp: AsyncPending.GaveUp) -> String {
    switch gaveUp {
    case .metAnew:
      "  the factory that asks for it met it in another container than the one it was made in for the run before, and left that one unused, twice, as one that makes a child or withOverrides layer anew at every run does: make that layer once, outside the factory"
    case .lost:
      "  it was made and lost twice for this resolution before it was asked for again, as to a decorator that fails on it, or to a .weak scope, which keeps no value type"
    case .rounds:
      "  it ran the synchronous factories \(Dependencies.mostRounds) times, making the async module each run met, and no run found every one made and kept: a synchronous factory that reads .unique async modules that many times, or whose scope other tasks reset more often than it runs, never finishes; have an async factory await them with Dependencies.resolveAsync instead"
    }
  }

  /// What was running when the key was asked for: a module being made, or a decorator.
  private var askingFactory: String? {
    guard let asker = storage.fields.askingFactory else { return nil }
    let registered = "registered at \(asker.registeredAt)"
    return asker.isDecorator
      ? "a decorator of \(asker.key), \(registered), was decorating it"
      : "\(asker.key), \(registered), was being made"
  }

  /// The call that resolves the key from async code, its name included.
  private var resolvingAsync: String {
    let named = name.map { ", name: \(KeyDescription.quoted($0))" } ?? ""
    return "Dependencies.resolveAsync(\(typeName).self\(named))"
  }

  /// What a miss says after where it was asked for: why nothing may be registered, the near
  /// misses and what is registered.
  private var listing: [String] {
    let fields = storage.fields
    var lines: [String] = []
    if let asking = askingFactory { lines.append("  while \(asking)") }
    if let (resolvedFrom, registering) = fields.registeredAbove {
      lines.append(
        "  a container over the one resolved from (\(resolvedFrom)) registers it (\(registering)), but a container resolves only from itself and the ones under it: register \(key) there too, or, for a module that asks for it, register that module beside \(key)"
      )
    } else if case .none? = fields.inTest {
      lines += [
        "  no container was built and no override applies: give this test its modules with the .dependencies { } trait of ShankTesting, or run it inside Dependencies.withOverrides { } operation: { }",
        "  a detached task, a thread or a queue does not inherit the overrides of the test that starts it: resolve in the test's own task or in a child task of it",
      ]
    } else if case .overrides? = fields.inTest {
      lines.append(
        "  no container was built, and the overrides that apply do not register it: add it to this test's .dependencies { } trait or withOverrides modules"
      )
    } else if case .container(let madeAt)? = fields.inTest {
      lines.append(
        "  no container was built, and the container resolved from (\(madeAt)), over the empty one, does not register it: register it there, or give this test its modules with the .dependencies { } trait of ShankTesting"
      )
    } else if noContainerBuilt {
      lines.append(
        "  no container was built: did you call build() on your Dependencies at launch?")
    } else if fields.builtSince {
      lines.append(
        "  a container was built, but this one lies over the empty one that Dependencies.current gave before build(): make it after build()"
      )
    }
    if !fields.nearMisses.isEmpty {
      let shown = fields.nearMisses.prefix(Dependencies.listedKeyLimit).map {
        $0.line(missing: fields.key)
      }
      lines += Self.list("  near misses", shown, of: fields.nearMisses.count)
    }
    if registeredCount > 0 {
      lines += Self.list("  registered", registered, of: registeredCount, counted: true)
    } else if !noContainerBuilt {
      lines.append("  nothing is registered")
    }
    return lines
  }

  /// `title`, then the first 20 of `keys`, one a line. The title says how many there are in
  /// all, `count` or as many as `keys`, when not all are shown, or when `counted`.
  static func list(
    _ title: String, _ keys: [String], of count: Int? = nil, counted: Bool = false
  ) -> [String] {
    let count = count ?? keys.count
    let shown = keys.prefix(Dependencies.listedKeyLimit)
    let first = shown.count < count ? ", first \(shown.count)" : ""
    let total = counted || !first.isEmpty ? " (\(grouped(count))\(first))" : ""
    return ["\(title)\(total):"] + shown.map { "    \($0)" }
  }

  /// `100,000`: a count as people read it, without Foundation's formatters.
  private static func grouped(_ count: Int) -> String {
    var text = String(count)
    for end in stride(from: text.count - 3, to: 0, by: -3) {
      text.insert(",", at: text.index(text.startIndex, offsetBy: end))
    }
    return text
  }
}
