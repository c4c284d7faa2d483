import Shank
import ShankTesting
import Testing

@Suite struct MainActorTests {
  @Test func readmePatternsWorkUnchanged() {
    Dependencies.withOverrides {
      appModules(analytics: true)
    } operation: {
      let controller = WidgetViewController()
      #expect(controller.show() == "GET /widgets | SampleModule.test()123 | tracked show")
    }
  }

  @Test func optionalInjectionIsNilWhenAbsent() {
    Dependencies.withOverrides {
      appModules(analytics: false)
    } operation: {
      #expect(WidgetViewController().show().hasSuffix("| no analytics"))
    }
  }

  @Test func singletonModuleKeepsItsMainActorComponents() {
    let dependencies = Dependencies { appModules(analytics: false) }
    let first: AppModuleType = dependencies.resolve()
    let second: AppModuleType = dependencies.resolve()
    let shared = first.viewModels() === second.viewModels()
    #expect(shared)
    let loaded = Dependencies.withOverrides {
      appModules(analytics: false)
    } operation: {
      Dependencies.resolve(WidgetModuleType.self).component().load()
    }
    #expect(loaded == "GET /widgets")
  }

  @Test func asyncResolutionOffTheMainActorHopsToIt() async {
    await Dependencies.withOverrides {
      Module(scope: .singleton) { SessionModule() as SessionModuleType }
    } operation: {
      let onMain = Dependencies.resolve(SessionModuleType.self)
      let offMain = await resolveSessionOffTheMainActor()
      #expect(offMain.isSame)
      #expect(offMain.session == ObjectIdentifier(onMain))
      #expect(onMain.user() == "ada")
    }
  }

  @Test func madeMainActorSingletonIsStillRefusedOffTheMainActor() async {
    let dependencies = Dependencies { appModules(analytics: false) }
    _ = dependencies.resolve(AppModuleType.self)  // made here, on the main actor
    let reason = await reasonResolvingAppOffTheMainActor(dependencies)
    #expect(
      reason
        == .wrongIsolation(actor: "MainActor", registeredAt: "MainActorTests/Fixtures.swift:86"))
  }

  /// A list of contributions registered from main-actor code, resolved off it: the message
  /// names the list, whose `resolveAsync` is the way out, not the contribution.
  @Test func aMainActorContributionsListOffTheMainActorIsNamedByTheList() async throws {
    let line = #line + 1
    let dependencies = Dependencies { Module.contribution { SessionModule() as SessionModuleType } }
    let (error, asked) = try #require(await errorResolvingSessionsOffTheMainActor(dependencies))
    #expect(
      error.reason
        == .wrongIsolation(
          actor: "MainActor", registeredAt: "MainActorTests/MainActorTests.swift:\(line)"))
    #expect(error.typeName == "[SessionModuleType]")
    #expect(
      error.description == """
        Shank cannot resolve [SessionModuleType] off the main actor
          asked for at MainActorTests/MainActorTests.swift:\(asked)
          it was registered at MainActorTests/MainActorTests.swift:\(line) from code isolated to MainActor, so its factory runs only there
          resolve it on the main actor, or, if it is Sendable, from async code with Dependencies.resolveAsync([SessionModuleType].self)
          or, if its factory needs no main actor, register it from nonisolated code, such as a `nonisolated static func make() -> Dependencies` of an enum of yours
        """)
  }

  @Test func asyncResolutionOfANonisolatedModuleDoesNotHop() async {
    let now = await Dependencies.withOverrides {
      clockModules()
    } operation: {
      await Dependencies.resolveAsync(ClockModuleType?.self)?.now()
    }
    #expect(now == 1_700_000_000)
  }

  @Test func aNonisolatedClassInjectsASendableModuleOffTheMainActor() async {
    let now = await Dependencies.withOverrides {
      clockModules()
    } operation: {
      await readClockOffTheMainActor()
    }
    #expect(now == 1_700_000_000)
  }

  @Test func nonSendableModuleRegistersResolvesAndInjects() {
    let dependencies = Dependencies { counterModules() }
    let counter: CounterModuleType = dependencies.resolve()
    #expect(counter.next() == 1)
    Dependencies.withOverrides {
      counterModules()
    } operation: {
      let reader = CounterReader()
      #expect(reader.counter.next() == 1)
      #expect(reader.counter.next() == 2)
    }
  }

  @Test(.dependencies { Module { AnalyticsModule() as AnalyticsModuleType } })
  func traitOverridesInAMainActorTarget() {
    #expect(Dependencies.resolve(AnalyticsModuleType.self).track("x") == "tracked x")
  }

  @Test func resolvingAMainActorModuleOffTheMainActorStopsWithAClearMessage() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      await resolveAppOffTheMainActorSynchronously()
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("MainActorTests/MainActorTests.swift:"))
    #expect(message.contains("Shank cannot resolve AppModuleType off the main actor"))
    #expect(message.contains("  asked for at MainActorTests/MainActorTests.swift:"))
    #expect(
      message.contains(
        "  it was registered at MainActorTests/Fixtures.swift:86 from code isolated to MainActor, so its factory runs only there"
      ))
    #expect(
      message.contains(
        "  resolve it on the main actor, or, if it is Sendable, from async code with Dependencies.resolveAsync(AppModuleType.self)"
      ))
  }
}

/// What resolving `[SessionModuleType]` from `dependencies` throws off the main actor, and the
/// line that asks.
@concurrent
nonisolated func errorResolvingSessionsOffTheMainActor(
  _ dependencies: Dependencies
) async -> (error: ResolutionError, line: Int)? {
  let line = #line + 2
  do {
    _ = try dependencies.resolveOrThrow([SessionModuleType].self)
    return nil
  } catch {
    return (error, line)
  }
}

/// Resolves from the global executor, in the same task, so the overrides still apply.
@concurrent
nonisolated func resolveSessionOffTheMainActor() async -> (
  session: ObjectIdentifier, isSame: Bool
) {
  let first = await Dependencies.resolveAsync(SessionModuleType.self)
  let second = await Dependencies.resolveAsync(SessionModuleType.self)
  return (ObjectIdentifier(first), ObjectIdentifier(first) == ObjectIdentifier(second))
}

/// The mistake the message is for: a synchronous resolution on a background thread.
nonisolated func resolveAppOffTheMainActorSynchronously() async {
  let dependencies = await MainActor.run { Dependencies { appModules(analytics: false) } }
  await Task.detached {
    _ = dependencies.resolve(AppModuleType.self)
  }.value
}

/// Why resolving the app module from a background thread fails, or `nil` if it succeeds.
@concurrent
nonisolated func reasonResolvingAppOffTheMainActor(
  _ dependencies: Dependencies
) async -> ResolutionError.Reason? {
  do {
    _ = try dependencies.resolveOrThrow(AppModuleType.self)
    return nil
  } catch {
    return error.reason
  }
}

/// A `ClockReader` made and read on the global executor.
@concurrent
private func readClockOffTheMainActor() async -> Int {
  ClockReader().now()
}
