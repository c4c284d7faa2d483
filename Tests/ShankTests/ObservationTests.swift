import Dispatch
import Foundation
import Shank
import Testing

/// `Dependencies.observe`: what an observer sees, and when it stops seeing.
///
/// Observers see every resolution in the process, so each test keeps only the events of keys
/// that only it resolves.
@Suite struct ObservationTests {
  @Test func anObserverSeesEachResolutionWithItsKeyScopeAndSite() throws {
    let container = Dependencies {
      Module("seen", scope: .singleton) { ObservedImpl() as Observed }
    }
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key.hasPrefix("Observed named \"seen\"") { events.append($0) }
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "seen")
    let line = #line - 1
    _ = container.resolve(Observed.self, name: "seen")

    let seen = events.all
    try #require(seen.count == 2)
    #expect(seen.map(\.key) == [#"Observed named "seen""#, #"Observed named "seen""#])
    #expect(seen.map(\.scope) == [.singleton, .singleton])
    #expect(
      seen.map(\.madeInstance) == [true, false], "the second resolution returned the kept one")
    #expect(
      seen.map(\.site) == [
        "ShankTests/ObservationTests.swift:\(line)",
        "ShankTests/ObservationTests.swift:\(line + 2)",
      ])
    #expect(seen.map(\.depth) == [0, 0])
  }

  @Test func theSiteIsTheAskingFileAndLineWhateverTheirDigitsAndLetters() {
    let container = Dependencies {
      Module("sited") { ObservedImpl() as Observed }
    }
    let sites = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "sited""# { sites.append($0.site) }
    }
    defer { observation.cancel() }
    let lines: [UInt] = [0, 7, 9, 10, 99, 100, 4_096, UInt.max]
    for line in lines {
      _ = container.resolve(Observed.self, name: "sited", fileID: "Módulo/Ünï 😀.swift", line: line)
    }
    #expect(sites.all == lines.map { "Módulo/Ünï 😀.swift:\($0)" })
  }

  @Test func threadsObservingDifferentTypesAtOnceEachSeeTheirOwnTypesName() async {
    struct RacedA {}
    struct RacedB {}
    struct RacedC {}
    struct RacedD {}
    let container = Dependencies {
      Module("raced") { RacedA() }
      Module("raced") { RacedB() }
      Module("raced") { RacedC() }
      Module("raced") { RacedD() }
    }
    let keys = Collector<String>()
    let observation = Dependencies.observe {
      if $0.key.hasSuffix(#"named "raced""#) { keys.append($0.key) }
    }
    defer { observation.cancel() }
    let finished = await onThreads(8) { index in
      for _ in 0..<50 {
        switch index % 4 {
        case 0: _ = container.resolve(RacedA.self, name: "raced")
        case 1: _ = container.resolve(RacedB.self, name: "raced")
        case 2: _ = container.resolve(RacedC.self, name: "raced")
        default: _ = container.resolve(RacedD.self, name: "raced")
        }
      }
    }
    #expect(finished)
    let counts = Dictionary(keys.all.map { ($0, 1) }, uniquingKeysWith: +)
    #expect(
      counts == [
        #"RacedA named "raced""#: 100, #"RacedB named "raced""#: 100,
        #"RacedC named "raced""#: 100, #"RacedD named "raced""#: 100,
      ])
  }

  @Test func aNestedResolutionIsDeliveredFirstWithItsDepth() {
    let container = Dependencies {
      Module("outer") { () -> Observed in
        _ = Dependencies.resolve(Observed.self, name: "inner")
        return ObservedImpl()
      }
      Module("inner") { ObservedImpl() as Observed }
    }
    let events = Collector<String>()
    let observation = Dependencies.observe { event in
      if event.key.hasPrefix("Observed named \"inner\"")
        || event.key.hasPrefix("Observed named \"outer\"")
      {
        events.append("\(event.key) \(event.depth) \(event.madeInstance)")
      }
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "outer")
    #expect(events.all == [#"Observed named "inner" 1 true"#, #"Observed named "outer" 0 true"#])
  }

  @Test func theDurationIsTheFactorysAndTheThreadIsNamed() async {
    let container = Dependencies {
      Module("slow") { () -> Observed in
        usleep(20_000)
        return ObservedImpl()
      }
    }
    let events = Collector<ResolutionEvent>()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "slow""# { events.append($0) }
    }
    defer { observation.cancel() }
    let finished = await onThreads(1) { _ in _ = container.resolve(Observed.self, name: "slow") }
    #expect(finished)
    #expect(events.all.count == 1)
    #expect(events.all.first.map { $0.durationNanoseconds >= 20_000_000 } == true)
    #expect(events.all.first?.onMainThread == false)
  }

  @Test func cancellingStopsTheEvents() {
    let container = Dependencies { Module("cancelled") { ObservedImpl() as Observed } }
    let count = Counter()
    let observation = Dependencies.observe {
      if $0.key == #"Observed named "cancelled""# { count.increment() }
    }
    _ = container.resolve(Observed.self, name: "cancelled")
    observation.cancel()
    observation.cancel()
    _ = container.resolve(Observed.self, name: "cancelled")
    #expect(count.value == 1)
  }

  @Test func anObserverThatResolvesDoesNotObserveItself() {
    let container = Dependencies { Module("self") { ObservedImpl() as Observed } }
    let count = Counter()
    let observation = Dependencies.observe { event in
      guard event.key == #"Observed named "self""# else { return }
      count.increment()
      _ = container.resolve(Observed.self, name: "self")
    }
    defer { observation.cancel() }
    _ = container.resolve(Observed.self, name: "self")
    #expect(count.value == 1)
  }

  @Test func anEventReadsAsOneLine() {
    let event = ResolutionEvent(
      key: "WidgetModuleType", scope: .singleton, madeInstance: true,
      durationNanoseconds: 1_250_000,
      onMainThread: true, depth: 0, site: "App.swift:12")
    #expect(
      event.description
        == "WidgetModuleType (.singleton) made in 1.250 ms on the main thread, depth 0, at App.swift:12"
    )
  }
}

// MARK: - Fixtures

protocol Observed: AnyObject {}
final class ObservedImpl: Observed {}
