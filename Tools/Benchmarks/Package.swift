// swift-tools-version:6.0
// Query-speed benchmark of the ScanText model (not a test). Run it with:
//   swift run -c release --package-path Tools/Benchmarks --scratch-path /tmp/bench-build query-bench
import PackageDescription

let package = Package(
  name: "ScanTextBenchmarks",
  dependencies: [
    .package(name: "ScanText", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "query-bench",
      dependencies: [
        .product(name: "ScanModel", package: "ScanText"),
        .product(name: "ScanFormats", package: "ScanText"),
      ])
  ],
  swiftLanguageModes: [.v6]
)
