// swift-tools-version: 6.2
import PackageDescription

// A package of its own, so that Shank keeps no dependencies.
let package = Package(
  name: "WidgetServer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Shank", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
    .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
  ],
  targets: [
    .executableTarget(
      name: "WidgetServer",
      dependencies: [
        .product(name: "Shank", package: "Shank"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
    .testTarget(
      name: "WidgetServerTests",
      dependencies: [
        "WidgetServer",
        .product(name: "Shank", package: "Shank"),
        .product(name: "ShankTesting", package: "Shank"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
