// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "ScanText",
  products: [
    .library(name: "ScanModel", targets: ["ScanModel"]),
    .library(name: "ScanImaging", targets: ["ScanImaging"]),
    .library(name: "ScanOCR", targets: ["ScanOCR"]),
    .library(name: "ScanFormats", targets: ["ScanFormats"]),
    // The commands and their argument parser as libraries (for the
    // fuzzers in Tools/check/Fuzz, which feed the query protocol `InputLine`s).
    .library(name: "ScanArguments", targets: ["ScanArguments"]),
    .library(name: "ScanService", targets: ["ScanService"]),
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
    // The only target that talks to Tesseract and Leptonica (and to
    // Poppler and qpdf for PDFs; it uses ScanFormats' PDF text layer and
    // content-stream reader when it edits a PDF).
    // Image algorithms in pure Swift on gray pixels (finding a photo's page
    // by its sides, fitting boxes to ink, the maps between an image and its
    // straightened copy): testable without the C libraries.
    .target(name: "ScanImaging", dependencies: ["ScanModel"]),
    .target(
      name: "ScanOCR",
      dependencies: ["ScanModel", "ScanImaging", "CScanOCR", "ScanFormats", "CHarfBuzz"]),
    // HarfBuzz's subsetter (Debian's libharfbuzz-dev): a typed page's font
    // that a PDF input leaves out is embedded as a subset of its free
    // metric twin (fonts-liberation2), so the page can be PDF/A. Linked,
    // as zlib is.
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"])]),
    // zlib, for the Flate streams of searchable PDFs (Debian's zlib1g-dev;
    // libz.so.1 is on every system).
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // JSON (hOCR-like) export and import.
    .target(name: "ScanFormats", dependencies: ["ScanModel", "CZlib"]),
    // A command-line parser with swift-argument-parser's conventions (help
    // layout, `Error:`/`Usage:` messages, exit code 64), standard streams
    // that report write errors, and nothing the commands do not use. It
    // knows nothing of scanning.
    .target(name: "ScanArguments"),
    // Temporary output files removed on SIGINT, SIGTERM and SIGHUP (an
    // async-signal-safe handler, so in C).
    .target(name: "CScanSignals"),
    // The application layer, under the commands: batch reading and
    // scheduling (`Recognizer`, one engine per worker), the recognition
    // cache with its SHA-256, reading and writing documents (`InputFiles`,
    // `DocumentFiles`, `OutputFile`'s atomic outputs), and the query
    // protocol. Its failures are `ServiceError`s. It uses ScanArguments for
    // `CommandIO` (the standard streams it reads and writes) and the
    // `InputLine`s of the query protocol, nothing of the parser.
    .target(
      name: "ScanService",
      dependencies: ["ScanModel", "ScanOCR", "ScanFormats", "ScanArguments", "CScanSignals"]),
    // The `scantext` commands, as a library so tests can drive them: each
    // parses its arguments once into typed values, calls the service, and
    // prints.
    .target(
      name: "ScanCLI",
      dependencies: ["ScanService", "ScanArguments", "ScanModel", "ScanOCR", "ScanFormats"]),
    .executableTarget(name: "scantext", dependencies: ["ScanCLI"]),
    // Shared test helpers: the package's folders, recognised sample scans.
    .target(
      name: "ScanTestSupport", dependencies: ["ScanModel", "ScanFormats", "ScanOCR"],
      path: "Tests/ScanTestSupport"),
    .testTarget(name: "ScanModelTests", dependencies: ["ScanModel", "ScanFormats"]),
    .testTarget(name: "ScanFormatsTests", dependencies: ["ScanFormats", "ScanModel"]),
    .testTarget(
      name: "ScanOCRTests",
      dependencies: ["ScanOCR", "ScanImaging", "ScanModel", "ScanFormats", "ScanTestSupport"]),
    .testTarget(name: "ScanImagingTests", dependencies: ["ScanImaging", "ScanModel"]),
    .testTarget(name: "ScanArgumentsTests", dependencies: ["ScanArguments"]),
    .testTarget(
      name: "ScanServiceTests",
      dependencies: ["ScanService", "ScanModel", "ScanFormats", "ScanOCR", "ScanTestSupport"]),
    .testTarget(
      name: "ScanCLITests",
      dependencies: [
        "ScanCLI", "ScanService", "ScanArguments", "ScanModel", "ScanFormats", "ScanTestSupport",
        "scantext",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
