import Foundation
import Shank
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Chains of factories, each resolving the next while it runs: how much stack each level
/// takes, that the levels api.md §11 promises fit a 512 KiB thread (64 in a debug build, 200 in
/// release; `ShankProfile depth` checks the release floors in CI), and that a chain too deep for its thread stops
/// with Shank's message rather than overflowing the stack; and a resolution that starts in the
/// stack's reserve, which is refused before its factory runs.
@Suite struct DepthTests {
  /// Darwin's default stack for a secondary thread.
  static let smallStack = 512 << 10

  /// The nested resolutions api.md §11 promises on a 512 KiB thread: 64 in a debug build, which
  /// keeps every temporary of every frame, and 200 in an optimized one.
  static var floor: Int {
    #if DEBUG
      64
    #else
      200
    #endif
  }

  /// The most stack one nested resolution may take: room for `floor` levels, the 24 KiB Shank
  /// keeps in reserve, the thread's own frames and what a first resolution in a process sets
  /// up (metadata, type names) at the bottom of the chain.
  static var bytesPerLevelBound: Int {
    #if DEBUG
      6_144
    #else
      1_024
    #endif
  }

  /// The stack of a thread that runs a chain until Shank refuses it. ThreadSanitizer's is
  /// smaller: it follows at most 128 locks held at once, and each singleton of a chain holds
  /// its creation lock while its factory runs.
  static var tooDeepStack: Int { Sanitizer.current == .thread ? 256 << 10 : smallStack }

