/// The catalogs the app's local client serves, as a server would: JSON text, so the sample
/// runs with no network.
enum BundledCatalog {
  static let production = """
    [
      { "id": "w1", "name": "Gear" },
      { "id": "w2", "name": "Sprocket" },
      { "id": "w3", "name": "Flywheel" }
    ]
    """

  static let staging = """
    [
      { "id": "w1", "name": "Gear" },
      { "id": "w2", "name": "Sprocket" },
      { "id": "w3", "name": "Flywheel" },
      { "id": "w9", "name": "Prototype lever (beta)" }
    ]
    """
}
