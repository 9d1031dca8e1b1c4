import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Inputs that must fail with a clear error naming the file, never a crash.
@Suite("Bad input")
struct BadInputTests {
  let folder: URL
  let engine: OCREngine
  let clean = Fixtures.scans.appendingPathComponent("clean.png")

  init() throws {
    folder = try Fixtures.temporaryFolder()
    engine = try OCREngine()
  }

  func file(_ name: String, _ bytes: [UInt8]) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  func expectError(
    _ path: String, _ expected: OCRError, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(throws: expected, sourceLocation: sourceLocation) {
      try engine.recognize(contentsOf: path)
    }
    #expect(expected.description.hasPrefix(path), sourceLocation: sourceLocation)
  }

  @Test func missingFile() {
    let path = folder.appendingPathComponent("missing.png").path
    expectError(path, .fileNotFound(path: path))
  }

  @Test func missingFileNeverFallsBackToTheCurrentDirectory() throws {
    // Leptonica's pixRead would open ./clean.png for missing/dir/clean.png.
    let previous = FileManager.default.currentDirectoryPath
    _ = FileManager.default.changeCurrentDirectoryPath(Fixtures.scans.path)
    defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
    expectError("no/such/dir/clean.png", .fileNotFound(path: "no/such/dir/clean.png"))
  }

  @Test func directory() {
    expectError(folder.path, .isDirectory(path: folder.path))
  }

  @Test func emptyFile() throws {
    let path = try file("empty.png", [])
    expectError(path, .emptyFile(path: path))
  }

  @Test func textFileNamedPNG() throws {
    let path = try file("notes.png", Array("These are notes, not an image.\n".utf8))
    expectError(path, .unsupportedFormat(path: path))
  }

  @Test func truncatedPNG() throws {
    let bytes = try [UInt8](Data(contentsOf: clean))
    let path = try file("truncated.png", Array(bytes.prefix(bytes.count / 2)))
    expectError(path, .corruptImage(path: path, format: "PNG"))
  }

  @Test func bitFlippedPNG() throws {
    var bytes = try [UInt8](Data(contentsOf: clean))
    for i in stride(from: 200, to: bytes.count - 100, by: 97) { bytes[i] ^= 0x5A }
    let path = try file("flipped.png", bytes)
    expectError(path, .corruptImage(path: path, format: "PNG"))
  }