  /// Why the chains that Shank refuses do not run under AddressSanitizer.
  static let keepsLocalsOffTheStack: Comment = """
    AddressSanitizer keeps locals off the stack to catch a use after return, so Shank cannot \
    see how deep a resolution is; the sanitizer reports the overflow itself
    """

  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: [false, true], [ChainStep.resolve, .inject])
  func theFloorsLevelsFitA512KiBThread(shared: Bool, step: ChainStep) async throws {
    // In a process of its own: an observer another test installs meanwhile would send every
    // resolution down the observed path, whose frames are deeper.
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [shared, step] in
      let length = await onThread(stackSize: DepthTests.smallStack) {
        let modules = chainModules(
          length: DepthTests.floor, scope: shared ? .singleton : .unique, step: step)
        return Dependencies.withOverrides {
          modules
        } operation: {
          chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
        }
      }
      precondition(length == DepthTests.floor, "\(length) levels fit")
    }
    #expect(standardError(of: result) == "")
  }

  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: [false, true], [ChainStep.resolve, .inject])
  func eachLevelTakesLittleStack(shared: Bool, step: ChainStep) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [shared, step] in
      let bytesPerLevel = await onThread(stackSize: DepthTests.smallStack) {
        let recorder = StackRecorder()
        let modules = chainModules(
          length: 50, scope: shared ? .singleton : .unique, step: step, recorder: recorder)
        Dependencies.withOverrides {
          modules
        } operation: {
          _ = Dependencies.resolve(ChainLink.self, name: "0")
        }
        return recorder.bytesPerLevel
      }
      let bound = DepthTests.bytesPerLevelBound
      precondition(bytesPerLevel > 0)
      precondition(
        bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per nested resolution")
    }
    #expect(standardError(of: result) == "")
  }

  /// Not only the plain path: with an observer installed, in a decorating container, for each
  /// scope, through a child container and from a built root, a level leaves room for the floor's levels.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: ChainPath.allCases)
  func theFloorsLevelsFitA512KiBThreadOnEveryPath(path: ChainPath) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [path] in
      await stopUnlessTheFloorsLevelsFit { chainLength(DepthTests.floor, path: path, recorder: $0) }
    }
    #expect(standardError(of: result) == "")
  }

  /// A chain too deep for its thread stops with Shank's message on every path, never with a
  /// segmentation fault.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "the sanitizers keep frames off the stack, or follow at most 64 locks held at once"),
    arguments: ChainPath.allCases)
  func aChainTooDeepStopsWithShanksMessageOnEveryPath(path: ChainPath) async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [path] in
      _ = await onThread(stackSize: DepthTests.smallStack) { chainLength(20_000, path: path) }
    }
    let stderr = standardError(of: result)
    try expectTooDeepMessage(in: stderr, askedForAt: chainResolveLine)
  }

  /// Each level of a singleton chain holds its creation lock, and ThreadSanitizer's deadlock
  /// detector stops the process, without a word, past 64 locks held at once.
  static let tooDeepScopes: [Scope] =
    Sanitizer.current == .thread ? [.unique] : [.unique, .singleton]

  @Test(
    .disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack),
    arguments: tooDeepScopes)
  func resolveOrThrowThrowsTooDeepInsteadOfOverflowing(scope: Scope) async throws {
    let errors = await onThread(stackSize: Self.tooDeepStack / 2) {
      let modules = chainModules(length: 100_000, scope: scope, step: .resolveOrThrow)
      return Dependencies.withOverrides {
        modules
      } operation: {
        // Twice: the first refusal must leave nothing held, no creation lock, no frame on the
        // trace, so the second goes exactly as deep. Both observed: another test's observer,
        // installed or cancelled in between, would otherwise move one of them to the observed
        // path, whose frames are larger.
        let observation = Dependencies.observe { _ in }
        defer { observation.cancel() }
        return [
          resolutionError { try Dependencies.resolveOrThrow(ChainLink.self, name: "0") },
          resolutionError { try Dependencies.resolveOrThrow(ChainLink.self, name: "0") },
        ]
      }
    }
    let error = try #require(errors[0])
    guard case .tooDeep(let depth, let chain) = error.reason else {
      Issue.record("expected .tooDeep, got \(error)")
      return
    }
    // ThreadSanitizer's frames are larger and its thread's stack is half: 128 KiB holds about
    // 20 levels of the observed path there.
    let shallowest = Sanitizer.current == .thread ? 10 : 20
    #expect(
      depth > shallowest, "half the stack of the chains below holds more than \(shallowest) levels")
    #expect(depth < 100_000)
    #expect(chain == (0..<5).map { #"ChainLink named "\#($0)""# })
    #expect(error.typeName == "ChainLink")
    #expect(error.name == String(depth))
    #expect(error.fileID == "ShankTests/DepthTests.swift")
    #expect(error.line == chainResolveOrThrowLine)
    #expect(
      error.description == """
        Shank cannot resolve ChainLink named "\(depth)": \(depth) factories are running, each resolving the next, and this thread's stack is nearly full
          asked for at ShankTests/DepthTests.swift:\(chainResolveOrThrowLine)
          chain (\(depth) deep): ChainLink named "0" → ChainLink named "1" → ChainLink named "2" → ChainLink named "3" → ChainLink named "4" → …
          resolve a long run of modules one after another rather than each from the one before, or resolve on a thread with a larger stack
        """)
    #expect(errors[1]?.reason == error.reason)
  }

  /// An error met where a chain that fits its 512 KiB thread ends, with little stack left, is
  /// thrown, never a segfault: its text is written on a fresh stack, since the runtime takes
  /// tens of KiB to write a type's name the first time. So each length runs in a process of
  /// its own, which has written none.
  @Test(
    .disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack),
    arguments: ChainEnd.allCases)
  func anErrorWhereAChainThatFitsEndsIsThrown(end: ChainEnd) async throws {
    let deepest = try await ChainEnd.deepestLength(of: end)
    #expect(deepest > DepthTests.floor)
    for length in max(1, deepest - 6)..<deepest {
      await #expect(processExitsWith: .success, "\(length) links of \(deepest)") {
        [end = end as ChainEnd, length = length as Int] in
        let thrown = await onThread(stackSize: 512 << 10) {
          end.isReason(of: resolutionError { try end.chain(length: length).resolveOrThrow() })
        }
        precondition(thrown)
      }
    }
  }

  /// A miss where such a chain ends, asked for with `resolve()`, stops with its message.
  @Test(.disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack))
  func aStopWhereAChainThatFitsEndsWritesItsMessage() async throws {
    let deepest = try await ChainEnd.deepestLength(of: .missingKey)
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    { [length = (deepest - 1) as Int] in
      await onThread(stackSize: 512 << 10) {
        let chain = ChainEnd.missingKey.chain(length: length, resolving: true)
        _ = chain.resolve(ChainLink.self, name: "0")
      }
    }
    #expect(standardError(of: result).contains("Shank cannot resolve NeverRegistered"))
  }

  @Test(.disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack))
  func aChainTooDeepForItsThreadStopsWithShanksMessage() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      await onThread(stackSize: DepthTests.tooDeepStack) {
        let modules = chainModules(length: 100_000, step: .resolve)
        Dependencies.withOverrides {
          modules
        } operation: {
          _ = Dependencies.resolve(ChainLink.self, name: "0")
        }
      }
    }
    let stderr = standardError(of: result)
    try expectTooDeepMessage(in: stderr, askedForAt: chainResolveLine)
  }

  @Test(
    .disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack),
    .disabled(
      if: Sanitizer.current == .thread,
      "a chain of singletons holds a lock a level, past the 64 ThreadSanitizer follows"))
  func aChainOfInjectionsTooDeepForItsThreadStopsWithShanksMessage() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      await onThread(stackSize: DepthTests.tooDeepStack) {
        let modules = chainModules(length: 100_000, scope: .singleton, step: .inject)
        Dependencies.withOverrides {
          modules
        } operation: {
          _ = Dependencies.resolve(ChainLink.self, name: "0")
        }
      }
    }
    let stderr = standardError(of: result)
    try expectTooDeepMessage(in: stderr, askedForAt: injectedChainLinkLine)
  }

  /// `verify()` and `graph()` walk a chain of 5,000 modules, each injecting the next, on a
  /// 512 KiB thread: their traversals keep their own stack, not the thread's.
  @Test func verifyAndGraphWalkALongChainOfInjectionsOnA512KiBThread() async throws {
    let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent])
    {
      let (problems, edges) = await onThread(stackSize: DepthTests.smallStack) {
        let container = Dependencies { lazyChainModules(length: 5_000) }
        var problems: [String] = []
        do throws(VerificationError) {
          try container.verify()
        } catch {
          problems = error.problems.map(\.description)
        }
        return (problems, container.graph().edges.count)
      }
      precondition(problems.isEmpty, "\(problems.prefix(3))")
      precondition(edges == 4_999, "\(edges) edges")
    }
    #expect(standardError(of: result) == "")
  }

  /// Shank keeps a 32nd of the thread's stack in reserve, at least 24 KiB and at most 64 KiB:
  /// the deepest factory of a chain too long for its thread runs with about that much left.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [(512 << 10, 24 << 10), (1_536 << 10, 48 << 10), (4 << 20, 64 << 10)])
  func aThirtySecondOfTheStackStaysInReserveBetween24And64KiB(stackSize: Int, reserve: Int)
    async throws
  {
    // Never freed: the detached thread may still be ending on it when `onThread` returns.
    let stack = UnsafeMutableRawPointer.allocate(byteCount: stackSize, alignment: 16 << 10)
    let lowest = UInt(bitPattern: stack)
    let (deepest, bytesPerLevel) = await onThread(stackSize: stackSize, stack: stack) {
      let recorder = StackRecorder()
      let container = Dependencies {
        chainModules(length: 20_000, step: .resolveOrThrow, recorder: recorder)
      }
      let error = resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") }
      precondition(error?.name == String(recorder.addresses.count), "refused after the last")
      return (recorder.addresses.last!, recorder.bytesPerLevel)
    }
    let left = Int(deepest - lowest)
    #expect(
      abs(left - reserve) < bytesPerLevel * 3 / 2,
      "\(left) bytes left at the deepest factory, \(bytesPerLevel) a level")
  }

  /// A refusal names the key asked for: the list, where it lands on a contribution the list
  /// was making, and the alias, where it lands on the module behind it. Resolved from every
  /// 64 bytes across the reserve's edge, so that some land on each.
  @Test(.disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack))
  func aRefusalNamesTheKeyAskedFor() async {
    let named = await onThread(stackSize: 512 << 10) { () -> Set<String> in
      let container = Dependencies {
        Module.contribution { ServiceImpl() as Service }
        Module(as: Service.self, OtherService.self) { ServiceAndOther() }
      }
      // Makes the trace, the types' names and the test library's first backtrace up here.
      _ = container.resolve([Service].self)
      _ = container.resolve(OtherService.self)
      _ = resolutionError { try container.resolveOrThrow(NeverRegistered.self) }
      let low = stackLow()
      var named: Set<String> = []
      for left in stride(from: UInt(20 << 10), through: 34 << 10, by: 64) {
        descend(toWithin: left, of: low) {
          for error in [
            resolutionError { try container.resolveOrThrow([Service].self) },
            resolutionError { try container.resolveOrThrow(OtherService.self) },
          ] {
            if case .tooDeep? = error?.reason { named.insert(error!.typeName) }
          }
        }
      }
      return named
    }
    #expect(named == ["[Service]", "OtherService"])
  }

  /// An error's description, its own or a value's inside it, written with little stack left,
  /// runs on the resolving task: it reads that task's task-locals, as with room to spare.
  @Test(
    .disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack),
    arguments: [false, true])
  func anErrorsDescriptionWithLittleRoomRunsOnTheResolvingTask(inAValue: Bool) async {
    let texts = await onThread(stackSize: 512 << 10) { () -> [String?] in
      let container = Dependencies {
        Module { () throws -> Service in
          throw inAValue ? CarriedFailure.failed(TaggedFailure()) : TaggedFailure()
        }
      }
      _ = resolutionError { try container.resolveOrThrow(Service.self) }
      let low = stackLow()
      return TaggedFailure.$tag.withValue("r42") {
        [
          resolutionError { try container.resolveOrThrow(Service.self) }?.description,
          descend(toWithin: 100 << 10, of: low) {
            resolutionError { try container.resolveOrThrow(Service.self) }?.description
          },
        ]
      }
    }
    let written = texts.map { $0?.contains("failed for r42") }
    #expect(written == [true, true], "\(texts)")
  }

  /// An outermost resolution that starts inside the stack's reserve takes the out-of-line
  /// path and throws `.tooDeep` rather than running the factory, with a message that blames
  /// no factory.
  @Test(
    .disabled(if: Sanitizer.current == .address, keepsLocalsOffTheStack),
    arguments: [Scope.unique, .singleton])
  func anOutermostResolutionInTheStacksReserveIsTooDeep(scope: Scope) async throws {
    let made = Counter()
    let results = await onThread(stackSize: 512 << 10) {
      () -> (deep: ResolutionError?, shallow: ResolutionError?, madeWhenDeep: Int) in
      let container = Dependencies {
        Module(scope: scope) { () -> LeafModule in
          made.increment()
          return LeafModule()
        }
        Module("warm") { LeafModule() }
      }
      // Makes this thread's trace, so that the deep resolution below finds it made.
      _ = container.resolve(LeafModule.self, name: "warm")
      // Throws once up here: the test library captures a backtrace of every error thrown, and
      // the first capture in a process makes type metadata, past the 16 KiB left down there.
      _ = resolutionError { try container.resolveOrThrow(NeverRegistered.self) }
      let low = stackLow()
      let deep = descend(toWithin: 16 << 10, of: low) {
        resolutionError { try container.resolveOrThrow(LeafModule.self, line: 7) }
      }
      let madeWhenDeep = made.value
      // Back up the stack, the same key resolves: the refusal left nothing held.
      let shallow = resolutionError { try container.resolveOrThrow(LeafModule.self) }
      return (deep, shallow, madeWhenDeep)
    }
    let error = try #require(results.deep, "a resolution 16 KiB from the stack's end ran")
    #expect(error.reason == .tooDeep(depth: 0, chain: []))
    #expect(
      error.description.split(separator: "\n").map(String.init) == [
        "Shank cannot resolve LeafModule: this thread's stack is nearly full, though no factory is running on it",
        "  asked for at ShankTests/DepthTests.swift:7",
        "  resolve it from code nearer the top of the stack, or on a thread with a larger stack",
      ])
    #expect(results.shallow == nil)
    #expect(results.madeWhenDeep == 0, "the factory ran although the resolution was refused")
    #expect(made.value == 1)
  }

  // MARK: - Decorators that resolve, and optionals through aliases

  /// A decorator that resolves the next link at each level, a child's or the owner's, over
  /// singletons, unique modules or aliases: the floor's levels fit a 512 KiB thread.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: ResolvingDecorator.allCases)
  func theFloorsLevelsFitWhereADecoratorResolvesTheNextLink(decorator: ResolvingDecorator)
    async throws
  {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [decorator] in
      let length = await onThread(stackSize: DepthTests.smallStack) {
        decorator.chainLength(DepthTests.floor)
      }
      precondition(length == DepthTests.floor, "\(length) levels fit")
    }
    #expect(standardError(of: result) == "")
  }

  /// A `T?` resolved at each level through an alias that its container decorates, observed,
  /// and through a decorating child: the floor's levels fit a 512 KiB thread.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: [ScopeCase.unique, .singleton, .cached], [false, true])
  func theFloorsLevelsFitWhereEachLevelResolvesAnOptionalAlias(scope: ScopeCase, throughChild: Bool)
    async throws
  {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [scope, throughChild] in
      let length = await onThread(stackSize: DepthTests.smallStack) {
        optionalAliasChainLength(DepthTests.floor, scope: scope.scope, throughChild: throughChild)
      }
      precondition(length == DepthTests.floor, "\(length) levels fit")
    }
    #expect(standardError(of: result) == "")
  }

  /// A chain of optional lists, and a chain of decorators each resolving the next link as a
  /// `T?`, observed or not: the floor's levels fit a 512 KiB thread. A decorator's chain has the
  /// least room of any path in a debug build (68 levels fit where the decorator's closure is
  /// larger, `ShankProfile depth`), a list's about 87.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: OptionalChain.allCases, [false, true])
  func theFloorsLevelsFitWhereEachLevelResolvesAnOptional(chain: OptionalChain, observed: Bool)
    async throws
  {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [chain, observed] in
      let levels = DepthTests.floor
      let observation = observed ? Dependencies.observe { _ in } : nil
      let length = await onThread(stackSize: DepthTests.smallStack) { chain.length(levels) }
      observation?.cancel()
      precondition(length == levels, "\(length) levels fit")
    }
    #expect(standardError(of: result) == "")
  }

  // MARK: - Aliases, contribution lists, @Inject, layers and the main actor

  /// The composed paths: `@Inject` observed, `.cached` and `.weak` links decorated and
  /// observed, a decorating child over a decorating parent, an override layer, a built root:
  /// the floor's levels fit a 512 KiB thread, each level taking as little as on a `ChainPath`.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: ComposedChainPath.allCases.filter { $0.levelsA512KiBThreadHolds == 200 })
  func theFloorsLevelsFitA512KiBThreadOnComposedPaths(path: ComposedChainPath)
    async throws
  {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [path] in
      await stopUnlessTheFloorsLevelsFit { chainLength(DepthTests.floor, path: path, recorder: $0) }
    }
    #expect(standardError(of: result) == "")
  }

  /// An alias (`Module(as:)`) or a contribution list (`[P]`) reads through to another provider
  /// at each level, the registration the alias names or each contribution, so a level is two
  /// resolutions' frames: about 4,300 to 4,900 bytes in a debug build, and a 512 KiB thread
  /// holds a hundred-odd levels, not 200. An `@Inject` singleton chain in a decorating,
  /// observed container takes the deepest single resolution and the property wrapper's frames
  /// too, about 2,600 bytes a level: 180-odd levels. (The observed, decorated list path holds
  /// fewer, for a reason of the fixture's: see `levelsA512KiBThreadHolds`.)
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: ComposedChainPath.allCases.filter { $0.levelsA512KiBThreadHolds < 200 })
  func aChainOfAliasesOrListsFitsAHundredLevels(path: ComposedChainPath) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [path] in
      let levels = min(path.levelsA512KiBThreadHolds, DepthTests.floor)
      let length = await onThread(stackSize: DepthTests.smallStack) {
        chainLength(levels, path: path)
      }
      precondition(length == levels, "\(length) levels fit")
    }
    #expect(standardError(of: result) == "")
  }

  /// Main-actor modules run on the main actor, whose thread is large: how many bytes a level
  /// takes, which must leave room for the floor's levels on a 512 KiB thread, and they resolve.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: [false, true])
  func mainActorChainsTakeLittleStackALevel(observedAndDecorated: Bool) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) { [observedAndDecorated] in
      let (length, bytesPerLevel) = await MainActor.run {
        mainActorChain(DepthTests.floor, observedAndDecorated: observedAndDecorated)
      }
      precondition(length == DepthTests.floor, "\(length) levels fit")
      let bound = DepthTests.bytesPerLevelBound
      precondition(bytesPerLevel > 0)
      precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
    }
    #expect(standardError(of: result) == "")
  }

  /// A chain too deep for its thread stops with Shank's message on the composed paths too,
  /// never with a segmentation fault, and not before the levels the thread holds.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "the sanitizers keep frames off the stack, or follow at most 64 locks held at once"),
    arguments: ComposedChainPath.allCases)
  func aChainTooDeepStopsWithShanksMessageOnComposedPaths(path: ComposedChainPath)
    async throws
  {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [path] in
      _ = await onThread(stackSize: DepthTests.smallStack) {
        chainLength(path.tooDeepLength, path: path)
      }
    }
    let stderr = standardError(of: result)
    let pattern =
      /Shank cannot resolve (.+): (\d+) factories are running, each resolving the next, and this thread's stack is nearly full/
    let match = try #require(
      stderr.firstMatch(of: pattern), "no Shank message: \(stderr.suffix(2_000))")
    let depth = try #require(Int(match.output.2))
    #expect(depth >= min(path.levelsA512KiBThreadHolds, DepthTests.floor))
    // A contribution is named by its list, which was asked for, not by its own key.
    if path == .contributions || path == .contributionsDecoratedObserved {
      #expect(
        stderr.contains(
          "chain (\(depth) deep): [Level<BottomLevel>] → [Level<NestedLevel<BottomLevel>>] → "),
        "\(stderr.suffix(2_000))")
    }
  }

  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"))
  func aMainActorChainTooDeepStopsWithShanksMessage() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = await MainActor.run { mainActorChain(100_000, observedAndDecorated: true) }
    }
    let stderr = standardError(of: result)
    let pattern =
      /factories are running, each resolving the next, and this thread's stack is nearly full/
    #expect(stderr.contains(pattern), "no Shank message: \(stderr.suffix(2_000))")
  }

  /// `.tooDeep(depth:chain:)`: "`depth` factories were running on this thread, each inside
  /// the one before … `chain` is the keys of the outermost of them". Through aliases and
  /// contribution lists, each link is one factory.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [false, true])
  func aTooDeepErrorCountsFactoriesThroughAliases(shared: Bool) async throws {
    let error = await onThread(stackSize: DepthTests.smallStack) {
      let container = Dependencies {
        aliasChainModules(
          length: 20_000, scope: shared ? .singleton : .unique, recorder: nil, throwing: true)
      }
      return resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") }
    }
    let tooDeep = try #require(error)
    guard case .tooDeep(let depth, let chain) = tooDeep.reason else {
      Issue.record("expected .tooDeep, got \(tooDeep)")
      return
    }
    #expect(chain == (0..<5).map { #"ChainLink named "\#($0)""# })
    #expect(tooDeep.name == String(depth), "the link refused is the one after `depth` links")
  }

  /// `resolveOrThrow` throws `.tooDeep` through a decorating child over a decorating parent, and leaves nothing held: the second
  /// attempt goes exactly as deep.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [
      ComposedChainPath.childDecoratingOverDecoratingParentSingletons, .cachedDecoratedObserved,
    ])
  func resolveOrThrowThrowsTooDeepTwiceAlikeThroughDecoratingLayers(path: ComposedChainPath)
    async throws
  {
    let errors = await onThread(stackSize: DepthTests.smallStack) {
      throwingChainErrors(20_000, path: path)
    }
    let first = try #require(errors[0])
    guard case .tooDeep(let depth, _) = first.reason else {
      Issue.record("expected .tooDeep, got \(first)")
      return
    }
    // A guard well above api.md §11's 64 for a debug build, so that a frame that grows shows
    // here first.
    #expect(depth >= 140)
    #expect(errors[1]?.reason == first.reason)
  }

  /// Checks the message, every line verbatim, with the depth it reports.
  private func expectTooDeepMessage(in stderr: String, askedForAt line: Int) throws {
    let depthPattern = /Shank cannot resolve ChainLink named "(\d+)": (\d+) factories are running/
    let match = try #require(stderr.firstMatch(of: depthPattern), "\(stderr)")
    let depth = try #require(Int(match.output.2))
    #expect(match.output.1 == match.output.2)
    if Sanitizer.current == .none {
      #expect(depth >= DepthTests.floor, "a 512 KiB thread holds the floor's levels")
    }
    #expect(depth < 100_000)
    #expect(
      stderr.contains(
        """
        Shank cannot resolve ChainLink named "\(depth)": \(depth) factories are running, each resolving the next, and this thread's stack is nearly full
          asked for at ShankTests/DepthTests.swift:\(line)
          chain (\(depth) deep): ChainLink named "0" → ChainLink named "1" → ChainLink named "2" → ChainLink named "3" → ChainLink named "4" → …
          resolve a long run of modules one after another rather than each from the one before, or resolve on a thread with a larger stack
        """), "\(stderr)")
  }
}

