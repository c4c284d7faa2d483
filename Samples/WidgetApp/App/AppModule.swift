import Shank

/// The pieces every feature shares.
protocol AppModuleType {
  func component() -> HTTPClientType
  func component() -> ClockType
  func component() -> AppConfiguration
}

/// Holds the shared pieces as stored properties. Registered `.singleton`, so one instance, and
/// one client, serves every module that injects it: Shank's answer to a DI container's `single`.
struct AppModule: AppModuleType {
  private let client: HTTPClientType
  private let clock: ClockType
  private let configuration: AppConfiguration

  init(
    configuration: AppConfiguration,
    client: HTTPClientType = LocalHTTPClient.bundled(),
    clock: ClockType = SystemClock()
  ) {
    self.configuration = configuration
    self.client = client
    self.clock = clock
  }

  func component() -> HTTPClientType { client }
  func component() -> ClockType { clock }
  func component() -> AppConfiguration { configuration }
}
