import Dispatch
import Foundation
import Shank
import Testing

/// Child containers, `close()`, `withScope` and `onClose`.
@Suite struct LifetimeTests {
  @Test func aChildResolvesItsOwnModulesAndFallsThroughToItsParent() {
    let parent = Dependencies {
      Module(scope: .singleton) { ServiceImpl() as Service }
      Module { SampleModule(value: "parent") as SampleModuleType }
    }
    let first = Dependencies(over: parent) {
      Module(scope: .singleton) { OtherServiceImpl() as OtherService }
      Module { SampleModule(value: "child") as SampleModuleType }
    }
    let second = Dependencies(over: parent) {
      Module(scope: .singleton) { OtherServiceImpl() as OtherService }
    }
    #expect(first.resolve(SampleModuleType.self).test() == "SampleModule.test()child")
    #expect(second.resolve(SampleModuleType.self).test() == "SampleModule.test()parent")
    #expect(first.resolve(Service.self) === parent.resolve(Service.self))
    #expect(second.resolve(Service.self) === parent.resolve(Service.self))
    #expect(first.resolve(OtherService.self) === first.resolve(OtherService.self))
    #expect(first.resolve(OtherService.self) !== second.resolve(OtherService.self))
    #expect(parent.resolve(OtherService?.self) == nil)
  }

  /// A child's `.singleton` and `.cached` instances are its own: two children of one parent,
  /// given the same modules, each make theirs, and each close disposes of its own only.
  @Test func eachChildKeepsItsOwnSharedInstancesAndDisposesOfThemAtItsClose() async {
    let disposed = Collector<Int>()
    let parent = Dependencies {}
    func child() -> Dependencies {
      Dependencies(over: parent) {
        Module("one", scope: .singleton, onClose: { disposed.append($0.serial) }) {
          ServiceImpl() as Service
        }
        Module("cached", scope: .cached("session"), onClose: { disposed.append($0.serial) }) {
          ServiceImpl() as Service
        }
      }
    }
    let first = child()
    let second = child()
    func kept(by child: Dependencies) -> Set<Int> {
      let made = ["one", "cached"].map { child.resolve(Service.self, name: $0).serial }
      #expect(["one", "cached"].map { child.resolve(Service.self, name: $0).serial } == made)
      return Set(made)
    }
    let firstKept = kept(by: first)
    let secondKept = kept(by: second)
    #expect(firstKept.count == 2)
    #expect(firstKept.isDisjoint(with: secondKept))
    await first.close()
    #expect(Set(disposed.all) == firstKept)
    await second.close()
    #expect(Set(disposed.all) == firstKept.union(secondKept))
    #expect(disposed.all.count == 4)
  }

  @Test func closeRunsEveryHandlerOnceNewestInstanceFirst() async {
    let closed = Collector<String>()
    let session = Dependencies {
      Module("a", scope: .singleton, onClose: { _ in closed.append("a") }) {
        ServiceImpl() as Service
      }
      Module("b", scope: .cached("session"), onClose: { _ in closed.append("b") }) {
        ServiceImpl() as Service
      }
      Module("c", scope: .singleton, onClose: { _ in closed.append("c") }) {
        ServiceImpl() as Service
      }
      Module("unused", scope: .singleton, onClose: { _ in closed.append("unused") }) {
        ServiceImpl() as Service
      }
    }
    _ = session.resolve(Service.self, name: "c")
    _ = session.resolve(Service.self, name: "a")
    _ = session.resolve(Service.self, name: "b")
    await session.close()
    #expect(closed.all == ["b", "a", "c"])
    await session.close()
    #expect(closed.all == ["b", "a", "c"], "closing again runs nothing")
    #expect(session.isClosed)
  }