// MARK: - A chain of modules

/// One link of a chain of modules registered under the names "0", "1", …: the factory of
/// link N resolves link N + 1 while it runs.
protocol ChainLink: AnyObject {
  var next: ChainLink? { get }
}

final class ChainLinkImpl: ChainLink {
  let next: ChainLink?

  init(next: ChainLink?) { self.next = next }
}

/// A link that reads the next one through an `@Inject` property, in its initializer.
final class InjectedChainLink: ChainLink {
  @Inject private var injected: ChainLink

  var next: ChainLink? { injected }

  init(nextName: String) {
    _injected = Inject(nextName)
    _ = injected
  }
}
let injectedChainLinkLine = #line - 4  // the `Inject(nextName)` call

/// A link that injects the next one and reads it only when asked, as modules do.
final class LazyChainLink: ChainLink {
  @Inject private var injected: ChainLink

  var next: ChainLink? { injected }

  init(nextName: String) { _injected = Inject(nextName) }
}

/// The modules of a chain of `length` links named "0" to "`length - 1`", each a
/// ``LazyChainLink`` to the next but the last.
@ModuleBuilder
func lazyChainModules(length: Int) -> [Module] {
  for index in 0..<length {
    let next = String(index + 1)
    Module(String(index)) { () -> ChainLink in
      index + 1 < length ? LazyChainLink(nextName: next) : ChainLinkImpl(next: nil)
    }
  }
}

