import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// What a user sees from a forged model (issue 45, point 1): every reader
/// refuses it with the file, the page and the field, `convert` writes
/// nothing ScanText would refuse to read, and a model's image is read
/// only from within the model's folder unless given with `--image`.
@Suite("Model validation (executable)")
struct ModelValidationTests {
  let folder: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    return path(name)
  }

  /// A model of one word on a page the size of clean.png, naming `image`.
  static func model(image: String?, dpi: Int? = 300) -> String {
    let box = PixelRect(minX: 100, minY: 100, maxX: 300, maxY: 140)
    let line = TextLine(bbox: box, words: [Word(text: "word", bbox: box, confidence: 90)])
    let page = Page(
      image: image, width: 1275, height: 1650, dpi: dpi,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    return DocumentJSON.encode(
      Document(pages: [page]), generator: Generator(name: "test", version: "0"))
  }

  /// `convert` of a PAGE document whose cell spans 2^63 − 1 rows exited 0
  /// writing JSON and `.stm` that ScanText then refused (and killed PDF
  /// output by SIGSEGV). It is refused on reading, and nothing is written.
  @Test func convertOfAForgedPAGEWritesNothing() throws {
    let input = try write(
      "forged.page.xml",
      ModelLimitsXML.pageXML(row: "0", rowSpan: "9223372036854775807"))
    let reason =
      "not a valid PAGE XML document: page 1, blocks[0].paragraphs[0]: the table cell at row 0 spanning 9223372036854775807 reaches beyond the 16384 places a table of this page's 1 words may have"
    for (output, extra) in [("out.json", []), ("out.stm", []), ("out.pdf", ["--image", clean])] {
      let r = try ScanTextRun.run(["convert", input, path(output)] + extra, timeout: 60)
      #expect(r.code == 1, "\(output)")
      #expect(r.stderr == "Error: \(input): \(reason)\n", "\(output)")
      #expect(!FileManager.default.fileExists(atPath: path(output)), "\(output)")
    }
  }

  /// `"dpi": 0` killed PDF output by SIGILL with no message.
  @Test func aResolutionOfZeroIsRefused() throws {
    let input = try write("dpi.json", Self.model(image: nil, dpi: 0))
    let r = try ScanTextRun.run(["convert", input, path("out.pdf"), "--image", clean], timeout: 60)
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: \(input): not a ScanText document: pages[0]: 'dpi' 0 is not between 1 and 100000\n"
    )
    #expect(!FileManager.default.fileExists(atPath: path("out.pdf")))
  }

  /// A model whose `"image"` is `../elsewhere/private.png` made `html
  /// --embed-image` embed a file outside the model's folder. Names that
  /// lead out (`..`, an absolute path) are refused by every command that
  /// reads the model's image; `--image` still takes any file, and a bare
  /// name beside the model (what `ocr` writes) works, a symbolic link
  /// beside it too (the HTML tests link their images so).
  @Test func aModelsImageStaysInItsFolder() throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: path("model"), withIntermediateDirectories: true)
    try fm.createDirectory(atPath: path("elsewhere"), withIntermediateDirectories: true)
    try fm.copyItem(atPath: clean, toPath: path("elsewhere/private.png"))
    try fm.copyItem(atPath: clean, toPath: path("model/page.png"))
    try fm.createSymbolicLink(
      atPath: path("model/link.png"), withDestinationPath: path("elsewhere/private.png"))
    let escapes = [
      ("up.json", "../elsewhere/private.png", "leads up with '..'"),
      ("absolute.json", path("elsewhere/private.png"), "is an absolute path"),
    ]
    for (name, image, why) in escapes {
      let model = try write("model/\(name)", Self.model(image: image))
      for arguments in [
        ["html", model, "-o", path("out.html"), "--embed-image"],
        ["draw", model, "-o", path("out.png")],
        ["convert", model, path("out.pdf")],
      ] {
        let r = try ScanTextRun.run(arguments, timeout: 60)
        #expect(r.code == 1, "\(name) \(arguments[0])")
        #expect(
          r.stderr.hasPrefix("Error: \(model): the model's image '\(image)' \(why)"),
          "\(name) \(arguments[0]): \(r.stderr)")
        #expect(
          r.stderr.hasSuffix("outside the model's folder; give the image with --image to use it\n"))
        for output in ["out.html", "out.png", "out.pdf"] {
          #expect(!fm.fileExists(atPath: path(output)), "\(name) \(arguments[0])")
        }
      }
    }
    // Told with --image, the same file is embedded.
    let up = path("model/up.json")
    let told = try ScanTextRun.run(
      [
        "html", up, "-o", path("told.html"), "--embed-image", "--image",
        path("elsewhere/private.png"),
      ],
      timeout: 60)
    #expect(told.code == 0, "\(told.stderr)")
    // A bare name beside the model, as `ocr` writes it, and a link there.
    for image in ["page.png", "link.png"] {
      let beside = try write("model/beside.json", Self.model(image: image))
      let r = try ScanTextRun.run(
        ["html", beside, "-o", path("beside.html"), "--embed-image"], timeout: 60)
      #expect(r.code == 0, "\(image): \(r.stderr)")
      #expect(
        try String(contentsOfFile: path("beside.html"), encoding: .utf8).contains("data:image/png"))
    }
  }
}

/// The forged PAGE document of the format tests, for the executable's.
enum ModelLimitsXML {
  static func pageXML(row: String, rowSpan: String) -> String {
    let coords = #"<Coords points="10,10 60,10 60,30 10,30"/>"#
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2019-07-15">
      <Page imageFilename="page.png" imageWidth="200" imageHeight="100">
      <TableRegion id="t0">\(coords)<TextRegion id="r0">\(coords)
      <Roles><TableCellRole rowIndex="\(row)" columnIndex="0" rowSpan="\(rowSpan)" colSpan="1"/></Roles>
      <TextLine id="l0">\(coords)<Word id="w0">\(coords)<TextEquiv><Unicode>cell</Unicode></TextEquiv></Word>
      <TextEquiv><Unicode>cell</Unicode></TextEquiv></TextLine></TextRegion></TableRegion>
      </Page></PcGts>
      """
  }
}
