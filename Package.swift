// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Shank",
  platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  products: [
    .library(name: "Shank", targets: ["Shank"]),
    .library(name: "ShankTesting", targets: ["ShankTesting"]),
  ],
  targets: [
    .target(name: "Shank", dependencies: ["_ShankAtomics"]),
    // Atomic word operations in C, on every platform: `Synchronization.Atomic` needs macOS 15.
    .target(name: "_ShankAtomics"),
    .target(name: "ShankTesting", dependencies: ["Shank"]),
    .testTarget(name: "ShankTests", dependencies: ["Shank", "ShankTesting"]),
    // The README's patterns as an app target with default main-actor isolation writes them.
    .testTarget(
      name: "MainActorTests",
      dependencies: ["Shank", "ShankTesting"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    // An app's view models: their files import Observation beside Shank and ShankTesting.
    .testTarget(name: "ViewModelTests", dependencies: ["Shank", "ShankTesting"]),
    // The sample is built as a new app target would be: default main-actor isolation.
    .executableTarget(
      name: "WidgetApp",
      dependencies: ["Shank"],
      path: "Samples/WidgetApp",
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    .testTarget(
      name: "WidgetAppTests",
      dependencies: ["WidgetApp", "Shank", "ShankTesting"],
      swiftSettings: [.defaultIsolation(MainActor.self)]
    ),
    // A test target as a new one is made, without default isolation, testing the app target
    // that has it: its traits cannot read the app's main-actor module lists synchronously.
    .testTarget(
      name: "PlainTestTargetTests",
      dependencies: ["WidgetApp", "Shank", "ShankTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
