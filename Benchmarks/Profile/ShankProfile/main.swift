// A tiny release executable for `valgrind --tool=callgrind`: one scenario, many times, nothing
// else. Instruction counts repeat exactly on a busy machine, where wall-clock time does not.
//
//   swift build -c release --product ShankProfile
//   valgrind --tool=callgrind --toggle-collect='*measured*' .build/release/ShankProfile s1 10000
//   scripts/profile.sh   # every scenario, as instructions per operation
//
// Usage: ShankProfile SCENARIO [COUNT [MODULES]]; only `measured(_:_:)` is counted.
import Foundation
import Shank
import Swinject

protocol M0Type { func component() -> Int }
protocol M5Type { func component() -> Int }
struct M0: M0Type { func component() -> Int { 0 } }
struct M5: M5Type { func component() -> Int { 5 } }
protocol SharedModuleType: AnyObject { func component() -> Int }
final class SharedModule: SharedModuleType, Sendable {
  static let shared = SharedModule()
  func component() -> Int { 1 }
}

/// As the Benchmark package's: the optimizer cannot see through it.
@_optimize(none) func blackHole<T>(_: T) {}
@_optimize(none) func opaque<T>(_ value: T) -> T { value }

final class InjectHolder { @Inject var module: M5Type }
final class PlainHolder { var module: M5Type = M5() }
final class Factories {
  let m5: () -> M5Type = { M5() }
  var byName: [String: () -> M0Type] = [:]
  let shared: [ObjectIdentifier: () -> SharedModuleType] = [
    ObjectIdentifier(SharedModuleType.self): { SharedModule.shared }
  ]
}

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "s1"
let count = arguments.count > 2 ? Int(arguments[2])! : 10_000
let size = arguments.count > 3 ? Int(arguments[3])! : 10
let names = (0..<max(size, 10)).map { "n\($0)" }

/// Registered from nonisolated code, as the benchmarks do: no main-actor check per resolution.
nonisolated func makeRoot(size: Int) -> Dependencies {
  Dependencies {
    Module { M5() as M5Type }
    for name in names.prefix(size) { Module(name) { M0() as M0Type } }
    Module(scope: .singleton) { SharedModule() as SharedModuleType }
  }
}

/// S5's root, as the benchmark builds it: named modules from one loop.
nonisolated func makeNamedRoot(size: Int) -> Dependencies {
  Dependencies {
    for name in names.prefix(size) { Module(name) { M0() as M0Type } }
  }
}

nonisolated func makeNamedSwinject(size: Int) -> Container {
  let container = Container()
  for name in names.prefix(size) {
    container.register(M0Type.self, name: name) { _ in M0() }.inObjectScope(.transient)
  }
  return container
}

/// Roots built by `s5-build`, released after the measurement so that only building counts.
nonisolated(unsafe) var builtRoots: [AnyObject] = []  // only the main thread touches it

nonisolated func makeSwinject(size: Int) -> Container {
  let container = Container()
  container.register(M5Type.self) { _ in M5() }.inObjectScope(.transient)
  for name in names.prefix(size) {
    container.register(M0Type.self, name: name) { _ in M0() }.inObjectScope(.transient)
  }
  container.register(SharedModuleType.self) { _ in SharedModule() }.inObjectScope(.container)
  return container
}

if scenario == "s1-main" {
  // Registered from main-actor code, as an app target with default MainActor isolation does.
  Dependencies {
    Module { M5() as M5Type }
  }.build()
} else {
  makeRoot(size: size).build()
}
let swinject = opaque(makeSwinject(size: size))
let injected = opaque(InjectHolder())
let plain = opaque(PlainHolder())
let factories = opaque(Factories())
for name in names.prefix(size) { factories.byName[name] = { M0() } }
let probe = opaque("n5")
blackHole(injected.module)  // the first read
if scenario != "s1-main" {
  blackHole(Dependencies.resolve(SharedModuleType.self))  // makes the singleton
}
blackHole(swinject.resolve(SharedModuleType.self)!)

/// Runs `body` on `threads` new threads at once and returns when all are done.
func onThreads(_ threads: Int, _ body: @escaping @Sendable () -> Void) {
  let started = (0..<threads).map { _ in
    let thread = Thread(block: body)
    thread.start()
    return thread
  }
  while started.contains(where: { !$0.isFinished }) { usleep(100) }
}

@MainActor @inline(never) func measured(_ scenario: String, _ count: Int) {
  switch scenario {
  case "s1": for _ in 0..<count { blackHole(Dependencies.resolve(M5Type.self)) }
  case "s1-main": for _ in 0..<count { blackHole(Dependencies.resolve(M5Type.self)) }
  case "s1-swinject": for _ in 0..<count { blackHole(swinject.resolve(M5Type.self)!) }
  case "s1-hand": for _ in 0..<count { blackHole(factories.m5()) }
  case "s2": for _ in 0..<count { blackHole(injected.module) }
  case "s2-hand": for _ in 0..<count { blackHole(plain.module) }
  case "s3": for _ in 0..<count { blackHole(Dependencies.resolve(M0Type.self, name: probe)) }
  case "s3-swinject": for _ in 0..<count { blackHole(swinject.resolve(M0Type.self, name: probe)!) }
  case "s3-hand": for _ in 0..<count { blackHole(factories.byName[probe]!()) }
  case "s6": for _ in 0..<count { blackHole(Dependencies.resolve(SharedModuleType.self)) }
  case "s6-swinject": for _ in 0..<count { blackHole(swinject.resolve(SharedModuleType.self)!) }
  case "s6-hand": for _ in 0..<count { blackHole(SharedModule.shared as SharedModuleType) }
  case "s6-dictionary":  // S7's baseline for the singleton: a shared instance from a dictionary
    let table = factories.shared
    let key = ObjectIdentifier(SharedModuleType.self)
    for _ in 0..<count { blackHole(table[key]!()) }
  case "s5": for _ in 0..<count { blackHole(makeNamedRoot(size: size)) }
  case "s5-swinject": for _ in 0..<count { blackHole(makeNamedSwinject(size: size)) }
  case "s5-build": for _ in 0..<count { builtRoots.append(makeNamedRoot(size: size)) }
  case "s5-build-swinject": for _ in 0..<count { builtRoots.append(makeNamedSwinject(size: size)) }
  // S7, for `perf record -e cpu-clock`: the same resolutions on 1 or 2 threads at once.
  case "s7-1": onThreads(1) { for _ in 0..<count { blackHole(Dependencies.resolve(M5Type.self)) } }
  case "s7-2": onThreads(2) { for _ in 0..<count { blackHole(Dependencies.resolve(M5Type.self)) } }
  case "s7-singleton-1":
    onThreads(1) { for _ in 0..<count { blackHole(Dependencies.resolve(SharedModuleType.self)) } }
  case "s7-singleton-2":
    onThreads(2) { for _ in 0..<count { blackHole(Dependencies.resolve(SharedModuleType.self)) } }
  default: fatalError("unknown scenario \(scenario)")
  }
}

builtRoots.reserveCapacity(count)
measured(scenario, count)