/// An error whose description reads a task-local of the task that threw it.
struct TaggedFailure: Error, CustomStringConvertible {
  @TaskLocal static var tag = "none"

  var description: String { "failed for \(Self.tag)" }
}

/// An error with no description of its own, carrying a value that has one.
enum CarriedFailure: Error {
  case failed(TaggedFailure)
}

/// What the last factory of a chain meets.
enum ChainEnd: String, CaseIterable, Codable, Sendable {
  case missingKey
  case thrownError
  case cycle

  /// A thrown error that only reflection describes, its type's name and all.
  struct Failure: Error { let code = 1 }

  /// `length` links, each resolving the next with `resolveOrThrow`, the last meeting this end,
  /// through `resolve()` if `resolving`.
  func chain(length: Int, resolving: Bool = false) -> Dependencies {
    Dependencies {
      for index in 0..<length {
        Module(String(index)) { () throws -> ChainLink in
          guard index == length - 1 else {
            return ChainLinkImpl(
              next: try Dependencies.resolveOrThrow(ChainLink.self, name: String(index + 1)))
          }
          switch self {
          case .missingKey where resolving: _ = Dependencies.resolve(NeverRegistered.self)
          case .missingKey: _ = try Dependencies.resolveOrThrow(NeverRegistered.self)
          case .thrownError: throw Failure()
          case .cycle: _ = try Dependencies.resolveOrThrow(ChainLink.self, name: "0")
          }
          return ChainLinkImpl(next: nil)
        }
      }
    }
  }

