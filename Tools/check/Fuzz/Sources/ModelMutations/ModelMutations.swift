import Foundation
import ScanFormats
import ScanModel

/// The input of a structure-aware fuzzer read as a list of choices: which
/// field of a valid model to change and to what. A choice past the end of
/// the input is 0, so every input is a complete list.
public struct Choices {
  private let bytes: [UInt8]
  private var position = 0

  /// The choices `bytes` make.
  public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = Array(bytes) }

  /// Whether choices are left.
  public var isEmpty: Bool { position >= bytes.count }

  /// The next byte.
  public mutating func byte() -> Int {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return Int(bytes[position])
  }

  /// A number below `n` (from one or two bytes).
  public mutating func below(_ n: Int) -> Int {
    guard n > 1 else { return 0 }
    return n <= 256 ? byte() % n : (byte() << 8 | byte()) % n
  }

  /// The next eight bytes as a 64-bit pattern.
  public mutating func bits() -> UInt64 {
    var v: UInt64 = 0
    for _ in 0..<8 { v = v << 8 | UInt64(byte()) }
    return v
  }

  /// An integer a limit may stumble on: 0, ±1, the coordinate limit and
  /// just beyond, table sizes, `Int.max` and `Int.min`, or any 64 bits.
  public mutating func int() -> Int {
    let pick = byte()
    if pick < Self.ints.count { return Self.ints[pick] }
    if pick < 200 { return pick - 100 }
    return Int(truncatingIfNeeded: bits())
  }

  /// A number a limit may stumble on (`finite`: no infinity or NaN, as
  /// JSON can hold none), or any 64 bits as a `Double`.
  public mutating func double(finite: Bool = false) -> Double {
    let pick = byte()
    let table = finite ? Self.doubles.filter(\.isFinite) : Self.doubles
    if pick < table.count { return table[pick] }
    let raw = Double(bitPattern: bits())
    return finite && !raw.isFinite ? 1e300 : raw
  }

  static let ints: [Int] = [
    0, 1, -1, 2, 3, 16, 255, 256, 1024, 20_000, 65_536, 1_000_000, 9_999_999, 10_000_000,
    10_000_001, Int(Int32.max), Int(Int32.min), 1 << 53, Int.max, Int.min, Int.max / 2,
    Int.min / 2, 100_000, 100_001,
  ]

  static let doubles: [Double] = [
    0, -0.0, 1, -1, 0.5, 45, 90, 180, -180, 360, 360.01, -360.01, 1e7, -1e7, 1e7 + 1, 1e12,
    1e300, -1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity, -.infinity, .nan,
  ]
}

