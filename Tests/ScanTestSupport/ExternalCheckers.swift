import Foundation

/// The official checkers of the standard formats, when installed
/// (`Tools/install/install-dependencies.sh` installs them): `xmllint` with the ALTO
/// and PAGE schemas in `../shared/schemas`, and `hocr-check` from PyPI's
/// hocr-tools in `.build/tools-venv`.
public enum ExternalCheckers {
  /// The schema folder beside the package (`../shared/schemas`), or `nil`.
  public static let schemas: URL? = {
    let url = Fixtures.packageRoot.deletingLastPathComponent()
      .appendingPathComponent("shared/schemas")
    let alto = url.appendingPathComponent("alto-4-4.xsd").path
    return FileManager.default.fileExists(atPath: alto) ? url : nil
  }()

  /// `xmllint`, or `nil`.
  public static let xmllint: String? = find("xmllint", extra: [])

  /// `hocr-check`, or `nil`.
  public static let hocrCheck: String? = find(
    "hocr-check",
    extra: [Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/hocr-check").path])

  /// Poppler's and qpdf's command-line tools, or `nil` (Debian's
  /// `poppler-utils` and `qpdf`).
  public static let pdftotext: String? = find("pdftotext", extra: [])
  public static let pdfimages: String? = find("pdfimages", extra: [])
  public static let qpdf: String? = find("qpdf", extra: [])
  public static let pdftoppm: String? = find("pdftoppm", extra: [])

  /// Why PDF checks skip.
  public static let pdfToolsAbsentMessage =
    "pdftotext, pdfimages or qpdf not installed (apt-get install poppler-utils qpdf): PDF checks skipped"

  /// Why schema tests skip, for their messages.
  public static var schemaAbsentMessage: String {
    if xmllint == nil { return "xmllint not installed (apt-get install libxml2-utils): skipped" }
    return "schemas not found at ../shared/schemas: schema validation skipped"
  }

  /// Why hOCR checks skip.
  public static let hocrAbsentMessage =
    "hocr-check not found (run Tools/install/install-dependencies.sh): hOCR check skipped"

  private static func find(_ name: String, extra: [String]) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let candidates = extra + path.split(separator: ":").map { "\($0)/\(name)" }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// The toolchain's `swift` (which builds packages), or `nil`.
  public static let swift: String? = find("swift", extra: ["/opt/swift/usr/bin/swift"])

  /// The toolchain's `docc`, or `nil`.
  public static let docc: String? = find("docc", extra: ["/opt/swift/usr/bin/docc"])

  /// Runs a program; returns its exit code and its standard output and
  /// error together.
  /// - Parameter environment: Variables set for it besides this process's.
  public static func run(
    _ program: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Validates XML files against a schema in ``schemas``; returns xmllint's
  /// complaints (empty when every file validates).
  public static func validate(_ files: [URL], schema: String) throws -> String {
    guard let xmllint, let schemas else { return "" }
    let (status, output) = try run(
      xmllint,
      ["--noout", "--schema", schemas.appendingPathComponent(schema).path] + files.map(\.path))
    let complaints = output.split(separator: "\n").filter { !$0.hasSuffix(" validates") }
    return status == 0 && complaints.isEmpty ? "" : complaints.joined(separator: "\n")
  }

  /// Runs `hocr-check` on a file; returns its failed checks ("not ok" lines).
  public static func checkHOCR(_ file: URL) throws -> String {
    guard let hocrCheck else { return "" }
    let (status, output) = try run(hocrCheck, [file.path])
    let failures = output.split(separator: "\n").filter {
      $0.hasPrefix("not ok") || $0.contains("Traceback") || $0.contains("Error")
    }
    if status != 0 && failures.isEmpty { return "hocr-check exited with \(status): \(output)" }
    return failures.joined(separator: "\n")
  }
}
