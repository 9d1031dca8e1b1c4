// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ScanText",
  products: [
    .library(name: "ScanModel", targets: ["ScanModel"]),
    .library(name: "ScanOCR", targets: ["ScanOCR"]),
    .library(name: "ScanFormats", targets: ["ScanFormats"]),
    // The commands as a library (for the fuzzers in Tools/Fuzz).
    .library(name: "ScanCLI", targets: ["ScanCLI"]),
    .executable(name: "scantext", targets: ["scantext"]),
  ],
  targets: [
    // Tesseract's C API and Leptonica, bound at run time (dlopen) by
    // generated wrappers: linking them would load some 70 libraries at
    // every start, even for commands that never recognise anything.
    // Needs the headers of libtesseract-dev and libleptonica-dev.
    .target(name: "CScanOCR"),
    // The text model: geometry, text, tokenizer, hit testing. No C, no OCR.
    .target(name: "ScanModel"),
    // The only target that talks to Tesseract and Leptonica.
    .target(name: "ScanOCR", dependencies: ["ScanModel", "CScanOCR"]),
    // JSON (hOCR-like) export and import.
    .target(name: "ScanFormats", dependencies: ["ScanModel"]),
    // Argument parsing and commands, as a library so tests can drive it.
    .target(name: "ScanCLI", dependencies: ["ScanModel", "ScanOCR", "ScanFormats"]),
    .executableTarget(name: "scantext", dependencies: ["ScanCLI"]),
    // Shared test helpers: the package's folders, recognised sample scans.
    .target(
      name: "ScanTestSupport", dependencies: ["ScanModel", "ScanFormats", "ScanOCR"],
      path: "Tests/ScanTestSupport"),
    .testTarget(name: "ScanModelTests", dependencies: ["ScanModel", "ScanFormats"]),
    .testTarget(name: "ScanFormatsTests", dependencies: ["ScanFormats", "ScanModel"]),
    .testTarget(
      name: "ScanOCRTests", dependencies: ["ScanOCR", "ScanModel", "ScanFormats", "ScanTestSupport"]),
    .testTarget(
      name: "ScanCLITests",
      dependencies: ["ScanCLI", "ScanModel", "ScanFormats", "ScanTestSupport", "scantext"]),
  ],
  swiftLanguageModes: [.v6]
)
