import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

/// A TIFF page stored as JPEG in tiles or strips goes into its searchable
/// PDF as it is stored (issue 26, "lossless images / sizes"): its pieces'
/// JPEG data, each column of tiles (or all the strips) one JPEG image, as
/// `scantext ocr x.tif -o x.pdf` writes it. It was decoded and stored
/// losslessly: 5.47 times `indian-ferns-0004.tif`.
@Suite("Searchable PDF of JPEG tiles")
struct TiledJPEGPDFTests {
  /// A program of libtiff-tools or poppler-utils, when installed.
  static func tool(_ name: String) -> String? {
    ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// The test images: a piece of a sample page (1000 × 700 pixels, not a
  /// multiple of the tiles) with its paper darkened to mid-gray, where the
  /// paper of a PDF page showing through a seam would show; as JPEG tiles
  /// of 128 pixels (gray, YCbCr, RGB: `tiffcp -t -w 128 -l 128 -c jpeg`)
  /// and as YCbCr strips of 64 rows.
  static let images: Result<URL, FixtureError>? = GeneratedImages.folder(
    """
    import sys
    import numpy as np
    from PIL import Image
    src, out = sys.argv[1], sys.argv[2]
    g = np.asarray(Image.open(src).convert('L').crop((100, 100, 1100, 800))).astype(np.float64)
    gray = (g * 0.6).astype(np.uint8)
    rgb = np.stack([gray, (g * 0.55).astype(np.uint8), (g * 0.45 + 20).astype(np.uint8)], -1)
    Image.fromarray(gray).save(f'{out}/gray.tif', dpi=(300, 300))
    Image.fromarray(rgb).save(f'{out}/rgb.tif', dpi=(300, 300))
    """, { [Fixtures.scans.appendingPathComponent("clean.png").path, $0.path] }
  ) { folder in
    guard let tiffcp = Self.tool("tiffcp") else {
      throw FixtureError("tiffcp is needed (libtiff-tools)")
    }
    let tiles = ["-t", "-w", "128", "-l", "128"]
    for (name, source, options) in [
      ("gray-tiles", "gray", tiles + ["-c", "jpeg"]),
      ("ycbcr-tiles", "rgb", tiles + ["-c", "jpeg"]),
      ("rgb-tiles", "rgb", tiles + ["-c", "jpeg:r"]),
      ("ycbcr-strips", "rgb", ["-r", "64", "-c", "jpeg"]),
    ] {
      let (status, output) = try ExternalCheckers.run(
        tiffcp,
        options + [
          folder.appendingPathComponent(source + ".tif").path,
          folder.appendingPathComponent(name + ".tif").path,
        ])
      guard status == 0 else { throw FixtureError("tiffcp failed: \(output)") }
    }
  }

  /// Where a TIFF's first page's pieces lie (Pillow reads the tags):
  /// offsets, byte counts, pieces per row.
  struct Layout: Decodable {
    var offsets: [Int]
    var counts: [Int]
    var across: Int
  }

  static func layout(_ tiff: String) throws -> Layout {
    let python = try #require(GeneratedImages.python)
    let (status, output) = try ExternalCheckers.run(
      python,
      [
        "-c",
        """
        import sys, json
        from PIL import Image
        im = Image.open(sys.argv[1])
        t = im.tag_v2
        tiled = 322 in t
        across = -(-im.size[0] // t[322]) if tiled else 1
        print(json.dumps({'offsets': list(t[324 if tiled else 273]),
                          'counts': list(t[325 if tiled else 279]), 'across': across}))
        """, tiff,
      ])
    #expect(status == 0, "\(output)")
    return try JSONDecoder().decode(Layout.self, from: Data(output.utf8))
  }

  /// Each piece's entropy-coded data (after its scan header, before its
  /// EOI) is in the PDF, in the order a column's image holds them: the
  /// pieces go in as stored, not decoded and encoded again.
  static func expectPiecesStored(
    _ tiff: String, pdf: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let file = try Data(contentsOf: URL(fileURLWithPath: tiff))
    let layout = try Self.layout(tiff)
    let order = layout.offsets.indices.sorted {
      ($0 % layout.across, $0 / layout.across) < ($1 % layout.across, $1 / layout.across)
    }
    var cursor = pdf.startIndex
    var missing = 0
    for i in order {
      let piece = file[layout.offsets[i]..<layout.offsets[i] + layout.counts[i]]
      guard let scan = piece.firstRange(of: [0xFF, 0xDA]) else {
        Issue.record("piece \(i) has no scan", sourceLocation: sourceLocation)
        continue
      }
      let length = Int(piece[scan.lowerBound + 2]) << 8 | Int(piece[scan.lowerBound + 3])
      let data = piece[(scan.lowerBound + 2 + length)..<(piece.endIndex - 2)]
      guard let found = pdf.range(of: data, in: cursor..<pdf.endIndex) else {
        missing += 1
        continue
      }
      cursor = found.upperBound
    }
    #expect(
      missing == 0, "\(missing) of \(order.count) pieces not in the PDF as stored",
      sourceLocation: sourceLocation)
  }