  @Test func everyCloseReturnsOnlyOnceTheHandlersHaveRun() async {
    let finished = Counter()
    let container = Dependencies {
      Module(
        scope: .singleton,
        onClose: { _ in
          try? await Task.sleep(nanoseconds: 50_000_000)
          finished.increment()
        }
      ) { ServiceImpl() as Service }
    }
    _ = container.resolve(Service.self)
    await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          await container.close()
          return finished.value
        }
      }
      for await seen in group { #expect(seen == 1) }
    }
    #expect(finished.value == 1)
  }

  /// A ring of containers, each of whose handlers closes the next, every one closed by a task
  /// of its own at the same time: two that close each other, and three in a ring.
  @Test(arguments: [2, 3], 1...10)
  func containersWhoseHandlersCloseEachOtherCloseWhenClosedByTasksAtOnce(count: Int, round: Int)
    async
  {
    let entered = Counter()
    let finished = Collector<Int>()
    let returned = Collector<String>()
    let ring = (0..<count).map { _ in ClosingContainerBox() }
    for (index, box) in ring.enumerated() {
      let next = ring[(index + 1) % count]
      box.value = Dependencies {
        Module(
          scope: .singleton,
          onClose: { _ in
            entered.increment()
            // Every run has begun before any handler closes the next container.
            await eventually { entered.value == count }
            await next.value?.close()
            finished.append(index)
          }
        ) { ServiceImpl() as Service }
      }
      _ = box.value?.resolve(Service.self)
    }
    // Watched rather than awaited: closes that waited for each other would hang the suite.
    for (index, box) in ring.enumerated() {
      Task {
        await box.value?.close()
        returned.append("\(index): handler finished \(finished.all.contains(index))")
      }
    }
    await eventually { returned.all.count == count }
    #expect(
      Set(returned.all) == Set((0..<count).map { "\($0): handler finished true" }),
      "\(count) containers, round \(round): each close returns, after its own handler ran")
  }

  @Test func aHandlerRunsToItsEndWhenTheClosingTaskIsCancelled() async {
    let sawCancellation = Collector<Bool>()
    let task = Task {
      await Dependencies.withScope {
        Module(
          scope: .singleton,
          onClose: { _ in sawCancellation.append(Task.isCancelled) }
        ) { ServiceImpl() as Service }
      } operation: {
        _ = Dependencies.resolve(Service.self)
        withUnsafeCurrentTask { $0?.cancel() }
      }
    }
    await task.value
    #expect(sawCancellation.all == [false])
  }

  @Test func resolvingWhileAScopeClosesGivesTheInstanceOrSaysItClosed() async {
    let made = Counter()
    let closed = Counter()
    let failures = Collector<String>()
    for _ in 0..<50 {
      let scope = Dependencies(over: Dependencies {}) {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) { () -> Service in
          made.increment()
          return ServiceImpl()
        }
      }
      async let closing: Void = scope.close()
      let finished = await onThreads(3) { _ in
        for _ in 0..<100 {
          do throws(ResolutionError) {
            _ = try scope.resolveOrThrow(Service.self)
          } catch {
            guard case .closed = error.reason else { return failures.append(error.description) }
          }
        }
      }
      await closing
      #expect(finished)
    }
    await eventually { closed.value == made.value }
    #expect(failures.all.isEmpty)
    #expect(closed.value == made.value, "every instance made was disposed of once")
  }

  @Test func aHandlerReceivesTheInstanceItsContainerKept() async {
    let received = Collector<ObjectIdentifier>()
    let container = Dependencies {
      Module(scope: .singleton, onClose: { received.append(ObjectIdentifier($0)) }) {
        ServiceImpl() as Service
      }
    }
    let service = container.resolve(Service.self)
    await container.close()
    #expect(received.all == [ObjectIdentifier(service)])
  }

  @Test func anAliasedInstanceIsDisposedOfOnce() async {
    let closed = Counter()
    let container = Dependencies {
      Module(
        scope: .singleton, as: Service.self, OtherService.self, onClose: { _ in closed.increment() }
      ) {
        AliasedServices()
      }
    }
    _ = container.resolve(Service.self)
    _ = container.resolve(OtherService.self)
    await container.close()
    #expect(closed.value == 1)
  }

  @Test func resolvingFromAClosedContainerThrowsSayingWhereItWasMade() async throws {
    let session = Dependencies(over: Dependencies {}) {
      Module { ServiceImpl() as Service }
    }
    let madeAt = #line - 3
    await session.close()
    let error = try #require(resolutionError { try session.resolveOrThrow(Service.self) })
    let askedAt = #line - 1
    #expect(error.reason == .closed(container: "made at ShankTests/LifetimeTests.swift:\(madeAt)"))
    #expect(
      error.description == """
        Shank cannot resolve Service: its container was closed (made at ShankTests/LifetimeTests.swift:\(madeAt))
          asked for at ShankTests/LifetimeTests.swift:\(askedAt)
          resolve from a container that is still open; an instance kept from before it closed stays usable
        """)
    #expect(resolutionError { try session.resolveOrThrow(Service?.self) }?.reason == error.reason)
  }

  @Test func aChildOfAClosedContainerSaysItClosedForTheParentsOwnModules() async throws {
    let parent = Dependencies { Module { ServiceImpl() as Service } }
    let parentLine = #line - 1
    let child = Dependencies(over: parent) { Module { OtherServiceImpl() as OtherService } }
    await parent.close()
    #expect(child.resolve(OtherService.self) is OtherServiceImpl, "its own modules still resolve")
    let error = try #require(resolutionError { try child.resolveOrThrow(Service.self) })
    #expect(
      error.reason
        == .closed(
          container:
            "a container it falls through to, made at ShankTests/LifetimeTests.swift:\(parentLine)"
        ))
  }

  @Test func anInstanceHeldWhenItsScopeClosesStaysUsable() async {
    let session = Dependencies { Module(scope: .singleton) { ServiceImpl() as Service } }
    let held = session.resolve(Service.self)
    let serial = (held as! ServiceImpl).serial
    await session.close()
    #expect((held as! ServiceImpl).serial == serial)
  }

  @Test func aContainerFreedWithoutCloseStillRunsItsHandlers() async {
    let closed = Counter()
    weak var released: Service?
    do {
      let container = Dependencies {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) { ServiceImpl() as Service }
      }
      released = container.resolve(Service.self)
    }
    await eventually { closed.value == 1 }
    #expect(closed.value == 1)
    await eventually { released == nil }
    #expect(released == nil, "the instance is freed once its handler ran")
  }

  @Test func anInstanceKeptAfterCloseBeganIsDisposedOfAtOnce() async {
    let closed = Counter()
    let started = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    let container = Dependencies {
      Module(scope: .singleton, onClose: { _ in closed.increment() }) { () -> Service in
        started.signal()
        proceed.wait()
        return ServiceImpl()
      }
    }
    let resolving = Thread { _ = container.resolve(Service.self) }
    resolving.start()
    started.wait()
    await container.close()
    proceed.signal()
    await eventually { closed.value == 1 }
    #expect(closed.value == 1)
  }

  @Test func withScopeResolvesItsModulesOverCurrentAndClosesWhenTheOperationEnds() async {
    let closed = Counter()
    await Dependencies.withOverrides {
      Module { SampleModule(value: "parent") as SampleModuleType }
    } operation: {
      let (inside, fromChildTask) = await Dependencies.withScope {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) { ServiceImpl() as Service }
      } operation: {
        async let child = Dependencies.resolve(Service.self)
        let here = Dependencies.resolve(Service.self)
        #expect(Dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()parent")
        #expect(closed.value == 0)
        return (here, await child)
      }
      #expect(inside === fromChildTask, "child tasks see the scope")
      #expect(closed.value == 1, "the scope was closed before withScope returned")
      #expect(Dependencies.resolve(Service?.self) == nil)
    }
  }

  @Test func withScopeClosesWhenTheOperationThrows() async {
    let closed = Counter()
    await #expect(throws: ScopeFailure.self) {
      try await Dependencies.withScope {
        Module(scope: .singleton, onClose: { _ in closed.increment() }) { ServiceImpl() as Service }
      } operation: {
        _ = Dependencies.resolve(Service.self)
        throw ScopeFailure()
      }
    }
    #expect(closed.value == 1)
  }

  @Test func aTaskThatOutlivesItsScopeFindsItClosed() async throws {
    let escaped = await Dependencies.withScope {
      Module { ServiceImpl() as Service }
    } operation: {
      Task {
        try await Task.sleep(nanoseconds: 20_000_000)
        return resolutionError { try Dependencies.resolveOrThrow(Service.self) }
      }
    }
    let error = try await escaped.value
    guard case .closed = error?.reason else {
      Issue.record("expected a closed-container error, got \(String(describing: error))")
      return
    }
  }

  @Test func overridesLayerOverAScope() async {
    await Dependencies.withScope {
      Module { SampleModule(value: "scope") as SampleModuleType }
      Module(scope: .singleton) { ServiceImpl() as Service }
    } operation: {
      let scoped = Dependencies.resolve(Service.self)
      Dependencies.withOverrides {
        Module { SampleModule(value: "mock") as SampleModuleType }
      } operation: {
        #expect(Dependencies.resolve(SampleModuleType.self).test() == "SampleModule.test()mock")
        #expect(Dependencies.resolve(Service.self) === scoped)
      }
    }
  }

  /// A handler that closes its own container, or starts a task that does, gets that close back
  /// at once.
  @Test(arguments: [false, true])
  func aHandlerThatClosesItsOwnContainerDoesNotWaitForItself(inATaskItStarts: Bool) async {
    let finished = Counter()
    let container = ClosingContainerBox()
    container.value = Dependencies {
      Module(
        scope: .singleton,
        onClose: { _ in
          if inATaskItStarts {
            await Task { await container.value?.close() }.value
          } else {
            await container.value?.close()
          }
          finished.increment()
        }
      ) { ServiceImpl() as Service }
    }
    _ = container.value?.resolve(Service.self)
    // Watched rather than awaited: a close that waited for itself would hang the suite.
    Task { await container.value?.close() }
    await eventually { finished.value == 1 }
    #expect(finished.value == 1)
  }

  /// The handlers that nothing awaits, a freed container's and a synchronous reset's, run on a
  /// task of their own off the main thread, even when the main actor lets go of the instance.
  @Test(arguments: [false, true])
  func handlersNothingAwaitsRunOffTheMainThread(byAReset: Bool) async {
    let onMainThread = Collector<Bool>()
    await MainActor.run {
      let container = containerRecordingWhereItsHandlerRuns(onMainThread)
      _ = container.resolve(Service.self)
      if byAReset { resetWithoutWaiting(container, .cached("recorded")) }
    }
    await eventually { !onMainThread.all.isEmpty }
    #expect(onMainThread.all == [false])
  }

  @Test func containersWhoseHandlersCloseEachOtherBothClose() async {
    let finished = Counter()
    let first = ClosingContainerBox()
    let second = ClosingContainerBox()
    func closing(_ other: ClosingContainerBox) -> Dependencies {
      Dependencies {
        Module(
          scope: .singleton,
          onClose: { _ in
            await other.value?.close()
            finished.increment()
          }
        ) { ServiceImpl() as Service }
      }
    }
    first.value = closing(second)
    second.value = closing(first)
    _ = first.value?.resolve(Service.self)
    _ = second.value?.resolve(Service.self)
    Task { await first.value?.close() }
    await eventually { finished.value == 2 }
    #expect(finished.value == 2)
  }

  @Test func aHandlerSeesNoScopeOrOverrideOfWhoeverDroppedItsInstance() async {
    let seen = Collector<String>()
    await Dependencies.withScope {
      Module { SampleModule(value: "scope") as SampleModuleType }
    } operation: {
      let screen = Dependencies {
        Module(
          scope: .cached("screen"),
          onClose: { _ in
            try? await Task.sleep(nanoseconds: 20_000_000)
            seen.append(Dependencies.resolve(SampleModuleType?.self)?.test() ?? "nothing")
          }
        ) { ServiceImpl() as Service }
      }
      _ = screen.resolve(Service.self)
      resetWithoutWaiting(screen, .cached("screen"))
    }
    await eventually { !seen.all.isEmpty }
    #expect(seen.all == ["nothing"], "the closed scope is not current in the handler")
  }

  @Test func closingTheStandInBeforeAnythingIsBuiltDoesNothing() async {
    await #expect(processExitsWith: .success) {
      await Dependencies.current.close()
      precondition(Dependencies.resolve(Service?.self) == nil)
    }
  }
}

