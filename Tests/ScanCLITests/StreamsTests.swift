import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanOCR
@testable import ScanService

/// Standard input and output, output names, and outputs that are inputs
/// (issue 26, point 6), through the executable.
@Suite("Standard streams (executable)")
struct StreamsTests {
  let folder: URL
  let small = Fixtures.scans.appendingPathComponent("dpi-100.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  func json(_ text: String) throws -> Document { try DocumentJSON.decode(text) }

  /// A ScanText document of `clean.png` in the folder (no OCR in the runs).
  func model(_ name: String = "clean.json") throws -> String {
    let page = try RecognizedScans.page("clean.png")
    try DocumentJSON.encode(Document(pages: [page]), generator: ScanText.generator)
      .write(toFile: path(name), atomically: false, encoding: .utf8)
    return path(name)
  }

  // MARK: standard input

  /// An image, a PDF and documents read from `-` give what the file gives;
  /// the page's `image` is `-`.
  @Test func standardInputReadsAsTheFileWould() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: small))
    let fromFile = try ScanTextRun.run(["ocr", small, "--no-preprocess"])
    let fromInput = try ScanTextRun.run(["ocr", "-", "--no-preprocess"], stdinData: bytes)
    #expect(fromInput.code == 0, "\(fromInput.stderr)")
    #expect(fromInput.stderr.isEmpty)
    let a = try json(fromFile.stdout).pages[0]
    let b = try json(fromInput.stdout).pages[0]
    #expect(b.image == "-")
    #expect(b.text == a.text)
    #expect(b.withImage(a.image) == a)

    // A PDF (img2pdf of the same page), and a multi-page TIFF.
    if let pdf = try? PDFInputTests.imageOnlyPDF("dpi-100.png", folder: folder) {
      let r = try ScanTextRun.run(
        ["text", "-", "--no-preprocess"], stdinData: try Data(contentsOf: pdf))
      #expect(r.code == 0, "\(r.stderr)")
      #expect(r.stdout == a.text)
    } else {
      print(PDFInputTests.absentMessage)
    }
    let tiff = path("two.tif")
    try ImageWriter.writeMultipageTIFF(from: [small, small], to: tiff)
    let pages = try ScanTextRun.run(
      ["ocr", "-", "--no-preprocess", "--pages", "2"],
      stdinData: try Data(contentsOf: URL(fileURLWithPath: tiff)))
    #expect(pages.code == 0, "\(pages.stderr)")
    let second = try json(pages.stdout).pages
    #expect(second.map(\.text) == [a.text])

    // Documents: ScanText JSON, hOCR and ALTO, told apart by their content.
    let model = try model()
    let modelBytes = try Data(contentsOf: URL(fileURLWithPath: model))
    let text = try ScanTextRun.run(["text", "-"], stdinData: modelBytes)
    #expect(text.stdout == (try RecognizedScans.page("clean.png")).text)
    for format in ["hocr", "alto"] {
      let converted = try ScanTextRun.run(["convert", model, "-", "--format", format])
      let back = try ScanTextRun.run(
        ["convert", "-", "-", "--format", "text"], stdinData: converted.stdoutData)
      #expect(back.code == 0, "\(format): \(back.stderr)")
      #expect(back.stdout == text.stdout, "\(format)")
    }
  }

  /// The outputs that take the image again (the searchable PDF, the HTML
  /// page) take it from standard input too.
  @Test func imageOutputsOfStandardInput() throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: small))
    let pdf = try ScanTextRun.run(
      ["ocr", "-", "--format", "pdf", "--no-preprocess"], stdinData: bytes)
    #expect(pdf.code == 0, "\(pdf.stderr)")
    let file = path("stdin.pdf")
    try pdf.stdoutData.write(to: URL(fileURLWithPath: file))
    let (status, text) = try ExternalCheckers.run("/usr/bin/pdftotext", [file, "-"])
    #expect(status == 0)
    let words = try json(ScanTextRun.run(["ocr", small, "--no-preprocess"]).stdout).pages[0]
      .text.split(whereSeparator: \.isWhitespace)
    #expect(text.split(whereSeparator: \.isWhitespace) == words)

    let html = try ScanTextRun.run(["html", "-", "-o", "-", "--no-preprocess"], stdinData: bytes)
    #expect(html.code == 0, "\(html.stderr)")
    #expect(html.stdout.contains("src=\"data:image/png;base64,\(bytes.base64EncodedString())\""))
  }

  @Test func badStandardInputIsNamedDash() throws {
    let empty = try ScanTextRun.run(["ocr", "-"], stdinData: Data())
    #expect(empty.code == 1)
    #expect(empty.stderr == "Error: -: standard input is empty\n")
    let garbage = try ScanTextRun.run(["text", "-"], stdin: "not an image, not a document\n")
    #expect(garbage.code == 1)
    #expect(garbage.stderr.hasPrefix("Error: -: "), "\(garbage.stderr)")
    #expect(garbage.stderr.split(separator: "\n").count == 1)
    let brokenJSON = try ScanTextRun.run(["lines", "-"], stdin: "{\"version\": 1, \"pages\": [")
    #expect(brokenJSON.code == 1)
    #expect(brokenJSON.stderr.hasPrefix("Error: -: not a ScanText document"))
  }

  @Test func standardInputIsGivenOnce() throws {
    for arguments in [
      ["ocr", "-", "-"], ["eval", "-", "--truth", "-"], ["convert", "-", "x.json", "--image", "-"],
      ["draw", "-", "--image", "-", "-o", "x.png"],
    ] {
      let r = try ScanTextRun.run(arguments)
      #expect(r.code == 64, "\(arguments)")
      #expect(
        r.stderr.hasPrefix(
          "Error: '-' (standard input) may be given only once: it can be read only once\n"),
        "\(arguments): \(r.stderr)")
    }
    let query = try ScanTextRun.run(["query", "-"])
    #expect(query.code == 64)
    #expect(query.stderr.hasPrefix("Error: query reads its requests from standard input"))
  }

  /// Standard input is read into memory up to 512 MiB and refused past it
  /// (a sparse file of 512 MiB + 1 byte as standard input).
  @Test func standardInputOverTheLimitIsRefused() throws {
    let big = path("big")
    try #require(FileManager.default.createFile(atPath: big, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
    try handle.truncate(atOffset: UInt64(InputFiles.standardInputLimit + 1))
    try handle.close()
    let r = try ScanTextRun.run(["ocr", "-"], stdinFile: big)
    #expect(r.code == 1)
    #expect(
      r.stderr
        == "Error: -: standard input holds more than 512 MiB, the most read into memory; give a file instead\n"
    )
    #expect(r.stdout.isEmpty)
  }

  /// The cache keys on the bytes: the same image on standard input twice is
  /// recognised once.
  @Test func standardInputUsesTheCache() throws {
    let cache = try Fixtures.temporaryFolder()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: small))
    let environment = ["XDG_CACHE_HOME": cache.path]
    let first = try ScanTextRun.run(["ocr", "-"], stdinData: bytes, environment: environment)
    let entries = try FileManager.default.contentsOfDirectory(
      atPath: cache.appendingPathComponent("scantext").path)
    #expect(entries.count == 1)
    let second = try ScanTextRun.run(["ocr", "-"], stdinData: bytes, environment: environment)
    #expect(second.stdout == first.stdout)
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: cache.appendingPathComponent("scantext").path) == entries)
    // The file and standard input share the entry; only the name differs.
    let file = try ScanTextRun.run(["ocr", small], environment: environment)
    #expect(try json(file.stdout).pages[0] == json(first.stdout).pages[0].withImage("dpi-100.png"))
  }

  // MARK: standard output

  /// `-o -`, `-o /dev/stdout` (a pipe here) and no `-o` write what `-o FILE`
  /// writes, in every format.
  @Test func everyFormatGoesToStandardOutput() throws {
    let model = try model()
    for format in ["json", "text", "hocr", "alto", "tsv"] {
      let file = path("out.\(format)")
      let written = try ScanTextRun.run(["convert", model, file, "--format", format])
      #expect(written.code == 0, "\(written.stderr)")
      let expected = try Data(contentsOf: URL(fileURLWithPath: file))
      for output in [["-o", "-"], ["-o", "/dev/stdout"], []] {
        let r = try ScanTextRun.run(["ocr", model, "--format", format] + output)
        #expect(r.code == 0, "\(format) \(output): \(r.stderr)")
        #expect(r.stdoutData == expected, "\(format) \(output)")
      }
    }
    // PAGE XML carries the time of writing: the same document either way.
    let page = try ScanTextRun.run(["convert", model, "-", "--format", "page"])
    #expect(
      try DocumentFormat.page.decode(page.stdoutData).pages.map(\.text) == [
        try RecognizedScans.page("clean.png").text
      ])

    // A searchable PDF, a drawing and the HTML page as bytes.
    let pdfFile = path("out.pdf")
    #expect(try ScanTextRun.run(["ocr", small, "-o", pdfFile, "--no-preprocess"]).code == 0)
    let pdf = try ScanTextRun.run(["ocr", small, "--format", "pdf", "--no-preprocess"])
    #expect(pdf.code == 0, "\(pdf.stderr)")
    #expect(pdf.stdoutData.starts(with: Data("%PDF-".utf8)))
    #expect(pdf.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: pdfFile))))
    let png = path("boxes.png")
    #expect(try ScanTextRun.run(["draw", model, "-o", png]).code == 0)
    let drawn = try ScanTextRun.run(["draw", model, "-o", "-"])
    #expect(drawn.code == 0, "\(drawn.stderr)")
    #expect(drawn.stdoutData == (try Data(contentsOf: URL(fileURLWithPath: png))))
    let html = path("page.html")
    #expect(try ScanTextRun.run(["html", model, "-o", html]).code == 0)
    #expect(
      try ScanTextRun.run(["html", model, "-o", "-"]).stdoutData
        == (try Data(contentsOf: URL(fileURLWithPath: html))))
  }

  @Test func failedStandardOutputIsAnError() throws {
    let model = try model()
    for arguments in [
      ["ocr", small, "--format", "pdf", "--no-preprocess"], ["ocr", model, "-o", "-"],
      ["draw", model, "-o", "-"], ["html", model, "-o", "/dev/stdout"],
    ] {
      let r = try ScanTextRun.run(arguments, stdoutFile: "/dev/full")
      #expect(r.code == 1, "\(arguments)")
      #expect(
        r.stderr.hasSuffix("Error: cannot write to standard output (No space left on device)\n"),
        "\(arguments): \(r.stderr)")
    }
  }

  // MARK: output names

  @Test func unknownOutputExtensionIsAUsageErrorListingTheFormats() throws {
    for name in ["out.docx", "out.text", "scan.2024"] {
      let r = try ScanTextRun.run(["ocr", small, "-o", path(name)])
      #expect(r.code == 64, "\(name)")
      let ending = "." + (name.split(separator: ".").last ?? "")
      #expect(
        r.stderr.hasPrefix(
          "Error: '\(path(name))': '\(ending)' is not the ending of a format ScanText writes"),
        "\(r.stderr)")
      for line in [
        "  json      .json\n", "  text      .txt\n", "  hocr      .hocr, .html, .htm, .xhtml\n",
        "  alto      .alto.xml, .alto\n", "  page      .page.xml, .page\n", "  tsv       .tsv\n",
        "  pdf       .pdf (a searchable PDF: the images and their text)\n",
        "  markdown  .md, .markdown (the text as a reader reads it: headings, lists, tables)\n",
      ] {
        #expect(r.stderr.contains(line), "\(line)")
      }
      #expect(r.stderr.contains("\nUsage: scantext ocr "))
      #expect(!FileManager.default.fileExists(atPath: path(name)))
    }
    let convert = try ScanTextRun.run(["convert", "in.json", path("out.docx")])
    #expect(convert.code == 64)
    #expect(convert.stderr.contains("\nUsage: scantext convert "))
    let xml = try ScanTextRun.run(["ocr", small, "-o", path("out.xml")])
    #expect(xml.code == 64)
    #expect(xml.stderr.contains(".xml may be ALTO or PAGE"))
    #expect(xml.stderr.contains("  alto      .alto.xml, .alto\n"))
  }

  /// `--format` decides whatever the name; a name without an extension is
  /// JSON, as standard output is.
  @Test func formatOptionAndNamesWithoutAnExtension() throws {
    let model = try model()
    let docx = path("out.docx")
    #expect(try ScanTextRun.run(["ocr", model, "-o", docx, "--format", "text"]).code == 0)
    #expect(
      try String(contentsOfFile: docx, encoding: .utf8)
        == (try RecognizedScans.page("clean.png")).text)
    let bare = path("out")
    #expect(try ScanTextRun.run(["convert", model, bare]).code == 0)
    #expect(try DocumentJSON.decode(String(contentsOfFile: bare, encoding: .utf8)).pages.count == 1)
  }

  // MARK: outputs that are inputs

  /// An output that is one of the inputs is refused before any work,
  /// whatever the spelling: the scan and the model stay as they were.
  @Test func outputThatIsAnInputIsRefused() throws {
    let scan = path("x.png")
    try FileManager.default.copyItem(atPath: small, toPath: scan)
    let original = try Data(contentsOf: URL(fileURLWithPath: scan))
    try FileManager.default.createSymbolicLink(atPath: path("link.png"), withDestinationPath: scan)
    try FileManager.default.linkItem(atPath: scan, toPath: path("hard.png"))
    try FileManager.default.createDirectory(
      atPath: path("sub"), withIntermediateDirectories: false)
    let model = try model("x.json")
    let modelBytes = try Data(contentsOf: URL(fileURLWithPath: model))
    // A model that names x.png, beside it: draw would draw over its image.
    let besideModel = path("beside.json")
    var page = try RecognizedScans.page("dpi-100.png")
    page = page.withImage("x.png")
    try DocumentJSON.encode(Document(pages: [page]), generator: ScanText.generator)
      .write(toFile: besideModel, atomically: false, encoding: .utf8)
    let cases: [([String], String, String)] = [
      (["ocr", scan, "-o", scan, "--format", "json"], scan, scan),
      (["ocr", scan, "-o", path("link.png"), "--format", "json"], path("link.png"), scan),
      (
        ["ocr", path("link.png"), "-o", path("sub/../x.png"), "--format", "hocr"],
        path("sub/../x.png"), path("link.png")
      ),
      (["ocr", scan, "-o", path("hard.png"), "--format", "text"], path("hard.png"), scan),
      (["html", scan, "-o", scan], scan, scan),
      (["draw", scan, "-o", scan], scan, scan),
      (["draw", besideModel, "-o", scan], scan, scan),
      (["convert", model, model], model, model),
      (
        ["convert", model, path("sub/../x.json"), "--format", "alto"], path("sub/../x.json"), model
      ),
    ]
    for (arguments, output, input) in cases {
      let r = try ScanTextRun.run(arguments)
      #expect(r.code == 1, "\(arguments)")
      #expect(
        r.stderr
          == "Error: \(output): cannot write the output: it is the input '\(input)', which it would replace\n",
        "\(arguments): \(r.stderr)")
      #expect(r.seconds < 5, "refused before any OCR: \(arguments)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: scan)) == original)
    #expect(try Data(contentsOf: URL(fileURLWithPath: model)) == modelBytes)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!files.contains { $0.hasSuffix(".tmp") })
  }
}
