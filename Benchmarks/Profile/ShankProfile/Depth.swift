// `ShankProfile depth [LENGTH]`: how many nested resolutions fit a 512 KiB thread in a release
// build, down each path a resolution can take, and how much stack each level takes. Not a
// callgrind scenario: CI runs it after building ShankProfile (.ci/run), so that a release build
// whose chains no longer go far deeper than the 200 levels api.md §11 promises in release
// fails, on any path. (DepthTests checks the 64 promised in a debug build.)
import Foundation
import Shank

/// The stack of the thread each chain is resolved on: Darwin's default for a secondary thread,
/// the size api.md §11's promises (64 levels in a debug build, 200 in release) are made for.
let depthStackSize = 512 << 10

/// One link of a chain of modules registered under the names "0", "1", …: the factory of link N
/// resolves link N + 1 while it runs.
protocol ChainLink: AnyObject {
  /// The link this one's factory resolved, `nil` for the last.
  var next: ChainLink? { get }
}

/// The one kind of link: it holds the next, so that no level's resolution can be dropped.
final class ChainLinkImpl: ChainLink {
  let next: ChainLink?

  init(next: ChainLink?) { self.next = next }
}

/// A link that reads the next through an `@Inject` property as it is made, as a module's
/// initializer may.
final class InjectedLink: ChainLink {
  @Inject private var injected: ChainLink
  private(set) var next: ChainLink?

  init(nextName: String?) {
    _injected = Inject(nextName ?? "")
    if nextName != nil { next = injected }
  }
}

/// Where a chain's factories found the stack: the outermost and the deepest that ran.
final class DepthRecorder {
  private(set) var outermostAddress: UInt = 0
  private(set) var deepestIndex = -1
  private(set) var deepestAddress: UInt = 0

  /// Notes that the factory of link `index` runs with a local at `address`.
  func enter(_ index: Int, at address: UInt) {
    if index == 0 { outermostAddress = address }
    if index > deepestIndex { (deepestIndex, deepestAddress) = (index, address) }
  }

  /// The bytes of stack one nested resolution took, on average; `nil` below two levels.
  var bytesPerLevel: Int? {
    guard deepestIndex > 0, outermostAddress > deepestAddress else { return nil }
    return Int(outermostAddress - deepestAddress) / deepestIndex
  }
}

/// The address of a local in a frame of its own, called by each link's factory at the same
/// point, so that two addresses differ by what one level of the chain takes.
@inline(never)
func depthStackAddress() -> UInt {
  var marker: UInt8 = 0
  return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

/// The modules of a chain of `length` links, each made by a factory that resolves the next
/// with `resolveOrThrow`, so that a chain too deep for its thread throws `.tooDeep` to the
/// outermost call instead of stopping the program; each level as `shape` says.
@ModuleBuilder
func depthChain(length: Int, scope: Scope, shape: ChainShape, recorder: DepthRecorder)
  -> [Module]
{
  switch shape {
  case .optionalLists, .decoratedOptionalLists:
    optionalListChain(
      length: length, scope: scope, decorated: shape == .decoratedOptionalLists,
      recorder: recorder)
  case .decoratorsResolvingAnOptional:
    // The factory of link N runs as the decorator of link N - 1 resolves it.
    for index in 0..<length {
      Module(String(index), scope: scope) { () -> DecoratedLink in
        recorder.enter(index, at: depthStackAddress())
        return DecoratedLink(index)
      }
    }
  case .injected:
    for index in 0..<length {
      let next = index + 1 < length ? String(index + 1) : nil
      Module(String(index), scope: scope) { () -> ChainLink in
        recorder.enter(index, at: depthStackAddress())
        return InjectedLink(nextName: next)
      }
    }
  case .plain, .aliased, .optional:
    for index in 0..<length {
      let next = index + 1 < length ? String(index + 1) : nil
      // The factories are written out alike: one calling another would add a frame to each
      // level, which is the fixture's, not Shank's.
      if shape == .optional {
        Module(String(index), scope: scope) { () throws -> ChainLink in
          recorder.enter(index, at: depthStackAddress())
          guard let next else { return ChainLinkImpl(next: nil) }
          return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink?.self, name: next))
        }
      } else if shape == .aliased {
        Module(String(index), scope: scope, as: ChainLink.self) { () throws -> ChainLinkImpl in
          recorder.enter(index, at: depthStackAddress())
          guard let next else { return ChainLinkImpl(next: nil) }
          return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink.self, name: next))
        }
      } else {
        Module(String(index), scope: scope) { () throws -> ChainLink in
          recorder.enter(index, at: depthStackAddress())
          guard let next else { return ChainLinkImpl(next: nil) }
          return ChainLinkImpl(next: try Dependencies.resolveOrThrow(ChainLink.self, name: next))
        }
      }
    }
  }
}

