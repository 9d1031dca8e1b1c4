import Foundation
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The flat page tree read from a PDF's bytes (issue 45, point 2: qpdf
/// made a placeholder object for each of the root's 20,000 kids when the
/// scanner found a page, 6.4 MB kept beside the workers' Poppler views):
/// the list is the root's kids when it can be read without doubt, nothing
/// otherwise, and the scanner's answers through it are qpdf's own.
@Suite("PDF page list")
struct PDFPageListTests {
  static func list(_ data: Data) -> PDFPageList? {
    data.withUnsafeBytes { PDFPageList(bytes: $0) }
  }

  /// The scanner's answers for pages 0 to `count` (one beyond the last):
  /// each page's largest image and the update of a view of every page
  /// but the first; with `list`, the editor finds its pages through it.
  static func answers(_ data: Data, count: Int, list: PDFPageList?) throws -> (
    images: [PDFEditor.ClaimedImage?], update: [UInt8]?, usesList: Bool
  ) {
    let editor = try PDFEditor(data: data, path: "tree.pdf", font: Data(), countingPages: false)
    let usesList = list.map { editor.usePageList($0) } ?? false
    let images = (0...count).map { editor.largestImage(page: $0) }
    return (images, count > 1 ? editor.viewUpdate(pages: 1..<count) : nil, usesList)
  }

  /// An incremental update of `data` (a file `HandMadePDF` wrote, of
  /// `size` objects) that gives object `number` the body `body`.
  static func update(_ data: Data, size: Int, number: Int, body: String) -> Data {
    let text = String(decoding: data, as: UTF8.self)
    let previous = text.range(of: "startxref\n", options: .backwards).map {
      Int(text[$0.upperBound...].prefix { $0.isNumber }) ?? 0
    }
    var out = data
    let offset = out.count
    out += Data("\(number) 0 obj\n\(body)\nendobj\n".utf8)
    let xref = out.count
    out += Data(
      String(format: "xref\n%d 1\n%010d 00000 n \n", number, offset).utf8)
    out += Data(
      "trailer\n<< /Size \(size) /Root 1 0 R /Prev \(previous ?? 0) >>\nstartxref\n\(xref)\n%%EOF\n"
        .utf8)
    return out
  }

