import Dispatch
import Foundation
import Shank
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An adversarial review of the resolution path restructured for depth (a7300ba) and of near
/// misses kept as parts (ff71cfa): decorators, observers, errors and depth on the paths
/// `DepthTests` does not take.
@Suite struct ReviewDepthTests {
  // MARK: - Depth on the paths DepthTests does not take

  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "a sanitizer makes every frame larger, and ThreadSanitizer follows at most 128 locks"),
    arguments: RDPath.allCases)
  func twoHundredNestedResolutionsFitA512KiBThread(path: RDPath) async {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) { [path] in
      // 50 levels first, for the stack a level takes even where 200 do not fit.
      let bytes = await onThread(stackSize: DepthTests.smallStack) {
        let recorder = StackRecorder()
        _ = rdChainLength(50, path: path, recorder: recorder)
        return recorder.bytesPerLevel
      }
      rdLog("RD-DEPTH \(path.rawValue): \(bytes) bytes a level over 50 levels")
      let (length, bytesPerLevel) = await onThread(stackSize: DepthTests.smallStack) {
        let recorder = StackRecorder()
        return (rdChainLength(200, path: path, recorder: recorder), recorder.bytesPerLevel)
      }
      rdLog("RD-DEPTH \(path.rawValue) \(length) levels, \(bytesPerLevel) bytes a level")
      precondition(length == 200, "\(length) levels fit")
      #if DEBUG
        let bound = 2_432
      #else
        let bound = 1_024
      #endif
      precondition(bytesPerLevel > 0)
      precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
    }
    guard let result else { return }
    print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "")
    #expect(result.standardErrorContent.isEmpty)
  }

  /// Main-actor modules run on the main actor, whose thread is large: how many bytes a level
  /// takes, which must leave room for 200 on a 512 KiB thread, and 200 levels resolve.
  @Test(
    .disabled(if: Sanitizer.current != .none, "a sanitizer makes every frame larger"),
    arguments: [false, true])
  func mainActorChainsTakeLittleStackALevel(observedAndDecorated: Bool) async throws {
    let result = try await #require(
      processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
    ) { [observedAndDecorated] in
      let (length, bytesPerLevel) = await MainActor.run {
        rdMainActorChain(200, observedAndDecorated: observedAndDecorated)
      }
      rdLog(
        "RD-DEPTH mainActor observedAndDecorated=\(observedAndDecorated) \(length) levels, \(bytesPerLevel) bytes a level"
      )
      precondition(length == 200, "\(length) levels fit")
      #if DEBUG
        let bound = 2_432
      #else
        let bound = 1_024
      #endif
      precondition(bytesPerLevel > 0)
      precondition(bytesPerLevel < bound, "\(bytesPerLevel) bytes of stack per level")
    }
    print(String(decoding: result.standardOutputContent, as: UTF8.self), terminator: "")
    #expect(result.standardErrorContent.isEmpty)
  }

  /// A chain too deep for its thread stops with Shank's message on these paths too, never with
  /// a segmentation fault.
  @Test(
    .disabled(
      if: Sanitizer.current != .none,
      "the sanitizers keep frames off the stack, or follow at most 64 locks held at once"),
    arguments: RDPath.allCases)
  func aChainTooDeepStopsWithShanksMessage(path: RDPath) async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) { [path] in
      _ = await onThread(stackSize: DepthTests.smallStack) {
        rdChainLength(path.tooDeepLength, path: path)
      }
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
    let pattern =
      /Shank cannot resolve (.+): (\d+) factories are running, each resolving the next, and this thread's stack is nearly full/
    let match = try #require(
      stderr.firstMatch(of: pattern), "no Shank message: \(stderr.suffix(2_000))")
    let depth = try #require(Int(match.output.2))
    // How many levels fit is `twoHundredNestedResolutionsFitA512KiBThread`'s to say.
    rdLog("RD-TOODEEP \(path.rawValue) stopped at \(depth)")
  }

  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"))
  func aMainActorChainTooDeepStopsWithShanksMessage() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      _ = await MainActor.run { rdMainActorChain(100_000, observedAndDecorated: true) }
    }
    let stderr = String(decoding: result.standardErrorContent, as: UTF8.self)
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
        rdAliasChain(
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

  /// `resolveOrThrow` throws `.tooDeep` on these paths, and leaves nothing held: the second
  /// attempt goes exactly as deep.
  @Test(
    .disabled(if: Sanitizer.current != .none, "the sanitizers keep frames off the stack"),
    arguments: [RDPath.childDecoratingOverDecoratingParentSingletons, .cachedDecoratedObserved])
  func resolveOrThrowThrowsTooDeepTwiceAlike(path: RDPath) async throws {
    let errors = await onThread(stackSize: DepthTests.smallStack) {
      rdThrowingChain(20_000, path: path)
    }
    let first = try #require(errors[0])
    guard case .tooDeep(let depth, _) = first.reason else {
      Issue.record("expected .tooDeep, got \(first)")
      return
    }
    #expect(depth >= 150)
    #expect(errors[1]?.reason == first.reason)
  }
}

