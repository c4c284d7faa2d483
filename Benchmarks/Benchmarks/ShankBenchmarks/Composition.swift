// S13–S15: a list of contributions, a decorated resolution and an observed one, each beside
// the hand-written Swift that does the same, separately and timed in turn.
import Benchmark
import Foundation
import Shank

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func composition() {
  contributions()
  decoration()
  observation()
}

// MARK: - Fixtures

/// S13's plug-in protocol: ten contributions to `[PlugInType]`.
protocol PlugInType: Sendable { func component() -> Int }
struct PlugIn: PlugInType {
  let id: Int
  func component() -> Int { id }
}

/// S14's decorator: wraps the module it is given.
struct LoggedM5: M5Type {
  let inner: any M5Type
  func component() -> Int { inner.component() &+ 100 }
}

/// What S15's hand-written observer is given: the fields of Shank's `ResolutionEvent`.
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

/// The hand-written side: closures reached through `identity(_:)`, so that the optimizer cannot
/// see which ones they are, as it cannot see Shank's factories.
final class HandComposition: @unchecked Sendable {
  let plugIns: [() -> any PlugInType] = (0..<10).map { id in { PlugIn(id: id) } }
  let m5: () -> any M5Type = { M5() }
  let decorate: (any M5Type) -> any M5Type = { LoggedM5(inner: $0) }
  let observer: (HandEvent) -> Void = { event in eventsSeen &+= event.depth &+ 1 }
  let onMainThread = Thread.isMainThread

  /// S13 by hand: the ten closures' results in an array.
  @inline(__always) func list() -> [any PlugInType] { plugIns.map { $0() } }

  /// S14 by hand: the factory's result, wrapped.
  @inline(__always) func decorated() -> any M5Type { decorate(m5()) }

  /// S15 by hand: the factory called and timed, then a callback given an event of the fields
  /// Shank's observers get.
  @inline(__always) func observed() -> any M5Type {
    let start = monotonicNanoseconds()
    let module = m5()
    let duration = monotonicNanoseconds() &- start
    observer(
      HandEvent(
        key: "M5Type", scope: .unique, madeInstance: true, durationNanoseconds: duration,
        onMainThread: onMainThread, depth: 0, site: "Composition.swift:1"))
    return module
  }
}

/// Nanoseconds on the clock that Shank's events read.
@inline(__always) func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

extension ShankFixtures {
  static func buildContributions() {
    Dependencies {
      for id in 0..<10 { Module.contribution { PlugIn(id: id) as PlugInType } }
    }.build()
    check(
      Dependencies.resolve([PlugInType].self).map { $0.component() } == Array(0..<10),
      "the ten contributions")
  }

  static func buildDecorated() {
    Dependencies {
      Module { M5() as M5Type }
      Module.decorating(M5Type.self) { LoggedM5(inner: $0) }
    }.build()
    check(Dependencies.resolve(M5Type.self).component() == 105, "the decorated module")
  }

  /// S15's observer, installed by its setup and cancelled by its teardown.
  nonisolated(unsafe) static var observation: ResolutionObservation?

  static func buildObserved() {
    buildTenModules()
    observation = Dependencies.observe { event in eventsSeen &+= event.depth &+ 1 }
    let before = eventsSeen
    blackHole(Dependencies.resolve(M5Type.self))
    check(eventsSeen == before + 1, "the observer saw no event")
  }

  static func cancelObservation() {
    observation?.cancel()
    observation = nil
  }
}

// MARK: - S13: resolve [P] of ten contributions

func contributions() {
  Benchmark(
    "S13 ten contributions as [P]: Shank",
    configuration: configuration(setup: ShankFixtures.buildContributions)
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations { sum ^= Dependencies.resolve([PlugInType].self).count }
    blackHole(sum)
  }

  Benchmark(
    "S13 ten contributions as [P]: hand-written array of closures",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: identity(HandComposition())) { hand in
      var sum = 0
      for _ in benchmark.scaledIterations { sum ^= hand.list().count }
      blackHole(sum)
    }
  }

  let shank = BenchmarkMetric.custom("Shank")
  let hand = BenchmarkMetric.custom("hand-written")
  Benchmark(
    "S13 ten contributions, timed in turn",
    configuration: configuration(metrics: [shank, hand], setup: ShankFixtures.buildContributions)
  ) { benchmark in
    let handWritten = identity(HandComposition())
    timeInTurn(
      benchmark,
      [
        (
          shank,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= Dependencies.resolve([PlugInType].self).count
            }
            blackHole(sum)
          }
        ),
        (
          hand,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= handWritten.list().count }
            blackHole(sum)
          }
        ),
      ])
  }
}

// MARK: - S14: a decorated resolution

func decoration() {
  Benchmark(
    "S14 decorated resolve: Shank",
    configuration: configuration(setup: ShankFixtures.buildDecorated)
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations { sum ^= fold(Dependencies.resolve(M5Type.self)) }
    blackHole(sum)
  }

  Benchmark(
    "S14 decorated resolve: hand-written factory then wrap",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: identity(HandComposition())) { hand in
      var sum = 0
      for _ in benchmark.scaledIterations { sum ^= fold(hand.decorated()) }
      blackHole(sum)
    }
  }

  let shank = BenchmarkMetric.custom("Shank")
  let hand = BenchmarkMetric.custom("hand-written")
  Benchmark(
    "S14 decorated resolve, timed in turn",
    configuration: configuration(metrics: [shank, hand], setup: ShankFixtures.buildDecorated)
  ) { benchmark in
    let handWritten = identity(HandComposition())
    timeInTurn(
      benchmark,
      [
        (
          shank,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(Dependencies.resolve(M5Type.self))
            }
            blackHole(sum)
          }
        ),
        (
          hand,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(handWritten.decorated()) }
            blackHole(sum)
          }
        ),
      ])
  }
}

// MARK: - S15: a resolution with one observer installed

func observation() {
  Benchmark(
    "S15 observed resolve: Shank",
    configuration: configuration(
      setup: ShankFixtures.buildObserved, teardown: ShankFixtures.cancelObservation)
  ) { benchmark in
    var sum = 0
    for _ in benchmark.scaledIterations { sum ^= fold(Dependencies.resolve(M5Type.self)) }
    blackHole(sum)
  }

  Benchmark(
    "S15 observed resolve: hand-written call and callback",
    configuration: configuration()
  ) { benchmark in
    measure(benchmark, with: identity(HandComposition())) { hand in
      var sum = 0
      for _ in benchmark.scaledIterations { sum ^= fold(hand.observed()) }
      blackHole(sum)
    }
  }

  let shank = BenchmarkMetric.custom("Shank")
  let hand = BenchmarkMetric.custom("hand-written")
  Benchmark(
    "S15 observed resolve, timed in turn",
    configuration: configuration(
      metrics: [shank, hand], setup: ShankFixtures.buildObserved,
      teardown: ShankFixtures.cancelObservation)
  ) { benchmark in
    let handWritten = identity(HandComposition())
    timeInTurn(
      benchmark,
      [
        (
          shank,
          {
            var sum = 0
            for _ in benchmark.scaledIterations {
              sum ^= fold(Dependencies.resolve(M5Type.self))
            }
            blackHole(sum)
          }
        ),
        (
          hand,
          {
            var sum = 0
            for _ in benchmark.scaledIterations { sum ^= fold(handWritten.observed()) }
            blackHole(sum)
          }
        ),
      ])
  }
}
