import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanOCR
@testable import ScanService

/// Commands handle every page of a multi-page input, or those `--pages`
/// selects, counted from 1 (issue 26, point 6): before, `text`, `draw`,
/// `rects`, `hit` read page 0 only and exited 0.
@Suite("Every page")
struct EveryPageTests {
  /// The ground truths of 25 sample pages as one 25-page document.
  static let pages: [Page] = Fixtures.scanImages.prefix(25).enumerated().compactMap {
    try? Fixtures.truth($1).withIndex($0)
  }

  /// The 25-page document, written once.
  static let model: String = {
    let folder = (try? Fixtures.temporaryFolder()) ?? FileManager.default.temporaryDirectory
    let url = folder.appendingPathComponent("25-pages.json")
    try? DocumentJSON.encode(Document(pages: pages), generator: ScanText.generator)
      .write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }()

  @Test func textOfEveryPageIsJoinedByFormFeeds() throws {
    try #require(Self.pages.count == 25)
    let all = scantext(["text", Self.model])
    #expect(all.code == 0, "\(all.stderr)")
    #expect(all.stdout == Self.pages.map(\.text).joined(separator: "\u{0C}"))
    // The same as the plain-text export of the document.
    #expect(all.stdout == scantext(["convert", Self.model, "-", "--format", "text"]).stdout)
    #expect(scantext(["text", Self.model, "--pages", "25"]).stdout == Self.pages[24].text)
    #expect(
      scantext(["text", Self.model, "--pages", "2-3,25"]).stdout
        == [1, 2, 24].map { Self.pages[$0].text }.joined(separator: "\u{0C}"))
    let ranges = scantext(["text", Self.model, "--range", "0:10", "--pages", "1,2"])
    #expect(
      ranges.stdout
        == [0, 1].map { (Self.pages[$0].text(in: TextRange(offsets: 0..<10)) ?? "") + "\n" }
        .joined(separator: "\u{0C}"))
    let lines = scantext(["text", Self.model, "--line", "0", "--pages", "-2"])
    #expect(
      lines.stdout
        == [0, 1].map { (Self.pages[$0].content(forLineNumber: 0) ?? "") + "\n" }
        .joined(separator: "\u{0C}"))
  }

  /// One page: the answer as the query protocol gives it. Several: an
  /// array of the answers, each with its page number from 1.
  @Test func answersForSeveralPagesAreAnArrayNumberedFromOne() throws {
    let commands: [[String]] = [
      ["rects", Self.model, "--range", "0:20"],
      ["hit", Self.model, "--point", "300,300"],
      ["boundary", Self.model, "--position", "5", "--granularity", "word"],
      ["lines", Self.model],
      ["outline", Self.model, "--json"],
    ]
    for command in commands {
      let several = scantext(command + ["--pages", "3,5,24"])
      #expect(several.code == 0, "\(command): \(several.stderr)")
      let answers = try #require(try JSONValue(parsing: several.stdout).arrayValue, "\(command)")
      #expect(answers.map { $0["page"] } == [.number(3), .number(5), .number(24)], "\(command)")
      for (answer, number) in zip(answers, [3, 5, 24]) {
        let one = scantext(command + ["--pages", "\(number)"])
        guard case .object(var alone) = try JSONValue(parsing: one.stdout) else {
          Issue.record("\(command): one page is not an object")
          continue
        }
        #expect(alone["page"] == nil)
        alone["page"] = .number(Double(number))
        #expect(answer == .object(alone), "\(command) page \(number)")
      }
      let every = try JSONValue(parsing: scantext(command).stdout).arrayValue
      #expect(every?.count == 25, "\(command)")
    }
    // One page answers as the protocol does for that page (0-based there).
    let protocolAnswer = scantext(["query", Self.model], input: [#"{"op":"lines","page":4}"#])
    #expect(
      try JSONValue(parsing: scantext(["lines", Self.model, "--pages", "5"]).stdout)
        == JSONValue(parsing: protocolAnswer.stdout))
  }

  @Test func anErrorOnOnePageNamesIt() throws {
    let shortest = try #require(
      Self.pages.indices.min { Self.pages[$0].text.utf16.count < Self.pages[$1].text.utf16.count })
    let end = Self.pages[shortest].endPosition.offset
    let r = scantext(["rects", Self.model, "--range", "0:\(end + 1)"])
    #expect(r.code == 1)
    #expect(
      r.stderr.hasPrefix("Error: page \(shortest + 1): range 0:\(end + 1) is outside the page text")
    )
    #expect(r.stdout.isEmpty)
  }

  @Test func pageIsGoneAndPagesCountFromOne() throws {
    let page = scantext(["text", Self.model, "--page", "0"])
    #expect(page.code == 64)
    #expect(page.stderr.hasPrefix("Error: Unknown option '--page'. Did you mean '--pages'?\n"))
    for value in ["0", "0-2", "3-1", "x"] {
      let r = scantext(["hit", Self.model, "--point", "1,1", "--pages", value])
      #expect(r.code == 64, "\(value)")
      #expect(r.stderr.hasPrefix("Error: The value '\(value)' is invalid for '--pages <pages>': "))
    }
    #expect(
      scantext(["text", Self.model, "--pages", "0"]).stderr.contains(
        "pages are counted from 1 (the first page is 1, as in tesseract and pdftotext)"))
    let past = scantext(["lines", Self.model, "--pages", "26"])
    #expect(past.code == 1)
    #expect(
      past.stderr
        == "Error: \(Self.model): --pages asks for page 26, but the document has 25 pages\n")
  }

  /// verify and eval read the pages `--pages` selects; eval names pages
  /// from 1 and selects the same pages of the truth.
  @Test func verifyAndEvalSelectPages() throws {
    let verify = scantext(["verify", Self.model, "--pages", "2-4"])
    #expect(verify.code == 0, "\(verify.stderr)")
    #expect(
      verify.stdout.hasSuffix(
        "\(Self.model): 3 pages, \(([1, 2, 3].map { Self.pages[$0].verify().checks }).reduce(0, +)) checks, 0 violations\n"
      ))
    let eval = scantext(["eval", Self.model, "--truth", Self.model, "--pages", "7,9", "--json"])
    #expect(eval.code == 0, "\(eval.stderr)")
    let report = try JSONValue(parsing: eval.stdout)
    #expect(report["pages"]?.arrayValue?.map { $0["page"] } == [.number(7), .number(9)])
    #expect(report["total"]?["cer"] == .number(0))
    let table = scantext(["eval", Self.model, "--truth", Self.model, "--pages", "25"])
    #expect(table.stdout.contains("\n25 "))
  }

  /// draw writes a picture per page, named as pdftoppm names its pages.
  @Test func drawWritesOnePicturePerPage() throws {
    let folder = try Fixtures.temporaryFolder()
    let out = folder.appendingPathComponent("out.png").path
    let r = scantext(["draw", Self.model, "-o", out, "--pages", "1-3", "--layers", "words"])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    for n in 1...3 {
      let single = folder.appendingPathComponent("single-\(n).png").path
      #expect(
        scantext(["draw", Self.model, "-o", single, "--pages", "\(n)", "--layers", "words"]).code
          == 0)
      #expect(
        try Data(
          contentsOf: URL(fileURLWithPath: folder.appendingPathComponent("out-\(n).png").path))
          == Data(contentsOf: URL(fileURLWithPath: single)), "page \(n)")
    }
    // Zero-padded to the widest number, as pdftoppm pads.
    let wide = folder.appendingPathComponent("wide.png").path
    #expect(
      scantext(["draw", Self.model, "-o", wide, "--pages", "9-10", "--layers", "words"]).code == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix("wide")
    }.sorted()
    #expect(names == ["wide-09.png", "wide-10.png"])
    // One picture fits standard output or a device, not several.
    for output in ["-", "/dev/null"] {
      let refused = scantext(["draw", Self.model, "-o", output, "--pages", "1,2"])
      #expect(refused.code == 1)
      #expect(
        refused.stderr
          == "Error: \(output): 2 pages to draw, but one picture can be written here: name a .png file (out.png writes out-1.png, out-2.png, ...) or choose a page with --pages\n"
      )
    }
  }

  /// Only the pages chosen of a multi-page TIFF are decoded: a corrupt
  /// page left out is never read.
  @Test func pagesLeftOutOfATIFFAreNotRead() throws {
    let folder = try Fixtures.temporaryFolder()
    let tiff = folder.appendingPathComponent("middle-bad.tif")
    try Data(TIFFBytes(pages: [.square(), .claiming(width: 64, height: 64), .square()]).bytes)
      .write(to: tiff)
    let chosen = try ScanTextRun.run(["lines", tiff.path, "--no-preprocess", "--pages", "1,3"])
    #expect(chosen.code == 0, "\(chosen.stderr)")
    #expect(chosen.stderr.isEmpty)
    let answers = try #require(try JSONValue(parsing: chosen.stdout).arrayValue)
    #expect(answers.map { $0["page"] } == [.number(1), .number(3)])
    let bad = try ScanTextRun.run(["lines", tiff.path, "--no-preprocess", "--pages", "2-3"])
    #expect(bad.code == 1)
    #expect(
      bad.stderr == "Error: \(tiff.path): page 2: the TIFF image data is truncated or corrupt\n")
    let past = try ScanTextRun.run(["text", tiff.path, "--pages", "4"])
    #expect(past.code == 1)
    #expect(
      past.stderr == "Error: \(tiff.path): --pages asks for page 4, but the document has 3 pages\n")
  }

  /// Tesseract's own TSV (`--no-preprocess`) of a multi-page TIFF holds
  /// the pages `--pages` chooses, as every other format does (it held
  /// every page), numbered through the document written.
  @Test func exactTSVOfATIFFHoldsThePagesChosen() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiff = folder.appendingPathComponent("two.tif").path
    try ImageWriter.writeMultipageTIFF(
      from: ["dpi-100.png", "dpi-150.png"].map { Fixtures.scans.appendingPathComponent($0).path },
      to: tiff)
    let every = try ScanTextRun.run(["ocr", tiff, "--no-preprocess", "--format", "tsv", "-q"])
    let second = try ScanTextRun.run([
      "ocr", tiff, "--no-preprocess", "--format", "tsv", "-q", "--pages", "2",
    ])
    #expect(every.code == 0, "\(every.stderr)")
    #expect(second.code == 0, "\(second.stderr)")
    /// The rows of `tsv` after the header: page number and the other columns.
    func rows(_ tsv: String) -> [(page: Substring, rest: [Substring])] {
      tsv.split(separator: "\n").dropFirst().map {
        let columns = $0.split(separator: "\t", omittingEmptySubsequences: false)
        return (columns[1], Array(columns[0..<1] + columns[2...]))
      }
    }
    #expect(second.stdout.hasPrefix(TSV.header + "\n"))
    #expect(Set(rows(every.stdout).map(\.page)) == ["1", "2"])
    #expect(Set(rows(second.stdout).map(\.page)) == ["1"])
    #expect(
      rows(second.stdout).map(\.rest) == rows(every.stdout).filter { $0.page == "2" }.map(\.rest))
  }

  /// A multi-page TIFF and the sample PDF read every page, or those chosen.
  @Test func multiPageImagesAndPDFs() throws {
    let folder = try Fixtures.temporaryFolder()
    let tiff = folder.appendingPathComponent("two.tif").path
    let first = Fixtures.scans.appendingPathComponent("dpi-100.png").path
    let second = Fixtures.scans.appendingPathComponent("dpi-150.png").path
    try ImageWriter.writeMultipageTIFF(from: [first, second], to: tiff)
    let texts = try [first, second].map {
      try ScanTextRun.run(["text", $0, "--no-preprocess"]).stdout
    }
    let both = try ScanTextRun.run(["text", tiff, "--no-preprocess"])
    #expect(both.code == 0, "\(both.stderr)")
    #expect(both.stdout == texts.joined(separator: "\u{0C}"))
    let hit = try ScanTextRun.run([
      "hit", tiff, "--point", "100,100", "--no-preprocess", "--pages", "2",
    ])
    #expect(try JSONValue(parsing: hit.stdout)["page"] == nil)
    guard PDFDocument.isAvailable else {
      print("Poppler's GLib library not installed: sample PDF case skipped")
      return
    }
    let pdf = Fixtures.scans.appendingPathComponent("scan.pdf").path
    let lines = try ScanTextRun.run(["lines", pdf, "--no-preprocess", "--pages", "1,3"])
    #expect(lines.code == 0, "\(lines.stderr)")
    let answers = try #require(try JSONValue(parsing: lines.stdout).arrayValue)
    #expect(answers.map { $0["page"] } == [.number(1), .number(3)])
    #expect(
      answers.last?["lines"]?.arrayValue?.first?["text"] == .string("Minutes of the Reading Room"))
  }
}