// MARK: - Fixtures

/// The scopes, as arguments an exit test can capture.
enum RDScope: String, CaseIterable, Codable, Sendable {
  case unique, singleton, cached, weak

  var scope: Scope {
    switch self {
    case .unique: .unique
    case .singleton: .singleton
    case .cached: .cached("rd-cached")
    case .weak: .weak
    }
  }
}

protocol RDGreeterType: AnyObject {
  var text: String { get }
}

final class RDGreeter: RDGreeterType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class RDTagged: RDGreeterType {
  let wrapped: RDGreeterType
  let tag: String
  init(_ wrapped: RDGreeterType, _ tag: String) {
    self.wrapped = wrapped
    self.tag = tag
  }
  var text: String { wrapped.text + "+" + tag }
}

struct RDTag {
  let value: String
  init(_ value: String) { self.value = value }
}

struct RDFailure: Error {}

protocol RDObservedType: AnyObject {}
final class RDObserved: RDObservedType {}

protocol RDLeftType: AnyObject {}
protocol RDRightType: AnyObject {}
final class RDLeft: RDLeftType { init(_: RDRightType) {} }
final class RDRight: RDRightType { init(_: RDLeftType) {} }

protocol RDAliasA: AnyObject {}
protocol RDAliasB: AnyObject {}
final class RDBoth: RDAliasA, RDAliasB {}

protocol RDSinkType: AnyObject {
  var text: String { get }
}

final class RDSink: RDSinkType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class RDTaggedSink: RDSinkType {
  let text: String
  init(_ wrapped: RDSinkType, _ tag: String) { text = wrapped.text + "+" + tag }
}

/// A module that injects the decorated greeter.
final class RDHolder {
  @Inject var greeter: RDGreeterType
}

/// `Dependencies.withOverrides` over `base` rather than over the built root, which parallel
/// tests share: run inside a factory of a child of `base` without decorators, whose container
/// is `current` there.
func rdWithOverrides<Result>(
  over base: Dependencies, @ModuleBuilder _ modules: @escaping () -> [Module],
  operation: @escaping () -> Result
) -> Result {
  let box = RDResultBox<Result>()
  let runner = Dependencies(over: base) {
    Module { () -> RDRunner in
      box.value = Dependencies.withOverrides(modules, operation: operation)
      return RDRunner()
    }
  }
  _ = runner.resolve(RDRunner.self)
  return box.value!
}

final class RDResultBox<Value> { var value: Value? }
struct RDRunner {}

/// Prints `line`, and appends it to the file `RD_DEPTH_LOG` names, if any: an exit test's
/// output is lost when it fails.
func rdLog(_ line: String) {
  print(line)
  fflush(nil)
  guard let path = ProcessInfo.processInfo.environment["RD_DEPTH_LOG"] else { return }
  let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
  guard fd >= 0 else { return }
  defer { close(fd) }
  let text = line + "\n"
  _ = text.withCString { write(fd, $0, strlen($0)) }
}

/// Ends the process when a test deadlocks, rather than hanging the run.
func rdWatchdog(seconds: Int) {
  Thread {
    sleep(UInt32(seconds))
    FileHandle.standardError.write("rdWatchdog: deadlocked for \(seconds) s\n".data(using: .utf8)!)
    exit(99)
  }.start()
}

// MARK: - Chains

/// How a chain of `rdChainLength(_:path:recorder:)` is registered and resolved.
enum RDPath: String, CaseIterable, Codable, Sendable {
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

  /// A length no 512 KiB thread holds, that registers quickly.
  var tooDeepLength: Int {
    switch self {
    case .contributions, .contributionsDecoratedObserved: 600
    default: 20_000
    }
  }
}

let rdIdentity = Module.decorating(ChainLink.self) { $0 }

