// swift-tools-version: 6.1
//
// Shank's benchmarks: their own package, so that Shank itself keeps zero dependencies.
// Run from this folder:  swift package --disable-sandbox benchmark
// See README.md for the scenarios, the commands and the last results.
import PackageDescription

let package = Package(
  name: "ShankBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [
    .package(name: "Shank", path: ".."),
    // The malloc interposer trait gives allocation counts on Linux without jemalloc.
    .package(
      url: "https://github.com/ordo-one/benchmark", exact: "1.38.1",
      traits: ["MallocInterposer"]),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    .executableTarget(
      name: "ShankBenchmarks",
      dependencies: [
        .product(name: "Shank", package: "Shank"),
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        "BenchmarkOpaque",
      ],
      path: "Benchmarks/ShankBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Not a benchmark (the plugin runs only targets under Benchmarks/): a plain executable
    // that repeats one scenario, for `valgrind --tool=callgrind` (see README.md).
    .executableTarget(
      name: "ShankProfile",
      dependencies: [
        .product(name: "Shank", package: "Shank"),
        .product(name: "Swinject", package: "Swinject"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        "BenchmarkOpaque",
      ],
      path: "Profile/ShankProfile"
    ),
    // An optimization barrier without instructions, so that a loop cannot hoist a read.
    .target(name: "BenchmarkOpaque", path: "Support/BenchmarkOpaque"),
  ],
  swiftLanguageModes: [.v6]
)
