import Shank
import Testing

/// A server registers its modules at launch and resolves them on its request threads.
///
/// Registered from main-actor code, the top-level code of `main.swift` among it, a module's
/// factory runs only on the main actor, and a request thread that resolves it stops the
/// program. Registered from a nonisolated function, as a server's composition root is, it
/// resolves on any thread. These tests pin both, and the message that points from the one to
/// the other.
@Suite struct ServerRegistrationTests {
  /// The composition root a server writes: a nonisolated static function. Its modules resolve
  /// on whichever thread asks, as request handlers do.
  @Test func modulesRegisteredFromANonisolatedFunctionResolveOnAnyThread() async throws {
    let dependencies = ServerDependencies.make()
    let resolved = try await resolveOffTheMainActor(from: dependencies)
    #expect(resolved == "ServiceImpl")
  }

  /// The same modules registered from main-actor code, as at the top level of `main.swift`:
  /// resolving off the main actor fails with a message that says where to register instead.
  @Test func modulesRegisteredFromMainSwiftSayWhereToRegisterInstead() async {
    let dependencies = await registerAsMainSwiftDoes()
    let message: String
    do {
      _ = try await resolveOffTheMainActor(from: dependencies)
      Issue.record("a main-actor module resolved off the main actor")
      return
    } catch {
      message = error.description
    }
    #expect(message.contains("Shank cannot resolve Service off the main actor"))
    #expect(
      message.contains(
        "  it was registered at Server/main.swift:7 from code isolated to MainActor"))
    #expect(
      message.contains(
        "  or, if its factory needs no main actor, register it from nonisolated code, such as a `nonisolated static func make() -> Dependencies` of an enum of yours"
      ))
    #expect(
      message.contains(
        "  if that is the top-level code of main.swift, it is main-actor code: move the Dependencies { } from there into such a function"
      ))
  }

  /// A main-actor module registered elsewhere than `main.swift` gets the general hint only.
  @Test func theMainSwiftHintIsOnlyForMainSwift() async {
    let dependencies = await registerOnTheMainActor(fileID: "Server/Launch.swift")
    do {
      _ = try await resolveOffTheMainActor(from: dependencies)
      Issue.record("a main-actor module resolved off the main actor")
    } catch {
      #expect(error.description.contains("register it from nonisolated code"))
      #expect(!error.description.contains("main.swift"))
    }
  }

  /// A nonisolated module whose factory asks for a main-actor one is where to change: the
  /// message names it, and says to register it on the main actor too, or await the other.
  @Test func aNonisolatedFactoryAskingForAMainActorModuleIsNamed() async {
    let registeredAt = #line + 2
    let dependencies = Dependencies(over: await registerOnTheMainActor(fileID: "App/Root.swift")) {
      Module { () throws -> OtherService in
        _ = try Dependencies.resolveOrThrow(Service.self)
        return OtherServiceImpl()
      }
    }
    let error = await resolutionErrorOffTheMainActor { () throws(ResolutionError) in
      try dependencies.resolveOrThrow(OtherService.self)
    }
    #expect(
      error?.description.contains(
        "  it was asked for off the main actor while OtherService, registered at ShankTests/ServerRegistrationTests.swift:\(registeredAt), was being made: register what asked for it from code isolated to MainActor too, or, if it is Sendable, have it resolve from async code with await Dependencies.resolveAsync(Service.self)"
      ) == true, "\(String(describing: error))")
  }

  /// A nonisolated decorator that asks for a main-actor module, or for a list of main-actor
  /// contributions, is what asked, at its own line, not the module it decorates.
  @Test(arguments: [false, true])
  func aNonisolatedDecoratorAskingForAMainActorModuleIsNamed(asAList: Bool) async {
    let decoratorLine = #line + 4
    let registered = await registerOnTheMainActor(fileID: "App/Root.swift", contributing: asAList)
    let dependencies = Dependencies(over: registered) {
      Module { OtherServiceImpl() as OtherService }
      Module.decorating(OtherService.self) { other -> OtherService in
        _ =
          try asAList
          ? Dependencies.resolveOrThrow([Service].self) : [Dependencies.resolveOrThrow()]
        return other
      }
    }
    let error = await resolutionErrorOffTheMainActor { () throws(ResolutionError) in
      try dependencies.resolveOrThrow(OtherService.self)
    }
    #expect(
      error?.description.contains(
        "  it was asked for off the main actor while a decorator of OtherService, registered at ShankTests/ServerRegistrationTests.swift:\(decoratorLine), was decorating it: register what asked for it"
      ) == true, "\(String(describing: error))")
  }

  /// A main-actor decorator applied off the main actor: it wraps what is being made, and no
  /// module asked for it, so the message names none.
  @Test func aMainActorDecoratorOffTheMainActorNamesNoModuleAsAsking() async {
    let decorators = await mainActorDecorators()
    let dependencies = Dependencies {
      Module { ServiceImpl() as Service }
      decorators
    }
    let askedLine = #line + 2
    let error = await resolutionErrorOffTheMainActor { () throws(ResolutionError) in
      try dependencies.resolveOrThrow(Service.self)
    }
    let file = "ShankTests/ServerRegistrationTests.swift"
    #expect(
      error?.description == """
        Shank cannot resolve Service off the main actor
          asked for at \(file):\(askedLine)
          its decorator was registered at \(file):\(mainActorDecoratorLine) from code isolated to MainActor, so it runs only there
          resolve it on the main actor, or, if it is Sendable, from async code with Dependencies.resolveAsync(Service.self)
          or, if its decorator needs no main actor, register it from nonisolated code, such as a `nonisolated static func make() -> Dependencies` of an enum of yours
        """)
  }

  /// What a request thread does with a module registered from `main.swift`: `resolve()` stops
  /// the program, and its message says where to register instead.
  @Test func resolvingOnARequestThreadStopsWithTheHint() async {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let dependencies = await registerAsMainSwiftDoes()
      dependencies.build()
      _ = await resolveFromRootOffTheMainActor()
    }
    let message = standardError(of: result)
    #expect(message.contains("Shank cannot resolve Service off the main actor"))
    #expect(message.contains("register it from nonisolated code"))
    #expect(message.contains("if that is the top-level code of main.swift, it is main-actor code"))
  }
}