  @Test func hugePNGHeaderIsRefusedBeforeDecoding() throws {
    let path = try file("huge.png", PNGBytes.header(width: 100_000, height: 100_000))
    expectError(
      path,
      .imageTooLarge(
        path: path, width: 100_000, height: 100_000, limit: RecognitionOptions.defaultMaxPixels))
    #expect(
      OCRError.imageTooLarge(path: path, width: 100_000, height: 100_000, limit: 100_000_000)
        .description
        == "\(path): the image is 100000×100000 pixels (10000.0 megapixels), over the limit of 100 megapixels"
    )
  }

  /// A GIF claiming 20,000 × 20,000 pixels (issue 27, point 3): Leptonica
  /// decodes a GIF whole to read its header, so it was refused after 6.4 s
  /// and 831 MB; its blocks are read first now. A frame larger than the
  /// logical screen counts too.
  @Test func hugeGIFIsRefusedBeforeDecoding() throws {
    func gif(screen: (Int, Int), frame: (Int, Int)) -> [UInt8] {
      func word(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
      // Header, logical screen (a 2-colour global table), a comment
      // extension, one frame, LZW data (clear, a pixel, end), trailer.
      return Array("GIF89a".utf8) + word(screen.0) + word(screen.1) + [0x80, 0, 0]
        + [0, 0, 0, 255, 255, 255] + [0x21, 0xFE, 3] + Array("hi!".utf8) + [0]
        + [0x2C] + word(0) + word(0) + word(frame.0) + word(frame.1) + [0]
        + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }
    let limit = RecognitionOptions.defaultMaxPixels
    for (name, screen, frame) in [
      ("screen", (20_000, 20_000), (1, 1)), ("frame", (1, 1), (20_000, 20_000)),
    ] {
      let bytes = gif(screen: screen, frame: frame)
      #expect(
        GIFHeader.sizes(in: Data(bytes))?.map { [$0.width, $0.height] } == [
          [screen.0, screen.1], [frame.0, frame.1],
        ])
      let path = try file("huge-\(name).gif", bytes)
      let started = Date()
      expectError(path, .imageTooLarge(path: path, width: 20_000, height: 20_000, limit: limit))
      #expect(Date().timeIntervalSince(started) < 1)
    }
    // A small one still reads (the same blocks, 1 × 1).
    let small = try file("small.gif", gif(screen: (1, 1), frame: (1, 1)))
    let source = try ImageSource(ImageReader.readBytes(small), path: small, maxPixels: limit)
    #expect(try source.decode(page: 0).width == 1)
    #expect(GIFHeader.sizes(in: Data("GIF89".utf8)) == nil)
  }

  /// Every other format ScanText reads, cut short (issue 27, point 1): a
  /// PNG, baseline and progressive JPEG, lossless and lossy WebP, GIF and
  /// JPEG 2000 written by Pillow from `clean.png`, cut at half and at 90 %,
  /// are each a damaged image, never a partial page; the intact files read.
  @Test func truncatedImagesOfEveryFormatAreRefused() throws {
    guard
      let made = GeneratedImages.folder(
        """
        import sys
        from PIL import Image
        src, out = sys.argv[1], sys.argv[2]
        im = Image.open(src).convert('L')
        im.save(f'{out}/p.png'); im.save(f'{out}/p.jpg', quality=90)
        im.save(f'{out}/prog.jpg', quality=90, progressive=True)
        im.save(f'{out}/p.webp', lossless=True); im.save(f'{out}/lossy.webp', quality=80)
        im.save(f'{out}/p.gif'); im.save(f'{out}/p.jp2')
        """, { [clean.path, $0.path] })
    else {
      print(GeneratedImages.absentMessage)
      return
    }
    let folder = try made.get()
    for (name, format) in [
      ("p.png", "PNG"), ("p.jpg", "JPEG"), ("prog.jpg", "JPEG"), ("p.webp", "WebP"),
      ("lossy.webp", "WebP"), ("p.gif", "GIF"), ("p.jp2", "JPEG 2000"),
    ] {
      let intact = folder.appendingPathComponent(name).path
      let bytes = try ImageReader.readBytes(intact)
      let page = try ImageSource(bytes, path: intact, maxPixels: .max).decode(page: 0)
      #expect(page.width == 1275 && page.height == 1650, "\(name)")
      for fraction in [0.5, 0.9] {
        let path = try file(
          "cut-\(fraction)-\(name)", [UInt8](bytes.prefix(Int(Double(bytes.count) * fraction))))
        #expect(throws: OCRError.corruptImage(path: path, format: format), "\(name) at \(fraction)")
        {
          try ImageSource(ImageReader.readBytes(path), path: path, maxPixels: .max).decode(page: 0)
        }
      }
    }
  }

  @Test func raisedPixelLimitAdmitsLargerImages() throws {
    let small = try OCREngine(options: RecognitionOptions(maxPixels: 1000))
    #expect(
      throws: OCRError.imageTooLarge(path: clean.path, width: 1275, height: 1650, limit: 1000)
    ) {
      try small.recognize(contentsOf: clean.path)
    }
    // Under a megapixel, or not a whole number of them, the limit is
    // given in pixels ("the limit of 0 megapixels" before).
    #expect(
      OCRError.imageTooLarge(path: "a.png", width: 1275, height: 1650, limit: 1000).description
        == "a.png: the image is 1275×1650 pixels (2.1 megapixels), over the limit of 1000 pixels")
    #expect(
      OCRError.imageTooLarge(path: "a.png", width: 40, height: 30, limit: 1).description
        == "a.png: the image is 40×30 pixels, over the limit of 1 pixel")
  }

  @Test func unknownLanguage() {
    #expect(throws: OCRError.self) {
      try OCREngine(options: RecognitionOptions(languages: ["xyz"]))
    }
    do {
      _ = try OCREngine(options: RecognitionOptions(languages: ["eng", "xyz"]))
    } catch {
      #expect(error.description.hasPrefix("unknown language 'xyz': no xyz.traineddata in "))
      #expect(error.description.contains("eng"))
    }
  }

  @Test func multipageTIFFGivesEveryPage() throws {
    let tiff = folder.appendingPathComponent("two.tif").path
    try ImageWriter.writeMultipageTIFF(
      from: [clean.path, Fixtures.scans.appendingPathComponent("small-print.png").path], to: tiff)
    let pages = try engine.recognize(contentsOf: tiff)
    #expect(pages.map(\.index) == [0, 1])
    #expect(pages.map(\.image) == ["two.tif", "two.tif"])
    #expect(pages[0].text == (try RecognizedScans.page("clean.png").text))
    #expect(pages[1].text == (try RecognizedScans.page("small-print.png").text))
  }

  @Test(
    "Every format Leptonica reads is recognised",
    arguments: [
      ("bmp", ImageWriter.Format.bmp), ("pnm", .pnm), ("gif", .gif), ("webp", .webp),
      ("jp2", .jpeg2000),
    ])
  func otherFormats(_ suffix: String, _ format: ImageWriter.Format) throws {
    let path = folder.appendingPathComponent("clean.\(suffix)").path
    try ImageWriter.write(clean.path, to: path, format: format)
    let page = try #require(try engine.recognize(contentsOf: path).first)
    let reference = try RecognizedScans.page("clean.png")
    #expect(page.width == reference.width && page.height == reference.height)
    let expected = reference.words.map(\.text)
    let read = page.words.map(\.text)
    // WebP and JPEG 2000 are written lossy, so allow a word or two.
    let same = zip(read, expected).filter { $0 == $1 }.count
    #expect(
      Double(same) >= 0.97 * Double(expected.count), "\(suffix): \(same) of \(expected.count) words"
    )
  }

  @Test func engineIsReusedAcrossPages() throws {
    let first = try engine.recognize(contentsOf: clean.path)
    let second = try engine.recognize(contentsOf: clean.path)
    #expect(first == second)
  }
}

/// A minimal PNG: signature, IHDR claiming any size, an empty IDAT, IEND.
enum PNGBytes {
  static func header(width: UInt32, height: UInt32) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] {
      [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be(UInt32(data.count)) + body + be(crc32(body))
    }
    let ihdr = be(width) + be(height) + [8, 0, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
      + chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]) + chunk("IEND", [])
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
      crc ^= UInt32(b)
      for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
