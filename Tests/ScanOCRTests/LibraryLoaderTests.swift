import CScanOCR
import Foundation
import ScanImaging
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The run-time loader of libtesseract and Leptonica (issue 9 point 7).
@Suite("Library loader")
struct LibraryLoaderTests {
  @Test func generatedWrappersAreCurrent() throws {
    // Regenerating Sources/CScanOCR from the installed headers changes nothing.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", Fixtures.packageRoot.appendingPathComponent("Tools/generate-ocr-shims.py").path,
      "--check",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
  }

  @Test func onlyVersionedSharedObjectsAreLoaded() {
    let names = OCRLibraries.libraryNames("tesseract") + OCRLibraries.libraryNames("leptonica")
    #expect(names == ["libtesseract.so.5", "liblept.so.5", "libleptonica.so.6"])
  }

  @Test func fingerprintNamesTheFilesTheLoaderOpened() throws {
    try OCRLibraries.load()
    let loaded = OCRLibraries.loadedFiles
    #expect(loaded.count == 2)
    let fingerprinted = OCRLibraries.fingerprint.split(separator: "\n").map {
      String($0.split(separator: ":")[0])
    }
    #expect(fingerprinted == loaded)
  }

  @Test func loadedLibrariesMatchTheHeaders() throws {
    try OCRLibraries.load()
    let major = SCANTEXT_TESSERACT_HEADERS_VERSION.split(separator: ".").first.map(String.init)
    #expect(OCREngine.tesseractVersion.hasPrefix((major ?? "?") + "."))
  }

  @Test func openMPIsFoundThroughTesseractNotTheGlobalScope() throws {
    try OCRLibraries.load()
    // Debian's libtesseract uses libgomp; the symbol comes from its handle.
    #expect(OpenMP.setMaxActiveLevels != nil)
  }
}

/// Tesseract's in-memory PNGs (each line image it recognises) are stored
/// without compression; a PNG written for a user keeps the level asked for;
/// both read back to the same pixels.
@Suite("PNG compression of Leptonica's writes")
struct PNGCompressionTests {
  /// The type of the first deflate block of the first IDAT chunk (0:
  /// stored, 1 or 2: compressed), and the pixels read back.
  static func write(_ image: LeptonicaImage) throws -> (blockType: Int, pixels: GrayPixels) {
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    #expect(scantext_pixWriteMem(&bytes, &size, image.pix, Int32(IFF_PNG)) == 0)
    let data = Data(bytes: try #require(bytes), count: size)
    scantext_lept_free(bytes)
    var i = 8
    var blockType = -1
    while i + 11 <= data.count {
      let length = data[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
      if data[(i + 4)..<(i + 8)].elementsEqual("IDAT".utf8) {
        // After zlib's two header bytes: BFINAL (bit 0), BTYPE (bits 1–2).
        blockType = Int(data[i + 10] >> 1) & 3
        break
      }
      i += 12 + length
    }
    let decoded = try data.withUnsafeBytes { raw in
      try #require(
        scantext_pixReadMem(raw.bindMemory(to: UInt8.self).baseAddress, data.count))
    }
    return (blockType, try #require(GrayPixels(LeptonicaImage(taking: decoded))))
  }

  static func page() throws -> LeptonicaImage {
    try OCRLibraries.load()
    var values = [UInt8](repeating: 255, count: 200 * 60)
    for i in values.indices where (i / 200) % 7 < 3 && (i % 200) % 5 < 2 { values[i] = 20 }
    return try #require(LeptonicaImage(gray: GrayPixels(width: 200, height: 60, values: values)))
  }

  /// Before, Tesseract's PNGs were compressed at zlib's default level 6
  /// (zlib and libpng were 12–17 % of a reading).
  @Test func unaskedForPNGsAreStored() throws {
    let image = try Self.page()
    let (blockType, pixels) = try Self.write(image)
    #expect(blockType == 0)
    #expect(pixels.values == (try #require(GrayPixels(image))).values)
  }

  @Test func aLevelAskedForIsKept() throws {
    let image = try Self.page()
    #expect(scantext_pixSetZlibCompression(image.pix, 6) == 0)
    let (blockType, pixels) = try Self.write(image)
    #expect(blockType == 1 || blockType == 2)
    #expect(pixels.values == (try #require(GrayPixels(image))).values)
  }

  /// The drawing a user asks for is compressed (it was before too).
  @Test func drawingsAreCompressed() throws {
    let page = try RecognizedScans.page("clean.png")
    let image = try Data(contentsOf: Fixtures.scans.appendingPathComponent("clean.png"))
    let png = try PageDrawing().png(of: page, imageData: image)
    // Measured 178,937 bytes; stored, its 1275 × 1650 RGB pixels take 6.3 MB.
    #expect(png.count < 1_000_000, "\(png.count) bytes")
  }
}
