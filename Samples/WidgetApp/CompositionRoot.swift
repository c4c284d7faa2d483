import Shank

/// The app's composition root: every module, chosen by the command line's flags.
///
/// `WidgetCLI` builds it once per run. Tests layer their own mocks over the same list, so the
/// wiring they check is the wiring the app runs.
enum CompositionRoot {
  /// The modules of a run with no flags: what tests start from, as an app's
  /// `AppDependencies.modules` is.
  static var modules: [Module] { modules(for: Invocation()) }

  /// The modules for `invocation`; what the run leaves to say at its end goes to `console`.
  @ModuleBuilder
  static func modules(for invocation: Invocation, console: Console = StandardConsole()) -> [Module]
  {
    // One AppModule for the whole run: every feature shares its client, clock and configuration.
    Module(scope: .singleton) {
      AppModule(configuration: AppConfiguration(storeFolder: invocation.storeFolder))
        as AppModuleType
    }
    // The default widget module and a named one beside it; `--staging` picks the name.
    Module { WidgetModule(environment: .production) as WidgetModuleType }
    Module("staging") { WidgetModule(environment: .staging) as WidgetModuleType }
    if invocation.usesMocks {
      // Registered after the real ones with the same keys, so these win.
      Module { MockWidgetModule() as WidgetModuleType }
      Module("staging") { MockWidgetModule() as WidgetModuleType }
    }
    if invocation.tracksAnalytics {
      // Absent otherwise: `@Inject var analytics: AnalyticsModuleType?` then reads nil. The
      // tracker batches the run's events and sends them when the run's container closes, as
      // a real app's would at log-out or shutdown; `onClose` is where that happens.
      let send: (AnalyticsModuleType) async -> Void = { $0.component().flush(to: console) }
      Module(scope: .singleton, onClose: send) { AnalyticsModule() as AnalyticsModuleType }
    }
  }
}
