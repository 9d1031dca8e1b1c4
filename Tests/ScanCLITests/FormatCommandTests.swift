import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanOCR

@Suite("Formats on the command line")
struct FormatCommandTests {
  @Test func convertHasHelp() {
    let help = scantext(["convert", "--help"])
    #expect(help.code == 0)
    #expect(help.stdout.contains("USAGE: scantext convert [<options>] <input> <output>"))
    #expect(help.stdout.contains("--format <format>"))
    #expect(scantext(["--help"]).stdout.contains("\n  convert "))
  }

  @Test func ocrWritesTheFormatItsExtensionNames() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let expected: [(String, String)] = [
      ("out.alto.xml", "<alto xmlns=\"http://www.loc.gov/standards/alto/ns-v4#\""),
      (
        "out.page.xml",
        "<PcGts xmlns=\"http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15\""
      ),
      ("out.hocr", "<div class=\"ocr_page\""),
      ("out.tsv", TSV.header + "\n1\t1\t0\t0\t0\t0\t0\t0\t1275"),
    ]
    for (name, marker) in expected {
      let path = folder.appendingPathComponent(name).path
      let r = scantext(["ocr", CleanModel.path, "-o", path, "-q"])
      #expect(r.code == 0, "\(name): \(r.stderr)")
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.contains(marker), "\(name)")
    }
    // --format wins over the extension; standard output takes any format.
    let r = scantext(["ocr", CleanModel.path, "--format", "tsv", "-q"])
    #expect(r.stdout.hasPrefix(TSV.header + "\n"))
    // A bare .xml could be ALTO or PAGE.
    let xml = scantext(["ocr", CleanModel.path, "-o", folder.appendingPathComponent("x.xml").path])
    #expect(xml.code == 64)
    #expect(xml.stderr.contains(".xml may be ALTO or PAGE: name the file .alto.xml or .page.xml"))
  }

  @Test func convertRoundTripsAndEveryCommandReadsEveryFormat() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let page = try CleanModel.page
    for name in ["c.hocr", "c.alto.xml", "c.page.xml", "c.tsv"] {
      let path = folder.appendingPathComponent(name).path
      #expect(scantext(["convert", CleanModel.path, path]).code == 0)
      // Queries work on the converted file directly.
      let text = scantext(["text", path])
      #expect(text.code == 0)
      #expect(text.stdout == page.text, "\(name)")
      let verify = scantext(["verify", path])
      #expect(verify.code == 0, "\(name): \(verify.stdout)")
      let back = folder.appendingPathComponent(name + ".json").path
      #expect(scantext(["convert", path, back]).code == 0)
      let document = try DocumentJSON.decode(String(contentsOfFile: back, encoding: .utf8))
      #expect(document.pages.first?.words.map(\.bbox) == page.words.map(\.bbox), "\(name)")
      // A .xml file is recognised by its root element.
      if name.hasSuffix(".xml") {
        let plain = folder.appendingPathComponent(
          "plain-\(name.split(separator: ".").joined(separator: "-")).xml"
        ).path
        try FileManager.default.copyItem(atPath: path, toPath: plain)
        #expect(scantext(["text", plain]).stdout == page.text)
      }
    }
    let toStdout = scantext(["convert", CleanModel.path, "-", "--format", "hocr"])
    #expect(toStdout.code == 0)
    #expect(toStdout.stdout.contains("class=\"ocrx_word\""))
  }

  @Test func evalTakesTruthInEveryFormat() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truth = Fixtures.scans.appendingPathComponent("clean.truth.json").path
    func total(_ truthPath: String) throws -> JSONValue? {
      let r = scantext(["eval", CleanModel.path, "--truth", truthPath, "--json"])
      #expect(r.code == 0, "\(truthPath): \(r.stderr)")
      return try JSONValue(parsing: r.stdout)["total"]
    }
    let expected = try #require(try total(truth))
    #expect(expected["truthWords"] == .number(Double(try Fixtures.truth("clean.png").words.count)))
    for name in ["t.hocr", "t.alto.xml", "t.page.xml", "t.tsv"] {
      let path = folder.appendingPathComponent(name).path
      #expect(scantext(["convert", truth, path]).code == 0)
      #expect(try total(path) == expected, "\(name)")
    }
  }

  @Test func badFilesAreClearErrorsAndWriteNothing() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad.alto.xml")
    try
      "<alto><Layout><Page WIDTH=\"10\" HEIGHT=\"10\"><TextBlock><TextLine><String/></TextLine></TextBlock></Page></Layout></alto>"
      .write(to: bad, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out.json")
    let r = scantext(["convert", bad.path, out.path])
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: \(bad.path): not a valid ALTO document: line 1: alto/Layout[1]/Page[1]/TextBlock[1]/TextLine[1]/String[1]: missing attribute 'CONTENT'\n"
    )
    #expect(!FileManager.default.fileExists(atPath: out.path))
    let truncated = folder.appendingPathComponent("cut.hocr")
    try "<html><body><div class='ocr_page' title='bbox 0 0 10 10'>".write(
      to: truncated, atomically: true, encoding: .utf8)
    let t = scantext(["text", truncated.path])
    #expect(t.code == 1)
    #expect(
      t.stderr.hasPrefix("Error: \(truncated.path): not a valid hOCR document: line 1, column"))
    let unknown = folder.appendingPathComponent("notes.xml")
    try "<notes/>".write(to: unknown, atomically: true, encoding: .utf8)
    #expect(
      scantext(["text", unknown.path]).stderr
        == "Error: \(unknown.path): not a document ScanText reads (JSON, hOCR, ALTO, PAGE XML or Tesseract TSV)\n"
    )
    let pageOut = scantext([
      "convert", CleanModel.path, folder.appendingPathComponent("two.page.xml").path,
    ])
    #expect(pageOut.code == 0)
  }

  @Test func realGroundTruthWorksWithVerifyAndEval() throws {
    guard let folder = RealScans.folder else {
      print(RealScans.absentMessage)
      return
    }
    let ocrd = folder.appendingPathComponent("ocrd")
    let alto = ocrd.appendingPathComponent("kant-0017.alto.xml").path
    let verify = scantext(["verify", alto])
    #expect(verify.code == 0)
    #expect(verify.stdout.hasPrefix("\(alto): 1 page, "))
    #expect(verify.stdout.hasSuffix(" checks, 0 violations\n"))
    let eval = scantext([
      "eval", ocrd.appendingPathComponent("kant-0017.tif").path, "--truth",
      ocrd.appendingPathComponent("kant-0017.page.xml").path, "--json", "--no-cache",
    ])
    #expect(eval.code == 0, "\(eval.stderr)")
    let report = try JSONValue(parsing: eval.stdout)
    #expect(report["total"]?["truthWords"] == .number(161))
    // The truth is German (PAGE's primaryLanguage), so the page is read as such.
    let recall = report["total"]?["wordRecall"]?.doubleValue ?? 0
    #expect(recall > 0.3, "word recall \(recall)")
  }

  /// `tesseract IMAGE - tsv`, single-threaded.
  static func tesseractTSV(_ path: String, language: String) throws -> String {
    try tesseract(path, language: language, config: ["tsv"])
  }

  /// What `tesseract PATH - -l LANGUAGE CONFIG…` prints.
  static func tesseract(_ path: String, language: String, config: [String] = []) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tesseract", path, "-", "-l", language] + config
    var environment = ProcessInfo.processInfo.environment
    environment["OMP_THREAD_LIMIT"] = "1"
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  static let tsvPages: [(String, String)] = {
    var pages = ["clean.png", "two-columns.png", "german.png", "article.png"].map {
      (Fixtures.scans.appendingPathComponent($0).path, Fixtures.language($0))
    }
    // Real pages where the model and Tesseract's TSV differ most: words of
    // only spaces (kant), line boxes that cut off their words (linn).
    for image in ["ocrd/kant-0017.tif", "ocrmypdf/linn.png", "tesseract-test/phototest.tif"]
    where RealScans.isAvailable {
      pages.append((RealScans.path(image), "eng"))
    }
    return pages
  }()

  /// `--no-preprocess` keeps Tesseract's paragraph order (`--layout
  /// tesseract`), so the text is the `tesseract` command's even where the
  /// reading order differs; `--layout reading` asks for the reader's order.
  @Test func noPreprocessKeepsTesseractsOrderAndLayoutReadingChangesIt() throws {
    for image in ["article.png", "marginalia.png"] {
      let path = Fixtures.scans.appendingPathComponent(image).path
      let plain = scantext(["ocr", path, "--no-preprocess", "--format", "text", "-q"])
      #expect(plain.code == 0, "\(image): \(plain.stderr)")
      #expect(plain.stdout == (try Self.tesseract(path, language: "eng")), "\(image)")
      let explicit = scantext(["ocr", path, "--layout", "tesseract", "--format", "text", "-q"])
      #expect(explicit.stdout == plain.stdout, "\(image)")
      let reading = scantext([
        "ocr", path, "--no-preprocess", "--layout", "reading", "--format", "text", "-q",
      ])
      #expect(reading.code == 0)
      #expect(reading.stdout != plain.stdout, "\(image)")
      // The same lines, in another order.
      #expect(
        reading.stdout.split(separator: "\n").sorted()
          == plain.stdout.split(separator: "\n").sorted())
    }
    let bad = scantext([
      "ocr", Fixtures.scans.appendingPathComponent("clean.png").path, "--layout", "columns",
    ])
    #expect(bad.code != 0)
    #expect(bad.stderr.contains("layout"))
  }

  @Test("ocr --no-preprocess --format tsv is byte-identical to tesseract IMAGE - tsv")
  func tsvIsByteIdenticalToTesseract() throws {
    if !RealScans.isAvailable { print(RealScans.absentMessage) }
    for (path, language) in Self.tsvPages {
      let ours = scantext(["ocr", path, "--no-preprocess", "--format", "tsv", "-q", "-l", language])
      #expect(ours.code == 0, "\(path): \(ours.stderr)")
      let theirs = try Self.tesseractTSV(path, language: language)
      #expect(theirs.hasPrefix(TSV.header))
      #expect(ours.stdout == theirs, "\(path)")
    }
    // Several inputs number their pages on, as a multi-page TIFF does.
    let clean = Fixtures.scans.appendingPathComponent("clean.png").path
    let two = scantext(["ocr", clean, clean, "--no-preprocess", "--format", "tsv", "-q"])
    let pageNumbers = Set(
      two.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t")[1] })
    #expect(pageNumbers == ["1", "2"])
    #expect(two.stdout.components(separatedBy: TSV.header).count == 2)
  }

  /// Each page of a multi-page TIFF is decoded once and read by
  /// Tesseract in a worker, its rows numbered as the document's page when
  /// written: the same bytes as Tesseract reading the file itself.
  @Test func tsvOfAMultiPageTIFFIsTesseractsOwn() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tiff = folder.appendingPathComponent("three.tif").path
    try ImageWriter.writeMultipageTIFF(
      from: ["dpi-100.png", "clean.png", "dpi-150.png"].map {
        Fixtures.scans.appendingPathComponent($0).path
      }, to: tiff)
    let ours = scantext(["ocr", tiff, "--no-preprocess", "--format", "tsv", "-q"])
    #expect(ours.code == 0, "\(ours.stderr)")
    #expect(ours.stdout == (try Self.tesseractTSV(tiff, language: "eng")))
  }

  /// A PNG's width and height from its header.
  static func pngSize(_ path: String) throws -> (Int, Int) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    func int(_ at: Int) -> Int { data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (int(16), int(20))
  }

  @Test func drawWritesAPictureOfThePage() throws {
    let help = scantext(["draw", "--help"])
    #expect(help.code == 0)
    #expect(help.stdout.contains("USAGE: scantext draw"))
    #expect(help.stdout.contains("--layers <layers>"))
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("overlay.png").path
    // On the image given, and on a white page when there is none.
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let r = scantext(["draw", CleanModel.path, "--image", image, "-o", out])
    #expect(r.code == 0, "\(r.stderr)")
    #expect(try Self.pngSize(out) == (1275, 1650))
    let blank = folder.appendingPathComponent("blank.png").path
    #expect(scantext(["draw", CleanModel.path, "-o", blank, "--layers", "words,order"]).code == 0)
    #expect(try Self.pngSize(blank) == (1275, 1650))
    // Imported documents draw too.
    let alto = folder.appendingPathComponent("c.alto.xml").path
    #expect(scantext(["convert", CleanModel.path, alto]).code == 0)
    #expect(scantext(["draw", alto, "--image", image, "-o", out]).code == 0)
    // Usage errors.
    #expect(scantext(["draw", CleanModel.path, "-o", blank, "--layers", "roles"]).code == 0)
    let layer = scantext(["draw", CleanModel.path, "-o", out, "--layers", "words,styles"])
    #expect(layer.code == 64)
    #expect(
      layer.stderr.contains(
        "unknown layer 'styles' (layers: words, lines, order, confidence, blocks, roles, all)"))
    let notPNG = scantext([
      "draw", CleanModel.path, "-o", folder.appendingPathComponent("x.jpg").path,
    ])
    #expect(notPNG.code == 64)
    let wrong = scantext([
      "draw", CleanModel.path, "--image", Fixtures.scans.appendingPathComponent("dpi-100.png").path,
      "-o", folder.appendingPathComponent("wrong.png").path,
    ])
    #expect(wrong.code == 1)
    #expect(wrong.stderr.contains("but the page is 1275×1650"))
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent("wrong.png").path))
  }
}
