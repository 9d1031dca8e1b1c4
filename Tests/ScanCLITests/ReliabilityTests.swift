import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// What a user sees from `scantext` on hostile and unlucky input (issue 9):
/// no hang, no silent failure, no clobbered file.
@Suite("Reliability (executable)")
struct ReliabilityTests {
  let folder: URL
  let clean = Fixtures.scans.appendingPathComponent("clean.png").path

  init() throws {
    folder = try Fixtures.temporaryFolder()
  }

  func file(_ name: String, _ bytes: [UInt8]) throws -> String {
    let url = folder.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  @Test func loopingTIFFPageListFinishesQuickly() throws {
    let path = try file(
      "loop.tif",
      TIFFBytes(pages: [.square(), .square(), .square()], loop: (from: 2, to: 0)).bytes)
    let r = try ScanTextRun.run(["ocr", path, "--no-preprocess"], timeout: 30)
    #expect(r.code == 0, "\(r.stderr)")
    #expect(r.seconds < 20)
    let document = try DocumentJSON.decode(r.stdout)
    #expect(document.pages.count == 3)
  }

  @Test func laterPageOverTheLimitIsRefused() throws {
    let path = try file(
      "big-second.tif",
      TIFFBytes(pages: [.square(), .claiming(width: 20000, height: 20000)]).bytes)
    let r = try ScanTextRun.run(["ocr", path], timeout: 30)
    #expect(r.code == 1)
    #expect(r.stdout.isEmpty)
    #expect(
      r.stderr
        == "Error: \(path): page 2 is 20000×20000 pixels (400.0 megapixels), over the limit of 100 megapixels (raise the limit with --max-pixels)\n"
    )
  }

  @Test func upscaleOverTheLimitIsRefused() throws {
    let r = try ScanTextRun.run(["ocr", clean, "--upscale", "--dpi", "1"], timeout: 30)
    #expect(r.code == 1)
    #expect(r.seconds < 10)
    #expect(r.stderr.contains("page 1 at 1 dpi would be upscaled to 382500×495000 pixels"))
  }

  @Test func corruptTIFFPageIsReportedAndTheOthersWritten() throws {
    let path = try file(
      "middle-bad.tif",
      TIFFBytes(pages: [.square(), .claiming(width: 64, height: 64), .square()]).bytes)
    let output = folder.appendingPathComponent("out.json").path
    let r = try ScanTextRun.run(["ocr", path, "-o", output, "--no-preprocess"])
    #expect(r.code == 1)
    #expect(r.stderr == "Error: \(path): page 2: the TIFF image data is truncated or corrupt\n")
    let document = try DocumentJSON.decode(String(contentsOfFile: output, encoding: .utf8))
    #expect(document.pages.count == 2)
  }
}