  /// The PDF's image XObjects: their number and their streams' bytes.
  static func imageStreams(_ pdf: Data) throws -> (count: Int, bytes: Int) {
    let text = String(decoding: pdf, as: UTF8.self)
    let pattern = try NSRegularExpression(
      pattern: #"<< ([^\n]*?/Subtype /Image[^\n]*?) /Length (\d+) >>\nstream\n"#)
    let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
    let bytes = matches.reduce(0) { total, match in
      total + (Int((text as NSString).substring(with: match.range(at: 2))) ?? 0)
    }
    #expect(
      matches.allSatisfy {
        (text as NSString).substring(with: $0.range(at: 1)).contains("/DCTDecode")
      })
    return (matches.count, bytes)
  }

  /// The issue's bound: the PDF is at most the file, plus the text layer
  /// (everything but the image streams), plus 10 %; and the image streams
  /// alone are within 10 % of the file (each column repeats the tables).
  static func expectWithinBound(
    _ tiff: String, pdf: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let file = try Data(contentsOf: URL(fileURLWithPath: tiff)).count
    let images = try Self.imageStreams(pdf).bytes
    let layer = pdf.count - images
    #expect(
      Double(pdf.count) <= 1.1 * Double(file + layer),
      "PDF \(pdf.count) bytes, file \(file), layer \(layer)", sourceLocation: sourceLocation)
    #expect(
      Double(images) <= 1.1 * Double(file), "image streams \(images) bytes, file \(file)",
      sourceLocation: sourceLocation)
  }

  /// Compares two renderings (Pillow): the mean and largest difference of
  /// any sample, and the largest mean difference down a column near the
  /// `seams` (device columns where pieces meet, ± 1).
  static func compare(_ a: String, _ b: String, seams: [Double] = []) throws -> (
    mean: Double, max: Int, seam: Double
  ) {
    let python = try #require(GeneratedImages.python)
    let (status, output) = try ExternalCheckers.run(
      python,
      [
        "-c",
        """
        import sys, json
        import numpy as np
        from PIL import Image
        a = np.asarray(Image.open(sys.argv[1]).convert('RGB')).astype(int)
        b = np.asarray(Image.open(sys.argv[2]).convert('RGB')).astype(int)
        if a.shape != b.shape:
            sys.exit(f'sizes differ: {a.shape} {b.shape}')
        d = a - b
        columns = d.mean(axis=(0, 2))
        seams = [float(s) for s in sys.argv[3:]]
        near = [abs(columns[int(s) + o]) for s in seams for o in (-1, 0, 1)
                if 0 <= int(s) + o < len(columns)]
        print(json.dumps({'mean': float(np.abs(d).mean()), 'max': int(np.abs(d).max()),
                          'seam': float(max(near, default=0))}))
        """, a, b,
      ] + seams.map { String($0) })
    try #require(status == 0, "\(output)")
    struct Result: Decodable {
      var mean: Double
      var max: Int
      var seam: Double
    }
    let r = try JSONDecoder().decode(Result.self, from: Data(output.utf8))
    return (r.mean, r.max, r.seam)
  }

  static func render(_ pdf: URL, dpi: Int) throws -> String {
    let tool = try #require(Self.tool("pdftocairo"), "pdftocairo (poppler-utils) is needed")
    let out = pdf.deletingPathExtension().path + "-\(dpi)"
    let (status, output) = try ExternalCheckers.run(
      tool, ["-png", "-r", "\(dpi)", "-singlefile", pdf.path, out])
    #expect(status == 0, "\(output)")
    return out + ".png"
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    /// The image XObjects: a column of tiles each, or the strips joined.
    var images: Int
    /// The largest difference allowed between the page rendered at the
    /// image's resolution and the TIFF as libtiff decodes it.
    var tolerance: Int
    var testDescription: String { file }
  }

  /// Gray and RGB samples come out as libtiff gives them. YCbCr's colour
  /// is stored at half resolution and each decoder fills it in: libtiff a
  /// tile (or strip) at a time, Poppler a column (or the page) at once, so
  /// they differ on the two rows where pieces meet (up to 9 levels
  /// measured; within 2 elsewhere).
  static let cases: [Case] = [
    Case(file: "gray-tiles.tif", images: 8, tolerance: 0),
    Case(file: "ycbcr-tiles.tif", images: 8, tolerance: 12),
    Case(file: "rgb-tiles.tif", images: 8, tolerance: 0),
    Case(file: "ycbcr-strips.tif", images: 1, tolerance: 12),
  ]

  /// The pieces go in as stored, within the size bound; the page shows the
  /// TIFF's pixels, without seams where the pieces meet; the text layer
  /// lies on the ink.
  @Test(arguments: cases)
  func jpegPiecesGoInAsStored(_ c: Case) throws {
    guard let images = Self.images else {
      print(GeneratedImages.absentMessage)
      return
    }
    guard SearchablePDFTests.toolsPresent, Self.tool("pdftocairo") != nil else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try images.get()
    let tiff = folder.appendingPathComponent(c.file).path
    let url = try SearchablePDFTests.writePDF(tiff, folder: folder)
    let pdf = try Data(contentsOf: url)
    let (checked, report) = try ExternalCheckers.run(
      try #require(ExternalCheckers.qpdf), ["--check", url.path])
    #expect(checked == 0, "\(report)")
    #expect(try Self.imageStreams(pdf).count == c.images)
    if c.file.hasPrefix("rgb") {
      // RGB samples, not YCbCr: the decoder must not convert them.
      #expect(String(decoding: pdf, as: UTF8.self).contains("/DecodeParms << /ColorTransform 0 >>"))
    }
    try Self.expectPiecesStored(tiff, pdf: pdf)
    try Self.expectWithinBound(tiff, pdf: pdf)

    // At the image's resolution (300 dpi), pixel for pixel.
    let shown = try Self.compare(Self.render(url, dpi: 300), tiff)
    #expect(shown.mean <= 0.05 && shown.max <= c.tolerance, "\(c.file): \(shown)")

    // At 100 dpi the pieces meet inside device pixels: against the same
    // pixels drawn as one image (the TIFF decoded by Pillow, as a PNG), no
    // column where they meet is lighter (paper showing through) or
    // darker. Without the stretched copies under the pieces, those
    // columns were lighter by up to 30 levels; with them, 3.7 at most.
    let decoded = folder.appendingPathComponent(c.file + ".png").path
    try GeneratedImages.run(
      "import sys\nfrom PIL import Image\nImage.open(sys.argv[1]).convert('RGB').save(sys.argv[2])",
      [tiff, decoded])
    let stream = try PDFImages.stream(page: 0, ofFile: decoded)
    let page = Page(width: stream.width, height: stream.height, dpi: 300, blocks: [])
    let reference = folder.appendingPathComponent(c.file + "-one-image.pdf")
    try SearchablePDF.data(
      pages: [SearchablePDF.PageInput(page: page, image: stream)],
      font: PDFImages.glyphlessFont(), title: nil, producer: "test"
    ).write(to: reference)
    let seams = stride(from: 128, to: stream.width, by: 128).map { Double($0) * 100 / 300 }
    let low = try Self.compare(
      Self.render(url, dpi: 100), Self.render(reference, dpi: 100), seams: seams)
    #expect(low.seam <= 6, "\(c.file): \(low)")

    for report in try RenderedPDFCheck.check(url) {
      #expect(report.words > 0 && report.passed, "\(c.file): \(report)")
    }
  }

  /// The real archive page (`ocrd/indian-ferns-0004.tif`, 609 JPEG tiles
  /// of 128 pixels in YCbCr, 1.08 MB with its five reduced copies): 21
  /// columns, each tile's data as stored, within the bound.
  @Test func theTiledArchivePageGoesInAsStored() throws {
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return
    }
    guard SearchablePDFTests.toolsPresent, GeneratedImages.python != nil else {
      print(ExternalCheckers.pdfToolsAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    let tiff = RealScans.path("ocrd/indian-ferns-0004.tif")
    let url = try SearchablePDFTests.writePDF(tiff, folder: folder)
    let pdf = try Data(contentsOf: url)
    #expect(try Self.imageStreams(pdf).count == 21)
    try Self.expectPiecesStored(tiff, pdf: pdf)
    try Self.expectWithinBound(tiff, pdf: pdf)
    // The title is in the layer. (The rendered check does not apply: six
    // of the page's eight words are marks of the drawing, `¢ ' : z < \`,
    // and fail it as they do in a PDF of the same pixels as one image.)
    let (_, text) = try ExternalCheckers.run(
      try #require(ExternalCheckers.pdftotext), ["-raw", url.path, "-"])
    #expect(text.contains("INDIAN FERNS"), "\(text)")
  }
}
