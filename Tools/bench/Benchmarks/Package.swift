// swift-tools-version:6.0
// Query-speed benchmark of the ScanText model (not a test). Run it with:
//   swift run -c release --package-path Tools/bench/Benchmarks --scratch-path /tmp/bench-build query-bench
// and the cost of the colour and rule measurements against a reading with:
//   OMP_THREAD_LIMIT=1 swift run -c release --package-path Tools/bench/Benchmarks \
//     --scratch-path /tmp/bench-build preprocess-bench [IMAGE ...]
import PackageDescription

let package = Package(
  name: "ScanTextBenchmarks",
  dependencies: [
    .package(name: "ScanText", path: "../../..")
  ],
  targets: [
    .executableTarget(
      name: "query-bench",
      dependencies: [
        .product(name: "ScanModel", package: "ScanText"),
        .product(name: "ScanFormats", package: "ScanText"),
      ]),
    // What a page costs on its way out (cache entry, JSON output, reading
    // an entry back): swift run -c release --package-path Tools/bench/Benchmarks
    //   --scratch-path /tmp/bench-build export-bench FILE.json ...
    .systemLibrary(name: "CZlibBench", pkgConfig: "zlib"),
    .executableTarget(
      name: "export-bench",
      dependencies: [
        "CZlibBench",
        .product(name: "ScanModel", package: "ScanText"),
        .product(name: "ScanFormats", package: "ScanText"),
      ]),
    .executableTarget(
      name: "preprocess-bench",
      dependencies: [
        .product(name: "ScanModel", package: "ScanText"),
        .product(name: "ScanOCR", package: "ScanText"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