/// The contributions of a chain of lists: level N contributes a `ListLevel<Tag>` whose factory
/// resolves level N + 1's `[ListLevel<Nested<Tag>>]?`, each level's list a key of its own; and,
/// where `decorated`, a decorator of each level's contribution.
func optionalListChain(length: Int, scope: Scope, decorated: Bool, recorder: DepthRecorder)
  -> [Module]
{
  var modules: [Module] = []
  var tag: any ListTag.Type = BottomTag.self
  for index in 0..<length {
    modules.append(
      tag.contribution(index: index, isLast: index + 1 == length, scope: scope, recorder: recorder))
    if decorated { modules.append(tag.decorator) }
    tag = tag.nested
  }
  return modules
}

/// A type that tells one level's list from another's: `Nested<Nested<BottomTag>>` is level 2's.
protocol ListTag {}
enum BottomTag: ListTag {}
enum Nested<Inner: ListTag>: ListTag {}

extension ListTag {
  /// The tag of the level under this one.
  static var nested: any ListTag.Type { Nested<Self>.self }

  /// A decorator of this level's contribution, which returns what it is given.
  static var decorator: Module { Module.decorating(ListLevel<Self>.self) { $0 } }

  /// This level's contribution, made by a factory that resolves the next level's list.
  static func contribution(index: Int, isLast: Bool, scope: Scope, recorder: DepthRecorder)
    -> Module
  {
    Module.contribution(scope: scope) { () throws -> ListLevel<Self> in
      recorder.enter(index, at: depthStackAddress())
      guard !isLast else { return ListLevel<Self>(next: nil) }
      return ListLevel<Self>(
        next: try Dependencies.resolveOrThrow([ListLevel<Nested<Self>>]?.self)?.first)
    }
  }
}

/// One level of a chain of lists, holding the next level's one element.
final class ListLevel<Tag: ListTag> {
  let next: AnyObject?

  init(next: AnyObject?) { self.next = next }
}

/// A link that a decorator, not its factory, joins to the next.
final class DecoratedLink {
  let index: Int
  var next: DecoratedLink?

  init(_ index: Int) { self.index = index }
}

/// How each level of a chain resolves the next (see `depthChain`).
enum ChainShape: Sendable {
  /// `Dependencies.resolveOrThrow(ChainLink.self, name:)`.
  case plain
  /// The same, each link registered `as: ChainLink.self`, an alias of its provider.
  case aliased
  /// As a `ChainLink?`, which misses and looks up `ChainLink`.
  case optional
  /// As a `[ListLevel<…>]?`, a list of one contribution, a type of its own at each level.
  case optionalLists
  /// The same, each level's contribution decorated.
  case decoratedOptionalLists
  /// In a child's decorator of shared links, as a `DecoratedLink?`.
  case decoratorsResolvingAnOptional
  /// Through an `@Inject` property, read in the link's initializer (`InjectedLink`).
  case injected
}

/// One way down a chain: the scope of its links, how each resolves the next, what surrounds
/// the resolution of each, and the fewest levels it must fit on `depthStackSize`.
struct DepthPath: Sendable {
  let name: String
  let scope: Scope
  /// The fewest levels this path must fit, set from what it measured (see `depthPaths`).
  let floor: Int
  var shape = ChainShape.plain
  /// The length of the chain, where the path cannot be run to the stack's limit; else the one
  /// `ShankProfile depth` is given.
  var length: Int?
  /// Resolves link "0" of a chain of `modules`, registered as this path registers them.
  let resolve: @Sendable (_ modules: [Module]) throws -> Any
}