/// An instance whose making container is gone.
@Suite struct ReleasedContainerTests {
  @Test func anInjectReadAfterItsContainerWasReleasedSaysWhereThatContainerWasMade() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      // The root could answer; the instance's own container, whose graph it belongs to, cannot.
      Dependencies { Module { ServiceImpl() as Service } }.build()
      _ = holderFromAReleasedContainer().service
    }
    let stderr = standardError(of: result)
    let fileID = "ShankTests/LifetimeTests.swift"
    #expect(
      stderr.contains(
        """
        Shank cannot resolve Service: the container that made the instance holding it was released (made at \(fileID):\(releasedContainerLine))
          asked for at \(fileID):\(lazyServiceLine)
          keep that container for as long as what it made is in use, or read the property while it is
        """), "\(stderr)")
  }
}

extension ReleasedContainerTests {
  /// An override layer, which a test or a preview makes, says where it was made too.
  @Test func anInjectReadAfterItsOverrideLayerWasReleasedSaysWhereThatLayerWasMade() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      _ = holderFromAReleasedOverrideLayer().service
    }
    #expect(
      standardError(of: result).contains(
        "Shank cannot resolve Service: the container that made the instance holding it was released (an override layer made at ShankTests/LifetimeTests.swift:\(releasedLayerLine))\n"
      ), "\(standardError(of: result))")
  }

  /// `withScope` closes its container and lets it go: an instance it made and someone holds
  /// reads the keys the scope does not register from the container under it.
  @Test func aScopesInstanceReadsTheContainerUnderItAfterTheScopeEnds() async {
    let service = ServiceImpl()
    await Dependencies.withOverrides {
      Module { service as Service }
    } operation: {
      let holder = await Dependencies.withScope {
        Module { LazyServiceHolder() }
      } operation: {
        Dependencies.resolve(LazyServiceHolder.self)
      }
      #expect(holder.service === service)
    }
  }

  /// So does one made by a child that was closed and let go, as the Lifetimes article advises.
  @Test func aClosedChildsInstanceReadsItsParentAfterTheChildIsReleased() async {
    let parent = Dependencies { Module { ServiceImpl() as Service } }
    weak var released: Dependencies?
    let holder = await { () async -> LazyServiceHolder in
      let child = Dependencies(over: parent) { Module { LazyServiceHolder() } }
      released = child
      let holder: LazyServiceHolder = child.resolve()
      await child.close()
      return holder
    }()
    #expect(released == nil)
    #expect(holder.service is ServiceImpl)
  }

  /// A `[String: P]` its closed or released maker adds nothing to, having only unnamed
  /// contributions, is no key of the maker's: the first read resolves it underneath.
  @Test(arguments: [false, true])
  func aDictionaryTheMakerAddsNothingToResolvesUnderneathOnceItIsGone(released: Bool) async {
    let root = Dependencies { Module.contribution("x") { Sink("root x") as SinkType } }
    var session: Dependencies? = Dependencies(over: root) {
      Module.contribution { Sink("session") as SinkType }
      Module { NamedSinkReader() }
    }
    weak let made = session
    let reader: NamedSinkReader = session!.resolve()
    if released { session = nil } else { await session?.close() }
    #expect((made == nil) == released)
    #expect(reader.labels == ["x": "root x"])
    withExtendedLifetime(session) {}
  }

  /// The instance does not keep the container under its maker alive: a module of that
  /// container holding the instance would otherwise never be freed with it.
  @Test func aParentWhoseModuleHoldsItsChildsInstanceIsFreed() async {
    weak var released: Dependencies?
    do {
      let parent = Dependencies {
        Module { ServiceImpl() as Service }
        Module(scope: .singleton) { HolderKeeper() }
      }
      released = parent
      let child = Dependencies(over: parent) { Module { LazyServiceHolder() } }
      let keeper: HolderKeeper = parent.resolve()
      keeper.holder = child.resolve()
    }
    #expect(released == nil)
  }

  /// A key the released child registers itself stops the read, though its parent has one.
  /// Read as an optional too: `Service?` resolves the `Service` the child registers.
  @Test(arguments: [false, true])
  func aKeyTheReleasedChildRegistersStopsTheRead(asOptional: Bool) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    { [asOptional] in
      let parent = Dependencies { Module { ServiceImpl() as Service } }
      let holder = holderFromAReleasedContainer(over: parent)
      _ = asOptional ? holder.optionalService : holder.service
    }
    let fileID = "ShankTests/LifetimeTests.swift"
    let key = asOptional ? "Optional<Service>" : "Service"
    #expect(
      standardError(of: result).contains(
        "Shank cannot resolve \(key): the container that made the instance holding it was released (made at \(fileID):\(releasedContainerLine))"
      ), "\(standardError(of: result))")
  }

  /// Once the container underneath is released too, a key only it registered stops the read,
  /// naming the maker: the built root, which registers the key too, is not asked instead.
  @Test func aKeyOnlyTheReleasedParentRegistersStopsTheRead() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent])
    {
      Dependencies { Module { ServiceImpl() as Service } }.build()
      _ = holderFromAReleasedChildAndParent().service
    }
    #expect(
      standardError(of: result).contains(
        "Shank cannot resolve Service: the container that made the instance holding it was released (made at ShankTests/LifetimeTests.swift:\(releasedChildLine))"
      ), "\(standardError(of: result))")
  }
}

