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
      "python3",
      Fixtures.packageRoot.appendingPathComponent("Tools/generate/generate-ocr-shims.py").path,
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
    // Every library opened by name is opened by a soname; the others are
    // found through another library's handle.
    for library in ["poppler", "qpdf", "zlib"] {
      let sonames = OCRLibraries.libraryNames(library)
      #expect(!sonames.isEmpty && sonames.allSatisfy { $0.contains(".so.") }, "\(library)")
    }
    for library in ["tiff", "png", "jpeg", "gomp", "glib", "gobject", "cairo"] {
      #expect(OCRLibraries.libraryNames(library).isEmpty, "\(library)")
    }
  }

  @Test func requiredLibrariesAreWhatRecognitionNeeds() {
    let required = (0..<Int(SCANTEXT_LIBRARY_COUNT)).filter {
      scantext_library_required(Int32($0)) == 1
    }
    #expect(
      required == [
        Int(SCANTEXT_LIBRARY_LEPTONICA), Int(SCANTEXT_LIBRARY_TESSERACT),
        Int(SCANTEXT_LIBRARY_TIFF),
      ])
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
    // Debian's libtesseract uses libgomp; its symbol comes from
    // libtesseract's handle.
    #expect(OpenMP.isAvailable)
    let gomp = scantext_library_handle(Int32(SCANTEXT_LIBRARY_GOMP))
    #expect(gomp != nil && gomp == scantext_library_handle(Int32(SCANTEXT_LIBRARY_TESSERACT)))
  }

  /// The loader's one binding step, given a library that is not there, a
  /// symbol a library lacks, and an optional symbol it lacks.
  @Test func bindingErrorsNameTheLibraryAndTheSymbol() throws {
    func bind(_ sonames: [String], _ symbols: [String], optional: [UInt8]) -> (
      Int32, String, [Bool]
    ) {
      var slots = [UnsafeMutableRawPointer?](repeating: nil, count: symbols.count)
      var handle: UnsafeMutableRawPointer?
      var error = [CChar](repeating: 0, count: 512)
      let cSonames = sonames.map { strdup($0) } + [nil]
      let cSymbols = symbols.map { strdup($0) }
      defer { (cSonames + cSymbols).forEach { free($0) } }
      let status = cSonames.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
        cSymbols.map { UnsafePointer($0) }.withUnsafeBufferPointer { symbolNames in
          scantext_bind_library(
            "test library", names.baseAddress, nil, RTLD_NOW | RTLD_LOCAL,
            symbolNames.baseAddress, optional, &slots, symbols.count, &handle, &error,
            error.count)
        }
      }
      return (status, Self.string(error), slots.map { $0 != nil })
    }
    let absent = bind(["libscantext-absent.so.1"], ["compress2"], optional: [0])
    #expect(absent.0 == -1)
    #expect(absent.1.hasPrefix("cannot load libscantext-absent.so.1 ("), "\(absent.1)")
    let lacking = bind(
      ["libz.so.1"], ["compress2", "scantext_no_such_function"], optional: [0, 0])
    #expect(lacking.0 == -1)
    #expect(lacking.1 == "libz.so.1 has no scantext_no_such_function")
    let optional = bind(
      ["libz.so.1"], ["compress2", "scantext_no_such_function"], optional: [0, 1])
    #expect(optional.0 == 0)
    #expect(optional.2 == [true, false])
  }

  /// libpng's and libjpeg's quiet handlers and the stored PNGs are in
  /// place (x86-64 and arm64); a redirect that cannot be made is an error
  /// with its reason, not a silent no-op.
  @Test func codecHooksAreInstalledOrTheirFailureIsReported() throws {
    try OCRLibraries.load()
    #expect(OCRLibraries.hookFailures == [])
    let leptonica = scantext_library_handle(Int32(SCANTEXT_LIBRARY_LEPTONICA))
    var error = [CChar](repeating: 0, count: 512)
    let replacement = UnsafeMutableRawPointer(bitPattern: 1)
    let status = scantext_redirect_import(
      leptonica, "scantext_not_imported", replacement, &error, error.count)
    #expect(status == -1)
    let message = Self.string(error)
    #expect(
      message.hasPrefix("cannot redirect the import of scantext_not_imported: "), "\(message)")
  }

  /// Without Poppler (hidden in a private mount namespace), a PDF input
  /// gets the error it always got, and the other inputs are read.
  @Test func missingPopplerGivesTheSameClearError() throws {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    probe.arguments = ["-m", "true"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return }
    probe.waitUntilExit()
    guard probe.terminationStatus == 0 else {
      print("unshare -m is not permitted here: the missing-Poppler test skipped")
      return
    }
    guard let poppler = OCRLibraries.findFile(OCRLibraries.libraryNames("poppler")) else { return }
    let pdf = Fixtures.packageRoot.appendingPathComponent("Scans/scan.pdf").path
    let image = Fixtures.packageRoot.appendingPathComponent("Scans/clean.png").path
    let script =
      "mount --bind /dev/null \"$1\" && exec \"$2\" ocr \"$3\" \"$4\" --format text"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = [
      "-m", "sh", "-c", script, "sh", poppler, Fixtures.executable.path, pdf, image,
    ]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(
      message.contains(
        "\(pdf): reading PDF needs Poppler's GLib library, which is not installed"),
      "\(message)")
    #expect(!text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(message)")
  }

  /// A NUL-terminated C string held in an array.
  static func string(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// Tesseract's in-memory PNGs (each line image it recognises) are stored
/// without compression (`scantext_store_unleveled_pngs`); a PNG written for
/// a user keeps the level asked for; both read back to the same pixels.
/// Serialized: one test turns the setting off for a moment.
@Suite("PNG compression of Leptonica's writes", .serialized)
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

  /// Without the setting (as where Leptonica's import cannot be
  /// redirected), such a PNG is compressed as libpng does: the same pixels.
  @Test func withoutTheSettingUnaskedForPNGsAreCompressed() throws {
    let image = try Self.page()
    #expect(scantext_store_unleveled_pngs(0) == 0)
    defer { _ = scantext_store_unleveled_pngs(1) }
    let (blockType, pixels) = try Self.write(image)
    #expect(blockType == 1 || blockType == 2)
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
