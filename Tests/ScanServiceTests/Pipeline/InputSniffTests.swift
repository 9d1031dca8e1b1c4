import Foundation
import ScanFormats
import ScanService
import ScanTestSupport
import Testing

/// What an input is, told by one rule (``InputFiles/sniff(head:path:isStream:)``):
/// the same for a file and a stream of the same bytes (but where a
/// file's name says it is a document), and the same as ``Input`` tells
/// it.
@Suite("Input sniffing")
struct InputSniffTests {
  /// A header, the name of a file holding it, and what it is.
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var head: [UInt8]
    var kind: Input.Kind
    var format: String?
    /// As a stream, when it differs from the file (a name that says
    /// document, an XML or JSON root read only from a stream).
    var asStream: (kind: Input.Kind, format: String?)?
    var description: String { name }
  }

  private static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  private static let compact: [UInt8] = [0x89, 0x53, 0x54, 0x4D, 0x0D, 0x0A, 0x1A, 0x0A]

  static let cases: [Case] = [
    Case(name: "a.png", head: png + [0, 0, 0, 13], kind: .image),
    Case(name: "a.jpg", head: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16], kind: .image),
    Case(name: "a.tif", head: [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], kind: .image, format: "tiff"),
    Case(name: "b.tif", head: [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8], kind: .image, format: "tiff"),
    Case(name: "big.tif", head: [0x49, 0x49, 0x2B, 0, 8, 0, 0, 0], kind: .image, format: "tiff"),
    Case(name: "a.pdf", head: Array("%PDF-1.7\n".utf8), kind: .pdf, format: "pdf"),
    Case(name: "late.bin", head: Array("junk first\n%PDF-1.4\n".utf8), kind: .pdf, format: "pdf"),
    // A PNG whose metadata holds `%PDF-` is an image.
    Case(name: "meta.png", head: png + Array("tEXt %PDF-1.4".utf8), kind: .image),
    Case(name: "a.stm", head: compact + [1, 0], kind: .document, format: "stm"),
    // A compact model whose bytes happen to hold `%PDF-` is still one,
    // from a file or a stream.
    Case(
      name: "odd.stm", head: compact + Array("%PDF-".utf8), kind: .document, format: "stm"),
    Case(
      name: "a.json", head: Array("{\"version\": 1}".utf8), kind: .document, format: "json"),
    // A file's name says document: its content says which.
    Case(
      name: "page.xml", head: Array("<?xml version=\"1.0\"?>\n<alto>".utf8), kind: .document,
      format: "alto"),
    Case(
      name: "named.json", head: Array("%PDF-1.4\n".utf8), kind: .document, format: "json",
      asStream: (.pdf, "pdf")),
    // A file not named as a document is not read as one; a stream, which
    // has no name, is, by its root.
    Case(
      name: "model.bin", head: Array("{\"version\": 1}".utf8), kind: .image,
      asStream: (.document, "json")),
    Case(
      name: "page.bin", head: Array("<pc:PcGts xmlns:pc=\"x\">".utf8), kind: .image,
      asStream: (.document, "page")),
    Case(
      name: "words.bin", head: Array((TSV.header + "\n").utf8), kind: .image,
      asStream: (.document, "tsv")),
    Case(name: "hello.bin", head: Array("hello".utf8), kind: .image),
  ]

  @Test(arguments: cases)
  func eachHeaderIsToldOnceAndTheSameWay(_ c: Case) throws {
    let folder = try Fixtures.temporaryFolder()
    let file = folder.appendingPathComponent(c.name)
    try Data(c.head).write(to: file)
    let fromBytes = InputFiles.sniff(head: Data(c.head), path: file.path, isStream: false)
    #expect(fromBytes.kind == c.kind)
    #expect(fromBytes.format == c.format)
    // The file read from its path: what every stage asks.
    #expect(InputFiles.sniff(file.path) == fromBytes)
    #expect(InputFiles.kind(file.path) == c.kind)
    #expect(InputFiles.isTIFF(file.path) == (c.format == "tiff"))
    let stream = InputFiles.sniff(head: Data(c.head), path: "-", isStream: true)
    #expect(stream.kind == (c.asStream?.kind ?? c.kind))
    #expect(stream.format == (c.asStream.map { $0.format } ?? c.format))
  }

  @Test func anInputIsWhatItsSniffSays() throws {
    for name in ["clean.png", "photo-flat.jpg", "scan.pdf", "clean.truth.json"] {
      let path = Fixtures.scans.appendingPathComponent(name).path
      let input = try Input(path: path)
      let sniffed = InputFiles.sniff(path)
      #expect(input.kind == sniffed.kind, "\(name)")
      #expect(input.format == sniffed.format, "\(name)")
    }
  }
}