/// A module that keeps a holder made elsewhere.
final class HolderKeeper {
  var holder: LazyServiceHolder?
}

/// Reads its service only when asked.
final class LazyServiceHolder {
  @Inject var service: Service
  @Inject var optionalService: Service?
}
let lazyServiceLine = #line - 3

/// A holder made by a container, over `parent` if given, that nothing holds once this
/// returns; the container registers `Service` too.
func holderFromAReleasedContainer(over parent: Dependencies? = nil) -> LazyServiceHolder {
  let modules = [Module { ServiceImpl() as Service }, Module { LazyServiceHolder() }]
  let container = parent.map { Dependencies(over: $0) { modules } } ?? Dependencies { modules }
  return container.resolve()
}
let releasedContainerLine = #line - 3

/// A holder made by a child over a parent that registers `Service`, both released once this
/// returns.
func holderFromAReleasedChildAndParent() -> LazyServiceHolder {
  let parent = Dependencies { Module { ServiceImpl() as Service } }
  let child = Dependencies(over: parent) { Module { LazyServiceHolder() } }
  return child.resolve()
}
let releasedChildLine = #line - 3

/// A holder made by an override layer, which is released once this returns.
func holderFromAReleasedOverrideLayer() -> LazyServiceHolder {
  Dependencies.withOverrides {
    Module { ServiceImpl() as Service }
    Module(scope: .singleton) { LazyServiceHolder() }
  } operation: {
    Dependencies.resolve(LazyServiceHolder.self)
  }
}
let releasedLayerLine = #line - 7

