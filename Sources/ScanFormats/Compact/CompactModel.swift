import Foundation
import ScanModel

/// ScanText's compact model file (`.stm`), version 1: a document's pages
/// as binary records that a reader finds through a page table and decodes
/// one at a time, so that a page of a long document is read without
/// reading the others (``PagedDocument``).
///
/// ```
/// header  magic "\u{89}STM\r\n\u{1A}\n" · u32 version · u32 n · u32 crc · generator (n bytes)
/// pages   one record per page, in order (CompactModel+Page.swift)
/// table   per page: u64 offset · u64 length · u32 crc · u32 0
/// trailer u64 table offset · u64 page count · u32 table crc · u32 version · "\nSTMEND\n"
/// ```
/// Fixed-size integers are little-endian; checksums are CRC-32 (zlib's).
/// The table comes last so that a document is written page by page
/// (`scantext ocr … -o doc.stm` holds one page at a time). The whole format,
/// with each record's fields, is specified in `docs/COMPACT-MODEL.md`.
///
/// A page read back equals the page written (every stored property, doubles
/// bit for bit), so JSON → compact → JSON gives the same bytes.
public enum CompactModel {
  /// The format version written and read.
  public static let version: UInt32 = 1
  /// The first eight bytes of every compact model (PNG's pattern: a byte
  /// with the high bit set, then line ends and an end-of-file character
  /// that a text-mode transfer would change).
  static let magic: [UInt8] = [0x89, 0x53, 0x54, 0x4D, 0x0D, 0x0A, 0x1A, 0x0A]
  /// The last eight bytes of a complete compact model.
  static let endMagic: [UInt8] = Array("\nSTMEND\n".utf8)
  /// The header's size before the generator.
  static let headerSize = 20
  /// The trailer's size.
  static let trailerSize = 32
  /// One page table entry's size.
  static let entrySize = 24
  /// The fewest bytes a page's record takes (a page without blocks: its
  /// skew alone is 8 bytes, its text source 4, 15 other fields a byte
  /// each). A table may list no more pages than the bytes before it can
  /// hold at this size, which is checked before the table is read: a
  /// trailer claiming 8 GiB of table over a sparse hole was read whole
  /// ("failed to allocate").
  static let minimumRecordSize = 27
  /// The largest generator record read: 1 MiB (ScanText writes a few
  /// dozen bytes).
  static let generatorSizeLimit = 1 << 20

  /// Whether `data` starts as a compact model does.
  public static func isCompactModel(_ data: Data) -> Bool {
    data.count >= magic.count && data.prefix(magic.count).elementsEqual(magic)
  }

  /// The header: the magic, the version and the generator record.
  static func header(generator: Generator) -> [UInt8] {
    var g = ByteWriter()
    g.string(generator.name)
    g.string(generator.version)
    let details = generator.details.sorted { $0.key < $1.key }
    g.count(details.count)
    for (k, v) in details {
      g.string(k)
      g.string(v)
    }
    var w = ByteWriter()
    w.bytes = magic
    w.fixed(UInt64(version), size: 4)
    w.fixed(UInt64(g.bytes.count), size: 4)
    w.fixed(UInt64(checksum(g.bytes)), size: 4)
    w.bytes += g.bytes
    return w.bytes
  }

  /// Where a page's record lies in the file, and its checksum.
  struct Entry: Sendable, Equatable {
    var offset: Int
    var length: Int
    var checksum: UInt32
  }

  /// The page table and the trailer after the last page.
  static func tail(entries: [Entry], tableOffset: Int) -> [UInt8] {
    var t = ByteWriter()
    for e in entries {
      t.fixed(UInt64(e.offset), size: 8)
      t.fixed(UInt64(e.length), size: 8)
      t.fixed(UInt64(e.checksum), size: 4)
      t.fixed(0, size: 4)
    }
    var w = ByteWriter()
    w.bytes = t.bytes
    w.fixed(UInt64(tableOffset), size: 8)
    w.fixed(UInt64(entries.count), size: 8)
    w.fixed(UInt64(checksum(t.bytes)), size: 4)
    w.fixed(UInt64(version), size: 4)
    w.bytes += endMagic
    return w.bytes
  }

  /// Writes a compact model page by page (``PageWriter``).
  public struct Writer: ScanFormats.PageWriter {
    private let head: [UInt8]
    private var entries: [Entry] = []
    private var end: Int

