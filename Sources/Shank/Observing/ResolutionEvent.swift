/// One resolution, as an observer from ``Dependencies/observe(_:)`` sees it.
///
/// ```swift
/// let observation = Dependencies.observe { event in
///   if event.madeInstance, event.onMainThread, event.durationNanoseconds > 16_000_000 {
///     print("slow on the main thread: \(event)")
///   }
/// }
/// ```
public struct ResolutionEvent: Sendable, CustomStringConvertible {
  /// The key resolved, as messages write it: `WidgetModuleType`, `SampleModuleType named "abc"`.
  public var key: String { resolved.description }
  /// The scope of the module resolved.
  public let scope: Scope
  /// Whether this resolution's factory ran: `false` when it returned a kept instance, made
  /// earlier or by another thread while this one waited, or the instance that a `.weak`
  /// module gives while someone holds it. A `[P]` or `[String: P]` gathered from contributions
  /// is made anew at every resolution: `true`; a list registered whole is kept as its scope
  /// says, as any module is.
  public let madeInstance: Bool
  /// How long the resolution took, factory included, in nanoseconds: for an async module, the
  /// time its factory took too, which `resolveAsync` or `start()` awaited before the
  /// resolution took what it made.
  public let durationNanoseconds: UInt64
  /// Whether it ran on the main thread.
  public let onMainThread: Bool
  /// How many factories were running around it: 0 for a resolution that no factory asked
  /// for. An async factory's resolutions count it, and those around it, though it runs in a
  /// task of its own.
  public let depth: Int
  /// Where it was asked for: `file:line`.
  public var site: String { askedAt.description }

  /// The key and the site, written out only when ``key`` and ``site`` are read: an observer
  /// that reads neither costs no string at each resolution.
  let resolved: Text
  let askedAt: Text

  /// Text written when it is read.
  enum Text: Sendable, CustomStringConvertible {
    case key(Any.Type, name: String?)
    case site(SourceSite)
    case written(String)

    var description: String {
      switch self {
      case .key(let type, let name): KeyDescription(type, name: name).description
      case .site(let site): site.description
      case .written(let text): text
      }
    }
  }

  /// How long the resolution took, factory included.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  public var duration: Duration { .nanoseconds(Int64(clamping: durationNanoseconds)) }

  /// The event on one line: `WidgetModuleType (.singleton) made in 1.250 ms on the main
  /// thread, depth 0, at App.swift:12`.
  public var description: String {
    let what = madeInstance ? "made in \(Self.milliseconds(durationNanoseconds))" : "kept"
    let thread = onMainThread ? "on the main thread" : "off the main thread"
    return "\(key) (\(scope)) \(what) \(thread), depth \(depth), at \(site)"
  }

  /// `1.250 ms`, without Foundation's formatters.
  static func milliseconds(_ nanoseconds: UInt64) -> String {
    let microseconds = nanoseconds / 1_000
    let fraction = String(microseconds % 1_000)
    return
      "\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
  }
}

extension ResolutionEvent {
  /// Makes an event, as Shank does for each resolution; for testing an observer's handler.
  ///
  /// - Parameters:
  ///   - key: The key resolved, as messages write it.
  ///   - scope: The module's scope.
  ///   - madeInstance: Whether this resolution's factory ran.
  ///   - durationNanoseconds: How long the resolution took, in nanoseconds.
  ///   - onMainThread: Whether it ran on the main thread.
  ///   - depth: How many factories were running around it.
  ///   - site: Where it was asked for, `file:line`.
  public init(
    key: String, scope: Scope, madeInstance: Bool, durationNanoseconds: UInt64,
    onMainThread: Bool, depth: Int, site: String
  ) {
    self.init(
      scope: scope, madeInstance: madeInstance, durationNanoseconds: durationNanoseconds,
      onMainThread: onMainThread, depth: depth, resolved: .written(key), askedAt: .written(site))
  }
}
