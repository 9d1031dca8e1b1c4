import Foundation
import ScanFormats
import ScanTestSupport
import Testing

@testable import ScanCLI

/// Searchable PDFs are PDF/A (issue 46): every output the suite writes is
/// validated by an independent validator (`page`, PyPI `page-validation`,
/// veraPDF's rules) for the PDF/A level it claims and for PDF/UA-1 when
/// tagged, with `Tools/check/check-pdfa.py`: zero failed rules. `qpdf --check`
/// passes too. An input that cannot be PDF/A is written as plain PDF with a
/// warning naming the reason.
@Suite("PDF/A")
struct PDFArchiveTests {
  static let python = TaggedPDFTests.python
  static let checker = Fixtures.packageRoot.appendingPathComponent("Tools/check/check-pdfa.py").path
  /// Checked once: every PDF the suite checks asks.
  static let validatorPresent: Bool =
    ((try? ExternalCheckers.run(python, ["-c", "import page, pikepdf"]).0) ?? 1) == 0
    && ExternalCheckers.qpdf != nil && PDFArchive.standardProfile() != nil
  static let absentMessage =
    "page-validation or pikepdf (.build/tools-venv), qpdf or an sRGB profile (icc-profiles-free) missing (run Tools/install/install-dependencies.sh): PDF/A tests skipped"

  /// Validates `pdf`: it claims `level` (`2a`; `none` for no PDF/A
  /// claim) and PDF/UA-1 when `ua`, and every claimed profile passes.
  static func expectValid(
    _ pdf: URL, level: String, ua: Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try PDFOutputTests.expectValid(pdf, sourceLocation: sourceLocation)
    var arguments = [checker, pdf.path, "--expect", level]
    if ua { arguments.append("--ua") }
    let (status, output) = try ExternalCheckers.run(python, arguments)
    #expect(status == 0, "\(pdf.lastPathComponent): \(output)", sourceLocation: sourceLocation)
  }

  /// `scantext ocr` to a PDF in a new folder; returns the PDF and stderr.
  static func ocr(_ inputs: [String], name: String, extra: [String] = []) throws -> (URL, String) {
    let pdf = try Fixtures.temporaryFolder().appendingPathComponent("\(name).pdf")
    let r = scantext(["ocr"] + inputs + ["-o", pdf.path, "-q"] + extra)
    try #require(r.code == 0, "ocr \(inputs) \(extra): \(r.stderr)")
    return (pdf, r.stderr)
  }

  static func sample(_ name: String) -> String {
    Fixtures.scans.appendingPathComponent(name).path
  }

  /// A sample scan, several pages, a turned page: PDF/A-2a and PDF/UA-1
  /// by default, with no warning.
  @Test(
    .enabled(if: validatorPresent, Comment(rawValue: absentMessage)),
    arguments: [["clean.png"], ["clean.png", "headings.png"], ["rotated-90.png"]])
  func imagesArePDFA2a(_ names: [String]) throws {
    let (pdf, stderr) = try Self.ocr(names.map(Self.sample), name: "images")
    #expect(stderr.isEmpty, "\(stderr)")
    try Self.expectValid(pdf, level: "2a", ua: true)
  }

  /// `--no-tags` gives PDF/A-2u (no PDF/UA claim); the other output types
  /// give their part, and `pdf` no claim at all.
  @Test(.enabled(if: validatorPresent, Comment(rawValue: absentMessage)))
  func outputTypesClaimTheirLevel() throws {
    let clean = Self.sample("clean.png")
    let cases: [([String], String, Bool)] = [
      (["--no-tags"], "2u", false),
      (["--output-type", "pdfa-2"], "2a", true),
      (["--output-type", "pdfa-3"], "3a", true),
      (["--output-type", "pdfa-3", "--no-tags"], "3u", false),
      (["--output-type", "pdfa-1"], "1a", true),
      (["--output-type", "pdfa-1", "--no-tags"], "1b", false),
      (["--output-type", "pdf"], "none", true),
      (["--output-type", "pdf", "--no-tags"], "none", false),
    ]
    for (extra, level, ua) in cases {
      let (pdf, stderr) = try Self.ocr([clean], name: "clean", extra: extra)
      #expect(stderr.isEmpty, "\(extra): \(stderr)")
      try Self.expectValid(pdf, level: level, ua: ua)
    }
  }

  /// Scanned PDFs (OCRmyPDF's test files: a skewed page from tiff2pdf,
  /// four pages turned by their content) come out PDF/A-2a and PDF/UA-1,
  /// their metadata carried over; with `--no-tags`, PDF/A-2u.
  @Test(
    .enabled(if: validatorPresent && RealScans.isAvailable, Comment(rawValue: absentMessage)),
    arguments: ["skew.pdf", "cardinal.pdf", "c02-22.pdf"])
  func scannedPDFsArePDFA2a(_ name: String) throws {
    let input = try #require(RealScans.folder).appendingPathComponent("ocrmypdf/\(name)").path
    let (pdf, stderr) = try Self.ocr([input], name: "scanned")
    #expect(stderr.isEmpty, "\(stderr)")
    try Self.expectValid(pdf, level: "2a", ua: true)
    let (untagged, _) = try Self.ocr([input], name: "untagged", extra: ["--no-tags"])
    try Self.expectValid(untagged, level: "2u", ua: false)
  }

