import CScanOCR
import Foundation
import Synchronization

/// A PDF file read once and shared by the documents (``PDFDocument``) that
/// read its pages on several threads: one copy of its bytes and one qpdf
/// scanner for all of them, whatever the number of readers.
///
/// Each reader used to hold its own copy of the file and its own scanner
/// (qpdf's cross-reference table and a placeholder for every page of the
/// page tree's root), so a long PDF read by two workers held both twice
/// (issue 45, point 2: `text` of a 20,000-page PDF peaked 1.43× higher
/// than of a 200-page one).
///
/// The bytes never change once read. The scanner is used by one thread at
/// a time, under a lock (qpdf's documents are not shared across threads):
/// it answers the image check before a page is read
/// (``largestImage(page:)``) and makes the views pages beyond the first
/// window are read through (``viewUpdate(pages:pageCount:)``).
package final class PDFFile: Sendable {
  /// The file, for errors.
  package let path: String
  /// The file's bytes, which Poppler and qpdf read in place.
  let storage: PDFBytes
  /// The file's bytes, valid as long as the file is.
  var bytes: UnsafeRawBufferPointer { storage.buffer }
  private let scanner = Mutex(Scanner())

  /// The pages one scanner is asked about before it is opened again: qpdf
  /// keeps every object it has read until the document is closed (about
  /// 2 kB a page), so a long PDF read page by page would grow by that.
  static let pagesPerScanner = 256

  /// The scanner and the pages it has been asked about since it was
  /// opened.
  private struct Scanner: ~Copyable {
    /// `nil` before the first question and after every
    /// ``PDFFile/pagesPerScanner`` pages; a failure when qpdf is missing
    /// or cannot read the file (kept: it is not tried again).
    var editor: Result<PDFEditor, OCRError>?
    var asked = 0
    /// The file's flat page tree (``PDFPageList``), read from its bytes
    /// when the first scanner opens: each scanner finds its pages through
    /// it (``PDFEditor/usePageList(_:)``), so qpdf never reads the root's
    /// `/Kids` (a placeholder object for each kid, 6.4 MB at 20,000
    /// pages, made again by every scanner). `nil` inside when the tree is
    /// not flat or cannot be read without doubt.
    var pageList: PDFPageList??
  }

  deinit {
    // qpdf reads the bytes in place: the scanner goes first.
    scanner.withLock { $0.editor = nil }
  }

  /// Reads a PDF held in memory (its bytes are copied once).
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - path: The file, for errors.
  /// - Complexity: O(*n*) in the bytes.
  package init(data: Data, path: String) {
    self.path = path
    storage = PDFBytes(data)
  }

  /// Reads a PDF file's bytes straight into the memory they are kept in:
  /// read as `Data` first, a long file's bytes were held twice while they
  /// were copied (3.4 MB of 20,000 pages, beside the first documents).
  /// - Parameter path: The file (a regular file: a stream is read as
  ///   `Data` and given to ``init(data:path:)``).
  /// - Throws: ``OCRError`` as ``OCREngine/readImageFile(_:)`` throws it:
  ///   the file is missing, a directory, unreadable or empty.
  /// - Complexity: O(*n*) in the bytes.
  package init(reading path: String) throws(OCRError) {
    self.path = path
    storage = try PDFBytes(reading: path)
  }

  /// The image page `index` (from 0) draws that claims the most pixels
  /// (``PDFEditor/largestImage(page:)``), or `nil` when it draws none or
  /// qpdf is not installed or cannot read the file.
  /// - Complexity: O(*n*) in the page's decoded content and forms; waits
  ///   while another thread uses the scanner.
  func largestImage(page index: Int) -> PDFEditor.ClaimedImage? {
    scanner.withLock { scanner in
      if scanner.asked >= Self.pagesPerScanner, case .success = scanner.editor {
        scanner.editor = nil
        Self.releaseFreeMemory()
      }
      guard case .success(let editor) = open(&scanner) else { return nil }
      scanner.asked += 1
      return editor.largestImage(page: index)
    }
  }

  /// The incremental update that makes pages `range` (from 0) the only
  /// pages of a view of the file (``PDFEditor/viewUpdate(pages:)``), or
  /// `nil` when no view can be made: qpdf is not installed or cannot read
  /// the file, or its page tree's root does not count `pageCount` pages
  /// (the count Poppler gives). The scanner is closed after it (opened
  /// again by the next question).
  /// - Complexity: O(*p* × *d*) in the pages and the depth of the tree;
  ///   waits while another thread uses the scanner.
  func viewUpdate(pages range: Range<Int>, pageCount: Int) -> [UInt8]? {
    scanner.withLock { scanner in
      guard case .success(let editor) = open(&scanner), editor.rootPageCount == pageCount
      else { return nil }
      let update = editor.viewUpdate(pages: range)
      // Closed until the next image check: the view is opened and its
      // first page read without the scanner's objects beside them.
      scanner.editor = nil
      Self.releaseFreeMemory()
      return update
    }
  }

  /// Returns the memory the allocator holds free to the system
  /// (`malloc_trim(0)`, in every thread's arena), after a scanner or a
  /// Poppler document of a long PDF is freed. What they free is many
  /// small objects (qpdf's object table and a placeholder for each kid of
  /// the page tree's root: 7 MB at 20,000 pages) and tables of a few
  /// megabytes, all below the mmap threshold (`main.swift`), so they come
  /// from the heap; without this, the pages they touched stay resident
  /// after they are freed, in the arena of whichever worker's thread
  /// freed them, and the next scanner, opened by another thread, touches
  /// new ones.
  /// - Complexity: O(*f*) in the free chunks of the process's arenas.
  static func releaseFreeMemory() { scantext_release_free_memory() }

  /// The scanner, opened when there is none.
  private func open(_ scanner: inout Scanner) -> Result<PDFEditor, OCRError> {
    if let editor = scanner.editor { return editor }
    scanner.asked = 0
    // qpdf reads the file's bytes in place: they outlive the scanner,
    // which the file owns.
    let bytes = self.bytes
    let path = self.path
    let opened = Result { () throws(OCRError) in
      try PDFEditor(
        data: Data(), path: path, font: Data(), countingPages: false, borrowed: bytes)
    }
    if case .success(let editor) = opened {
      if scanner.pageList == nil { scanner.pageList = .some(PDFPageList(bytes: bytes)) }
      if let list = scanner.pageList ?? nil { editor.usePageList(list) }
    }
    scanner.editor = opened
    return opened
  }
}