  /// How many links of `end`'s chain a 512 KiB thread holds in a process that has written
  /// no type's name yet: as many factories as run when the next is refused as too deep.
  static func deepestLength(of end: ChainEnd) async throws -> Int {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent]
    ) { [end = end as ChainEnd] in
      let depth = await onThread(stackSize: 512 << 10) { () -> Int in
        let error = resolutionError { try end.chain(length: 100_000).resolveOrThrow() }
        guard case .tooDeep(let depth, _) = error?.reason else { return 0 }
        return depth
      }
      print(depth)
    }
    let output = String(decoding: result.standardOutputContent, as: UTF8.self)
    return try #require(Int(output.filter(\.isNumber)))
  }

  /// Whether `error` is what this end throws.
  func isReason(of error: ResolutionError?) -> Bool {
    switch (self, error?.reason) {
    case (.missingKey, .notRegistered?), (.thrownError, .factoryFailed?), (.cycle, .cycle?): true
    default: false
    }
  }
}

extension Dependencies {
  /// Link "0" of a chain.
  fileprivate func resolveOrThrow() throws(ResolutionError) -> ChainLink {
    try resolveOrThrow(ChainLink.self, name: "0")
  }
}

/// How a link's factory asks for the next link.
enum ChainStep: Codable {
  case resolve
  case resolveOrThrow
  case inject
}

/// The modules of a chain of `length` links named "0" to "`length - 1`", each resolving the
/// next with `step`, and noting where the stack is in `recorder`. A factory per step, each as
/// small as a factory gets, so that the stack a level takes is mostly Shank's.
@ModuleBuilder
func chainModules(
  length: Int, scope: Scope = .unique, step: ChainStep, recorder: StackRecorder? = nil
) -> [Module] {
  for index in 0..<length {
    let next = index + 1 < length ? String(index + 1) : nil
    switch step {
    case .resolve:
      Module(String(index), scope: scope) { () -> ChainLink in
        recorder?.addresses.append(stackAddress())
        guard let next else { return ChainLinkImpl(next: nil) }
        return ChainLinkImpl(next: Dependencies.resolve(ChainLink.self, name: next))
      }
    case .resolveOrThrow:
      Module(String(index), scope: scope) { () throws -> ChainLink in
        recorder?.addresses.append(stackAddress())
        guard let next else { return ChainLinkImpl(next: nil) }
        return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink.self, name: next))
      }
    case .inject:
      Module(String(index), scope: scope) { () -> ChainLink in
        recorder?.addresses.append(stackAddress())
        guard let next else { return ChainLinkImpl(next: nil) }
        return InjectedChainLink(nextName: next)
      }
    }
  }
}
let chainResolveLine = #line - 17
let chainResolveOrThrowLine = #line - 12

/// How a chain of `chainLength(_:path:recorder:)` is registered and resolved.
enum ChainPath: String, CaseIterable, Codable, Sendable {
  /// Every link `.unique`, in a container of its own.
  case unique
  /// Every link `.singleton`.
  case singleton
  /// Every link `.cached`.
  case cached
  /// Every link `.weak`.
  case weak
  /// An observer installed for the whole run.
  case observed
  /// An observer installed, every link `.singleton`.
  case observedSingleton
  /// The chain's container decorates every link.
  case decorating
  /// The chain's container decorates every link, and every link is `.singleton`.
  case decoratingSingleton
  /// The links in a parent, resolved from a child container over it.
  case throughChild
  /// The links in a built root, resolved with `Dependencies.resolve`.
  case builtRoot
}

/// Registers a chain of `length` links as `path` says, resolves it from its first link, and
/// returns how many links it has.
func chainLength(_ length: Int, path: ChainPath, recorder: StackRecorder? = nil) -> Int {
  let scope: Scope
  switch path {
  case .singleton, .observedSingleton, .decoratingSingleton: scope = .singleton
  case .cached: scope = .cached("chain")
  case .weak: scope = .weak
  case .unique, .observed, .decorating, .throughChild, .builtRoot: scope = .unique
  }
  let links = chainModules(length: length, scope: scope, step: .resolve, recorder: recorder)
  let container: Dependencies
  switch path {
  case .observed, .observedSingleton:
    let observation = Dependencies.observe { _ in }
    defer { observation.cancel() }
    return chainLength(from: Dependencies { links }.resolve(ChainLink.self, name: "0"))
  case .decorating, .decoratingSingleton:
    container = Dependencies {
      links
      Module.decorating(ChainLink.self) { $0 }
    }
  case .throughChild:
    container = Dependencies(over: Dependencies { links }) {}
  case .builtRoot:
    Dependencies { links }.build()
    return chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
  case .unique, .singleton, .cached, .weak:
    container = Dependencies { links }
  }
  return chainLength(from: container.resolve(ChainLink.self, name: "0"))
}

/// Resolves a chain of `DepthTests.floor` links that `chain` registers, noting the stack in the
/// recorder it is given, on a 512 KiB thread; stops the process unless all fit, each level under the
/// bound of `eachLevelTakesLittleStack`.
func stopUnlessTheFloorsLevelsFit(_ chain: @escaping @Sendable (StackRecorder) -> Int) async {
  let (length, bytesPerLevel) = await onThread(stackSize: DepthTests.smallStack) {
    let recorder = StackRecorder()
    return (chain(recorder), recorder.bytesPerLevel)
  }
  precondition(length == DepthTests.floor, "\(length) levels fit")
  let bound = DepthTests.bytesPerLevelBound
  precondition(bytesPerLevel > 0)
  precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
}