    /// A writer whose header records `generator`.
    public init(generator: Generator) {
      head = CompactModel.header(generator: generator)
      end = head.count
    }

    /// The number of pages written.
    public var pageCount: Int { entries.count }
    /// The header is written first.
    public var headIsKnownFirst: Bool { true }
    /// The header.
    public func headBytes() -> Data { Data(head) }

    /// The next page's record.
    public mutating func page(
      _ page: Page, from origin: PageOrigin, images: (any PageImageSource)?
    ) throws -> Data {
      let record = CompactModel.record(of: page)
      entries.append(Entry(offset: end, length: record.count, checksum: checksum(record)))
      end += record.count
      return Data(record)
    }

    /// The page table and the trailer.
    public mutating func tailBytes() throws -> Data {
      Data(CompactModel.tail(entries: entries, tableOffset: end))
    }
  }

  /// A whole document as compact model bytes (``Writer``'s output).
  public static func encode(_ document: Document, generator: Generator) -> Data {
    var writer = Writer(generator: generator)
    var data = writer.headBytes()
    for page in document.pages {
      if let bytes = try? writer.page(
        page, from: PageOrigin(path: "", page: 0, number: 0), images: nil)
      {
        data += bytes
      }
    }
    if let tail = try? writer.tailBytes() { data += tail }
    return data
  }

  /// Reads a whole compact model from its bytes (standard input, a cache):
  /// every page decoded. ``PagedDocument/open(path:maxPagesInMemory:)``
  /// reads a file a page at a time.
  /// - Throws: ``DocumentFormatError`` naming the page and the reason.
  public static func decode(_ data: Data) throws -> Document {
    let document = try PagedDocument(compact: DataBytes(data), maxPagesInMemory: 1)
    return try document.document()
  }
}

/// Why a compact model's record could not be read (turned into a
/// ``DocumentFormatError`` naming its page where it is thrown).
enum CompactModelError: Error {
  case damaged(reason: String)

  var reason: String {
    switch self {
    case .damaged(let reason): reason
    }
  }
}

extension CompactModel {
  /// The generator record, the page table, and where the pages lie, read
  /// and checked from a file's head and tail.
  struct Layout: Sendable {
    var generator: Generator
    var entries: [Entry]

