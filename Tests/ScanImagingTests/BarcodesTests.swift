import Foundation
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

  /// A real version-1 QR code (segno, "SCANTEXT", level M): `#` a dark
  /// module.
  static let qrSCANTEXT = [
    "#######.#.###.#######", "#.....#.....#.#.....#", "#.###.#..#.#..#.###.#",
    "#.###.#.#.#.#.#.###.#", "#.###.#..#.##.#.###.#", "#.....#..#.##.#.....#",
    "#######.#.#.#.#######", "...........#.........", "..#.###.#....#...#..#",
    ".##.#..##.#.##.#.#.#.", ".###.##.##.#...#.#...", "##......#.##.#.####.#",
    "#.#.#.##..##.#.#.#.#.", "........#....#.#.#.#.", "#######..#.#.#..##.##",
    "#.....#.#....###...#.", "#.###.#.#..#....#.###", "#.###.#..######..###.",
    "#.###.#.####...####.#", "#.....#..#...#..#.###", "#######...#.##.#....#",
  ].map { $0.map { $0 == "#" } }

  /// The boxes of the 8-connected components of `modules` printed at
  /// `module` px a module with its top-left corner at (`x`, `y`), turned
  /// by `degrees` about its centre (each pixel takes the module under its
  /// centre).
  static func printedQR(
    _ modules: [[Bool]], module: Double, x: Int = 200, y: Int = 300, degrees: Double = 0
  ) -> [PixelRect] {
    let n = Double(modules.count)
    let half = n * module / 2
    let reach = Int((half * 2.0.squareRoot()).rounded(.up)) + 2
    let side = 2 * reach
    let (c, s) = (cos(degrees * .pi / 180), sin(degrees * .pi / 180))
    var ink = [Bool](repeating: false, count: side * side)
    for py in 0..<side {
      for px in 0..<side {
        let dx = Double(px) + 0.5 - Double(reach)
        let dy = Double(py) + 0.5 - Double(reach)
        // Back into the symbol's own frame.
        let u = (c * dx + s * dy + half) / module
        let v = (-s * dx + c * dy + half) / module
        guard u >= 0, v >= 0, u < n, v < n else { continue }
        ink[py * side + px] = modules[Int(v)][Int(u)]
      }
    }
    var seen = [Bool](repeating: false, count: side * side)
    var boxes: [PixelRect] = []
    for start in 0..<(side * side) where ink[start] && !seen[start] {
      var stack = [start]
      seen[start] = true
      var box = (minX: side, minY: side, maxX: 0, maxY: 0)
      while let p = stack.popLast() {
        let (px, py) = (p % side, p / side)
        box = (min(box.minX, px), min(box.minY, py), max(box.maxX, px + 1), max(box.maxY, py + 1))
        for ny in max(0, py - 1)...min(side - 1, py + 1) {
          for nx in max(0, px - 1)...min(side - 1, px + 1)
          where ink[ny * side + nx] && !seen[ny * side + nx] {
            seen[ny * side + nx] = true
            stack.append(ny * side + nx)
          }
        }
      }
      let left = x + Int(half) - reach
      let top = y + Int(half) - reach
      boxes.append(
        PixelRect(
          minX: left + box.minX, minY: top + box.minY, maxX: left + box.maxX,
          maxY: top + box.maxY))
    }
    return boxes
  }

  @Test func aQRCodeIsFoundAtAnyAngle() throws {
    // Upright at 4 px a module: its box is the symbol's.
    let upright = Self.printedQR(Self.qrSCANTEXT, module: 4)
    #expect(
      Barcodes.qrCodes(in: upright) == [PixelRect(minX: 200, minY: 300, maxX: 284, maxY: 384)])
    // Turned: one code, round the symbol's centre
    // (242, 342), covering its modules; mirrored too.
    for degrees in [7.0, 30, 45, 90, 200] {
      let turned = Self.printedQR(Self.qrSCANTEXT, module: 4, degrees: degrees)
      let codes = Barcodes.qrCodes(in: turned)
      let code = try #require(codes.first, "\(degrees)°")
      #expect(codes.count == 1, "\(degrees)°: \(codes)")
      #expect(
        abs(code.center.x - 242) <= 3 && abs(code.center.y - 342) <= 3, "\(degrees)°: \(code)")
      #expect(turned.allSatisfy { code.contains($0, tolerance: 2) }, "\(degrees)°: \(code)")
    }
    let mirrored = Self.qrSCANTEXT.map { Array($0.reversed()) }
    #expect(Barcodes.qrCodes(in: Self.printedQR(mirrored, module: 4)).count == 1)
    // Beside a 1-D barcode: each is found by its own rule only.
    let ean = Self.printed(Self.ean13("4006381333931"), x: 400)
    #expect(Barcodes.qrCodes(in: upright + ean.bars + ean.digits).count == 1)
    #expect(Barcodes.find(in: upright + ean.bars + ean.digits).count == 1)
    #expect(Barcodes.find(in: upright).isEmpty)
  }

  @Test func finderLikeMarksWithoutASymbolAreNoQRCode() {
    // The three finders alone (a logo, three "◉" at a square's corners):
    // no modules between them.
    let finders = Self.qrSCANTEXT.enumerated().map { r, row in
      row.enumerated().map { c, dark in dark && (r < 7 || r >= 14) && (c < 7 || c >= 14) }
    }
    #expect(Barcodes.qrCodes(in: Self.printedQR(finders, module: 4)).isEmpty)
    // Text, and a 1-D barcode, are none.
    #expect(Barcodes.qrCodes(in: Self.line("THANK YOU FOR SHOPPING Illinois", pitch: 18)).isEmpty)
    let ean = Self.printed(Self.ean13("4006381333931"))
    #expect(Barcodes.qrCodes(in: ean.bars + ean.digits).isEmpty)
    // At 1 px a module it is too small to tell from print: none.
    #expect(Barcodes.qrCodes(in: Self.printedQR(Self.qrSCANTEXT, module: 1)).isEmpty)
  }
}
