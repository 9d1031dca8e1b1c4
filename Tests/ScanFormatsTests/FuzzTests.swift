import Foundation
import ScanFormats
import ScanModel
import Testing

/// Random damage to a valid document must give a clear error or a valid
/// model, never a crash; and every query on whatever decodes must return.
@Suite("Fuzzing the decoder and the queries")
struct FuzzTests {
  static let seed = DocumentJSON.encode(
    DocumentJSONTests.goldenDocument, generator: Samples.generator)

  static let hostileNumbers = [
    "-1", "0", "1e400", "-1e400", "9007199254740993", "-9223372036854775808", "1e15", "2.5",
    "99999999", "-0",
  ]

  func mutate(_ text: String, _ rng: inout SeededGenerator) -> String {
    var bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return text }
    switch rng.next() % 5 {
    case 0:  // flip a byte
      let i = Int(rng.next() % UInt64(bytes.count))
      bytes[i] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
    case 1:  // truncate
      bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
    case 2:  // replace a number with a hostile one
      let digits = bytes.indices.filter { (48...57).contains(bytes[$0]) }
      guard let at = digits.randomElement(using: &rng) else { break }
      var end = at
      while end < bytes.count, (48...57).contains(bytes[end]) { end += 1 }
      let replacement = Self.hostileNumbers[Int(rng.next() % UInt64(Self.hostileNumbers.count))]
      bytes.replaceSubrange(at..<end, with: Array(replacement.utf8))
    case 3:  // delete a span
      let i = Int(rng.next() % UInt64(bytes.count))
      let n = min(bytes.count - i, Int(rng.next() % 40))
      bytes.removeSubrange(i..<(i + n))
    default:  // duplicate a span
      let i = Int(rng.next() % UInt64(bytes.count))
      let n = min(bytes.count - i, Int(rng.next() % 40))
      bytes.insert(contentsOf: bytes[i..<(i + n)], at: i)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Runs every query the tool offers over the page.
  func exercise(_ page: Page, _ rng: inout SeededGenerator) {
    let n = page.endPosition.offset
    for _ in 0..<20 {
      let p = TextPosition(offset: Int(rng.next() % UInt64(n + 3)) - 1)
      let q = TextPosition(offset: Int(rng.next() % UInt64(n + 3)) - 1)
      let point = Point(
        x: Double(Int(rng.next() % 2000)) - 500, y: Double(Int(rng.next() % 2000)) - 500)
      _ = page.closestPosition(to: point)
      _ = page.characterRange(at: point)
      _ = page.word(at: point)
      _ = page.lineNumber(at: point)
      _ = page.text(in: Rect(minX: point.x, minY: point.y, maxX: point.x + 300, maxY: point.y + 80))
      if let range = page.textRange(from: p, to: q) {
        _ = page.text(in: range)
        _ = page.selectionRects(for: range)
        _ = page.firstRect(for: range)
        _ = page.caretRect(for: range.lowerBound)
        _ = page.closestPosition(to: point, within: range)
      }
      for g in TextGranularity.allCases {
        for d in ["forward", "backward", "left", "right", "up", "down"].compactMap(
          TextDirection.init(name:))
        {
          _ = page.rangeEnclosingPosition(p, with: g, inDirection: d)
          _ = page.position(from: p, toBoundary: g, inDirection: d)
          _ = page.isPosition(p, atBoundary: g, inDirection: d)
        }
      }
    }
    _ = page.verify()
    _ = page.evaluate(against: page)
  }

  @Test func damagedDocumentsNeverCrash() {
    var rng = SeededGenerator(seed: 20_261_129)
    var decoded = 0
    for _ in 0..<5000 {
      var text = Self.seed
      for _ in 0..<(1 + rng.next() % 3) { text = mutate(text, &rng) }
      do {
        let document = try DocumentJSON.decode(text)
        decoded += 1
        for page in document.pages { exercise(page, &rng) }
      } catch let error as DocumentFormatError {
        #expect(!error.description.isEmpty)
      } catch let error as JSONParseError {
        #expect(error.offset >= 0)
      } catch {
        Issue.record("unexpected error type: \(error)")
      }
    }
    // Some mutations keep the document valid; they were all queried.
    #expect(decoded > 0)
  }

  @Test func hugeCoordinatesAreRefused() {
    for (key, value) in [("width", "20000000"), ("height", "-5")] {
      let text = Self.seed.replacingOccurrences(
        of:
          "\"\(key)\": \(key == "width" ? DocumentJSONTests.goldenDocument.pages[0].width : DocumentJSONTests.goldenDocument.pages[0].height)",
        with: "\"\(key)\": \(value)")
      #expect(text != Self.seed)
      #expect(throws: DocumentFormatError.self) { try DocumentJSON.decode(text) }
    }
  }
}