    /// Reads and checks the header, trailer and page table of `bytes`.
    /// - Throws: ``DocumentFormatError`` saying what is wrong: not a
    ///   compact model, another version, truncated, a damaged header or
    ///   table.
    init(_ bytes: some RandomAccessBytes) throws {
      let size = bytes.count
      func fail(_ reason: String) -> DocumentFormatError {
        DocumentFormatError(path: "", reason: reason)
      }
      guard size >= CompactModel.magic.count,
        try bytes.read(offset: 0, count: CompactModel.magic.count) == CompactModel.magic
      else { throw fail("not a compact ScanText model (it does not start with its signature)") }
      guard size >= CompactModel.headerSize else {
        throw fail("truncated: the file ends inside its header")
      }
      let head = try bytes.read(offset: 0, count: CompactModel.headerSize)
      let version = head.withUnsafeBytes { raw -> UInt64 in
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: raw[8...]))
        return (try? r.fixed(size: 4)) ?? 0
      }
      guard version == CompactModel.version else {
        throw fail(
          "compact model version \(version); this scantext reads version \(CompactModel.version) (convert the file with the scantext that wrote it, to JSON)"
        )
      }
      let (generatorLength, generatorSum) = head.withUnsafeBytes { raw -> (Int, UInt32) in
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: raw[12...]))
        let n = (try? r.fixed(size: 4)) ?? 0
        let c = (try? r.fixed(size: 4)) ?? 0
        return (Int(n), UInt32(truncatingIfNeeded: c))
      }
      // The generator record is a few names; a larger length is a
      // damaged or forged header, refused before it is read.
      guard generatorLength <= CompactModel.generatorSizeLimit else {
        throw fail(
          "damaged header: its generator record claims \(generatorLength) bytes (at most \(CompactModel.generatorSizeLimit))"
        )
      }
      let pagesStart = CompactModel.headerSize + generatorLength
      guard size >= pagesStart + CompactModel.trailerSize,
        try bytes.read(
          offset: size - CompactModel.endMagic.count, count: CompactModel.endMagic.count)
          == CompactModel.endMagic
      else {
        throw fail(
          "truncated: the file does not end with its page table (it was not written to the end)")
      }
      let generatorBytes = try bytes.read(offset: CompactModel.headerSize, count: generatorLength)
      guard checksum(generatorBytes) == generatorSum else {
        throw fail("damaged: the header's checksum does not match")
      }
      generator = try generatorBytes.withUnsafeBytes { raw throws in
        var r = ByteReader(raw)
        do throws(CompactModelError) {
          let name = try r.string()
          let version = try r.string()
          var details: [String: String] = [:]
          for _ in 0..<(try r.count(itemSize: 2)) {
            let key = try r.string()
            details[key] = try r.string()
          }
          return Generator(name: name, version: version, details: details)
        } catch {
          throw fail("damaged header: \(error.reason)")
        }
      }
      let trailer = try bytes.read(
        offset: size - CompactModel.trailerSize, count: CompactModel.trailerSize)
      let (tableOffset, pageCount, tableSum, trailerVersion) = trailer.withUnsafeBytes { raw in
        var r = ByteReader(raw)
        return (
          (try? r.fixed(size: 8)) ?? 0, (try? r.fixed(size: 8)) ?? 0,
          UInt32(truncatingIfNeeded: (try? r.fixed(size: 4)) ?? 0), (try? r.fixed(size: 4)) ?? 0
        )
      }
      let tableEnd = UInt64(size - CompactModel.trailerSize)
      guard trailerVersion == CompactModel.version, tableOffset >= UInt64(pagesStart),
        tableOffset <= tableEnd,
        pageCount <= (tableEnd - tableOffset) / UInt64(CompactModel.entrySize),
        tableOffset + pageCount * UInt64(CompactModel.entrySize) == tableEnd
      else {
        throw fail("damaged: the trailer does not point to a page table (truncated or changed)")
      }
      let pagesSize = tableOffset - UInt64(pagesStart)
      guard pageCount <= pagesSize / UInt64(CompactModel.minimumRecordSize) else {
        throw fail(
          "damaged: the page table lists \(pageCount) pages, but the \(pagesSize) bytes before it hold at most \(pagesSize / UInt64(CompactModel.minimumRecordSize))"
        )
      }
      let table = try bytes.read(offset: Int(tableOffset), count: Int(tableEnd - tableOffset))
      guard checksum(table) == tableSum else {
        throw fail("damaged: the page table's checksum does not match")
      }
      var entries: [Entry] = []
      entries.reserveCapacity(Int(pageCount))
      var next = pagesStart
      try table.withUnsafeBytes { raw throws in
        var r = ByteReader(raw)
        for n in 0..<Int(pageCount) {
          let offset = (try? r.fixed(size: 8)) ?? 0
          let length = (try? r.fixed(size: 8)) ?? 0
          let sum = UInt32(truncatingIfNeeded: (try? r.fixed(size: 4)) ?? 0)
          _ = try? r.fixed(size: 4)
          guard offset == UInt64(next), length >= CompactModel.minimumRecordSize,
            length <= tableOffset - offset
          else {
            throw DocumentFormatError(
              path: "page \(n + 1)", reason: "damaged: the page table places it out of order")
          }
          entries.append(Entry(offset: Int(offset), length: Int(length), checksum: sum))
          next = Int(offset + length)
        }
      }
      guard next == Int(tableOffset) else {
        throw fail("damaged: bytes lie between the last page and the page table")
      }
      self.entries = entries
    }
  }

  /// Page `index`'s record from `bytes`, checked and decoded.
  /// - Throws: ``DocumentFormatError`` naming the page (from 1).
  static func page(_ index: Int, of bytes: some RandomAccessBytes, entry: Entry) throws -> Page {
    let path = "page \(index + 1)"
    let record = try bytes.read(offset: entry.offset, count: entry.length)
    guard checksum(record) == entry.checksum else {
      throw DocumentFormatError(
        path: path,
        reason: "damaged: its checksum does not match (the file was changed after it was written)")
    }
    do {
      let page = try record.withUnsafeBytes { raw throws(CompactModelError) in
        try CompactModel.page(record: raw)
      }
      return try ModelLimits.checked(page, name: path)
    } catch let error as CompactModelError {
      throw DocumentFormatError(path: path, reason: "damaged: \(error.reason)")
    }
  }
}