/// How many links the chain starting at `link` has.
func chainLength(from link: ChainLink) -> Int {
  var count = 1
  var current = link
  while let next = current.next {
    count += 1
    current = next
  }
  return count
}

/// Where each link's factory found the stack, outermost first.
final class StackRecorder {
  var addresses: [UInt] = []

  /// The bytes of stack one nested resolution took, on average.
  var bytesPerLevel: Int {
    guard let first = addresses.first, let last = addresses.last, addresses.count > 1 else {
      return 0
    }
    return Int(first - last) / (addresses.count - 1)
  }
}

/// The address of a local in a frame of its own, called by each link's factory at the same
/// point, so that two addresses differ by what one level of the chain takes.
@inline(never)
func stackAddress() -> UInt {
  var marker: UInt8 = 0
  return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

// MARK: - The stack

/// The lowest address of this thread's stack.
func stackLow() -> UInt {
  #if canImport(Darwin)
    let thread = pthread_self()
    return UInt(bitPattern: pthread_get_stackaddr_np(thread))
      - UInt(pthread_get_stacksize_np(thread))
  #else
    let symbol = dlsym(nil, "pthread_getattr_np")!
    typealias GetAttributes =
      @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
    var attributes = pthread_attr_t()
    precondition(getAttributes(pthread_self(), &attributes) == 0)
    defer { pthread_attr_destroy(&attributes) }
    var address: UnsafeMutableRawPointer?
    var size = 0
    precondition(pthread_attr_getstack(&attributes, &address, &size) == 0)
    return UInt(bitPattern: address)
  #endif
}

/// Recurses until the stack is within `bytes` of `low`, then runs `body` there.
@inline(never)
func descend<Result>(toWithin bytes: UInt, of low: UInt, _ body: () -> Result) -> Result {
  var marker: UInt8 = 0
  let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  if here - low <= bytes { return body() }
  let result = descend(toWithin: bytes, of: low, body)
  // After the call, so that it is not a tail call.
  withExtendedLifetime(marker) {}
  return result
}

// MARK: - Threads with a stack of a given size

/// The sanitizer this process runs under, found by the symbols its runtime defines.
enum Sanitizer {
  case none
  case address
  case thread

  static let current: Sanitizer = {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    if dlsym(everywhere, "__tsan_init") != nil { return .thread }
    if dlsym(everywhere, "__asan_init") != nil { return .address }
    return .none
  }()
}

/// Runs `body` on a new thread with a stack of `stackSize` bytes, and waits for its result
/// without blocking a thread of the cooperative pool.
///
/// With `stack`, the thread runs on those `stackSize` bytes, so that the caller knows where its
/// stack ends; they must outlive the thread, which may still be ending once this returns.
func onThread<Result: Sendable>(
  stackSize: Int, stack: UnsafeMutableRawPointer? = nil, _ body: @escaping @Sendable () -> Result
) async -> Result {
  await withCheckedContinuation { continuation in
    let work = Unmanaged.passRetained(ThreadWork { continuation.resume(returning: body()) })
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stack {
      precondition(pthread_attr_setstack(&attributes, stack, stackSize) == 0)
    } else {
      precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
    }
    precondition(pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) == 0)
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(&thread, &attributes, runThreadWork, work.toOpaque())
    precondition(created == 0, "pthread_create failed: \(created)")
  }
}

/// What a thread started by `onThread` runs.
private final class ThreadWork {
  let body: () -> Void

  init(_ body: @escaping () -> Void) { self.body = body }
}

#if canImport(Darwin)
  private func runThreadWork(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadWork>.fromOpaque(raw).takeRetainedValue().body()
    return nil
  }
#else
  private func runThreadWork(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadWork>.fromOpaque(raw!).takeRetainedValue().body()
    return nil
  }
#endif

// MARK: - Chains through aliases, contribution lists, @Inject and layers

/// How a chain of `chainLength(_:path:recorder:)` is registered and resolved, on the paths
/// `ChainPath` does not take: through aliases, contribution lists and `@Inject`, and through
/// decorating layers with an observer installed.
enum ComposedChainPath: String, CaseIterable, Codable, Sendable {
  /// `@Inject` links, an observer installed.
  case injectObserved
  /// `@Inject` singleton links in a decorating container, an observer installed.
  case injectObservedDecoratedSingleton
  /// Each link a `Module(as:)` alias, unique.
  case alias
  /// Each link a `.singleton` alias, in a decorating container, observed.
  case aliasSingletonDecoratedObserved
  /// Each link a contribution to `[Level<…>]` of its own type, resolving the next list.
  case contributions
  /// The same, each level decorated, an observer installed.
  case contributionsDecoratedObserved
  /// `.cached` links in a decorating container, observed.
  case cachedDecoratedObserved
  /// `.weak` links in a decorating container, observed.
  case weakDecoratedObserved
  /// Singleton links in a decorating parent, resolved from a child with a decorator.
  case childDecoratingOverDecoratingParentSingletons
  /// The same, observed, the links `.cached`.
  case childDecoratingOverDecoratingParentCachedObserved
  /// Singleton links in a decorating parent, resolved from a child without decorators.
  case plainChildOverDecoratingParentSingletons
  /// Singleton links in an override layer over a decorating built root.
  case overrideOverDecoratingBuiltRoot
  /// Unique links resolved with `resolve` from a built root that decorates, observed.
  case builtRootDecoratedObserved

  /// How many levels a 512 KiB thread held in a debug build when measured (the tests ask for no
  /// more than `DepthTests.floor`): 200, as on every `ChainPath`,
  /// but where a level is two resolutions, an alias's or a list's and the provider's it reads
  /// through to, about 100; and 180 on the deepest `@Inject` path.
  var levelsA512KiBThreadHolds: Int {
    switch self {
    case .alias, .aliasSingletonDecoratedObserved, .contributions: 100
    // Observed, a level's event names its list's key, `[Level<NestedLevel<…>>]`, a type nested
    // as deep as the level, and describing it takes more stack the deeper it is: past about 85
    // levels the process dies of a segmentation fault, not with Shank's message. The fixture's
    // doing (no app's keys nest so deep), but the stack a key's description takes is not in
    // Shank's reserve.
    case .contributionsDecoratedObserved: 75
    case .injectObservedDecoratedSingleton: 180
    default: 200
    }
  }

  /// A length no 512 KiB thread holds, that registers quickly.
  var tooDeepLength: Int {
    switch self {
    case .contributions, .contributionsDecoratedObserved: 600
    default: 20_000
    }
  }
}

let identityChainDecorator = Module.decorating(ChainLink.self) { $0 }

