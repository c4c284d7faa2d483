import Foundation

@testable import WidgetApp

/// A clock that always says the same time, so a test can check the date `add` records.
struct FixedClock: ClockType {
  let date: Date

  func now() -> Date { date }
}