/// Bytes copied once into memory of their own and never changed after:
/// safe to read from any thread (what makes it `Sendable`; it holds no C
/// handle). Freed with the last reference.
final class PDFBytes: @unchecked Sendable {
  /// The bytes (at least one byte is allocated, for an empty file).
  let buffer: UnsafeRawBufferPointer
  private let allocation: UnsafeMutableRawBufferPointer

  init(_ data: Data) {
    let allocation = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(1, data.count), alignment: 16)
    data.withUnsafeBytes { source in
      if let base = source.baseAddress, let target = allocation.baseAddress {
        target.copyMemory(from: base, byteCount: source.count)
      }
    }
    self.allocation = allocation
    buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(allocation)[0..<data.count])
  }

  /// Reads file `path` into memory of its own, growing it when the file
  /// grew since its size was read.
  init(reading path: String) throws(OCRError) {
    try ImageReader.checkReadable(path)
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw ImageReader.unreadable(path, because: String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var info = stat()
    // One byte more than the size: reading it tells a file that grew.
    var capacity = (fstat(descriptor, &info) == 0 ? max(0, Int(info.st_size)) : 0) + 1
    var allocation = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    var count = 0
    while true {
      if count == capacity {
        let larger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: capacity * 2, alignment: 16)
        larger.copyMemory(from: UnsafeRawBufferPointer(allocation))
        allocation.deallocate()
        allocation = larger
        capacity *= 2
      }
      let got = read(descriptor, allocation.baseAddress.map { $0 + count }, capacity - count)
      if got < 0, errno == EINTR { continue }
      if got < 0 {
        let reason = String(cString: strerror(errno))
        allocation.deallocate()
        throw ImageReader.unreadable(path, because: reason)
      }
      if got == 0 { break }
      count += got
    }
    guard count > 0 else {
      allocation.deallocate()
      throw .emptyFile(path: path)
    }
    self.allocation = allocation
    buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(allocation)[0..<count])
  }

  deinit {
    allocation.deallocate()
    PDFFile.releaseFreeMemory()
  }
}