  /// A PDF whose Info dictionary has a title, author and creation date
  /// (and an XMP packet of its own, a page turned by `/Rotate`) keeps
  /// them, the same in both places.
  @Test(
    .enabled(
      if: validatorPresent && PDFOutputTests.toolsPresent, Comment(rawValue: absentMessage)))
  func inputMetadataIsCarriedOver() throws {
    let input = try PDFOutputTests.turnedPage(
      "clean.png", rotate: 90, folder: try Fixtures.temporaryFolder())
    let (pdf, stderr) = try Self.ocr([input.path], name: "metadata")
    #expect(stderr.isEmpty, "\(stderr)")
    try Self.expectValid(pdf, level: "2a", ua: true)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Title:           A turned page"), "\(info)")
    #expect(info.contains("Author:          Ada Lovelace"), "\(info)")
    let xmp = try PDFOutputTests.run(PDFOutputTests.pdfinfo, ["-meta", pdf.path])
    #expect(xmp.contains("<rdf:li>Ada Lovelace</rdf:li>"), "\(xmp)")
    #expect(xmp.contains("<xmp:CreateDate>2020-01-02T03:04:05Z</xmp:CreateDate>"), "\(xmp)")
    #expect(xmp.contains("<pdfaid:part>2</pdfaid:part>"), "\(xmp)")
  }

  /// `Scans/scan.pdf` with its born-digital page's font (not embedded)
  /// named `Verdana`, which has no free metric twin: PDF/A would need the
  /// font, so the PDF is written as plain PDF (tagged:
  /// ``MixedPDFTagsTests``) and a warning says why; `--output-type pdf`
  /// asks for nothing and gets no warning.
  @Test(.enabled(if: validatorPresent, Comment(rawValue: absentMessage)))
  func inputThatCannotBePDFAIsPlainPDFWithAWarning() throws {
    let input = try Fixtures.temporaryFolder().appendingPathComponent("verdana.pdf")
    let (made, output) = try ExternalCheckers.run(
      Self.python,
      [
        "-c",
        "import sys, pikepdf; pdf = pikepdf.open(sys.argv[1]); pdf.pages[2].Resources.Font.F1.BaseFont = pikepdf.Name.Verdana; pdf.save(sys.argv[2])",
        Self.sample("scan.pdf"), input.path,
      ])
    try #require(made == 0, "\(output)")
    let (pdf, stderr) = try Self.ocr([input.path], name: "mixed")
    #expect(
      stderr.hasPrefix(
        "Warning: \(pdf.path): written as plain PDF, not PDF/A-2a: page 3 has a font that is not embedded ("
      ),
      "\(stderr)")
    #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    try Self.expectValid(pdf, level: "none", ua: false)
    let (plain, quiet) = try Self.ocr([input.path], name: "plain", extra: ["--output-type", "pdf"])
    #expect(quiet.isEmpty, "\(quiet)")
    try Self.expectValid(plain, level: "none", ua: false)
  }

  /// Image files PDF/A cannot hold as they are: a CMYK JPEG without a
  /// profile (the output intent is RGB) and, for PDF/A-1, JPEG 2000; each
  /// is kept as stored, in plain PDF, with the warning.
  @Test(.enabled(if: validatorPresent, Comment(rawValue: absentMessage)))
  func imagesPDFACannotHoldGiveAWarning() throws {
    let folder = try Fixtures.temporaryFolder()
    let cmyk = folder.appendingPathComponent("cmyk.jpg").path
    let jp2 = folder.appendingPathComponent("gray.jp2").path
    let (made, output) = try ExternalCheckers.run(
      Self.python,
      [
        "-c",
        "import sys; from PIL import Image; im = Image.open(sys.argv[1]); im.convert('CMYK').save(sys.argv[2], dpi=(300, 300)); im.convert('L').save(sys.argv[3])",
        Self.sample("clean.png"), cmyk, jp2,
      ])
    try #require(made == 0, "\(output)")
    for (input, extra, message) in [
      (cmyk, [String](), "not PDF/A-2a: page 1 has a CMYK image without a colour profile"),
      (jp2, ["--output-type", "pdfa-1"], "not PDF/A-1a: page 1 has a JPEG 2000 image (PDF/A-1)"),
    ] {
      let (pdf, stderr) = try Self.ocr([input], name: "blocked", extra: extra)
      #expect(stderr == "Warning: \(pdf.path): written as plain PDF, \(message)\n", "\(stderr)")
      try Self.expectValid(pdf, level: "none", ua: true)
    }
  }

  /// A wrong level is a usage error naming the choices.
  @Test func unknownOutputTypeIsAUsageError() {
    let r = scantext(["ocr", Self.sample("clean.png"), "-o", "x.pdf", "--output-type", "pdfa-4"])
    #expect(r.code == 64)
    #expect(r.stderr.contains("pdfa-4"), "\(r.stderr)")
    #expect(r.stderr.contains("'pdf', 'pdfa', 'pdfa-1', 'pdfa-2'"), "\(r.stderr)")
  }
}
