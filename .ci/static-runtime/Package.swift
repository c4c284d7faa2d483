// swift-tools-version: 6.2
// An app that links the Swift runtime statically, as a Linux server built for deployment
// with `--static-swift-stdlib` does: `.ci/run` builds and runs it so.
import PackageDescription

let package = Package(
  name: "StaticRuntimeCheck",
  dependencies: [.package(name: "Shank", path: "../..")],
  targets: [
    .executableTarget(
      name: "StaticRuntimeCheck", dependencies: [.product(name: "Shank", package: "Shank")])
  ]
)