func rdChainLength(_ length: Int, path: RDPath, recorder: StackRecorder? = nil) -> Int {
  var observation: Observation?
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
      rdIdentity
    }
  case .alias:
    container = Dependencies { rdAliasChain(length: length, scope: .unique, recorder: recorder) }
  case .aliasSingletonDecoratedObserved:
    container = Dependencies {
      rdAliasChain(length: length, scope: .singleton, recorder: recorder)
      rdIdentity
    }
  case .contributions, .contributionsDecoratedObserved:
    let modules = rdContributionChain(
      length: length, decorated: path == .contributionsDecoratedObserved, recorder: recorder)
    container = Dependencies { modules }
    let first = container.resolve([RDLevel<RDBottom>].self)
    return first.isEmpty ? 0 : chainLength(from: first[0])
  case .cachedDecoratedObserved:
    container = Dependencies {
      chainModules(length: length, scope: .cached("rd-chain"), step: .resolve, recorder: recorder)
      rdIdentity
    }
  case .weakDecoratedObserved:
    container = Dependencies {
      chainModules(length: length, scope: .weak, step: .resolve, recorder: recorder)
      rdIdentity
    }
  case .childDecoratingOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) { rdIdentity }
  case .childDecoratingOverDecoratingParentCachedObserved:
    let parent = Dependencies {
      chainModules(length: length, scope: .cached("rd-chain"), step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) { rdIdentity }
  case .plainChildOverDecoratingParentSingletons:
    let parent = Dependencies {
      chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
      rdIdentity
    }
    container = Dependencies(over: parent) {}
  case .overrideOverDecoratingBuiltRoot:
    Dependencies { rdIdentity }.build()
    let links = chainModules(length: length, scope: .singleton, step: .resolve, recorder: recorder)
    return Dependencies.withOverrides {
      links
    } operation: {
      chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
    }
  case .builtRootDecoratedObserved:
    Dependencies {
      chainModules(length: length, scope: .unique, step: .resolve, recorder: recorder)
      rdIdentity
    }.build()
    return chainLength(from: Dependencies.resolve(ChainLink.self, name: "0"))
  }
  return chainLength(from: container.resolve(ChainLink.self, name: "0"))
}

/// As `rdChainLength` with `resolveOrThrow`, twice: the errors of both attempts.
func rdThrowingChain(_ length: Int, path: RDPath) -> [ResolutionError?] {
  var observation: Observation?
  defer { observation?.cancel() }
  let scope: Scope
  switch path {
  case .cachedDecoratedObserved:
    observation = Dependencies.observe { _ in }
    scope = .cached("rd-chain")
  default:
    scope = .singleton
  }
  let parent = Dependencies {
    chainModules(length: length, scope: scope, step: .resolveOrThrow)
    rdIdentity
  }
  let container = Dependencies(over: parent) { rdIdentity }
  return [
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
    resolutionError { try container.resolveOrThrow(ChainLink.self, name: "0") },
  ]
}

@ModuleBuilder
func rdAliasChain(
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
protocol RDLevelTag {}
enum RDBottom: RDLevelTag {}
enum RDNest<Inner: RDLevelTag>: RDLevelTag {}

final class RDLevel<Tag: RDLevelTag>: ChainLink {
  let next: ChainLink?
  init(next: ChainLink?) { self.next = next }
}

/// Contributions to `[RDLevel<RDBottom>]`, `[RDLevel<RDNest<RDBottom>>]`, …: each level's
/// factory resolves the next level's list.
func rdContributionChain(length: Int, decorated: Bool, recorder: StackRecorder?) -> [Module] {
  var modules: [Module] = []
  var tag: any RDLevelTag.Type = RDBottom.self
  for index in 0..<length {
    rdAppendLevel(
      tag, isLast: index + 1 == length, decorated: decorated, recorder: recorder, to: &modules)
    tag = rdNested(tag)
  }
  return modules
}

func rdNested<Tag: RDLevelTag>(_ tag: Tag.Type) -> any RDLevelTag.Type { RDNest<Tag>.self }

func rdAppendLevel<Tag: RDLevelTag>(
  _ tag: Tag.Type, isLast: Bool, decorated: Bool, recorder: StackRecorder?,
  to modules: inout [Module]
) {
  modules.append(
    Module.contribution { () -> RDLevel<Tag> in
      recorder?.addresses.append(stackAddress())
      guard !isLast else { return RDLevel<Tag>(next: nil) }
      return RDLevel<Tag>(next: Dependencies.resolve([RDLevel<RDNest<Tag>>].self).first)
    })
  if decorated { modules.append(Module.decorating(RDLevel<Tag>.self) { $0 }) }
}

/// A chain of main-actor modules, resolved on the main actor: its length and the stack a
/// level takes.
@MainActor
func rdMainActorChain(_ length: Int, observedAndDecorated: Bool) -> (Int, Int) {
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
