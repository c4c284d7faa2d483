import Shank
import Testing

/// `@Inject`: resolution on first read, the per-property cache, the setter, optionals, names,
/// every kind of enclosing type, and the cell that keeps a value of any layout and frees it
/// once. Every test layers its modules with `withOverrides`.
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

  /// A property declared while a container's factory ran reads that container, not the layer
  /// that is current where it is first read.
  @Test func aModulesInjectReadsTheContainerThatMadeItWhateverIsCurrent() {
    let container = Dependencies { shopModules() }
    let cart = container.resolve(CartModuleType.self)
    let total = Dependencies.withOverrides {
      Module { MockShopAppModule(code: "USD") as ShopAppModuleType }
    } operation: {
      cart.total()
    }
    #expect(total == "12 EUR")
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

  // MARK: The cell: values of every layout

  @Test func injectReadsOverAlignedEmptyLargeOptionalClassAndExistentialValues() {
    let freed = Counter()
    Dependencies.withOverrides {
      Module { SIMD4<Double>(1, 2, 3, 4) }
      Module { SIMD8<Float>(repeating: 7) }
      Module { ByteThenVector(tag: 9, vector: SIMD4<Double>(5, 6, 7, 8)) }
      Module { EmptyValue() }
      Module { MixedLayoutValue(seed: 3) }
      Module { CountedGreeter("class", made: Counter(), freed: freed) }
      Module { CountedGreeter("existential", made: Counter(), freed: freed) as any Labelled }
    } operation: {
      let holder = LayoutHolder()
      for _ in 0..<2 {
        #expect(holder.simd == SIMD4<Double>(1, 2, 3, 4))
        #expect(holder.wide == SIMD8<Float>(repeating: 7))
        #expect(holder.aligned.tag == 9)
        #expect(holder.aligned.vector == SIMD4<Double>(5, 6, 7, 8))
        #expect(holder.empty == EmptyValue())
        #expect(holder.large == MixedLayoutValue(seed: 3))
        #expect(holder.present?.label == "class")
        #expect(holder.absent == nil)
        #expect(holder.tracked.label == "class")
        #expect(holder.existential.label == "existential")
      }
      #expect(holder.present !== holder.tracked, "each property resolves for itself")
    }
    #expect(freed.value == 3, "every kept instance is freed with its holder")
  }

  @Test func injectHoldsOverAlignedSIMDValues() {
    #expect(MemoryLayout<SIMD4<Double>>.alignment >= 16)
    let quad = SIMD4<Double>(1.5, -2.25, 3.125, 1e300)
    let wide = SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8)
    let padded = PaddedVector(tag: 0x5A, vector: SIMD4(9, 8, 7, 6), tail: 0xA5)
    Dependencies.withOverrides {
      Module { quad }
      Module { wide }
      Module { padded }
      Module { SIMD2<Double>(-0.0, .infinity) }
    } operation: {
      let holder = ValueHolder<SIMD4<Double>>()
      let wideHolder = ValueHolder<SIMD8<Float>>()
      let paddedHolder = ValueHolder<PaddedVector>()
      let pairHolder = ValueHolder<SIMD2<Double>>()
      for _ in 0..<3 {
        #expect(holder.value == quad)
        #expect(wideHolder.value == wide)
        #expect(paddedHolder.value == padded)
        #expect(pairHolder.value == SIMD2<Double>(-0.0, .infinity))
      }
    }
  }

  @Test func injectHoldsEmptyLargeAndByteSizedValues() {
    let large = LargePatternValue(seed: 7)
    Dependencies.withOverrides {
      Module { EmptyValue() }
      Module { large }
      Module { UInt8(0xEE) }
      Module { true }
      Module { "a string long enough to live on the heap, not inline in the value" }
    } operation: {
      let empty = ValueHolder<EmptyValue>()
      let big = ValueHolder<LargePatternValue>()
      let byte = ValueHolder<UInt8>()
      let flag = ValueHolder<Bool>()
      let text = ValueHolder<String>()
      for _ in 0..<3 {
        #expect(empty.value == EmptyValue())
        #expect(big.value == large)
        #expect(byte.value == 0xEE)
        #expect(flag.value)
        #expect(text.value.hasPrefix("a string long enough"))
      }
    }
  }

  @Test func injectHoldsOptionalsClassesAndExistentials() {
    let object = CountedObject(deinits: Counter())
    Dependencies.withOverrides {
      Module { object }
      Module { object as AnyObject }
      Module { ServiceImpl() as Service }
      Module { [1, 2, 3] as Any }
      Module { Optional(5) as Int? }
    } operation: {
      let klass = ValueHolder<CountedObject>()
      let anyObject = ValueHolder<AnyObject>()
      let service = ValueHolder<Service>()
      let presentOptional = ValueHolder<Service?>()
      let absent = ValueHolder<NeverRegistered?>()
      let any = ValueHolder<Any>()
      let optionalInt = ValueHolder<Int?>()
      // Compared outside `#expect`: its expansion of `AnyObject === CountedObject` crashes the
      // 6.3.1 compiler (a reabstraction thunk with an invalid conformance).
      let sameClass = klass.value === object
      let sameAnyObject = anyObject.value === object
      #expect(sameClass)
      #expect(sameAnyObject)
      let first = service.value
      #expect(service.value === first)
      let present: Service? = presentOptional.value
      #expect(present != nil)
      #expect(presentOptional.value === present)
      let isAbsent = absent.value == nil
      #expect(isAbsent)
      let array = any.value as? [Int]
      #expect(array == [1, 2, 3])
      #expect(optionalInt.value == 5)
    }
  }

  // MARK: The cell: setting and copies

  @Test func settingAnInjectBeforeOrAfterReadingKeepsTheNewValue() {
    let made = Counter()
    let freed = Counter()
    Dependencies.withOverrides {
      Module { CountedGreeter("made", made: made, freed: freed) }
      Module { SIMD4<Double>(1, 1, 1, 1) }
      Module { MixedLayoutValue(seed: 1) }
    } operation: {
      var unread = SettableHolder()
      unread.tracked = CountedGreeter("set", made: made, freed: freed)
      unread.simd = SIMD4<Double>(2, 2, 2, 2)
      unread.large = MixedLayoutValue(seed: 2)
      #expect(unread.tracked.label == "set")
      #expect(unread.simd == SIMD4<Double>(2, 2, 2, 2))
      #expect(unread.large == MixedLayoutValue(seed: 2))
      #expect(made.value == 1, "a set property never resolves")

      var read = SettableHolder()
      #expect(read.tracked.label == "made")
      #expect(read.large == MixedLayoutValue(seed: 1))
      read.tracked = CountedGreeter("replaced", made: made, freed: freed)
      read.large = MixedLayoutValue(seed: 4)
      #expect(freed.value == 1, "the replaced instance is freed once")
      #expect(read.tracked.label == "replaced")
      #expect(read.large == MixedLayoutValue(seed: 4))
    }
    #expect(made.value == 3)
    #expect(freed.value == 3)
  }

  @Test func copiesOfAnInjectShareTheFirstReadUntilOneIsSet() {
    let made = Counter()
    let freed = Counter()
    Dependencies.withOverrides {
      Module { CountedGreeter("made", made: made, freed: freed) }
      Module { SIMD4<Double>(1, 1, 1, 1) }
      Module { MixedLayoutValue(seed: 1) }
    } operation: {
      var original = SettableHolder()
      let earlyCopy = original
      let first = original.tracked
      #expect(earlyCopy.tracked === first, "a copy made before the first read shares it")
      let lateCopy = original
      original.tracked = CountedGreeter("set", made: made, freed: freed)
      #expect(original.tracked.label == "set")
      #expect(earlyCopy.tracked === first, "setting one copy leaves the others alone")
      #expect(lateCopy.tracked === first)
    }
    #expect(made.value == 2)
    #expect(freed.value == 2)
  }

  @Test func settingThenReadingAndCopiesOfTheWrapper() {
    let deinits = Counter()
    Dependencies.withOverrides {
      Module { CountedObject(deinits: deinits) }
    } operation: {
      var wrapper = Inject<CountedObject>()
      let copyBeforeRead = wrapper
      let first = wrapper.wrappedValue
      #expect(copyBeforeRead.wrappedValue === first, "copies share the cell, read or not")
      let assigned = CountedObject(deinits: deinits)
      wrapper.wrappedValue = assigned
      #expect(wrapper.wrappedValue === assigned)
      #expect(copyBeforeRead.wrappedValue === first, "setting one copy leaves the others")
      var copyAfterSet = wrapper
      #expect(copyAfterSet.wrappedValue === assigned)
      copyAfterSet.wrappedValue = CountedObject(deinits: deinits)
      #expect(wrapper.wrappedValue === assigned)
      #expect(copyAfterSet.wrappedValue !== assigned)

      // Set before it was ever read: the first read is the set value, with no resolution.
      var neverRead = Inject<CountedObject>()
      neverRead.wrappedValue = assigned
      #expect(neverRead.wrappedValue === assigned)
    }
    #expect(deinits.value == 3, "every instance made or assigned was released")
  }

  @Test func settingASIMDValueAndAnOptionalNil() {
    Dependencies.withOverrides {
      Module { SIMD4<Double>(1, 2, 3, 4) }
      Module { ServiceImpl() as Service }
    } operation: {
      var vector = Inject<SIMD4<Double>>()
      #expect(vector.wrappedValue == SIMD4(1, 2, 3, 4))
      vector.wrappedValue = SIMD4(5, 6, 7, 8)
      #expect(vector.wrappedValue == SIMD4(5, 6, 7, 8))
      var optional = Inject<Service?>()
      let resolved: Service? = optional.wrappedValue
      #expect(resolved != nil)
      optional.wrappedValue = nil
      let cleared: Service? = optional.wrappedValue
      #expect(cleared == nil)
    }
  }

  // MARK: The cell: the kept value is freed exactly once

  @Test func anInjectNeverReadFreesNothingAndReadOnceFreesOnce() {
    let made = Counter()
    let freed = Counter()
    Dependencies.withOverrides {
      Module { CountedGreeter("t", made: made, freed: freed) }
    } operation: {
      do { _ = CountedGreeterHolder() }
      #expect(made.value == 0)
      #expect(freed.value == 0)
      do {
        let holder = CountedGreeterHolder()
        for _ in 0..<3 { #expect(holder.tracked.label == "t") }
        #expect(freed.value == 0, "kept while its holder lives")
      }
      #expect(made.value == 1)
      #expect(freed.value == 1)
    }
  }

  @Test func aValueTypeHoldingAReferenceIsReleasedOnce() {
    let deinits = Counter()
    Dependencies.withOverrides {
      Module {
        ObjectVectorPair(object: CountedObject(deinits: deinits), vector: SIMD4(1, 2, 3, 4))
      }
    } operation: {
      do {
        let holder = ValueHolder<ObjectVectorPair>()
        #expect(holder.value.vector == SIMD4(1, 2, 3, 4))
        #expect(holder.value.object === holder.value.object)
      }
      #expect(deinits.value == 1)
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

/// A byte before an over-aligned vector.
struct ByteThenVector {
  let tag: UInt8
  let vector: SIMD4<Double>
}

struct EmptyValue: Equatable {}

final class LayoutHolder {
  @Inject var simd: SIMD4<Double>
  @Inject var wide: SIMD8<Float>
  @Inject var aligned: ByteThenVector
  @Inject var empty: EmptyValue
  @Inject var large: MixedLayoutValue
  @Inject var present: CountedGreeter?
  @Inject var absent: NamedValue?
  @Inject var tracked: CountedGreeter
  @Inject var existential: any Labelled
}

struct SettableHolder {
  @Inject var tracked: CountedGreeter
  @Inject var simd: SIMD4<Double>
  @Inject var large: MixedLayoutValue
}

/// A holder whose one `@Inject` property is of any type.
final class ValueHolder<Value> {
  @Inject var value: Value
}

struct ObjectVectorPair {
  var object: CountedObject
  var vector: SIMD4<Double>
}

/// 64 words, with a pattern that a copy from the wrong place would not reproduce.
struct LargePatternValue: Equatable {
  private var first = SIMD32<UInt64>()
  private var second = SIMD32<UInt64>()

  init(seed: UInt64) {
    for index in 0..<32 {
      first[index] = seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index)
      second[index] = ~first[index]
    }
  }
}
