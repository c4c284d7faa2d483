import Shank
import Testing

/// `@Inject`: resolution on first read, the per-property cache, the setter, optionals, names,
/// and every kind of enclosing type. Every test layers its modules with `withOverrides`.
@Suite struct InjectTests {
  @Test func resolvesOnFirstReadNotWhenDeclared() {
    let made = Counter()
    Dependencies.withOverrides {
      countedService(by: made)
    } operation: {
      let holder = ServiceHolder()
      #expect(made.value == 0)
      _ = holder.service
      #expect(made.value == 1)
    }
  }

  @Test func cachesPerPropertySoTheFactoryRunsOncePerProperty() {
    let made = Counter()
    Dependencies.withOverrides {
      countedService(by: made)
    } operation: {
      let holder = TwoServiceHolder()
      let first = holder.first
      let second = holder.second
      #expect(holder.first === first)
      #expect(holder.first === first)
      #expect(holder.second === second)
      #expect(first !== second, "each property resolves for itself")
      #expect(made.value == 2)
    }
  }

  @Test func eachInstanceOfTheEnclosingTypeResolvesForItself() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      #expect(ServiceHolder().service !== ServiceHolder().service)
    }
  }

  @Test func namedInjectReadsTheNamedModule() {
    Dependencies.withOverrides {
      Module { SampleModule() as SampleModuleType }
      Module("abc") { SampleModule(value: "123") as SampleModuleType }
    } operation: {
      let holder = SampleHolder()
      #expect(holder.unnamed.test() == "SampleModule.test()")
      #expect(holder.named.test() == "SampleModule.test()123")
    }
  }

  @Test func optionalIsNilWhenAbsent() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = OptionalHolder()
      #expect(holder.absent == nil)
      #expect(holder.absent == nil, "a nil is cached like any other value")
      #expect(holder.namedService == nil, "the unnamed module does not answer for a name")
    }
  }

  @Test func optionalIsTheModuleWhenPresent() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
      Module("named") { ServiceImpl() as Service }
    } operation: {
      let holder = OptionalHolder()
      let service = holder.service
      #expect(service != nil)
      #expect(holder.service === service)
      #expect(holder.namedService != nil)
      #expect(holder.namedService !== service)
    }
  }

  @Test func setterReplacesTheCachedValueForThatPropertyOnly() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = TwoServiceHolder()
      let resolved = holder.first
      let replacement = ServiceImpl()
      holder.first = replacement
      #expect(holder.first === replacement)
      #expect(holder.first !== resolved)
      #expect(holder.second !== replacement)
      #expect(holder.second !== resolved)
    }
  }

  @Test func setterBeforeTheFirstReadSkipsResolution() {
    let made = Counter()
    Dependencies.withOverrides {
      countedService(by: made)
    } operation: {
      let holder = ServiceHolder()
      let replacement = ServiceImpl()
      holder.service = replacement
      #expect(holder.service === replacement)
      #expect(made.value == 0)
    }
  }

  @Test func setterOnAStructCopyLeavesTheOriginalAlone() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let original = ServiceStruct()
      let resolved = original.service
      var copy = original
      let replacement = ServiceImpl()
      copy.service = replacement
      #expect(copy.service === replacement)
      #expect(original.service === resolved)
    }
  }

  @Test func keepsTheValueItReadAfterTheOverrideEnds() {
    let holder = ServiceHolder()
    let read = Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      holder.service
    }
    #expect(holder.service === read)
  }

  @Test func readsTheInnermostOverride() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      Dependencies.withOverrides {
        Module(scope: .singleton) { ServiceImpl() as Service }
      } operation: {
        let holder = ServiceHolder()
        #expect(holder.service === Dependencies.resolve(Service.self))
      }
    }
  }

  // MARK: Enclosing types

  @Test func worksInAStruct() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = ServiceStruct()
      #expect(holder.service === holder.service)
    }
  }

  @Test func worksInAClass() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = ServiceHolder()
      #expect(holder.service === holder.service)
    }
  }

  @Test func worksInAnActor() async {
    let made = Counter()
    await Dependencies.withOverrides {
      countedService(by: made)
    } operation: {
      let holder = ServiceActor()
      let first = await holder.serial()
      let second = await holder.serial()
      #expect(first == second)
      #expect(made.value == 1)
    }
  }

  @MainActor
  @Test func worksInAMainActorClass() {
    Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = MainActorServiceHolder()
      #expect(holder.service === holder.service)
    }
  }

  @MainActor
  @Test func worksInAMainActorClassFromAsyncCode() async {
    await Dependencies.withOverrides {
      Module { ServiceImpl() as Service }
    } operation: {
      let holder = MainActorServiceHolder()
      await Task.yield()
      #expect(holder.service === holder.service)
    }
  }
}

// MARK: - Fixtures

final class ServiceHolder {
  @Inject var service: Service
}

final class TwoServiceHolder {
  @Inject var first: Service
  @Inject var second: Service
}

struct ServiceStruct {
  @Inject var service: Service
}

final class SampleHolder {
  @Inject var unnamed: SampleModuleType
  @Inject("abc") var named: SampleModuleType
}

final class OptionalHolder {
  @Inject var absent: NeverRegistered?
  @Inject var service: Service?
  @Inject("named") var namedService: Service?
}

actor ServiceActor {
  @Inject private var service: Service

  func serial() -> Int { service.serial }
}

@MainActor
final class MainActorServiceHolder {
  @Inject var service: Service
}