/// A server's composition root, written as one: a static function, nonisolated.
private enum ServerDependencies {
  static func make() -> Dependencies {
    Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
  }
}

/// Registers as the top-level code of `Server/main.swift` would: on the main actor.
@MainActor
private func registerAsMainSwiftDoes() -> Dependencies {
  registerOnTheMainActor(fileID: "Server/main.swift", line: 7)
}

/// Registers one singleton from main-actor code, as if at `fileID`.
@MainActor
private func registerOnTheMainActor(
  fileID: StaticString, line: UInt = 1, contributing: Bool = false
) -> Dependencies {
  Dependencies {
    if contributing {
      Module.contribution(fileID: fileID, line: line) { ServiceImpl() as Service }
    } else {
      Module(scope: .singleton, fileID: fileID, line: line) { ServiceImpl() as Service }
    }
  }
}

/// Resolves `Service` on the global executor, as a request handler on a NIO thread does.
@concurrent
private func resolveOffTheMainActor(from dependencies: Dependencies) async throws(ResolutionError)
  -> String
{
  "\(type(of: try dependencies.resolveOrThrow(Service.self)))"
}

/// Resolves `Service` from the root on the global executor, with `resolve()`, which traps.
@concurrent
private func resolveFromRootOffTheMainActor() async -> String {
  "\(type(of: Dependencies.resolve(Service.self)))"
}

/// A decorator of `Service` registered from main-actor code.
@MainActor
private func mainActorDecorators() -> [Module] {
  [Module.decorating(Service.self) { $0 }]
}
private let mainActorDecoratorLine = #line - 2

/// What `body` throws, run on the global executor.
@concurrent
private func resolutionErrorOffTheMainActor<T>(
  _ body: @Sendable () throws(ResolutionError) -> T
) async -> ResolutionError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}
