import CScanOCR
import Foundation
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
