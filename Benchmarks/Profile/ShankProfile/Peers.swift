// swift-dependencies' side of S1, S2 and S6, counted like the others. Built only where the
// package gives this target the `Dependencies` product, as Benchmarks/Package.swift does.
#if canImport(Dependencies)
  import Dependencies

  private enum M5Key: DependencyKey { static let liveValue: any M5Type = M5() }
  private enum SharedKey: DependencyKey {
    static let liveValue: any SharedModuleType = SharedModule.shared
  }
  extension DependencyValues {
    var m5: any M5Type {
      get { self[M5Key.self] }
      set { self[M5Key.self] = newValue }
    }
    var sharedModule: any SharedModuleType {
      get { self[SharedKey.self] }
      set { self[SharedKey.self] = newValue }
    }
  }

  final class DependencyHolder: @unchecked Sendable { @Dependency(\.m5) var module }
  let dependencyHolder = opaque(DependencyHolder())

  @MainActor @inline(never) func runS1Dependencies(_ count: Int) {
    var sum = 0
    for _ in 0..<count {
      @Dependency(\.m5) var m5
      sum ^= fold(m5)
    }
    sink(sum)
  }
  @MainActor @inline(never) func runS2Dependencies(_ count: Int) {
    var sum = 0
    for _ in 0..<count { sum ^= barrier(dependencyHolder) { fold($0.module) } }
    sink(sum)
  }
  @MainActor @inline(never) func runS6Dependencies(_ count: Int) {
    var sum = 0
    for _ in 0..<count {
      @Dependency(\.sharedModule) var shared
      sum ^= fold(shared)
    }
    sink(sum)
  }

  let peerScenarios: [String: @MainActor (Int) -> Void] = [
    "s1-dependencies": runS1Dependencies,
    "s2-dependencies": runS2Dependencies,
    "s6-dependencies": runS6Dependencies,
  ]
#else
  let peerScenarios: [String: @MainActor (Int) -> Void] = [:]
#endif
