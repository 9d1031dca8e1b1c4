import Dispatch
import Foundation
import ScanModel
import ScanTestSupport
import Synchronization
import Testing

@testable import ScanOCR

/// One PDF file shared by the documents that read it on several threads
/// (issue 45, point 2: each worker held its own copy of the file and its
/// own qpdf scanner): one copy of the bytes and one scanner, behind a lock,
/// answer every thread as a private scanner and a private document do.
@Suite("Shared PDF file")
struct PDFFileTests {
  /// A PDF of `count` pages: page *i* (from 0) shows "Page *i + 1* of
  /// *count*" and, with `images`, draws an inline image claiming
  /// (10 + *i*) × (20 + 2*i*) pixels; the page tree's root gives the pages
  /// their media box and font.
  static func pdf(count: Int, images: Bool = true) -> Data {
    HandMadePDF.file(bodies(count: count, images: images))
  }

  /// The objects of ``pdf(count:images:)``, from object 1.
  static func bodies(count: Int, images: Bool = true) -> [String] {
    var objects = [
      "<< /Type /Catalog /Pages 2 0 R >>", "",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    var kids: [String] = []
    for page in 0..<count {
      let image =
        "q 10 0 0 10 150 150 cm BI /W \(10 + page) /H \(20 + 2 * page) /BPC 8 /CS /G ID "
        + String(repeating: "\u{7F}", count: 16) + " EI Q "
      let content =
        (images ? image : "") + "BT /F1 12 Tf 20 100 Td (Page \(page + 1) of \(count)) Tj ET"
      objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
      objects.append("<< /Type /Page /Parent 2 0 R /Contents \(objects.count) 0 R >>")
      kids.append("\(objects.count) 0 R")
    }
    objects[1] =
      "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(count) /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> >>"
    return objects
  }

  /// The image checks and the views' updates the shared scanner gives,
  /// asked from four threads at once, each in its own order, are those a
  /// private scanner (an editor of the file's own) gives.
  @Test func theSharedScannerAnswersEveryThreadAsAPrivateOne() throws {
    let count = 9
    let data = Self.pdf(count: count)
    let editor = try PDFEditor(data: data, path: "claims.pdf")
    let images = (0..<count).map { editor.largestImage(page: $0) }
    let widths: [Double?] = images.map { $0?.width }
    let heights: [Double?] = images.map { $0?.height }
    let claimedWidths: [Double?] = (0..<count).map { Double(10 + $0) }
    let claimedHeights: [Double?] = (0..<count).map { Double(20 + 2 * $0) }
    #expect(widths == claimedWidths)
    #expect(heights == claimedHeights)
    let windows = [0..<3, 3..<6, 6..<9, 2..<7]
    let updates = windows.map { editor.viewUpdate(pages: $0) }
    #expect(updates.allSatisfy { $0 != nil })

    let file = PDFFile(data: data, path: "claims.pdf")
    let threads = 4
    let answers = Mutex<[[String]]>(Array(repeating: [], count: threads))
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var mine: [String] = []
      // Each thread goes through the pages twice, from a page of its own.
      for step in 0..<(2 * count) {
        let page = (step + 2 * thread) % count
        let image = file.largestImage(page: page)
        let expected = images[page]
        mine.append(image == expected ? "ok" : "page \(page + 1): \(String(describing: image))")
        let w = (step + thread) % windows.count
        let update = file.viewUpdate(pages: windows[w], pageCount: count)
        mine.append(update == updates[w] ? "ok" : "window \(windows[w]) differs")
      }
      answers.withLock { $0[thread] = mine }
    }
    let all = answers.withLock { $0 }
    for (thread, mine) in all.enumerated() {
      #expect(mine.count == 4 * count, "thread \(thread)")
      #expect(mine.filter { $0 != "ok" } == [], "thread \(thread)")
    }
    // A count other than the tree's: no view.
    #expect(file.viewUpdate(pages: 0..<3, pageCount: count + 1) == nil)
  }

  /// Documents opened on one shared file, one per thread, read each page
  /// (its description, its text page) as a private document of the whole
  /// file does, through views of 3 pages, going back to the first pages
  /// (read through the whole document, opened again) as well.
  /// A file read in place (its bytes read once, straight into the memory
  /// the documents read them from) holds the file's bytes, and a path that
  /// cannot be read fails with the error an image's reading gives.
  @Test func aFileReadInPlaceHoldsItsBytesAndFailsAsAnImage() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pdffile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = Self.pdf(count: 3)
    let path = folder.appendingPathComponent("in.pdf").path
    try data.write(to: URL(fileURLWithPath: path))
    let file = try PDFFile(reading: path)
    #expect(Data(file.bytes) == data)
    let document = try PDFDocument(file: file)
    #expect(document.pageCount == 3)
    let empty = folder.appendingPathComponent("empty.pdf").path
    try Data().write(to: URL(fileURLWithPath: empty))
    for bad in [folder.appendingPathComponent("missing.pdf").path, folder.path, empty] {
      let expected = try #require(Self.error(bad))
      #expect(throws: expected) { _ = try PDFFile(reading: bad) }
    }
  }

  /// The error reading `path` as an image gives.
  static func error(_ path: String) -> OCRError? {
    do {
      _ = try OCREngine.readImageFile(path)
      return nil
    } catch {
      return error
    }
  }

  @Test func documentsOnASharedFileReadAsAPrivateOne() throws {
    let count = 8
    let data = Self.pdf(count: count, images: false)
    let whole = try PDFDocument(data: data, path: "claims.pdf", pagesPerView: .max)
    let options = RecognitionOptions()
    let expected = try (0..<count).map { index in
      try #require(try whole.textPage(page: index, policy: .keep, options: options))
    }
    #expect(expected[5].text.contains("Page 6 of 8"), "\(expected[5].text)")
    let file = PDFFile(data: data, path: "claims.pdf")
    let threads = 3
    let answers = Mutex<[[String]]>(Array(repeating: [], count: threads))
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var mine: [String] = []
      do {
        let document = try PDFDocument(file: file, pagesPerView: 3)
        // Forwards, backwards, then every other page.
        let order =
          thread == 0
          ? Array(0..<count)
          : thread == 1 ? Array((0..<count).reversed()) : Array(stride(from: 1, to: count, by: 2))
        for index in order + order {
          let page = try document.textPage(page: index, policy: .keep, options: options)
          mine.append(page == expected[index] ? "ok" : "page \(index + 1) differs")
          mine.append(
            (document.viewWindow != nil) == (index >= 3) ? "ok" : "page \(index + 1): view?")
        }
      } catch {
        mine.append("\(error)")
      }
      answers.withLock { $0[thread] = mine }
    }
    for (thread, mine) in answers.withLock({ $0 }).enumerated() {
      #expect(!mine.isEmpty && mine.allSatisfy { $0 == "ok" }, "thread \(thread): \(mine)")
    }
  }
}
