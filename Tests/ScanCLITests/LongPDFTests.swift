import Foundation
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A long born-digital PDF read by several workers that share its bytes and
/// its qpdf scanner (issue 45, point 2): every page's text comes out, in
/// order, through the views beyond the first 256 pages.
@Suite("Long PDF")
struct LongPDFTests {
  /// A PDF of `count` pages, page *n* showing "Page *n* of *count*".
  static func pdf(count: Int) -> Data {
    var objects = [
      "<< /Type /Catalog /Pages 2 0 R >>", "",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    var kids: [String] = []
    for page in 1...count {
      let content = "BT /F1 12 Tf 20 100 Td (Page \(page) of \(count)) Tj ET"
      objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
      objects.append("<< /Type /Page /Parent 2 0 R /Contents \(objects.count) 0 R >>")
      kids.append("\(objects.count) 0 R")
    }
    objects[1] =
      "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(count) /MediaBox [0 0 200 200] /Resources << /Font << /F1 3 0 R >> >> >>"
    return HandMadePDF.file(objects)
  }

  /// `text` of a 600-page PDF (three windows of 256 pages), and `ocr
  /// --format text` of it with three workers: each page's line once, in
  /// page order, exit 0.
  @Test(.enabled(if: PDFDocument.isAvailable, "Poppler's GLib library not installed"))
  func everyPageComesOutInOrderWithSeveralWorkers() throws {
    let count = 600
    let pdf = try Fixtures.temporaryFolder().appendingPathComponent("long.pdf")
    try Self.pdf(count: count).write(to: pdf)
    let expected = (1...count).map { "Page \($0) of \(count)" }
    for arguments in [
      ["text", pdf.path], ["ocr", pdf.path, "--format", "text", "--jobs", "3", "--no-cache"],
    ] {
      let run = try ScanTextRun.run(arguments, timeout: 600)
      #expect(run.code == 0, "\(arguments): \(run.stderr)")
      let lines = run.stdout.split(whereSeparator: \.isNewline).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.filter { !$0.isEmpty }
      #expect(lines.count == count, "\(arguments)")
      let differing = zip(lines, expected).first { $0 != $1 }
      #expect(lines == expected, "\(arguments): first difference \(String(describing: differing))")
    }
  }

  /// A long PDF between a damaged PDF and a short one, read by two
  /// workers (the plan holds a task for each page, and a ready answer for
  /// the damaged file): the damaged one is named on standard error, the
  /// others' pages come out whole, in input order, and the exit code says
  /// an input failed.
  @Test(.enabled(if: PDFDocument.isAvailable, "Poppler's GLib library not installed"))
  func aDamagedPDFAmongLongOnesLeavesTheOthersWholeAndInOrder() throws {
    let folder = try Fixtures.temporaryFolder()
    let long = folder.appendingPathComponent("long.pdf")
    let damaged = folder.appendingPathComponent("damaged.pdf")
    let short = folder.appendingPathComponent("short.pdf")
    try Self.pdf(count: 300).write(to: long)
    try Data("%PDF-1.4\n1 0 obj\n<< /Type /Catalog".utf8).write(to: damaged)
    try Self.pdf(count: 3).write(to: short)
    let run = try ScanTextRun.run(
      [
        "ocr", damaged.path, long.path, short.path, "--format", "text", "--jobs", "2", "--no-cache",
      ],
      timeout: 600)
    #expect(run.code == 1, "\(run.stderr)")
    #expect(run.stderr.contains("damaged.pdf: the PDF is truncated or damaged"), "\(run.stderr)")
    let lines = run.stdout.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    let expected = (1...300).map { "Page \($0) of 300" } + (1...3).map { "Page \($0) of 3" }
    #expect(
      lines == expected,
      "first difference \(String(describing: zip(lines, expected).first { $0 != $1 }))")
  }
}