/// Replacing the root, each test in a child process so that no other test sees its roots.
@Suite struct RootReplacementTests {
  @Test func rebuildingTheRootTenThousandTimesKeepsFilesAndMemoryFlat() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let closed = Counter()
      func rebuild() {
        Dependencies {
          Module(
            scope: .singleton,
            onClose: {
              $0.close()
              closed.increment()
            }
          ) {
            OpenResource() as OpenResource
          }
        }.build()
        precondition(Dependencies.resolve(OpenResource.self).isOpen)
      }
      for _ in 0..<100 { rebuild() }  // warm-up: allocator arenas, the first tasks
      await eventually(timeout: 20) { closed.value == 99 }
      let files = openFileCount()
      let resident = residentBytes()
      // AddressSanitizer keeps freed memory in quarantine, 256 MiB of it by default.
      let allowance = (isUnderAddressSanitizer ? 256 + 64 : 64) << 20
      for round in 1...10_000 {
        rebuild()
        // Checked as it goes, so that a leak fails the test long before it fills the machine,
        // once the handlers, which run on tasks of their own, have caught up.
        guard round.isMultiple(of: 500) else { continue }
        await eventually(timeout: 20) { closed.value == 99 + round }
        let grown = residentBytes() - resident
        precondition(grown < allowance, "resident memory grew by \(grown) bytes in \(round) roots")
        precondition(
          openFileCount() <= files + 1, "open files grew from \(files) to \(openFileCount())")
      }
      await eventually(timeout: 60) { closed.value == 10_099 }
      precondition(
        closed.value == 10_099, "every replaced root's handler ran once: \(closed.value)")
      precondition(
        openFileCount() <= files + 1, "open files grew from \(files) to \(openFileCount())")
    }
    #expect(standardError(of: result) == "")
  }

  @Test func resolvingWhileRootsAreReplacedReadsOnlyLiveRoots() async throws {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) {
      let made = Counter()
      let closed = Counter()
      @Sendable func root() -> Dependencies {
        Dependencies {
          Module(
            scope: .singleton,
            onClose: { service in
              precondition(!service.isDisposed)
              service.isDisposed = true
              closed.increment()
            }
          ) { () -> DisposableService in
            made.increment()
            return DisposableService()
          }
        }
      }
      root().build()
      let finished = await onThreads(4) { index in
        for round in 0..<2_000 {
          if index == 0 {
            guard round.isMultiple(of: 4) else { continue }
            root().build()
            _ = Dependencies.resolve(DisposableService.self)
          } else {
            let service = Dependencies.resolve(DisposableService.self)
            _ = service.serial
          }
        }
      }
      precondition(finished)
      // The last root makes nothing, so every instance made belongs to a replaced root.
      root().build()
      await eventually(timeout: 20) { closed.value == made.value }
      precondition(closed.value == made.value, "made \(made.value), disposed of \(closed.value)")
    }
    #expect(standardError(of: result) == "")
  }

  /// The static forms borrow the built root; a failed resolution must put the hazard slot back,
  /// so that a root built afterwards frees the one before.
  @Test func aRootIsFreedAfterStaticResolutionsThatFailedAndThatSucceeded() async {
    await #expect(processExitsWith: .success) {
      weak var weakRoot: Dependencies?
      do {
        let root = Dependencies {
          Module { PlainText("x") as TextType }
          Module.decorating(TextType.self) { $0 }
        }
        weakRoot = root
        root.build()
      }
      let observation = Dependencies.observe { _ in }
      _ = Dependencies.resolve(TextType.self)
      _ = try? Dependencies.resolveOrThrow(NeverRegistered.self)
      _ = try? Dependencies.resolveOrThrow(TextType.self, name: "missing")
      observation.cancel()
      _ = Dependencies.resolve(TextType.self)
      _ = try? Dependencies.resolveOrThrow(NeverRegistered.self)
      Dependencies {}.build()
      precondition(weakRoot == nil, "the replaced root was not freed")
    }
  }

  @Test func aReplacedRootIsFreedOnceItsLastReaderIsDoneWithoutAnotherResolution() async {
    await #expect(processExitsWith: .success) {
      let inFactory = DispatchSemaphore(value: 0)
      let proceed = DispatchSemaphore(value: 0)
      weak var replaced: Dependencies?
      do {
        let first = Dependencies {
          Module("slow") { () -> Service in
            inFactory.signal()
            proceed.wait()
            return ServiceImpl()
          }
        }
        first.build()
        replaced = first
      }
      let reader = Thread { _ = Dependencies.resolve(Service.self, name: "slow") }
      reader.start()
      inFactory.wait()
      Dependencies {}.build()
      // Long enough for the task that frees it to look several times.
      try? await Task.sleep(for: .milliseconds(50))
      precondition(replaced != nil, "kept while the factory still reads it")
      proceed.signal()
      await eventually { replaced == nil }
      precondition(replaced == nil, "freed once the reader finished, with no resolution after")
    }
  }
}

