// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Shank",
  platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
  products: [
    .library(name: "Shank", targets: ["Shank"]),
    .library(name: "ShankTesting", targets: ["ShankTesting"]),
  ],
  targets: [
    .target(name: "Shank"),
    .target(name: "ShankTesting", dependencies: ["Shank"]),
    .testTarget(name: "ShankTests", dependencies: ["Shank", "ShankTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
