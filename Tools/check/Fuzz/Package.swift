// swift-tools-version:6.0
// libFuzzer targets for ScanText (not built by the main package). Build and
// run them with Tools/check/fuzz.sh, which passes `-sanitize=fuzzer,address`.
import PackageDescription

let package = Package(
  name: "ScanTextFuzz",
  dependencies: [
    .package(name: "ScanText", path: "../../..")
  ],
  targets: [
    // Starts libFuzzer's driver (SwiftPM's renamed `main` hides libFuzzer's).
    .target(name: "FuzzSupport"),
    // The JSON reader and the document importer.
    .executableTarget(
      name: "FuzzJSON",
      dependencies: ["FuzzSupport", .product(name: "ScanFormats", package: "ScanText")]),
    // The hOCR, ALTO, PAGE XML and TSV importers.
    .executableTarget(
      name: "FuzzImport",
      dependencies: [
        "FuzzSupport", .product(name: "ScanFormats", package: "ScanText"),
      ]),
    // The query protocol, one request line per input.
    .executableTarget(
      name: "FuzzQuery",
      dependencies: [
        "FuzzSupport", .product(name: "ScanService", package: "ScanText"),
        .product(name: "ScanArguments", package: "ScanText"),
        .product(name: "ScanFormats", package: "ScanText"),
        .product(name: "ScanModel", package: "ScanText"),
      ]),
    // The compact model and the paged JSON reader.
    .executableTarget(
      name: "FuzzCompact",
      dependencies: ["FuzzSupport", .product(name: "ScanFormats", package: "ScanText")]),
    // A valid model and the choices that change its structured fields,
    // shared by the structure-aware model fuzzers.
    .target(
      name: "ModelMutations",
      dependencies: [
        .product(name: "ScanFormats", package: "ScanText"),
        .product(name: "ScanModel", package: "ScanText"),
      ]),
    // A JSON model's fields changed (counts, floats, cells), read by every
    // JSON reader: the limits of docs/reliability-limits.md.
    .executableTarget(
      name: "FuzzModelJSON",
      dependencies: [
        "FuzzSupport", "ModelMutations", .product(name: "ScanFormats", package: "ScanText"),
        .product(name: "ScanModel", package: "ScanText"),
      ]),
    // A compact model's fields, counts and offsets changed, checksums made
    // to match.
    .executableTarget(
      name: "FuzzModelCompact",
      dependencies: [
        "FuzzSupport", "ModelMutations", .product(name: "ScanFormats", package: "ScanText"),
        .product(name: "ScanModel", package: "ScanText"),
      ]),
    // Image decoding (every format, multi-page and tiled TIFF), no OCR.
    .executableTarget(
      name: "FuzzImage",
      dependencies: ["FuzzSupport", .product(name: "ScanOCR", package: "ScanText")]),
    // Page finding and straightening on small gray images, no OCR.
    .executableTarget(
      name: "FuzzPage",
      dependencies: ["FuzzSupport", .product(name: "ScanOCR", package: "ScanText")]),
  ],
  swiftLanguageModes: [.v6]
)
