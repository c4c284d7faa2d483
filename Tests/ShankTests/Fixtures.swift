import Dispatch
import Foundation
import Shank
import Testing

// Shared fixtures for the core suites (ScenarioTests, ScopeTests, InjectTests, ResolutionTests,
// DiagnosticsTests, BuilderTests, ConcurrencyTests). Types that only one file needs, and the
// exit-test fixtures whose line numbers a test asserts, live beside their tests.

// MARK: - Synchronisation helpers

/// A lock-protected count, for counting factory calls from many threads.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  /// Adds one and returns the new count.
  @discardableResult
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// A lock-protected list that many threads append to.
final class Collector<Element>: @unchecked Sendable {
  private let lock = NSLock()
  private var elements: [Element] = []

  func append(_ element: Element) {
    lock.lock()
    defer { lock.unlock() }
    elements.append(element)
  }

  var all: [Element] {
    lock.lock()
    defer { lock.unlock() }
    return elements
  }
}

/// Runs `body` on `count` new threads that all start at the same moment, and waits for them
/// without blocking a thread of the cooperative pool.
///
/// Returns `false` when the threads did not finish within `timeout` seconds (a deadlock).
func onThreads(
  _ count: Int, timeout: Double = 120, _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
  await withCheckedContinuation { continuation in
    Thread {
      let ready = DispatchSemaphore(value: 0)
      let gate = DispatchSemaphore(value: 0)
      let done = DispatchGroup()
      for index in 0..<count {
        done.enter()
        let thread = Thread {
          ready.signal()
          gate.wait()
          body(index)
          done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
      }
      for _ in 0..<count { ready.wait() }
      for _ in 0..<count { gate.signal() }
      continuation.resume(returning: done.wait(timeout: .now() + timeout) == .success)
    }.start()
  }
}

/// An object with a serial number, so that "a new instance" never depends on address reuse.
class Numbered {
  private static let serials = Counter()
  let serial: Int

  init() { serial = Numbered.serials.increment() }
}

// MARK: - A generic service for scope and resolution tests

protocol Service: AnyObject {
  var serial: Int { get }
}

final class ServiceImpl: Numbered, Service {}

protocol OtherService: AnyObject {
  var serial: Int { get }
}

final class OtherServiceImpl: Numbered, OtherService {}

/// A value-type service: it has no identity, so it tells instances apart by its `serial`.
protocol ValueService {
  var serial: Int { get }
}

struct ValueServiceImpl: ValueService {
  let serial: Int
}

/// A module type nothing ever registers, in any container, in any test.
protocol NeverRegistered {}

// MARK: - The original Shank's scenario

protocol HTTPServiceType: AnyObject {
  func get(_ path: String) -> String
}

final class HTTPService: HTTPServiceType {
  func get(_ path: String) -> String { "|\(path)|" }
}

protocol WidgetRemoteStore {
  func fetch(id: Int) -> String
}

struct WidgetRealmStore: WidgetRemoteStore {
  func fetch(id: Int) -> String { "|MediaRealmStore.\(id)|" }
}

protocol WidgetRemote {
  func fetch(id: Int) -> String
}

struct WidgetNetworkRemote: WidgetRemote {
  let http: HTTPServiceType

  func fetch(id: Int) -> String { http.get("MediaNetworkRemote.\(id)") }
}

protocol WidgetWorkerType {
  func fetch(id: Int) -> String
}

struct WidgetWorker: WidgetWorkerType {
  let store: WidgetRemoteStore
  let remote: WidgetRemote

  func fetch(id: Int) -> String { store.fetch(id: id) + remote.fetch(id: id) }
}

/// The parent module: registered `.singleton`, it keeps the HTTP client every feature shares.
protocol AppModuleType {
  func component() -> HTTPServiceType
}

struct AppModule: AppModuleType {
  private let http = HTTPService()

  func component() -> HTTPServiceType { http }
}

/// A feature module with overloaded `component()` functions that build on one another.
protocol WidgetModuleType {
  func component() -> WidgetWorkerType
  func component() -> WidgetRemoteStore
  func component() -> WidgetRemote
  func component() -> HTTPServiceType
}

struct WidgetModule: WidgetModuleType {
  /// A nested module injects its parent.
  @Inject private var app: AppModuleType

  func component() -> WidgetWorkerType { WidgetWorker(store: component(), remote: component()) }
  func component() -> WidgetRemoteStore { WidgetRealmStore() }
  func component() -> WidgetRemote { WidgetNetworkRemote(http: component()) }
  func component() -> HTTPServiceType { app.component() }
}

protocol SampleModuleType {
  func test() -> String
}

struct SampleModule: SampleModuleType {
  var value: String = ""

  func test() -> String { "SampleModule.test()" + value }
}

/// A module backed by a class, to tell instances apart.
protocol SomeClassModuleType: AnyObject {}

final class SomeClassModule: SomeClassModuleType {}

/// The scenario's composition root, as a `[Module]` group.
@ModuleBuilder
var scenarioModules: [Module] {
  Module(scope: .singleton) { AppModule() as AppModuleType }
  Module { WidgetModule() as WidgetModuleType }
  Module { SampleModule() as SampleModuleType }
  Module("abc") { SampleModule(value: "123") as SampleModuleType }
  Module { SomeClassModule() as SomeClassModuleType }
}

/// The consumer of the original scenario: it injects the module itself and builds its worker
/// from it lazily.
final class WidgetViewController {
  @Inject private var widgets: WidgetModuleType
  @Inject private var sample: SampleModuleType
  @Inject("abc") private var namedSample: SampleModuleType
  @Inject var someClass: SomeClassModuleType
  lazy var worker: WidgetWorkerType = widgets.component()

  func fetch(id: Int) -> String { worker.fetch(id: id) }
  func sampleTest() -> String { sample.test() }
  func namedSampleTest() -> String { namedSample.test() }
}

/// The error `body` throws, or `nil`.
///
/// Resolve outside `#expect(throws:)`: inside a macro's closure, a call's default `#line` is
/// the macro's line, not the call's.
func resolutionError<T>(_ body: () throws -> T) -> ResolutionError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error as? ResolutionError
  }
}