/// Every path, in the order they run. The built root comes last but one, as a process builds
/// one root, and the overrides after it layer over it, as a test's overrides layer over an
/// app's root.
///
/// The floors are set from a release build's measurements on Linux x86_64 with Swift 6.3.1
/// (Benchmarks/README.md), each 14–30% under what its path fit and rounded to a hundred, so
/// that a level that takes a third more stack fails (but on the decorators' path, whose floor
/// is the 200 promised), while a compiler's small changes to a frame do not. No one floor fits
/// every path: a plain resolution fits 1,929 levels, 9.6× the 200 a release build promises, a
/// level that resolves a `[P]?` fits 257; a floor of 1,600 would fail eight paths, one
/// of 200 would let the plain path lose nine tenths of its depth.
let depthPaths: [DepthPath] = [
  DepthPath(name: "unique", scope: .unique, floor: 1_600) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // The shared scopes' path takes 128 bytes more a level than `.unique`'s: 1,286 levels.
  DepthPath(name: "singleton", scope: .singleton, floor: 900) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  DepthPath(name: "cached", scope: .cached("chain"), floor: 900) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  DepthPath(name: "weak", scope: .weak, floor: 900) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // An observer sends every resolution down the observed path, out of line, which times the
  // factory and builds an event after it: 834 levels.
  DepthPath(name: "observed", scope: .unique, floor: 700) { modules in
    let observation = Dependencies.observe { _ in }
    defer { observation.cancel() }
    return try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // A decorator sends every resolution of its type down the decorated path: 834 levels.
  DepthPath(name: "decorated", scope: .unique, floor: 700) { modules in
    let container = Dependencies {
      modules
      Module.decorating(ChainLink.self) { $0 }
    }
    return try container.resolveOrThrow(ChainLink.self, name: "0")
  },
  // Each level is two resolutions, the alias's and its provider's: 551 levels.
  DepthPath(name: "alias", scope: .unique, floor: 400, shape: .aliased) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // Each link resolves the next as a `ChainLink?`: a miss, then `ChainLink` looked up, four
  // frames more a level than the plain path: 423 levels (its floor 17% under).
  DepthPath(name: "optional", scope: .unique, floor: 350, shape: .optional) { modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // Each link resolves the next level's `[P]?`: a miss, the wrapped list's collector, then
  // its contribution, the deepest level of any path: 257 levels (178 before the collector
  // appended from one closure). Its floor, and the next path's, is api.md's 200 itself.
  DepthPath(name: "lists", scope: .unique, floor: 200, shape: .optionalLists) { modules in
    try Dependencies { modules }.resolveOrThrow([ListLevel<BottomTag>]?.self) as Any
  },
  // A child's decorator of the parent's singletons resolves the next link as a `T?`, which
  // the child decorates in turn, keeping what it made: 278 levels.
  DepthPath(
    name: "decorators", scope: .singleton, floor: 200,
    shape: .decoratorsResolvingAnOptional
  ) { modules in
    let child = Dependencies(over: Dependencies { modules }) {
      Module.decorating(DecoratedLink.self) { link in
        link.next = try Dependencies.resolveOrThrow(
          DecoratedLink?.self, name: String(link.index + 1))
        return link
      }
    }
    return try child.resolveOrThrow(DecoratedLink.self, name: "0")
  },
  // An `@Inject` read stops the program when the stack is nearly full, rather than throwing
  // to the outermost call, so this path resolves a chain of its floor's length, which must fit.
  // A level takes 512 bytes: about 960 would fit.
  DepthPath(name: "inject", scope: .unique, floor: 700, shape: .injected, length: 700) {
    modules in
    try Dependencies { modules }.resolveOrThrow(ChainLink.self, name: "0")
  },
  // The paths above, combined: observed, and decorated (api.md §11: "on every path"). An
  // `@Inject` read of a decorated singleton, observed, takes 800 bytes a level: about 650
  // would fit. Each level's list, observed and its contribution decorated: 257 levels, as
  // undecorated (a `[P]?` misses, and goes the observed way anyway); its floor is api.md's 200.
  DepthPath(
    name: "inject+", scope: .singleton, floor: 500, shape: .injected, length: 500
  ) { modules in
    let observation = Dependencies.observe { _ in }
    defer { observation.cancel() }
    let container = Dependencies {
      modules
      Module.decorating(ChainLink.self) { $0 }
    }
    return try container.resolveOrThrow(ChainLink.self, name: "0")
  },
  DepthPath(name: "lists+", scope: .unique, floor: 200, shape: .decoratedOptionalLists) {
    modules in
    let observation = Dependencies.observe { _ in }
    defer { observation.cancel() }
    return try Dependencies { modules }.resolveOrThrow([ListLevel<BottomTag>]?.self) as Any
  },
  // Each link misses in the child and falls through to the parent that registers it.
  DepthPath(name: "child", scope: .unique, floor: 1_600) { modules in
    try Dependencies(over: Dependencies { modules }) {}.resolveOrThrow(ChainLink.self, name: "0")
  },
  DepthPath(name: "root", scope: .unique, floor: 1_600) { modules in
    Dependencies { modules }.build()
    return try Dependencies.resolveOrThrow(ChainLink.self, name: "0")
  },
  DepthPath(name: "overrides", scope: .unique, floor: 1_600) { modules in
    try Dependencies.withOverrides {
      modules
    } operation: {
      try Dependencies.resolveOrThrow(ChainLink.self, name: "0")
    }
  },
]

/// What one path's chain came to.
struct DepthResult {
  /// How many factories ran nested when Shank refused the next: the levels that fit.
  let levels: Int
  /// Whether the whole chain fit, so that `levels` is its length and not the stack's limit.
  let wholeChainFit: Bool
  let bytesPerLevel: Int?
  /// Why the path failed, when it did other than by reaching the floor.
  let problem: String?
}

/// Registers a chain of `length` links for `path` and resolves it on a thread of
/// `depthStackSize` bytes.
func measureDepth(of path: DepthPath, length: Int) -> DepthResult {
  onThread(stackSize: depthStackSize) {
    let recorder = DepthRecorder()
    let modules = depthChain(
      length: length, scope: path.scope, shape: path.shape, recorder: recorder)
    do {
      _ = try path.resolve(modules)
      return DepthResult(
        levels: length, wholeChainFit: true, bytesPerLevel: recorder.bytesPerLevel,
        problem: nil)
    } catch let error as ResolutionError {
      guard case .tooDeep(let depth, _) = error.reason else {
        return DepthResult(
          levels: 0, wholeChainFit: false, bytesPerLevel: nil, problem: error.description)
      }
      // Links "0" to "depth - 1" were running when link "depth" was refused.
      let problem =
        recorder.deepestIndex == depth - 1
        ? nil : "the error says \(depth) deep, but link \(recorder.deepestIndex) ran"
      return DepthResult(
        levels: depth, wholeChainFit: false, bytesPerLevel: recorder.bytesPerLevel,
        problem: problem)
    } catch {
      return DepthResult(levels: 0, wholeChainFit: false, bytesPerLevel: nil, problem: "\(error)")
    }
  }
}

/// Runs every path, prints a line for each, and returns the process's exit status: 1 when a
/// path fit fewer levels than its floor or failed otherwise.
func runDepth(length: Int) -> Int32 {
  print("chains of \(length) links, each resolved on a thread of \(depthStackSize >> 10) KiB")
  var failed = false
  for path in depthPaths {
    let result = measureDepth(of: path, length: path.length ?? length)
    let bytes = result.bytesPerLevel.map { "\($0) bytes/level" } ?? "bytes/level unknown"
    let stop = result.wholeChainFit ? "the whole chain fit" : "then too deep"
    var line = "\(path.name.padding(toLength: 10, withPad: " ", startingAt: 0)) "
    line += "\(result.levels) levels, \(stop) (floor \(path.floor)); \(bytes)"
    if let problem = result.problem {
      line += "\n  FAILED: \(problem)"
      failed = true
    } else if result.levels < path.floor {
      line +=
        result.wholeChainFit
        ? "\n  FAILED: the chain is shorter than the floor; give a longer one"
        : "\n  FAILED: fewer levels than the floor"
      failed = true
    }
    print(line)
    // A path that overflows the stack kills the process: the lines before it are then out.
    fflush(nil)  // every stream: `stdout` itself is a global Swift 6 will not read
  }
  return failed ? 1 : 0
}

/// Runs `body` on a new thread whose stack is `stackSize` bytes, and returns its result once
/// that thread has ended.
func onThread<Result>(stackSize: Int, _ body: @escaping () -> Result) -> Result {
  var result: Result?
  let job = Unmanaged.passRetained(ThreadJob { result = body() })
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  precondition(pthread_attr_setstacksize(&attributes, stackSize) == 0)
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let created = pthread_create(&thread, &attributes, runThreadJob, job.toOpaque())
  precondition(created == 0, "pthread_create failed: \(created)")
  // `result` is written on the new thread only, and read here once that thread has ended.
  #if canImport(Darwin)
    pthread_join(thread!, nil)
  #else
    pthread_join(thread, nil)
  #endif
  return result!
}

/// What a thread started by `onThread` runs.
private final class ThreadJob {
  let run: () -> Void

  init(_ run: @escaping () -> Void) { self.run = run }
}

#if canImport(Darwin)
  private func runThreadJob(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadJob>.fromOpaque(raw).takeRetainedValue().run()
    return nil
  }
#else
  private func runThreadJob(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue().run()
    return nil
  }
#endif