// MARK: - Fixtures

struct ScopeFailure: Error {}

final class AliasedServices: Numbered, Service, OtherService {}

/// A service that records its disposal, to catch a handler that runs twice.
final class DisposableService: Numbered, @unchecked Sendable {
  // Written once by its one `onClose`, after every resolution that could read it.
  var isDisposed = false
}

/// A singleton that holds an open file and a mebibyte of memory, both given back by `close()`.
///
/// The mebibyte is mapped rather than allocated, so that it is resident until unmapped and no
/// allocator, nor AddressSanitizer's quarantine, keeps it after.
final class OpenResource: @unchecked Sendable {
  // Touched by its factory and then only by its one `onClose`.
  private var descriptor: Int32
  private var buffer: UnsafeMutableRawPointer?
  private static let size = 1 << 20

  init() {
    descriptor = open("/dev/null", O_RDONLY)
    let mapped = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    precondition(mapped != MAP_FAILED)
    memset(mapped!, 1, Self.size)
    buffer = mapped
  }

  var isOpen: Bool { descriptor >= 0 }

  func close() {
    _ = Foundation.close(descriptor)
    descriptor = -1
    munmap(buffer, Self.size)
    buffer = nil
  }
}

/// Whether this process runs under AddressSanitizer.
let isUnderAddressSanitizer = dlsym(dlopen(nil, RTLD_NOW), "__asan_init") != nil

