import Foundation

/// Tells the time; a protocol so tests can stop it.
protocol ClockType {
  func now() -> Date
}

/// The system's clock.
struct SystemClock: ClockType {
  func now() -> Date { Date() }
}
