import Foundation
import ScanModel
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A document whose pages are decoded when first asked for: a compact
/// model (``CompactModel``) or a ScanText JSON file is opened by reading
/// its page table (the JSON's: one pass that finds where each page lies,
/// building no tree), and each page is read and decoded from the file on
/// first access. At most ``maxPagesInMemory`` decoded pages are kept (the
/// least recently used go first), so a document of any length is read in
/// bounded memory.
///
/// A paged document is safe to use from many threads: the cache is behind
/// a lock and the file is read with `pread`, which has no shared position.
/// The file is read, not mapped: a mapped file that another process
/// truncates would kill this one (`SIGBUS`) on the next access, and a read
/// of a page's record (tens to hundreds of kilobytes) costs microseconds
/// beside its decoding.
public final class PagedDocument: Sendable {
  /// The number of pages.
  public let pageCount: Int
  /// Who made the document, when the file records it.
  public let generator: Generator?
  /// The most decoded pages kept in memory; `nil` for no bound (a
  /// document given as pages keeps them all).
  public let maxPagesInMemory: Int?

  private let source: Source
  private let cache: Mutex<PageCache>

  /// The number of decoded pages that a document opened from a file keeps
  /// when not told otherwise: 1,000, so that requests that go back and
  /// forth over a document of up to 1,000 pages decode each page once
  /// (with 64, `query-bench`'s 200,000 requests over 1,000 pages decoded a
  /// page for nearly every request: minutes instead of seconds), while a
  /// longer one stays bounded (an index page of 2,000 glyphs holds about
  /// 0.3 MB: `query-bench`'s 166 bytes a glyph).
  public static let defaultMaxPagesInMemory = 1_000

  private enum Source: Sendable {
    case pages([Page])
    case compact(any RandomAccessBytes, [CompactModel.Entry])
    case json(any RandomAccessBytes, [DocumentJSON.PageSpan])
    case provided(@Sendable (Int) throws -> Page)
  }

  /// A document of pages already in memory.
  /// - Parameters:
  ///   - pages: The pages in order.
  ///   - generator: Who made them, when known.
  public convenience init(pages: [Page], generator: Generator? = nil) {
    self.init(.pages(pages), count: pages.count, generator: generator, limit: nil)
  }

  /// A document whose pages another reader makes on demand (the pages of
  /// a PDF, read or recognised one at a time): page `index` is asked of
  /// `page` when first wanted, and at most `maxPagesInMemory` are kept.
  /// - Parameters:
  ///   - pageCount: The number of pages.
  ///   - generator: Who made the document, when known.
  ///   - maxPagesInMemory: The most pages kept (at least 1);
  ///     ``defaultMaxPagesInMemory`` when `nil`.
  ///   - page: Makes page `index` (from 0); what it throws, ``page(at:)``
  ///     throws.
  public convenience init(
    pageCount: Int, generator: Generator? = nil, maxPagesInMemory: Int? = nil,
    page: @escaping @Sendable (_ index: Int) throws -> Page
  ) {
    self.init(
      .provided(page), count: pageCount, generator: generator,
      limit: max(1, maxPagesInMemory ?? Self.defaultMaxPagesInMemory))
  }

  /// A document read from `source`, keeping at most `limit` pages.
  private init(_ source: Source, count: Int, generator: Generator?, limit: Int?) {
    pageCount = count
    self.generator = generator
    maxPagesInMemory = limit
    self.source = source
    cache = Mutex(PageCache(limit: limit ?? Int.max))
  }

  convenience init(compact bytes: some RandomAccessBytes, maxPagesInMemory: Int?) throws {
    let layout = try CompactModel.Layout(bytes)
    self.init(
      .compact(bytes, layout.entries), count: layout.entries.count, generator: layout.generator,
      limit: maxPagesInMemory)
  }

  convenience init(json bytes: some RandomAccessBytes, maxPagesInMemory: Int?) throws {
    let index = try DocumentJSON.PageIndex(bytes)
    self.init(
      .json(bytes, index.pages), count: index.pages.count, generator: index.generator,
      limit: maxPagesInMemory)
  }

  /// Opens a compact model or a ScanText JSON file (told apart by their
  /// first bytes; a file named `.stm` is a compact model) for reading page
  /// by page.
  ///
  /// Opening reads a compact model's header, page table and trailer, or
  /// makes one pass over a JSON file that finds each page's bytes; no page
  /// is decoded.
  /// - Parameters:
  ///   - path: The file.
  ///   - maxPagesInMemory: The most decoded pages to keep (at least 1);
  ///     ``defaultMaxPagesInMemory`` when `nil`.
  /// - Throws: ``DocumentFormatError`` saying why the file is not a
  ///   readable document (not one of the two formats, another version,
  ///   truncated, damaged), or ``FileError`` when it cannot be read.
  /// - Complexity: O(*p*) in the pages for a compact model; O(*n*) in the
  ///   bytes for JSON.
  public static func open(path: String, maxPagesInMemory: Int? = nil) throws -> PagedDocument {
    try open(FileBytes(path: path), maxPagesInMemory: maxPagesInMemory)
  }