func chainLength(_ length: Int, path: ComposedChainPath, recorder: StackRecorder? = nil) -> Int {
  var observation: ResolutionObservation?
  defer { observation?.cancel() }
  switch path {
  case .injectObserved, .injectObservedDecoratedSingleton, .aliasSingletonDecoratedObserved,
    .contributionsDecoratedObserved, .cachedDecoratedObserved, .weakDecoratedObserved,
    .childDecoratingOverDecoratingParentCachedObserved, .builtRootDecoratedObserved:
    observation = Dependencies.observe { _ in }
  default: break
  }
  let container: Dependencies
  switch path {
  case .injectObserved:
    container = Dependencies {
      chainModules(length: length, scope: .unique, step: .inject, recorder: recorder)
    }
  case .injectObservedDecoratedSingleton:
    container = Dependencies {
      chainModules(length: length, scope: .singleton, step: .inject, recorder: recorder)
      identityChainDecorator
    }
  case .alias:
    container = Dependencies {
      aliasChainModules(length: length, scope: .unique, recorder: recorder)
    }
  case .aliasSingletonDecoratedObserved:
    container = Dependencies {
      aliasChainModules(length: length, scope: .singleton, recorder: recorder)
      identityChainDecorator
    }
  case .contributions, .contributionsDecoratedObserved:
    let modules = contributionChainModules(
      length: length, decorated: path == .contributionsDecoratedObserved, recorder: recorder)
    container = Dependencies { modules }
    let first = container.resolve([Level<BottomLevel>].self)
    return first.isEmpty ? 0 : chainLength(from: first[0])
  case .cachedDecoratedObserved:
    container = Dependencies {
      chainModules(
        length: length, scope: .cached("composed-chain"), step: .resolve, recorder: recorder)
      identityChainDecorator
    }
  case .weakDecoratedObserved:
    container = Dependencies {
      chainModules(length: length, scope: .weak, step: .resolve, recorder: recorder)
      identityChainDecorator
    }
  case .childDecoratingOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      identityChainDecorator
    }
    container = Dependencies(over: parent) { identityChainDecorator }
  case .childDecoratingOverDecoratingParentCachedObserved:
    let parent = Dependencies {
      chainModules(
        length: length, scope: .cached("composed-chain"), step: .resolve, recorder: recorder)
      identityChainDecorator
    }
    container = Dependencies(over: parent) { identityChainDecorator }
  case .plainChildOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      identityChainDecorator
    }
    container = Dependencies(over: parent) {}
  case .overrideOverDecoratingBuiltRoot:
    Dependencies { identityChainDecorator }.build()
    let links = chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
    return Dependencies.withOverrides {
      links
    } operation: {
      chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
    }
  case .builtRootDecoratedObserved:
    Dependencies {
      chainModules(length: length, scope: .unique, step: .resolve, recorder: recorder)
      identityChainDecorator
    }.build()
    return chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
  }
  return chainLength(from: container.resolve(ChainLink.self, name: "0"))
}

/// As `chainLength` with `resolveOrThrow`, twice: the errors of both attempts.
func throwingChainErrors(_ length: Int, path: ComposedChainPath) -> [ResolutionError?] {
  var observation: ResolutionObservation?
  defer { observation?.cancel() }
  let scope: Scope
  switch path {
  case .cachedDecoratedObserved:
    observation = Dependencies.observe { _ in }
    scope = .cached("composed-chain")
  default:
    scope = .singleton
  }
  let parent = Dependencies {
    chainModules(length: length, scope: scope, step: .resolveOrThrow)
    identityChainDecorator
  }
  let container = Dependencies(over: parent) { identityChainDecorator }
  return [
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
  ]
}

@ModuleBuilder
func aliasChainModules(
  length: Int, scope: Scope, recorder: StackRecorder?, throwing: Bool = false
) -> [Module] {
  for index in 0..<length {
    let next = index + 1 < length ? String(index + 1) : nil
    Module(String(index), scope: scope, as: ChainLink.self) { () throws -> ChainLinkImpl in
      recorder?.addresses.append(stackAddress())
      guard let next else { return ChainLinkImpl(next: nil) }
      if throwing {
        return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink.self, name: next))
      }
      return ChainLinkImpl(next: Dependencies.resolve(ChainLink.self, name: next))
    }
  }
}

/// A type per level of a contribution chain.
protocol LevelTag {}
enum BottomLevel: LevelTag {}
enum NestedLevel<Inner: LevelTag>: LevelTag {}

final class Level<Tag: LevelTag>: ChainLink {
  let next: ChainLink?
  init(next: ChainLink?) { self.next = next }
}

/// Contributions to `[Level<BottomLevel>]`, `[Level<NestedLevel<BottomLevel>>]`, …: each level's
/// factory resolves the next level's list.
func contributionChainModules(length: Int, decorated: Bool, recorder: StackRecorder?) -> [Module] {
  var modules: [Module] = []
  var tag: any LevelTag.Type = BottomLevel.self
  for index in 0..<length {
    appendLevel(
      tag, isLast: index + 1 == length, decorated: decorated, recorder: recorder, to: &modules)
    tag = nestedLevel(tag)
  }
  return modules
}

func nestedLevel<Tag: LevelTag>(_ tag: Tag.Type) -> any LevelTag.Type { NestedLevel<Tag>.self }

func appendLevel<Tag: LevelTag>(
  _ tag: Tag.Type, isLast: Bool, decorated: Bool, recorder: StackRecorder?,
  to modules: inout [Module]
) {
  modules.append(
    Module.contribution { () -> Level<Tag> in
      recorder?.addresses.append(stackAddress())
      guard !isLast else { return Level<Tag>(next: nil) }
      return Level<Tag>(next: Dependencies.resolve([Level<NestedLevel<Tag>>].self).first)
    })
  if decorated { modules.append(Module.decorating(Level<Tag>.self) { $0 }) }
}

/// A chain of main-actor modules, resolved on the main actor: its length and the stack a
/// level takes.
@MainActor
func mainActorChain(_ length: Int, observedAndDecorated: Bool) -> (Int, Int) {
  let recorder = StackRecorder()
  var modules: [Module] = []
  for index in 0..<length {
    let next = index + 1 < length ? String(index + 1) : nil
    modules.append(
      Module(String(index), scope: index.isMultiple(of: 2) ? .singleton : .unique) {
        () -> ChainLink in
        if recorder.addresses.count < 60 { recorder.addresses.append(stackAddress()) }
        guard let next else { return ChainLinkImpl(next: nil) }
        return ChainLinkImpl(next: Dependencies.resolve(ChainLink.self, name: next))
      })
  }
  if observedAndDecorated { modules.append(Module.decorating(ChainLink.self) { $0 }) }
  let observation = observedAndDecorated ? Dependencies.observe { _ in } : nil
  defer { observation?.cancel() }
  let container = Dependencies { modules }
  let length = chainLength(from: container.resolve(ChainLink.self, name: "0"))
  return (length, recorder.bytesPerLevel)
}

