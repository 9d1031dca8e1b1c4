// swift-tools-version:6.0
import PackageDescription

// ScanText's checkout three folders up, as a path dependency: SwiftPM names
// it after its folder, `ScanText` for a checkout `git clone` made.
let package = Package(
  name: "ReadFolder",
  dependencies: [.package(path: "../../..")],
  targets: [
    .executableTarget(
      name: "ReadFolder",
      dependencies: [
        .product(name: "ScanService", package: "ScanText"),
        .product(name: "ScanFormats", package: "ScanText"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