/// A small valid page that holds every kind of field a reader checks: a
/// body paragraph with glyphs, quads and a baseline, a 2 × 2 table, a
/// figure, a crop, a PDF source, a resolution and a skew.
public enum ModelSeed {
  /// The page.
  public static func page() -> Page {
    func glyphs(_ text: String, x: Int) -> [Glyph] {
      text.enumerated().map { i, c in
        Glyph(
          text: String(c),
          bbox: PixelRect(minX: x + 10 * i, minY: 20, maxX: x + 10 * i + 9, maxY: 40),
          confidence: 90)
      }
    }
    let hello = Word(
      text: "Hello", bbox: PixelRect(minX: 20, minY: 20, maxX: 70, maxY: 40), confidence: 91,
      glyphs: glyphs("Hello", x: 20))
    let world = Word(
      text: "world", bbox: PixelRect(minX: 80, minY: 20, maxX: 130, maxY: 40),
      quad: Quad(
        topLeft: Point(x: 80, y: 20), topRight: Point(x: 130, y: 21),
        bottomRight: Point(x: 130, y: 41), bottomLeft: Point(x: 80, y: 40)),
      confidence: 55, glyphs: glyphs("world", x: 80))
    let line = TextLine(
      bbox: PixelRect(minX: 20, minY: 20, maxX: 130, maxY: 41),
      baseline: Baseline(start: Point(x: 20, y: 38), end: Point(x: 130, y: 39)),
      words: [hello, world])
    let body = Paragraph(
      bbox: line.bbox, lines: [line], role: .heading, headingLevel: 2, cell: nil)
    var cells: [Paragraph] = []
    for row in 0..<2 {
      for column in 0..<2 {
        let box = PixelRect(
          minX: 20 + 60 * column, minY: 60 + 30 * row, maxX: 70 + 60 * column, maxY: 80 + 30 * row)
        let word = Word(text: "c\(row)\(column)", bbox: box, confidence: 80, glyphs: [])
        cells.append(
          Paragraph(
            bbox: box, lines: [TextLine(bbox: box, words: [word])], role: .tableCell,
            headingLevel: nil, cell: TableCellPosition(row: row, column: column)))
      }
    }
    return Page(
      image: "page.png", width: 200, height: 150, dpi: 300, skew: 0.5, language: "eng",
      blocks: [
        Block(bbox: body.bbox, paragraphs: [body]),
        Block(bbox: PixelRect(minX: 20, minY: 60, maxX: 130, maxY: 110), paragraphs: cells),
      ],
      crop: PixelRect(minX: 0, minY: 0, maxX: 200, maxY: 150),
      pdf: PDFPageSource(
        page: 1, width: 48, height: 36, pixelToPoint: [0.24, 0, 0, -0.24, 0, 36], hasText: false,
        nativeImage: true),
      dpiSource: .pdf, figures: [Figure(bbox: PixelRect(minX: 140, minY: 60, maxX: 190, maxY: 110))]
    )
  }
}

/// What every structure-aware fuzzer checks of a document a reader
/// accepted: each page is within ``ModelLimits`` (every reader checks
/// them), `verify` and the writers run on it, and what ScanText writes of
/// it as JSON or `.stm`, ScanText reads back (the `.stm` unchanged).
public func checkAccepted(_ document: Document) {
  let generator = Generator(name: "fuzz", version: "0")
  for page in document.pages {
    do {
      try ModelLimits.check(page)
    } catch {
      preconditionFailure("a reader accepted a page beyond the limits: \(error)")
    }
    _ = page.verify()
    _ = AccessibleHTML().html(for: page)
  }
  let json = DocumentJSON.encode(document, generator: generator)
  do {
    _ = try DocumentJSON.decode(json)
  } catch {
    FileHandle.standardError.write(
      Data("ScanText refuses the JSON it wrote: \(error)\n\(json.prefix(3000))\n".utf8))
    preconditionFailure("ScanText refuses the JSON it wrote: \(error)")
  }
  let compact = CompactModel.encode(document, generator: generator)
  let back: Document
  do {
    back = try CompactModel.decode(compact)
  } catch {
    FileHandle.standardError.write(Data("ScanText refuses the .stm it wrote: \(error)\n".utf8))
    preconditionFailure("ScanText refuses the .stm it wrote: \(error)")
  }
  if back != document {
    let a = DocumentJSON.encode(document, generator: generator)
    let b = DocumentJSON.encode(back, generator: generator)
    let diff = Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? min(a.count, b.count)
    FileHandle.standardError.write(Data("ScanText changes the .stm it wrote; the JSON differs from character \(diff): \(a.dropFirst(max(0, diff - 200)).prefix(400)) | \(b.dropFirst(max(0, diff - 200)).prefix(400))\n".utf8))
    preconditionFailure(
      "ScanText changes the .stm it wrote; the JSON differs from character \(diff): \(a.dropFirst(max(0, diff - 200)).prefix(400)) | \(b.dropFirst(max(0, diff - 200)).prefix(400))"
    )
  }
  for format in [DocumentFormat.hocr, .alto, .tsv, .text] {
    _ = try? format.encode(document, generator: generator)
  }
  if document.pages.count == 1 {
    _ = try? DocumentFormat.page.encode(document, generator: generator)
  }
}