/// The synchronous `reset`, which an `async` caller would otherwise not pick.
func resetWithoutWaiting(_ container: Dependencies, _ scope: Scope) {
  container.reset(scope)
}

/// How many file descriptors this process has open.
func openFileCount() -> Int {
  (0..<4096).filter { fcntl(Int32($0), F_GETFD) != -1 }.count
}

/// This process' resident memory, in bytes.
func residentBytes() -> Int {
  #if os(Linux)
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  #else
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(
      MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    _ = withUnsafeMutablePointer(to: &info) {
      $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
        task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
      }
    }
    return Int(info.resident_size)
  #endif
}

/// What ``Dependencies/verify()`` and ``Dependencies/graph()`` make of lifetimes.
@Suite struct LifetimeVerificationTests {
  @Test func verifyChecksAChildTogetherWithItsParent() throws {
    let parent = Dependencies { Module { AppModule() as AppModuleType } }
    let child = Dependencies(over: parent) { Module { WidgetModule() as WidgetModuleType } }
    try child.verify()
    let orphan = Dependencies(over: Dependencies {}) {
      Module { WidgetModule() as WidgetModuleType }
    }
    #expect(throws: VerificationError.self) { try orphan.verify() }
  }

  @Test func verifyDisposesOfTheInstancesItMadeAndLeavesTheContainersOwn() async throws {
    let closed = Counter()
    let container = Dependencies {
      Module(scope: .singleton, onClose: { _ in closed.increment() }) { ServiceImpl() as Service }
    }
    try container.verify()
    await eventually { closed.value == 1 }
    #expect(closed.value == 1, "the instance verify() made in its private copy was disposed of")
    _ = container.resolve(Service.self)
    await container.close()
    #expect(closed.value == 2)
  }

  @Test func verifyAndGraphRunTheFactoriesAgainAndDisposeOfWhatTheyMade() async throws {
    let made = Counter()
    let closed = Counter()
    let container = Dependencies {
      Module(scope: .singleton, eager: true, onClose: { _ in closed.increment() }) {
        () -> Service in
        made.increment()
        return ServiceImpl()
      }
    }
    _ = try await container.start()
    try container.verify()
    _ = container.graph()
    #expect(made.value == 3, "start(), verify() and graph() each ran the factory")
    await eventually { closed.value == 2 }
    #expect(closed.value == 2, "verify() and graph() disposed of the instances they made")
    await container.close()
    #expect(closed.value == 3)
  }