  /// Opens a compact model or ScanText JSON from a file already open
  /// (standard input spooled to a temporary file that has no name), as
  /// ``open(path:maxPagesInMemory:)`` opens a file; `descriptor` is
  /// duplicated, so the caller may close its own.
  /// - Parameters:
  ///   - descriptor: The open file; it must be a regular file.
  ///   - path: How errors name the file (`-`).
  ///   - maxPagesInMemory: The most decoded pages to keep.
  package static func open(descriptor: Int32, path: String, maxPagesInMemory: Int? = nil) throws
    -> PagedDocument
  {
    try open(FileBytes(duplicating: descriptor, path: path), maxPagesInMemory: maxPagesInMemory)
  }

  private static func open(_ file: FileBytes, maxPagesInMemory: Int?) throws -> PagedDocument {
    let path = file.path
    let limit = max(1, maxPagesInMemory ?? defaultMaxPagesInMemory)
    let head = try file.read(offset: 0, count: min(file.count, CompactModel.magic.count))
    // A file named .stm is a compact model: without the signature it is
    // refused as one, not read as JSON.
    if CompactModel.isCompactModel(Data(head)) || FileFormat(fileName: path) == .compactModel {
      return try PagedDocument(compact: file, maxPagesInMemory: limit)
    }
    return try PagedDocument(json: file, maxPagesInMemory: limit)
  }

  /// The page at `index` (from 0), decoded now unless kept from before.
  /// - Throws: ``DocumentFormatError`` naming the page when its record is
  ///   damaged or refused; a page asked for again fails again.
  /// - Complexity: O(1) for a page kept; else the page's decoding,
  ///   O(*n* log *n*) in its elements.
  public func page(at index: Int) throws -> Page {
    guard index >= 0 && index < pageCount else {
      throw DocumentFormatError(
        path: "", reason: "there is no page \(index + 1) (the document has \(pageCount))")
    }
    if case .pages(let pages) = source { return pages[index] }
    if let page = cache.withLock({ $0.page(index) }) { return page }
    let page = try decode(index)
    cache.withLock { $0.insert(page, at: index) }
    return page
  }

  /// Page `index` read from the file and decoded (not kept).
  private func decode(_ index: Int) throws -> Page {
    PageTraffic.pageRead()
    return switch source {
    case .pages(let pages): pages[index]
    case .compact(let bytes, let entries):
      try CompactModel.page(index, of: bytes, entry: entries[index])
    case .json(let bytes, let spans): try DocumentJSON.page(index, of: bytes, span: spans[index])
    case .provided(let page): try page(index)
    }
  }

  /// Whether the document is read from a compact model.
  public var isCompact: Bool {
    if case .compact = source { return true }
    return false
  }

  /// The number of decoded pages held now (for a document given as pages,
  /// all of them).
  public var pagesInMemory: Int {
    if case .pages(let pages) = source { return pages.count }
    return cache.withLock { $0.count }
  }

  /// Every page, decoded in order.
  /// - Throws: ``DocumentFormatError`` naming the first page that cannot
  ///   be read.
  /// - Complexity: O(*n*) in the document's elements.
  public func document() throws -> Document {
    if case .pages(let pages) = source { return Document(pages: pages) }
    return Document(pages: try (0..<pageCount).map(decode))
  }
}

extension Document {
  /// Opens a document file lazily: a compact model (`.stm`) or ScanText
  /// JSON, its pages decoded on first access and at most
  /// `maxPagesInMemory` of them kept (least recently used dropped first),
  /// safe to share between threads.
  ///
  /// A ``Document`` value holds every page; this is the way to open a
  /// long one without decoding it: `try Document.open(path:
  /// "book.stm").page(at: 730)` reads the page table and that page's
  /// record, nothing else. ``PagedDocument/document()`` gives the whole
  /// value when it is wanted (an export of every page).
  /// - Parameters:
  ///   - path: The file.
  ///   - maxPagesInMemory: The most decoded pages to keep (at least 1);
  ///     ``PagedDocument/defaultMaxPagesInMemory`` when `nil`.
  /// - Returns: The open document; no page is decoded yet.
  /// - Throws: ``DocumentFormatError`` saying why the file is not a
  ///   readable document, or ``FileError`` when it cannot be read.
  /// - Complexity: O(*p*) in the pages for a compact model; O(*n*) in the
  ///   bytes for JSON (one pass, no tree).
  public static func open(path: String, maxPagesInMemory: Int? = nil) throws -> PagedDocument {
    try PagedDocument.open(path: path, maxPagesInMemory: maxPagesInMemory)
  }
}

