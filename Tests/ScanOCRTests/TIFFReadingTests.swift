import Foundation
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// TIFF files read through libtiff: hostile page lists and sizes, corrupt
/// pages, tiled pages (issue 9 points 1, 5 and 6; issue 8 point 7).
@Suite("TIFF reading")
struct TIFFReadingTests {
  let folder: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  func file(_ name: String, _ tiff: TIFFBytes) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(tiff.bytes).write(to: url)
    return url.path
  }

  /// Runs `body`, failing when it takes longer than `seconds`.
  @discardableResult
  func quickly<T>(
    _ seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
  ) rethrows -> T {
    let started = Date()
    let result = try body()
    let elapsed = Date().timeIntervalSince(started)
    #expect(elapsed < seconds, "took \(elapsed) s", sourceLocation: sourceLocation)
    return result
  }

  @Test func pageListThatLoopsBackEndsAtTheLoop() throws {
    // The third page's next-page offset points at the first: it used to be
    // read forever, growing without bound.
    let path = try file(
      "loop.tif", TIFFBytes(pages: [.square(), .square(), .square()], loop: (from: 2, to: 0)))
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: []))
    let pages = try quickly { try engine.recognize(contentsOf: path) }
    #expect(pages.map(\.index) == [0, 1, 2])
    #expect(pages.allSatisfy { $0.width == 64 && $0.height == 64 })
  }

  @Test func pageThatPointsAtItselfIsReadOnce() throws {
    let path = try file("self.tif", TIFFBytes(pages: [.square()], loop: (from: 0, to: 0)))
    let data = try ImageReader.readBytes(path)
    let pages = try quickly { try ImageReader.decodePages(data, path: path, maxPixels: .max) }
    #expect(pages.count == 1)
  }

  @Test func laterPageOverThePixelLimitIsRefusedBeforeDecoding() throws {
    // The second page claims 20000×20000 (it used to be decoded, 472 MB,
    // before being refused).
    let path = try file(
      "big-second.tif", TIFFBytes(pages: [.square(), .claiming(width: 20000, height: 20000)]))
    let engine = try OCREngine()
    let expected = OCRError.pageTooLarge(
      path: path, page: 1, width: 20000, height: 20000,
      limit: RecognitionOptions.defaultMaxPixels)
    quickly(2) {
      #expect(throws: expected) { try engine.recognize(contentsOf: path) }
    }
    #expect(
      expected.description
        == "\(path): page 2 is 20000×20000 pixels (400.0 megapixels), over the limit of 100 megapixels"
    )
  }

  @Test func firstPageOverThePixelLimit() throws {
    let path = try file("big.tif", TIFFBytes(pages: [.claiming(width: 30000, height: 30000)]))
    let engine = try OCREngine()
    #expect(
      throws: OCRError.imageTooLarge(
        path: path, width: 30000, height: 30000, limit: RecognitionOptions.defaultMaxPixels)
    ) { try engine.recognize(contentsOf: path) }
  }

  @Test func upscalingIsCheckedAgainstThePixelLimitBeforeAllocating() throws {
    // A 150×150 page tagged 1 dpi would be upscaled to 45000×45000 (4 GB).
    let path = try file("one-dpi.tif", TIFFBytes(pages: [.square(width: 150, height: 150, dpi: 1)]))
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: [.upscale]))
    let expected = OCRError.upscaledImageTooLarge(
      path: path, page: 0, dpi: 1, width: 45000, height: 45000,
      limit: RecognitionOptions.defaultMaxPixels)
    quickly(2) {
      #expect(throws: expected) { try engine.recognize(contentsOf: path) }
    }
    #expect(expected.description.contains("page 1 at 1 dpi would be upscaled to 45000×45000"))
    // The same with `--dpi 1` on a PNG.
    let forced = try OCREngine(options: RecognitionOptions(dpi: 1, preprocessing: [.upscale]))
    quickly(2) {
      #expect(throws: OCRError.self) { try forced.recognize(contentsOf: clean) }
    }
    // Without upscaling the page reads.
    let plain = try OCREngine(options: RecognitionOptions(preprocessing: []))
    #expect(try plain.recognize(contentsOf: path).count == 1)
  }

  @Test func corruptPageIsReportedAndTheOthersKept() throws {
    let gray = try GrayPixels.read(clean)
    let reference = try RecognizedScans.page("clean.png", preprocessing: [])
    let page = TIFFBytes.Page(
      width: gray.width, height: gray.height, pixels: gray.values, dpi: reference.dpi)
    let path = try file(
      "middle-bad.tif",
      TIFFBytes(pages: [page, .claiming(width: gray.width, height: gray.height), page]))
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: []))
    let data = try ImageReader.readBytes(path)
    let result = try engine.recognizePages(imageData: data, path: path)
    #expect(result.pages.map(\.index) == [0, 2])
    #expect(result.pageErrors == [.corruptPage(path: path, page: 1, format: "TIFF")])
    #expect(
      result.pageErrors.first?.description
        == "\(path): page 2: the TIFF image data is truncated or corrupt")
    #expect(result.pages.allSatisfy { $0.text == reference.text })
    // The strict entry point reports the bad page.
    #expect(throws: OCRError.corruptPage(path: path, page: 1, format: "TIFF")) {
      try engine.recognize(contentsOf: path)
    }
  }

  /// A page past its deadline is reported like a damaged page and the
  /// others are kept (issue 27, point 3): the timeout escaped the page
  /// loop, and the good first page was lost with it. A blank 64-pixel page
  /// reads in milliseconds; a text page takes Tesseract most of a second.
  @Test func pagePastItsDeadlineIsReportedAndTheOthersKept() throws {
    let gray = try GrayPixels.read(clean)
    let text = TIFFBytes.Page(width: gray.width, height: gray.height, pixels: gray.values, dpi: 300)
    let path = try file("slow-second.tif", TIFFBytes(pages: [.square(), text, .square()]))
    let engine = try OCREngine(options: RecognitionOptions(timeout: 0.25, preprocessing: []))
    let result = try engine.recognizePages(imageData: ImageReader.readBytes(path), path: path)
    #expect(result.pages.map(\.index) == [0, 2])
    #expect(result.pageErrors == [.timedOut(path: path, page: 1, seconds: 0.25)])
    #expect(
      result.pageErrors.first?.description == "\(path): page 2 ran past the 0.25-second timeout")
  }

  @Test func everyPageCorruptIsACorruptFile() throws {
    let path = try file(
      "all-bad.tif",
      TIFFBytes(pages: [.claiming(width: 10, height: 10), .claiming(width: 10, height: 10)]))
    let engine = try OCREngine()
    #expect(throws: OCRError.corruptImage(path: path, format: "TIFF")) {
      try engine.recognize(contentsOf: path)
    }
  }

  @Test func truncatedTIFFHeaderIsACorruptFile() throws {
    let bytes = TIFFBytes(pages: [.square()]).bytes
    let url = folder.appendingPathComponent("cut.tif")
    try Data(bytes.prefix(12)).write(to: url)
    let engine = try OCREngine()
    #expect(throws: OCRError.corruptImage(path: url.path, format: "TIFF")) {
      try engine.recognize(contentsOf: url.path)
    }
  }

  /// TIFFs damaged the ways files are damaged (issue 27, point 1), made
  /// from `clean.png` by Pillow (uncompressed, the directory first) and
  /// `tiffcp` (16-row strips in every compression ScanText reads, the
  /// directory last): libtiff reports the damage and goes on, and
  /// Leptonica's reader and libtiff's RGBA interface (without
  /// stop-on-error) returned the page with a blank or garbled band, read
  /// with exit 0. Each is now a damaged page, and in a file of two pages
  /// whose second is damaged the first is kept, read as from the intact
  /// file.
  @Test func damagedTIFFsAreRefusedPageByPage() throws {
    guard
      let made = GeneratedImages.folder(
        """
        import subprocess, sys, struct, random
        from PIL import Image
        src, out = sys.argv[1], sys.argv[2]
        im = Image.open(src).convert('L')
        im.save(f'{out}/plain.tif')
        im.point(lambda v: 255 if v > 128 else 0).convert('1').save(f'{out}/bw.tif')
        def tiffcp(c, args, name):
            subprocess.run(['tiffcp', '-c', c, '-r', '16'] + args + [f'{out}/{name}'], check=True)
        for c in ['lzw', 'zip', 'packbits', 'jpeg']:
            tiffcp(c, [f'{out}/plain.tif'], f'{c}.tif')
        tiffcp('g4', [f'{out}/bw.tif'], 'g4.tif')
        tiffcp('lzw', [f'{out}/plain.tif', f'{out}/plain.tif'], 'two.tif')
        tiffcp('lzw', [f'{out}/plain.tif'], 'one.tif')
        def damage(name, start, end):
            b = bytearray(open(f'{out}/{name}.tif', 'rb').read())
            r = random.Random(7)
            for i in range(int(len(b) * start), int(len(b) * end)):
                b[i] = r.randrange(256)
            open(f'{out}/bad-{name}.tif', 'wb').write(b)
        # Compressed strips overwritten in the middle of the data (the
        # directory is at the end).
        for name in ['lzw', 'zip', 'packbits', 'jpeg', 'g4']:
            damage(name, 0.4, 0.6)
        # The second page's strips (after the first page and its directory).
        damage('two', 0.7, 0.85)
        # Pillow's uncompressed file, directory first, cut in half.
        b = open(f'{out}/plain.tif', 'rb').read()
        assert struct.unpack('<I', b[4:8])[0] == 8
        open(f'{out}/bad-plain.tif', 'wb').write(b[:len(b) // 2])
        """, { [clean, $0.path] })
    else {
      print(GeneratedImages.absentMessage)
      return
    }
    let folder = try made.get()
    for name in ["plain", "lzw", "zip", "packbits", "jpeg", "g4"] {
      let intact = folder.appendingPathComponent(name + ".tif").path
      let damaged = folder.appendingPathComponent("bad-" + name + ".tif").path
      let source = try ImageSource(
        ImageReader.readBytes(intact), path: intact, maxPixels: .max)
      _ = try source.decode(page: 0)
      let bad = try ImageSource(
        ImageReader.readBytes(damaged), path: damaged, maxPixels: .max)
      #expect(throws: OCRError.corruptImage(path: damaged, format: "TIFF"), "\(name)") {
        try bad.decode(page: 0)
      }
    }
    let path = folder.appendingPathComponent("bad-two.tif").path
    let engine = try OCREngine(options: RecognitionOptions(preprocessing: []))
    let result = try engine.recognizePages(imageData: ImageReader.readBytes(path), path: path)
    #expect(result.pages.map(\.index) == [0])
    #expect(
      result.pageErrors.map(\.description)
        == ["\(path): page 2: the TIFF image data is truncated or corrupt"])
    // The first page as a file of its own.
    let intact = try engine.recognize(
      contentsOf: folder.appendingPathComponent("one.tif").path)
    #expect(result.pages.first?.text == intact.first?.text)
  }

  /// A 8 kB file whose header claims 1000 samples per pixel in one
  /// PackBits strip (found by the fuzzer): libtiff allocated the whole
  /// decoded strip, 25 GB, before decoding it. libtiff now gets an
  /// allocation limit from the pixel limit, and the file is refused as
  /// corrupt at once.
  @Test func stripClaimingAThousandSamplesPerPixelIsRefused() throws {
    let samples = 1000
    var entries: [(tag: UInt16, type: UInt16, count: UInt32, value: UInt32)] = [
      (256, 4, 1, 5000), (257, 4, 1, 5000), (258, 3, UInt32(samples), 0), (259, 3, 1, 32773),
      (262, 3, 1, 2), (273, 4, 1, 4096), (277, 3, 1, UInt32(samples)), (278, 4, 1, 5000),
      (279, 4, 1, 4096), (284, 3, 1, 1), (338, 3, UInt32(samples - 3), 0),
    ]
    let arrays = UInt32(8 + 2 + 12 * entries.count + 4)
    entries[2].value = arrays
    entries[10].value = arrays + UInt32(2 * samples)
    var bytes: [UInt8] = Array("II*\u{0}".utf8) + [8, 0, 0, 0]
    func append16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func append32(_ v: UInt32) {
      for shift in [0, 8, 16, 24] { bytes.append(UInt8((v >> UInt32(shift)) & 0xFF)) }
    }
    append16(UInt16(entries.count))
    for e in entries {
      append16(e.tag)
      append16(e.type)
      append32(e.count)
      if e.type == 3 && e.count == 1 {
        append16(UInt16(e.value))
        append16(0)
      } else {
        append32(e.value)
      }
    }
    append32(0)
    for _ in 0..<samples { append16(8) }
    for _ in 0..<(samples - 3) { append16(0) }
    bytes += [UInt8](repeating: 0x80, count: 8192 - bytes.count)
    let url = folder.appendingPathComponent("many-samples.tif")
    try Data(bytes).write(to: url)
    #expect(ImageSource.tiffAllocationLimit(maxPixels: 100_000_000) == 800_000_000)
    let engine = try OCREngine()
    quickly(5) {
      #expect(throws: OCRError.corruptImage(path: url.path, format: "TIFF")) {
        try engine.recognize(contentsOf: url.path)
      }
    }
  }

  @Test func tiledTIFFReadsLikeItsStripCopy() throws {
    let strip = folder.appendingPathComponent("strip.tif").path
    try ImageWriter.writeMultipageTIFF(from: [clean], to: strip)
    let tiled = folder.appendingPathComponent("tiled.tif").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["tiffcp", "-t", strip, tiled]
    try process.run()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "tiffcp (libtiff-tools) is needed for this test")
    let engine = try OCREngine()
    let fromTiles = try engine.recognize(contentsOf: tiled)
    let fromStrip = try engine.recognize(contentsOf: strip)
    #expect(fromTiles.count == 1)
    #expect(fromTiles.first?.text == fromStrip.first?.text)
    #expect(fromTiles.first?.dpi == fromStrip.first?.dpi)
  }

  @Test func tiledPagesBuiltByHand() throws {
    // 8-bit gray tiles of 16×16 over a 40×40 page (partial edge tiles).
    var page = TIFFBytes.Page.square(width: 40, height: 40, dpi: 300)
    page.tileSize = 16
    let path = try file("tiles.tif", TIFFBytes(pages: [page, page]))
    let data = try ImageReader.readBytes(path)
    let pages = try ImageReader.decodePages(data, path: path, maxPixels: .max)
    #expect(pages.map(\.width) == [40, 40])
    #expect(pages.map(\.resolution) == [300, 300])
    let gray = try GrayPixels.read(path)
    #expect(gray[0, 0] == 255 && gray[20, 20] == 0 && gray[39, 39] == 255)
  }

  @Test func realTiledArchiveScanIsRecognised() throws {
    // A tiled JPEG-in-TIFF colour page with a reduced-resolution copy, as
    // archives produce; Leptonica and the `tesseract` command refuse it.
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return
    }
    let pages = try RealScans.pages("ocrd/indian-ferns-0004.tif", preprocessing: [])
    #expect(pages.count == 1, "the reduced-resolution copy is not a page")
    let page = try #require(pages.first)
    #expect(page.width == 2626 && page.height == 3620)
    // Its tag says 72 dpi (a software default): estimated, and within 20
    // inches a side (the title page's little text gives 300 dpi).
    #expect(page.dpiSource == .estimated)
    let dpi = try #require(page.dpi)
    #expect(Double(max(page.width, page.height)) / Double(dpi) <= 20, "\(dpi) dpi")
    // A title page: the title, four times on the ornamental border.
    #expect(page.text.contains("INDIAN FERNS"), "\(page.text)")
  }

  @Test func unsupportedImageMessageNamesEveryFormat() {
    let message = OCRError.unsupportedFormat(path: "x").description
    for format in ["PNG", "JPEG", "TIFF", "PNM", "BMP", "WebP", "GIF", "JPEG 2000"] {
      #expect(message.contains(format))
    }
  }
}