  @Test func verifyReportsAnOnCloseThatNeverRuns() throws {
    let container = Dependencies {
      Module(onClose: { _ in }) { ServiceImpl() as Service }
      Module("weak", scope: .weak, onClose: { _ in }) { ServiceImpl() as Service }
      Module("kept", scope: .singleton, onClose: { _ in }) { ServiceImpl() as Service }
    }
    let line = #line - 5
    let error = try #require(verificationError { try container.verify() })
    #expect(
      error.problems == [
        .onCloseNeverRuns(
          module: "Service", scope: ".unique",
          registeredAt: "ShankTests/LifetimeTests.swift:\(line + 1)"),
        .onCloseNeverRuns(
          module: "Service named \"weak\"", scope: ".weak",
          registeredAt: "ShankTests/LifetimeTests.swift:\(line + 2)"),
      ])
    #expect(
      error.problems[0].description
        == "Service, registered .unique at ShankTests/LifetimeTests.swift:\(line + 1), has an onClose that never runs: only .singleton and .cached instances are kept, and so disposed of"
    )
  }

  /// A closed layer that registers no module, nothing or only decorators, leaves every module
  /// resolving: nothing to report.
  @Test(arguments: [false, true])
  func verifyPassesOverAClosedLayerThatRegistersNoModule(decorators: Bool) async throws {
    let app = Dependencies { Module { ServiceImpl() as Service } }
    let emptyLayer = Dependencies(over: app) {
      if decorators { Module.decorating(Service.self) { $0 } }
    }
    let child = Dependencies(over: emptyLayer) { Module { OtherServiceImpl() as OtherService } }
    await emptyLayer.close()
    #expect(child.resolve(Service.self) is ServiceImpl)
    try child.verify()
  }

  @Test func verifyReportsAClosedContainer() async throws {
    let parent = Dependencies { Module { ServiceImpl() as Service } }
    let line = #line - 1
    let child = Dependencies(over: parent) {}
    await parent.close()
    let error = try #require(verificationError { try child.verify() })
    #expect(
      error.problems == [.closed(container: "made at ShankTests/LifetimeTests.swift:\(line)")])
    #expect(
      error.problems[0].description
        == "the container was closed (made at ShankTests/LifetimeTests.swift:\(line)): its modules no longer resolve"
    )
  }

  @Test func graphGroupsTheModulesOfEachContainerUnderneath() {
    let root = Dependencies {
      Module { AppModule() as AppModuleType }
      Module { SampleModule(value: "root") as SampleModuleType }
    }
    let session = Dependencies(over: root) {
      Module(scope: .singleton) { WidgetModule() as WidgetModuleType }
      Module { SampleModule(value: "session") as SampleModuleType }
    }
    let graph = session.graph()
    #expect(graph.nodes.map(\.layer) == [0, 0, 1])
    #expect(
      graph.mermaid == """
        flowchart LR
          WidgetModuleType["WidgetModuleType · .singleton"]
          SampleModuleType["SampleModuleType"]
          subgraph Layer1["underneath"]
            AppModuleType["AppModuleType"]
          end
          WidgetModuleType -->|app| AppModuleType

        """)
    #expect(
      graph.dot == """
        digraph Dependencies {
          rankdir=LR;
          node [shape=box];
          WidgetModuleType [label="WidgetModuleType · .singleton"];
          SampleModuleType [label="SampleModuleType"];
          subgraph cluster_1 {
            label="underneath";
            AppModuleType [label="AppModuleType"];
          }
          WidgetModuleType -> AppModuleType [label="app"];
        }

        """)
  }
}

/// The error `body` throws, or `nil`.
func verificationError(_ body: () throws -> Void) -> VerificationError? {
  do {
    try body()
    return nil
  } catch {
    return error as? VerificationError
  }
}

/// A container that handlers reach after it is made.
final class ClosingContainerBox: @unchecked Sendable {
  // Set once before any handler can run.
  var value: Dependencies?
}

/// A container registered from nonisolated code, whose `.cached("recorded")` module's `onClose`
/// records whether it ran on the main thread.
func containerRecordingWhereItsHandlerRuns(_ onMainThread: Collector<Bool>) -> Dependencies {
  Dependencies {
    Module(scope: .cached("recorded"), onClose: { _ in onMainThread.append(Thread.isMainThread) }) {
      ServiceImpl() as Service
    }
  }
}
