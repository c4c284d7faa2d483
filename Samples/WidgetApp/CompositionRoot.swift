import Shank

/// The app's composition root: every module, chosen by the command line's flags.
///
/// `WidgetCLI` builds it once per run. Tests layer their own mocks over the same list, so the
/// wiring they check is the wiring the app runs.
enum CompositionRoot {
  /// The modules of a run with no flags: what tests start from, as an app's
  /// `AppDependencies.modules` is.
  static var modules: [Module] { modules(for: Invocation()) }

  @ModuleBuilder
  static func modules(for invocation: Invocation) -> [Module] {
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
      // Absent otherwise: `@Inject var analytics: AnalyticsModuleType?` then reads nil.
      Module(scope: .singleton) { AnalyticsModule() as AnalyticsModuleType }
    }
  }
}
