import Foundation
import ScanFormats
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

  /// How ``streamed(_:pack:predictor:trailer:rows:)`` writes a file.
  struct StreamedForm {
    /// Whether the dictionaries (objects that are no streams) are packed
    /// in an object stream.
    var pack = true
    /// Whether the cross-reference stream's rows go through PNG
    /// predictors (row *i* by filter *i* mod 5).
    var predictor = true
  }

  /// A PDF of `bodies` (objects 1 to *n*) as writers with object streams
  /// make it (`qpdf --object-streams=generate`): the dictionaries packed
  /// in object *n* + 1 (Flate), the cross-reference a stream (object
  /// *n* + 2, Flate, rows of a type byte, 4 bytes and 2 bytes).
  /// `extra` is added to its dictionary; `rows` changes its rows before
  /// they are compressed.
  static func streamed(
    _ bodies: [String], form: StreamedForm = .init(), extra: String = "",
    rows change: (inout [UInt8]) -> Void = { _ in }
  ) throws -> Data {
    var out = Data("%PDF-1.5\n".utf8)
    let packed = form.pack ? bodies.indices.filter { !bodies[$0].contains("stream") } : []
    var offsets: [Int: Int] = [:]
    for (i, body) in bodies.enumerated() where !packed.contains(i) {
      offsets[i + 1] = out.count
      out += Data("\(i + 1) 0 obj\n\(body)\nendobj\n".utf8)
    }
    let container = bodies.count + 1
    if !packed.isEmpty {
      var header = ""
      var content = ""
      for i in packed {
        header += "\(i + 1) \(content.utf8.count) "
        content += bodies[i] + "\n"
      }
      let data = try #require(Deflate.compress(Data((header + content).utf8)))
      offsets[container] = out.count
      out += Data(
        "\(container) 0 obj\n<< /Type /ObjStm /N \(packed.count) /First \(header.utf8.count) /Filter /FlateDecode /Length \(data.count) >>\nstream\n"
          .utf8)
      out += data + Data("\nendstream\nendobj\n".utf8)
    }
    let number = container + 1
    offsets[number] = out.count
    var rows: [[UInt8]] = []
    for n in 0...number {
      var entry = (0, 0, 65535)
      if let index = packed.firstIndex(of: n - 1) {
        entry = (2, container, index)
      } else if let offset = offsets[n] {
        entry = (1, offset, 0)
      }
      rows.append(
        [UInt8(entry.0)] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: entry.1 >> (8 * $0)) }
          + [UInt8(truncatingIfNeeded: entry.2 >> 8), UInt8(truncatingIfNeeded: entry.2)])
    }
    var flat = rows.flatMap { $0 }
    change(&flat)
    var stored: [UInt8] = []
    var parameters = ""
    if form.predictor {
      parameters = " /DecodeParms << /Columns 7 /Predictor 12 >>"
      var previous = [UInt8](repeating: 0, count: 7)
      for start in stride(from: 0, to: flat.count, by: 7) {
        let row = Array(flat[start..<min(flat.count, start + 7)])
        let filter = UInt8(start / 7 % 5)
        stored.append(filter)
        for (i, x) in row.enumerated() {
          let a = i > 0 ? row[i - 1] : 0
          let b = previous[i]
          let c = i > 0 ? previous[i - 1] : 0
          let p = Int(a) + Int(b) - Int(c)
          let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
          let paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
          let predicted = [0, a, b, UInt8((Int(a) + Int(b)) / 2), paeth][Int(filter)]
          stored.append(x &- predicted)
        }
        previous = row
      }
    } else {
      stored = flat
    }
    let data = try #require(Deflate.compress(Data(stored)))
    out += Data(
      "\(number) 0 obj\n<< /Type /XRef /Size \(number + 1) /W [1 4 2] /Root 1 0 R /Filter /FlateDecode\(parameters) /Length \(data.count)\(extra) >>\nstream\n"
        .utf8)
    out += data + Data("\nendstream\nendobj\nstartxref\n\(offsets[number] ?? 0)\n%%EOF\n".utf8)
    return out
  }

  /// A cross-reference stream (rows with and without PNG predictors, the
  /// catalog and the root in an object stream or not) gives the list the
  /// same file with a classic table gives, and the scanner's answers
  /// through it are qpdf's own.
  @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
  func aCrossReferenceStreamIsReadAsATable(_ form: (pack: Bool, predictor: Bool)) throws {
    let bodies = PDFFileTests.bodies(count: 5)
    let classic = try #require(Self.list(HandMadePDF.file(bodies)))
    let data = try Self.streamed(bodies, form: .init(pack: form.pack, predictor: form.predictor))
    let list = try #require(Self.list(data))
    #expect(list == classic)
    let through = try Self.answers(data, count: 5, list: list)
    let without = try Self.answers(data, count: 5, list: nil)
    #expect(through.usesList)
    #expect(through.images.prefix(5).map { $0?.width } == [10, 11, 12, 13, 14])
    #expect(through.images == without.images)
    #expect(through.update == without.update)
  }

  /// A cross-reference stream or object stream that cannot be read
  /// without doubt gives no list; a Flate bomb in place of the rows is
  /// refused once it decodes to more than the rows it lists.
  @Test func aStreamThatCannotBeReadWithoutDoubtGivesNoList() throws {
    let bodies = PDFFileTests.bodies(count: 3)
    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }
    func replaced(_ data: Data, _ old: String, _ new: String) -> Data {
      // The stream's bytes are kept: only the first match is replaced.
      guard let range = data.range(of: Data(old.utf8)) else { return Data() }
      var out = data
      out.replaceSubrange(range, with: Data(new.utf8))
      return out
    }
    let good = try Self.streamed(bodies)
    #expect(Self.list(good) != nil)
    let cases: [(String, Data)] = [
      ("a hybrid file", try Self.streamed(bodies, extra: " /XRefStm 0")),
      ("an encrypted file", try Self.streamed(bodies, extra: " /Encrypt 3 0 R")),
      ("an unknown row type", try Self.streamed(bodies) { $0[7] = 3 }),
      ("a row short", try Self.streamed(bodies) { $0.removeLast() }),
      ("a row more", try Self.streamed(bodies) { $0 += [0, 0, 0, 0, 0, 0, 0] }),
      ("another filter", replaced(good, "/Type /XRef", "/Type /XRef /Filter /LZWDecode")),
      ("a length by reference", replaced(good, "/W [1 4 2]", "/W [1 4 2] /Length 1 0 R")),
      ("a width over 8 bytes", replaced(good, "/W [1 4 2]", "/W [1 9 2]")),
      ("another predictor", replaced(good, "/Predictor 12", "/Predictor 2")),
      ("a column count unlike the row's", replaced(good, "/Columns 7", "/Columns 6")),
      ("an object stream of another type", replaced(good, "/Type /ObjStm", "/Type /ObjSt")),
      ("an object stream's header too long", replaced(good, "/ObjStm /N ", "/ObjStm /N 1")),
      ("an odd /Index", replaced(good, "/W [1 4 2]", "/W [1 4 2] /Index [0]")),
      ("a length past the file", replaced(good, ">> /Length ", ">> /Length 9")),
    ]
    for (name, data) in cases {
      #expect(!data.isEmpty, "\(name)")
      #expect(Self.list(data) == nil, "\(name)")
    }
    // The rows replaced by 10 MB of zeros in 10 kB.
    let text = text(good)
    let bomb = try #require(Deflate.compress(Data(count: 10 << 20)))
    let at = try #require(text.range(of: "startxref\n", options: .backwards))
    let offset = try #require(Int(text[at.upperBound...].prefix { $0.isNumber }))
    let size = try #require(Int(text.components(separatedBy: "/Size ")[1].prefix { $0.isNumber }))
    var out = good.prefix(offset)
    out += Data(
      "\(size - 1) 0 obj\n<< /Type /XRef /Size \(size) /W [1 4 2] /Root 1 0 R /Filter /FlateDecode /Length \(bomb.count) >>\nstream\n"
        .utf8)
    out += bomb + Data("\nendstream\nendobj\nstartxref\n\(offset)\n%%EOF\n".utf8)
    #expect(Self.list(out) == nil)
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
    // Written again by qpdf with object streams (a cross-reference
    // stream, the catalog and the root packed), it gives the same list.
    if let qpdf = ExternalCheckers.qpdf {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let packed = folder.appendingPathComponent("packed.pdf").path
      let process = Process()
      process.executableURL = URL(fileURLWithPath: qpdf)
      process.arguments = ["--object-streams=generate", paths[0], packed]
      try process.run()
      process.waitUntilExit()
      let data = try Data(contentsOf: URL(fileURLWithPath: packed))
      #expect(String(decoding: data, as: UTF8.self).contains("/Type /XRef"))
      let list = try #require(Self.list(data))
      let original = try #require(Self.list(Data(contentsOf: URL(fileURLWithPath: paths[0]))))
      #expect(list.kids.count == original.kids.count)
      let through = try Self.answers(data, count: list.kids.count, list: list)
      let without = try Self.answers(data, count: list.kids.count, list: nil)
      #expect(through.usesList)
      #expect(through.images == without.images)
      #expect(through.update == without.update)
    }
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
  /// gives: of a file with a classic table, and of one with a
  /// cross-reference stream and an object stream.
  @Test(arguments: [false, true])
  func damagedFilesNeverReadAnotherPage(streamed: Bool) throws {
    let bodies = PDFFileTests.bodies(count: 4)
    let seed = streamed ? try Self.streamed(bodies) : HandMadePDF.file(bodies)
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
      #expect(list.kids.count <= (streamed ? PDFEditor.maxDecodedContentBytes : bytes.count))
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
