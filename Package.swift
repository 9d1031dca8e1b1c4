// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ScanText",
  products: [
    .library(name: "ScanModel", targets: ["ScanModel"]),
    .library(name: "ScanOCR", targets: ["ScanOCR"]),
    .library(name: "ScanFormats", targets: ["ScanFormats"]),
    .executable(name: "scantext", targets: ["scantext"]),
  ],
  targets: [
    .systemLibrary(
      name: "CTesseract", pkgConfig: "tesseract",
      providers: [.apt(["libtesseract-dev"])]),
    .systemLibrary(
      name: "CLeptonica", pkgConfig: "lept",
      providers: [.apt(["libleptonica-dev"])]),
    // The text model: geometry, text, tokenizer, hit testing. No C, no OCR.
    .target(name: "ScanModel"),
    // The only target that talks to Tesseract and Leptonica.
    .target(name: "ScanOCR", dependencies: ["ScanModel", "CTesseract", "CLeptonica"]),
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