/// Decoded pages by index, the least recently used dropped past `limit`.
struct PageCache: ~Copyable {
  let limit: Int
  private var pages: [Int: (page: Page, used: UInt64)] = [:]
  private var clock: UInt64 = 0

  init(limit: Int) { self.limit = limit }

  var count: Int { pages.count }

  mutating func page(_ index: Int) -> Page? {
    guard let entry = pages[index] else { return nil }
    clock += 1
    pages[index] = (entry.page, clock)
    return entry.page
  }

  /// Keeps `page`; when more than `limit` are kept, drops the one used
  /// longest ago (a scan of the kept pages: at the default 1,000 a few
  /// microseconds, against milliseconds for the page's decoding).
  mutating func insert(_ page: Page, at index: Int) {
    guard limit > 0 else { return }
    clock += 1
    pages[index] = (page, clock)
    while pages.count > limit, let oldest = pages.min(by: { $0.value.used < $1.value.used }) {
      pages[oldest.key] = nil
    }
  }
}

/// Bytes read at any offset: a file, or data in memory.
protocol RandomAccessBytes: Sendable {
  /// The number of bytes.
  var count: Int { get }
  /// `count` bytes from `offset` (within ``count``).
  func read(offset: Int, count: Int) throws -> [UInt8]
}

/// Data in memory as ``RandomAccessBytes``.
struct DataBytes: RandomAccessBytes {
  let data: Data
  init(_ data: Data) { self.data = data }
  var count: Int { data.count }
  func read(offset: Int, count: Int) throws -> [UInt8] {
    let start = data.startIndex + offset
    return [UInt8](data[start..<(start + count)])
  }
}

/// Why a document file could not be read.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file.
  public var path: String
  /// Why it could not be read (the system's message).
  public var reason: String
  public var description: String { "\(path): \(reason)" }
}

/// A file open for reading at any offset (`pread`), its size taken when
/// opened; closed when the last reference goes.
final class FileBytes: RandomAccessBytes {
  let path: String
  let count: Int
  private let descriptor: Int32

  convenience init(path: String) throws {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw FileError(path: path, reason: Self.message(errno)) }
    try self.init(taking: fd, path: path)
  }

  /// A copy of the open file `descriptor` (the caller's stays its own).
  convenience init(duplicating descriptor: Int32, path: String) throws {
    let fd = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    guard fd >= 0 else { throw FileError(path: path, reason: Self.message(errno)) }
    try self.init(taking: fd, path: path)
  }

  /// The file open on `fd`, closed when done with (or at once, when it
  /// cannot be used).
  private init(taking fd: Int32, path: String) throws {
    self.path = path
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw FileError(path: path, reason: Self.message(code))
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw FileError(path: path, reason: "not a regular file")
    }
    descriptor = fd
    count = Int(info.st_size)
  }

  deinit { close(descriptor) }

  static func message(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }

  func read(offset: Int, count n: Int) throws -> [UInt8] {
    guard offset >= 0, n >= 0, offset <= count - n else {
      throw FileError(path: path, reason: "a read beyond the end of the file")
    }
    var out = [UInt8](repeating: 0, count: n)
    var done = 0
    while done < n {
      let got = out.withUnsafeMutableBytes { raw in
        pread(descriptor, raw.baseAddress.map { $0 + done }, n - done, off_t(offset + done))
      }
      if got > 0 {
        done += got
      } else if got < 0 && errno == EINTR {
        continue
      } else if got == 0 {
        throw FileError(path: path, reason: "the file is shorter than when it was opened")
      } else {
        throw FileError(path: path, reason: Self.message(errno))
      }
    }
    return out
  }
}

/// The paged readers for the fuzzers (`Tools/check/Fuzz`): bytes in memory read
/// as a file would be.
@_spi(Fuzzing) public enum PagedFuzzing {
  /// Every page of a compact model in `data`, read through its page table.
  public static func compactPages(_ data: Data) throws -> Document {
    try PagedDocument(compact: DataBytes(data), maxPagesInMemory: 2).document()
  }

  /// Every page of a ScanText JSON document in `data`, found by the page
  /// index and decoded one at a time.
  public static func jsonPages(_ data: Data) throws -> Document {
    try PagedDocument(json: DataBytes(data), maxPagesInMemory: 2).document()
  }
}