  @Test func aFlatTreeIsItsRootsKids() throws {
    let data = PDFFileTests.pdf(count: 5)
    let list = try #require(Self.list(data))
    #expect(list.catalog == .init(number: 1, generation: 0))
    #expect(list.root == .init(number: 2, generation: 0))
    // Page i is object 5 + 2i (its content stream comes before it).
    #expect(list.kids.map(\.number) == [5, 7, 9, 11, 13])
    // The catalog's other entries and what the pages inherit, as
    // written: a view's catalog and pages are given them.
    #expect(list.catalogEntries == "/Type /Catalog")
    #expect(
      list.inherited == [
        "/MediaBox": "[0 0 300 200]", "/Resources": "<< /Font << /F1 3 0 R >> >>",
      ])
    let through = try Self.answers(data, count: 5, list: list)
    let without = try Self.answers(data, count: 5, list: nil)
    #expect(through.usesList)
    #expect(through.images == without.images)
    #expect(through.images.prefix(5).map { $0?.width } == [10, 11, 12, 13, 14])
    #expect(through.update == without.update)
  }

  /// The newest cross-reference section gives an object: an update that
  /// reverses the root's kids reverses the pages.
  @Test func anIncrementalUpdateIsReadNewestFirst() throws {
    let data = PDFFileTests.pdf(count: 4)
    let kids = [11, 9, 7, 5].map { "\($0) 0 R" }.joined(separator: " ")
    let updated = Self.update(
      data, size: 12, number: 2,
      body:
        "<< /Type /Pages /Kids [\(kids)] /Count 4 /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> >>"
    )
    let list = try #require(Self.list(updated))
    #expect(list.kids.map(\.number) == [11, 9, 7, 5])
    let through = try Self.answers(updated, count: 4, list: list)
    #expect(through.usesList)
    #expect(through.images.prefix(4).map { $0?.width } == [13, 12, 11, 10])
    #expect(try Self.answers(updated, count: 4, list: nil).images == through.images)
  }

  /// What cannot be read without doubt gives no list (the scanner then
  /// reads the tree through qpdf).
  @Test(arguments: [
    ("a cross-reference stream", "xref\n0 ", "xrefs\n0 "),
    ("an encrypted file", "/Root 1 0 R", "/Root 1 0 R /Encrypt 3 0 R"),
    ("a hybrid file", "/Root 1 0 R", "/Root 1 0 R /XRefStm 0"),
    ("a count other than the kids'", "/Count 3 ", "/Count 4 "),
    ("a name with an escape", "/Type /Pages /Kids", "/Type /Pages /K#69ds"),
    ("a kid that is not a reference", "/Kids [5 0 R", "/Kids [<< >> 5 0 R"),
    ("another generation", "/Pages 2 0 R", "/Pages 2 1 R"),
    ("entries of 19 bytes", " 00000 n \n", " 00000 n\n"),
    ("a root without endobj", "/F1 3 0 R >> >> >>\nendobj", "/F1 3 0 R >> >> >>\nendobx"),
    ("a duplicate key", "/Count 3 ", "/Count 3 /Count 3 "),
    ("a loop of sections", "/Root 1 0 R", "/Root 1 0 R /Prev XREF"),
    ("a root with a parent", "/Count 3 ", "/Count 3 /Parent 1 0 R "),
  ])
  func whatCannotBeReadWithoutDoubtGivesNoList(_ damage: (String, String, String)) throws {
    let data = PDFFileTests.pdf(count: 3)
    var text = String(decoding: data, as: UTF8.self)
    var replacement = damage.2
    if let at = text.range(of: "startxref\n", options: .backwards) {
      replacement = replacement.replacingOccurrences(
        of: "XREF", with: String(text[at.upperBound...].prefix { $0.isNumber }))
    }
    #expect(text.contains(damage.1), "\(damage.0)")
    text = text.replacingOccurrences(of: damage.1, with: replacement)
    #expect(Self.list(Data(text.utf8)) == nil, "\(damage.0)")
  }

  /// Real PDFs (the sample, OCRmyPDF's and docling's): whenever a list
  /// is read, every page's image check and a view of the pages are those
  /// qpdf's own reading of the tree gives.
  @Test func realPDFsAnswerAsQpdfReadsThem() throws {
    var paths = [Fixtures.scans.appendingPathComponent("scan.pdf").path]
    for folder in [
      RealScans.folder?.appendingPathComponent("ocrmypdf"),
      RealScans.folder?.deletingLastPathComponent().appendingPathComponent("docling"),
    ].compactMap({ $0 }) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      paths += names.filter { $0.hasSuffix(".pdf") }.sorted().map {
        folder.appendingPathComponent($0).path
      }
    }
    var listed: [String] = []
    for path in paths {
      let data = try Data(contentsOf: URL(fileURLWithPath: path))
      guard let list = Self.list(data) else { continue }
      let count = list.kids.count
      let through = try Self.answers(data, count: count, list: list)
      let without = try Self.answers(data, count: count, list: nil)
      #expect(through.images == without.images, "\(path)")
      #expect(through.update == without.update, "\(path)")
      if through.usesList { listed.append(URL(fileURLWithPath: path).lastPathComponent) }
    }
    // The sample is written with a flat tree and a classic table.
    #expect(listed.contains("scan.pdf"))
  }

  /// An inherited entry written with a comment is not copied (the
  /// view's pages then get it through qpdf's reading of the root).
  @Test func anInheritedEntryWithACommentIsLeftToQpdf() throws {
    let commented = Self.update(
      PDFFileTests.pdf(count: 3), size: 10, number: 2,
      body:
        "<< /Type /Pages /Kids [5 0 R 7 0 R 9 0 R] /Count 3 /MediaBox [0 0 % a note\n300 200] /Resources << /Font << /F1 3 0 R >> >> >>"
    )
    let list = try #require(Self.list(commented))
    #expect(list.inherited == nil)
    let through = try Self.answers(commented, count: 3, list: list)
    #expect(through.usesList)
    #expect(through.update == (try Self.answers(commented, count: 3, list: nil)).update)
  }

  /// Random damage never crashes the reader, and whenever the scanner
  /// uses a list, its answers are those qpdf's own reading of the tree
  /// gives.
  @Test func damagedFilesNeverReadAnotherPage() throws {
    let seed = PDFFileTests.pdf(count: 4)
    var state: UInt64 = 45
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let hostile = ["-1", "0", "99999999999999999999", "4294967296", "65536", "2.5", "1e9"]
    var used = 0
    var read = 0
    for _ in 0..<300 {
      var bytes = Array(seed)
      for _ in 0..<(1 + next() % 3) {
        guard !bytes.isEmpty else { break }
        let i = Int(next() % UInt64(bytes.count))
        switch next() % 5 {
        case 0: bytes[i] ^= UInt8(truncatingIfNeeded: next() | 1)
        case 1: bytes = Array(bytes.prefix(i))
        case 2:
          let digits = bytes.indices.filter { (48...57).contains(bytes[$0]) }
          guard !digits.isEmpty else { break }
          let at = digits[Int(next() % UInt64(digits.count))]
          var end = at
          while end < bytes.count, (48...57).contains(bytes[end]) { end += 1 }
          bytes.replaceSubrange(
            at..<end, with: Array(hostile[Int(next() % UInt64(hostile.count))].utf8))
        case 3: bytes.removeSubrange(i..<min(bytes.count, i + Int(next() % 40)))
        default:
          let span = bytes[i..<min(bytes.count, i + Int(next() % 40))]
          bytes.insert(contentsOf: span, at: i)
        }
      }
      let data = Data(bytes)
      guard let list = Self.list(data) else { continue }
      read += 1
      #expect(list.kids.count <= bytes.count)
      guard let through = try? Self.answers(data, count: 4, list: list) else { continue }
      let without = try Self.answers(data, count: 4, list: nil)
      if through.usesList { used += 1 }
      #expect(through.images == without.images)
      #expect(through.update == without.update)
    }
    // Some damage leaves the tree readable (a flipped byte in a stream).
    #expect(read > 0 && used > 0)
  }
}
