import ScanModel
import Testing

@testable import ScanOCR

/// C handles are freed on every path (issue 9 point 6).
@Suite("Engine lifetime")
struct EngineLifetimeTests {
  @Test func failedInitFreesTheTesseractHandle() throws {
    // `OCREngine.init` used to create its TessBaseAPI and then throw for an
    // unknown language before every property was set: no deinit, a leak.
    try OCRLibraries.load()
    weak var weakHandle: TesseractHandle?
    for languages: [LanguageCode] in [["xyz"], ["eng", "../eng"]] {
      do {
        let handle = TesseractHandle()
        weakHandle = handle
        _ = try OCREngine(options: RecognitionOptions(languages: languages), handle: handle)
        Issue.record("\(languages) should not load")
      } catch {
        #expect(error.description.hasPrefix("unknown language"))
      }
      #expect(weakHandle == nil, "the handle of a failed engine is freed")
    }
  }
}
