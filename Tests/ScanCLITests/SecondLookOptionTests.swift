import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// The second look as a user sees it: on by default, `--no-second-look`
/// listed in `ocr --help` and accepted, `--second-look` still accepted,
/// and on a clean page the same document either way.
@Suite("Second look option")
struct SecondLookOptionTests {
  @Test func listedAcceptedAndInertOnACleanPage() throws {
    #expect(scantext(["ocr", "--help"]).stdout.contains("--no-second-look"))
    let folder = try Fixtures.temporaryFolder()
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let plain = folder.appendingPathComponent("plain.json").path
    let looked = folder.appendingPathComponent("looked.json").path
    let first = scantext(["ocr", image, "-o", plain, "-q", "--no-cache"])
    let off = folder.appendingPathComponent("off.json").path
    let second = scantext(["ocr", image, "-o", looked, "-q", "--no-cache", "--second-look"])
    let third = scantext(["ocr", image, "-o", off, "-q", "--no-cache", "--no-second-look"])
    #expect(
      first.code == 0 && second.code == 0 && third.code == 0,
      "\(first.stderr)\(second.stderr)\(third.stderr)")
    #expect(second.stderr.isEmpty && third.stderr.isEmpty)
    let a = try Data(contentsOf: URL(fileURLWithPath: plain))
    let b = try Data(contentsOf: URL(fileURLWithPath: looked))
    let c = try Data(contentsOf: URL(fileURLWithPath: off))
    #expect(a == b && a == c)
    #expect(!String(decoding: b, as: UTF8.self).contains("second look"))
  }
}