/// Where a decorator that resolves the next link runs, and what it decorates.
enum ResolvingDecorator: String, CaseIterable, Codable, Sendable {
  /// A child's, over singletons.
  case childOverSingletons
  /// The same, also reading its own link from underneath at each level.
  case childAlsoReadingUnderneath
  /// A child's, over unique modules.
  case childOverUnique
  /// A child's, over singletons registered as an alias.
  case childOverAliases
  /// The owner's, over singletons.
  case ownerOverSingletons
  /// The owner's, over unique modules.
  case ownerOverUnique

  /// Resolves a chain of `length` links, each decorated by a decorator that resolves the next,
  /// and returns how many links it has.
  func chainLength(_ length: Int) -> Int {
    let (box, rootBox) = (WeakBox(), WeakBox())
    let inOwner = self == .ownerOverSingletons || self == .ownerOverUnique
    let scope: Scope = self == .childOverUnique || self == .ownerOverUnique ? .unique : .singleton
    let decorator = Module.decorating(DecoratedLink.self) { link in
      if self == .childAlsoReadingUnderneath, let root = rootBox.container {
        _ = try root.resolveOrThrow(DecoratedLink.self, name: "\(link.index)")
      }
      if link.index + 1 < length {
        link.next = try box.container!.resolveOrThrow(DecoratedLink.self, name: "\(link.index + 1)")
      }
      return link
    }
    let root = Dependencies {
      for index in 0..<length {
        if self == .childOverAliases {
          Module("\(index)", scope: scope, as: DecoratedLink.self, LabelledLink.self) {
            DecoratedLink(index: index)
          }
        } else {
          Module("\(index)", scope: scope) { DecoratedLink(index: index) }
        }
      }
      if inOwner { decorator }
    }
    let container = inOwner ? root : Dependencies(over: root) { decorator }
    (box.container, rootBox.container) = (container, root)
    var link: DecoratedLink? = container.resolve(DecoratedLink.self, name: "0")
    var count = 0
    while let current = link {
      count += 1
      link = current.next
    }
    return count
  }
}

/// A link that a decorator points at the next.
final class DecoratedLink: LabelledLink, @unchecked Sendable {
  let index: Int
  var next: DecoratedLink?
  var label: String { "\(index)" }
  init(index: Int) { self.index = index }
}

/// A second type of `DecoratedLink`'s, so that it can be registered as an alias.
protocol LabelledLink: AnyObject {
  var label: String { get }
}

/// Resolves a chain of `length` aliases in a decorating, observed container, each factory
/// resolving the next as a `ChainLink?`, from the container or from a decorating child.
func optionalAliasChainLength(_ length: Int, scope: Scope, throughChild: Bool) -> Int {
  let observation = Dependencies.observe { _ in }
  defer { observation.cancel() }
  let root = Dependencies {
    for index in 0..<length {
      Module("\(index)", scope: scope, as: ChainLink.self) { () -> ChainLinkImpl in
        let next =
          index + 1 < length ? Dependencies.resolve(ChainLink?.self, name: "\(index + 1)") : nil
        return ChainLinkImpl(next: next ?? nil)
      }
    }
    Module.decorating(ChainLink.self) { $0 }
  }
  let container =
    throughChild ? Dependencies(over: root) { Module.decorating(ChainLink.self) { $0 } } : root
  return chainLength(from: container.resolve(ChainLink.self, name: "0"))
}

/// A chain whose every level resolves the next as an optional.
enum OptionalChain: String, CaseIterable, Codable, Sendable {
  /// Contributions, each resolving the next level's list as a `[P]?`.
  case optionalLists
  /// The same, with a decorator of each level's element.
  case decoratedOptionalLists
  /// The same, each contribution a singleton.
  case optionalListsOfSingletons
  /// A child's decorator of singletons, resolving the next link as a `T?`.
  case decoratorsResolvingAnOptional
  /// The same over singletons registered under two types (`Module(as:)`).
  case decoratorsOverAliasesResolvingAnOptional
  /// The same, each decorator resolving the next link with the static `resolveOrThrow`, from
  /// the container whose resolution runs it: a frame more a level.
  case decoratorsResolvingStatically

  /// Resolves a chain of `length` levels and returns how many it has.
  func length(_ length: Int) -> Int {
    switch self {
    case .optionalLists, .decoratedOptionalLists, .optionalListsOfSingletons:
      var modules: [Module] = []
      var tag: any LevelTag.Type = BottomLevel.self
      for index in 0..<length {
        appendOptionalListLevel(
          tag, isLast: index + 1 == length, decorated: self == .decoratedOptionalLists,
          scope: self == .optionalListsOfSingletons ? .singleton : .unique, to: &modules)
        tag = nestedLevel(tag)
      }
      let container = Dependencies { modules }
      let first = try? container.resolveOrThrow([Level<BottomLevel>]?.self)
      return first?.first.map { chainLength(from: $0) } ?? 0
    case .decoratorsResolvingAnOptional, .decoratorsOverAliasesResolvingAnOptional,
      .decoratorsResolvingStatically:
      let box = WeakBox()
      let root = Dependencies {
        for index in 0..<length {
          if self == .decoratorsOverAliasesResolvingAnOptional {
            Module("\(index)", scope: .singleton, as: DecoratedLink.self, LabelledLink.self) {
              DecoratedLink(index: index)
            }
          } else {
            Module("\(index)", scope: .singleton) { DecoratedLink(index: index) }
          }
        }
      }
      let child = Dependencies(over: root) {
        Module.decorating(DecoratedLink.self) { link in
          guard link.index + 1 < length else { return link }
          if self == .decoratorsResolvingStatically {
            link.next = try Dependencies.resolveOrThrow(
              DecoratedLink?.self, name: "\(link.index + 1)")
          } else {
            link.next =
              try box.container!.resolveOrThrow(DecoratedLink?.self, name: "\(link.index + 1)")
          }
          return link
        }
      }
      box.container = child
      var link = try? child.resolveOrThrow(DecoratedLink.self, name: "0")
      var count = 0
      while let current = link {
        count += 1
        link = current.next
      }
      return count
    }
  }
}

/// A contribution to `[Level<Tag>]` that resolves the next level's list as a `[P]?`.
func appendOptionalListLevel<Tag: LevelTag>(
  _ tag: Tag.Type, isLast: Bool, decorated: Bool, scope: Scope, to modules: inout [Module]
) {
  if decorated { modules.append(Module.decorating(Level<Tag>.self) { $0 }) }
  modules.append(
    Module.contribution(scope: scope) { () throws -> Level<Tag> in
      guard !isLast else { return Level<Tag>(next: nil) }
      return Level<Tag>(
        next: try Dependencies.resolveOrThrow([Level<NestedLevel<Tag>>]?.self)?.first)
    })
}
