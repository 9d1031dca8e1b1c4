import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// `--second-look` as a user gives it: listed in `ocr --help`, accepted,
/// and on a clean page the same document as without it.
@Suite("Second look option")
struct SecondLookOptionTests {
  @Test func listedAcceptedAndInertOnACleanPage() throws {
    #expect(scantext(["ocr", "--help"]).stdout.contains("--second-look"))
    let folder = try Fixtures.temporaryFolder()
    let image = Fixtures.scans.appendingPathComponent("clean.png").path
    let plain = folder.appendingPathComponent("plain.json").path
    let looked = folder.appendingPathComponent("looked.json").path
    let first = scantext(["ocr", image, "-o", plain, "-q", "--no-cache"])
    let second = scantext(["ocr", image, "-o", looked, "-q", "--no-cache", "--second-look"])
    #expect(first.code == 0 && second.code == 0, "\(first.stderr)\(second.stderr)")
    #expect(second.stderr.isEmpty)
    let a = try Data(contentsOf: URL(fileURLWithPath: plain))
    let b = try Data(contentsOf: URL(fileURLWithPath: looked))
    #expect(a == b)
    #expect(!String(decoding: b, as: UTF8.self).contains("second look"))
  }
}
