import ScanImaging
import ScanModel
import Testing

/// ``Barcodes``: many parallel bars of one height, of two widths or more,
/// set far denser than type; and what is not one.
@Suite("Barcodes")
struct BarcodesTests {
  /// The modules (1 bar, 0 space) of an EAN-13 symbol: guards, six digits
  /// in the L and G sets by the first digit's parity, the centre guard, six
  /// in the R set.
  static func ean13(_ digits: String) -> [Bool] {
    let l = [
      "0001101", "0011001", "0010011", "0111101", "0100011",
      "0110001", "0101111", "0111011", "0110111", "0001011",
    ]
    let parity = [
      "LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG",
      "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL",
    ]
    let d = digits.compactMap(\.wholeNumberValue)
    func r(_ n: Int) -> String { String(l[n].map { $0 == "0" ? "1" : "0" }) }
    var modules = "101"
    for (k, n) in d[1...6].enumerated() {
      modules += Array(parity[d[0]])[k] == "L" ? l[n] : String(r(n).reversed())
    }
    modules += "01010"
    for n in d[7...12] { modules += r(n) }
    modules += "101"
    return modules.map { $0 == "1" }
  }

  /// The ink components of a symbol printed at `module` px a module from
  /// (`x`, `y`), its bars `height` px tall (the guard bars five modules
  /// more), with its human-readable digits (boxes of 9-module-high
  /// glyphs) under the bars.
  static func printed(
    _ modules: [Bool], module: Int = 3, height: Int = 200, x: Int = 100, y: Int = 300
  ) -> (bars: [PixelRect], digits: [PixelRect]) {
    var bars: [PixelRect] = []
    var start: Int?
    for (i, ink) in (modules + [false]).enumerated() {
      if ink, start == nil { start = i }
      if !ink, let s = start {
        let guardBar = s < 3 || i > modules.count - 3 || (s >= 45 && i <= 50)
        bars.append(
          PixelRect(
            minX: x + s * module, minY: y, maxX: x + i * module,
            maxY: y + height + (guardBar ? 5 * module : 0)))
        start = nil
      }
    }
    let digits = (0..<12).map { k in
      let left = x + (k < 6 ? 3 + 7 * k : 50 + 7 * (k - 6)) * module + module
      return PixelRect(
        minX: left, minY: y + height + module, maxX: left + 5 * module,
        maxY: y + height + 10 * module)
    }
    return (bars, digits)
  }

  @Test func anEAN13IsABarcodeAndItsDigitsAreNot() throws {
    let symbol = Self.printed(Self.ean13("4006381333931"))
    #expect(symbol.bars.count == 30)
    let found = Barcodes.find(in: symbol.bars + symbol.digits)
    let barcode = try #require(found.first)
    #expect(found.count == 1)
    // The bars, down to the foot of all but the guard bars; not the
    // digits' line under them.
    #expect(barcode == PixelRect(minX: 100, minY: 300, maxX: 100 + 95 * 3, maxY: 500))
    #expect(symbol.digits.allSatisfy { barcode.intersection($0) == nil })
    // Cut short (30 modules high, its guard bars a sixth longer), it is
    // one barcode, guards included.
    let short = Self.printed(Self.ean13("4006381333931"), module: 4, height: 120)
    #expect(
      Barcodes.find(in: short.bars + short.digits)
        == [PixelRect(minX: 100, minY: 300, maxX: 100 + 95 * 4, maxY: 420)])
    // Smaller and at 1 px a module it is one still.
    let small = Self.printed(Self.ean13("9780306406157"), module: 1, height: 40)
    #expect(Barcodes.find(in: small.bars).count == 1)
  }

  /// Glyph boxes of a line of text: `pattern`'s characters set at `pitch`
  /// px, "I" and "l" 3 px wide and 30 high, others 14 × 21 (x-height)
  /// or 14 × 30 (capitals).
  static func line(_ pattern: String, pitch: Int, y: Int = 100) -> [PixelRect] {
    pattern.enumerated().compactMap { k, c in
      let x = 50 + k * pitch
      switch c {
      case " ": return nil
      case "I", "l", "|": return PixelRect(minX: x, minY: y, maxX: x + 3, maxY: y + 30)
      case _ where c.isUppercase: return PixelRect(minX: x, minY: y, maxX: x + 14, maxY: y + 30)
      default: return PixelRect(minX: x, minY: y + 9, maxX: x + 14, maxY: y + 30)
      }
    }
  }

  @Test func aLineOfTextIsNoBarcode() {
    // Running text, monospace and proportional; a run of capital I's and
    // of l's as dense as type sets them (their strokes alike, tops and
    // bottoms lined up); and a rule's ticks.
    #expect(Barcodes.find(in: Self.line("THANK YOU FOR SHOPPING Illinois", pitch: 18)).isEmpty)
    #expect(Barcodes.find(in: Self.line(String(repeating: "I", count: 40), pitch: 18)).isEmpty)
    #expect(Barcodes.find(in: Self.line(String(repeating: "l", count: 40), pitch: 7)).isEmpty)
    #expect(Barcodes.find(in: Self.line(String(repeating: "|", count: 40), pitch: 5)).isEmpty)
    #expect(Barcodes.find(in: []).isEmpty)
  }
}