/// What an exit test's child process wrote to standard error, as text: empty when the exit
/// expectation failed and gave no result.
func standardError(of result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// Waits, without blocking a thread, until `condition` holds: a watchdog, which records an
/// issue at the caller's line when `condition` still does not hold after `timeout` seconds.
///
/// Long by default: what it waits for often runs on a task of its own, which the whole suite's
/// heaviest tests, holding both threads of a two-core machine's pool, can delay for a while.
func eventually(
  timeout: Double = 120, sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: () -> Bool
) async {
  let deadline = DispatchTime.now() + timeout
  while !condition() {
    guard DispatchTime.now() < deadline else {
      Issue.record(
        "the condition still did not hold after \(timeout) s", sourceLocation: sourceLocation)
      return
    }
    try? await Task.sleep(nanoseconds: 1_000_000)
  }
}

/// Holds a factory or a thread, which cannot suspend, until `condition` holds or `seconds`
/// pass, spinning; returns whether `condition` held.
///
/// A gate that makes resolutions overlap, not an assertion: what a test asserts after it holds
/// whether or not the gate opened in time, and a caller that needs the condition checks the
/// result. No default, so that a caller says how long a thread may be held.
@discardableResult
func holdUntil(atMost seconds: Double, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now() + seconds
  while !condition() {
    guard DispatchTime.now() < deadline else { return false }
    usleep(50)
  }
  return true
}

/// A serial executor that runs its jobs, in order, on a dispatch queue of its own: an actor
/// on it that blocks its thread holds no thread of the shared pool.
final class QueueExecutor: SerialExecutor {
  private let queue: DispatchQueue

  init(label: String) { queue = DispatchQueue(label: label) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
  }
}

/// A module of `Service` whose factory counts every instance it makes in `made`.
func countedService(
  by made: Counter, _ name: String? = nil, scope: Scope = .unique, eager: Bool = false
) -> Module {
  Module(name, scope: scope, eager: eager) { () -> Service in
    made.increment()
    return ServiceImpl()
  }
}

// MARK: - Values of several layouts, for `@Inject`'s cell

protocol Labelled: AnyObject {
  var label: String { get }
}

/// Counts its instances made and freed.
final class CountedGreeter: Labelled, GreeterType, @unchecked Sendable {
  let label: String
  private let freed: Counter

  init(_ label: String, made: Counter, freed: Counter) {
    self.label = label
    self.freed = freed
    made.increment()
  }

  deinit { freed.increment() }

  var greeting: String { label }
}

struct MixedLayoutValue: Equatable {
  let numbers: [Int]
  let text: String
  let a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int
  let vector: SIMD4<Double>

  init(seed: Int) {
    numbers = Array(repeating: seed, count: 5)
    text = String(repeating: "x", count: 40 + seed)
    (a, b, c, d, e, f, g, h) = (
      seed, seed + 1, seed + 2, seed + 3, seed + 4, seed + 5, seed + 6, seed + 7
    )
    vector = SIMD4<Double>(repeating: Double(seed))
  }
}

struct NamedValue {
  let value: String
}

final class CountedGreeterHolder: @unchecked Sendable {
  @Inject var tracked: CountedGreeter
  @Inject var large: MixedLayoutValue
  @Inject var simd: SIMD4<Double>
}

/// Counts its deinit.
final class CountedObject: @unchecked Sendable {
  let deinits: Counter

  init(deinits: Counter) { self.deinits = deinits }

  deinit { deinits.increment() }
}

/// An over-aligned vector between two bytes of padding.
struct PaddedVector: Equatable, Sendable {
  var tag: UInt8
  var vector: SIMD4<Double>
  var tail: UInt8
}

// MARK: - Aliases, boxes and generators

/// Two protocols that one class conforms to, for modules registered as aliases.
protocol AliasAlpha: AnyObject { var serial: Int { get } }
protocol AliasBeta: AnyObject { var serial: Int { get } }
final class AliasAlphaBeta: Numbered, AliasAlpha, AliasBeta {}

/// Lets a factory, a decorator or a `deinit` reach its container without keeping it, and
/// records what a factory made.
final class WeakBox: @unchecked Sendable {
  weak var container: Dependencies?
  weak var made: ServiceImpl?
}

/// A module that needs nothing.
final class LeafModule {}

/// SplitMix64: the same graphs on every run and platform.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

// MARK: - Decorated layers, observers and cycles

/// The scopes, as arguments an exit test can capture.
enum ScopeCase: String, CaseIterable, Codable, Sendable {
  case unique, singleton, cached, weak

  var scope: Scope {
    switch self {
    case .unique: .unique
    case .singleton: .singleton
    case .cached: .cached("scope-case")
    case .weak: .weak
    }
  }
}

protocol TextType: AnyObject {
  var text: String { get }
}

final class PlainText: TextType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class TaggedText: TextType {
  let wrapped: TextType
  let tag: String
  init(_ wrapped: TextType, _ tag: String) {
    self.wrapped = wrapped
    self.tag = tag
  }
  var text: String { wrapped.text + "+" + tag }
}

struct LayerTag {
  let value: String
  init(_ value: String) { self.value = value }
}

struct StubFailure: Error {}

protocol MutualLeftType: AnyObject {}
protocol MutualRightType: AnyObject {}
final class MutualLeft: MutualLeftType { init(_: MutualRightType) {} }
final class MutualRight: MutualRightType { init(_: MutualLeftType) {} }

protocol AliasedA: AnyObject {}
protocol AliasedB: AnyObject {}
final class AliasedBoth: AliasedA, AliasedB {}

protocol PartType: AnyObject {
  var text: String { get }
}

final class Part: PartType {
  let text: String
  init(_ text: String) { self.text = text }
}

final class TaggedPart: PartType {
  let text: String
  init(_ wrapped: PartType, _ tag: String) { text = wrapped.text + "+" + tag }
}

/// A module that injects the decorated text.
final class InjectedTextHolder {
  @Inject var text: TextType
}

/// `Dependencies.withOverrides` over `base` rather than over the built root, which parallel
/// tests share: run inside a factory of a child of `base` without decorators, whose container
/// is `current` there.
func withOverrides<Result>(
  over base: Dependencies, @ModuleBuilder _ modules: @escaping () -> [Module],
  operation: @escaping () -> Result
) -> Result {
  let box = ResultBox<Result>()
  let runner = Dependencies(over: base) {
    Module { () -> OverrideRunner in
      box.value = Dependencies.withOverrides(modules, operation: operation)
      return OverrideRunner()
    }
  }
  _ = runner.resolve(OverrideRunner.self)
  return box.value!
}

final class ResultBox<Value> { var value: Value? }
struct OverrideRunner {}

/// Ends the process when a test deadlocks, rather than hanging the run.
func exitIfStillRunning(after seconds: Int) {
  Thread {
    sleep(UInt32(seconds))
    FileHandle.standardError.write(
      "exitIfStillRunning: deadlocked for \(seconds) s\n".data(using: .utf8)!)
    exit(99)
  }.start()
}

// MARK: - Two features' types of one short name

/// A feature of a modular app with a `Client` of its own.
enum FeatureA {
  protocol Client: AnyObject {}
  final class ClientImpl: Client {}
  struct Key: Hashable {}
}

/// Another feature, whose `Client` only its own module needs.
enum FeatureB {
  protocol Client: AnyObject {}
  struct Key: Hashable {}

  struct Screen {
    @Inject var client: Client
  }
}

/// The line of `FeatureB.Screen`'s `@Inject`.
let featureBClientLine = #line - 5

/// A third feature with a `Client` of its own.
enum FeatureC {
  protocol Client: AnyObject {}
}

/// A client of every feature.
final class FeaturesClient: FeatureA.Client, FeatureB.Client, FeatureC.Client {}
