import Foundation
import Hummingbird

/// The body of a create or an update: `{"name": "Gear", "quantity": 3}`, both required.
struct WidgetDraft: Decodable, Sendable {
  /// The widget's name; trimmed, then 1 to 200 characters.
  var name: String
  /// How many; 0 or more.
  var quantity: Int

  /// The longest name accepted.
  static let maximumNameLength = 200

  /// Throws a 400 that says what is wrong with a decoded draft.
  func validated() throws -> WidgetDraft {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else {
      throw HTTPError(.badRequest, message: "`name` must not be empty.")
    }
    guard trimmed.count <= Self.maximumNameLength else {
      throw HTTPError(
        .badRequest, message: "`name` must be at most \(Self.maximumNameLength) characters.")
    }
    guard quantity >= 0 else {
      throw HTTPError(.badRequest, message: "`quantity` must not be negative.")
    }
    return WidgetDraft(name: trimmed, quantity: quantity)
  }
}
