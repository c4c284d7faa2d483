// S13–S15: a list of contributions, a decorated resolution and an observed one, each beside
// the hand-written Swift that does the same.
import Foundation
import Shank

protocol PlugInType: Sendable { func component() -> Int }
struct PlugIn: PlugInType {
  let id: Int
  func component() -> Int { id }
}

/// S14's decorator: wraps the module it is given.
struct LoggedM5: M5Type {
  let inner: M5Type
  func component() -> Int { inner.component() &+ 100 }
}

/// What S15's observers are given by the hand-written side: the fields of `ResolutionEvent`.
struct HandEvent {
  let key: String
  let scope: Scope
  let madeInstance: Bool
  let durationNanoseconds: UInt64
  let onMainThread: Bool
  let depth: Int
  let site: String
}

/// What both sides' observers do with an event.
nonisolated(unsafe) var eventsSeen = 0

/// The hand-written equivalents: closures reached through `opaque`, so the optimizer cannot see
/// which ones they are, as it cannot see Shank's factories.
final class HandComposition: @unchecked Sendable {
  let plugIns: [() -> PlugInType] = (0..<10).map { id in { PlugIn(id: id) } }
  let m5: () -> M5Type = { M5() }
  let decorate: (M5Type) -> M5Type = { LoggedM5(inner: $0) }
  let observer: (HandEvent) -> Void = { event in eventsSeen &+= event.depth &+ 1 }
  let onMainThread = Thread.isMainThread

  // The loops below call these nonisolated methods: a closure formed in a main-actor function
  // and handed to `map` would check the executor at each call, which no hand-written code pays.
  /// S13 by hand: the ten closures' results in an array.
  @inline(__always) func list() -> [PlugInType] { plugIns.map { $0() } }

  /// S14 by hand: the factory's result, wrapped.
  @inline(__always) func decorated() -> M5Type { decorate(m5()) }

  /// S15 by hand: the factory called and timed, then a callback given an event of the fields
  /// Shank's observers get.
  @inline(__always) func observed() -> M5Type {
    let start = monotonicNanoseconds()
    let module = m5()
    let duration = monotonicNanoseconds() &- start
    observer(
      HandEvent(
        key: "M5Type", scope: .unique, madeInstance: true, durationNanoseconds: duration,
        onMainThread: onMainThread, depth: 0, site: "main.swift:1"))
    return module
  }
}
let hand = opaque(HandComposition())

/// Nanoseconds on the clock Shank's events read.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Builds the root an S13–S15 scenario resolves from, and for S15 installs the observer;
/// false for every other scenario, which main.swift gives its own root.
nonisolated func prepareComposition(for scenario: String) -> Bool {
  switch scenario {
  case "s13":
    Dependencies {
      Module { M5() as M5Type }  // read once by main.swift's @Inject holder
      for id in 0..<10 { Module.contribution { PlugIn(id: id) as PlugInType } }
    }.build()
  case "s14":
    Dependencies {
      Module { M5() as M5Type }
      Module.decorating(M5Type.self) { LoggedM5(inner: $0) }
    }.build()
  case "s15":
    Dependencies {
      Module { M5() as M5Type }
    }.build()
    observation = Dependencies.observe { event in eventsSeen &+= event.depth &+ 1 }
  default:
    return false
  }
  return true
}
nonisolated(unsafe) var observation: ResolutionObservation?

/// S13: resolving `[PlugInType]`, ten contributions; by hand, ten closures' results in an array.
@MainActor @inline(never) func runS13(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= Dependencies.resolve([PlugInType].self).count }
  sink(sum)
}
@MainActor @inline(never) func runS13Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= hand.list().count }
  sink(sum)
}
/// S14: a resolution that a decorator wraps; by hand, the factory's result wrapped.
@MainActor @inline(never) func runS14(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M5Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS14Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(hand.decorated()) }
  sink(sum)
}
/// S15: a resolution with one observer installed; by hand, the factory called and timed, then a
/// callback given an event of the same fields.
@MainActor @inline(never) func runS15(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(Dependencies.resolve(M5Type.self)) }
  sink(sum)
}
@MainActor @inline(never) func runS15Hand(_ count: Int) {
  var sum = 0
  for _ in 0..<count { sum ^= fold(hand.observed()) }
  sink(sum)
}

let compositionScenarios: [String: @MainActor (Int) -> Void] = [
  "s13": runS13,
  "s13-hand": runS13Hand,
  "s14": runS14,
  "s14-hand": runS14Hand,
  "s15": runS15,
  "s15-hand": runS15Hand,
]
