import Foundation
import ScanFormats
import ScanTestSupport
import Testing

/// Counting what a PDF stream decodes to through every filter qpdf undoes
/// (issue 45, point 4): the count a compression bomb is refused by.
@Suite("PDF stream filters")
struct PDFStreamFilterTests {
  static func size(_ bytes: [UInt8], _ filters: [PDFStreamFilter], limit: Int = 1 << 28) -> Int? {
    bytes.withUnsafeBytes { PDFStreamFilter.decodedSize(of: $0, through: filters, limit: limit) }
  }

  static func flate(_ bytes: [UInt8]) throws -> [UInt8] {
    [UInt8](try #require(Deflate.compress(Data(bytes))))
  }

  static func hex(_ bytes: [UInt8]) -> [UInt8] {
    Array((bytes.map { String(format: "%02X", $0) }.joined() + ">").utf8)
  }

  /// `bytes` in ASCII85, `~>` at the end.
  static func ascii85(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for start in stride(from: 0, to: bytes.count, by: 4) {
      let chunk = bytes[start..<min(start + 4, bytes.count)]
      var value = (chunk + repeatElement(0, count: 4 - chunk.count)).reduce(UInt32(0)) {
        $0 << 8 | UInt32($1)
      }
      if chunk.count == 4 && value == 0 {
        out.append(UInt8(ascii: "z"))
        continue
      }
      var digits: [UInt8] = []
      for _ in 0..<5 {
        digits.append(UInt8(value % 85) + 33)
        value /= 85
      }
      out += digits.reversed().prefix(chunk.count + 1)
    }
    return out + Array("~>".utf8)
  }

  /// Each filter alone, on data whose decoding is known (the LZW example is
  /// the PDF Reference's, section 3.3.3).
  @Test func eachFilterCountsWhatItDecodes() throws {
    #expect(Self.size(Array("48 65 6c\n6C 6f>".utf8), [.asciiHex]) == 5)
    #expect(Self.size(Array("486>".utf8), [.asciiHex]) == 2)
    #expect(Self.size(Array("48656C6C6F".utf8), [.asciiHex]) == 5)
    #expect(Self.size(Array("87cURD_*#TDfTZ)+T~>".utf8), [.ascii85]) == 13)
    #expect(Self.size(Array("z z~>".utf8), [.ascii85]) == 8)
    #expect(Self.size([2, 1, 2, 3, 254, 9, 128, 5], [.runLength]) == 6)
    #expect(
      Self.size(
        [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01], [.lzw(earlyChange: true, .none)])
        == 10)
    let thousand = try Self.flate([UInt8](repeating: 7, count: 1000))
    #expect(Self.size(thousand, [.flate(.none)]) == 1000)
    // Rows of four bytes and a tag (PNG) or four bytes (TIFF).
    let rows = try Self.flate([2, 1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 5, 5, 5, 5])
    let png = PDFPredictor(predictor: 12, columns: 4)
    #expect(Self.size(rows, [.flate(png)]) == 12)
    let tiff = PDFPredictor(predictor: 2, colors: 2, columns: 2)
    #expect(Self.size(try Self.flate([1, 2, 3, 4, 5, 6, 7, 8]), [.flate(tiff)]) == 8)
    // Names as qpdf reads them, abbreviations included; what it does not
    // undo is no filter here.
    #expect(PDFStreamFilter(name: "/AHx") == .asciiHex)
    #expect(PDFStreamFilter(name: "/RL") == .runLength)
    #expect(PDFStreamFilter(name: "/LZW", earlyChange: false) == .lzw(earlyChange: false, .none))
    #expect(PDFStreamFilter(name: "/DCTDecode") == nil)
  }

  /// A chain is counted through every filter: a Flate stream behind
  /// ASCII85, ASCIIHex or another Flate gives what its Flate gives.
  @Test func aChainIsCountedThroughEveryFilter() throws {
    let data = try Self.flate((0..<10_000).map { UInt8(truncatingIfNeeded: $0 * 7 / 13) })
    #expect(Self.size(Self.hex(data), [.asciiHex, .flate(.none)]) == 10_000)
    #expect(Self.size(try Self.flate(data), [.flate(.none), .flate(.none)]) == 10_000)
    #expect(Self.size(Self.ascii85(data), [.ascii85, .flate(.none)]) == 10_000)
    // RunLength of RunLength: 128 copies of a run of 128 spaces.
    let inner: [UInt8] = Array(repeating: [129, 32], count: 128).flatMap { $0 } + [128]
    let outer: [UInt8] =
      stride(from: 0, to: inner.count, by: 128).flatMap { start in
        let part = inner[start..<min(inner.count, start + 128)]
        return [UInt8(part.count - 1)] + part
      } + [128]
    #expect(Self.size(outer, [.runLength, .runLength]) == 128 * 128)
  }

  /// Each filter stops at the limit (exactly the limit is allowed, one byte
  /// more is not), and so does any filter on the way (a chain whose first
  /// filter gives more than the limit is refused even if its last gives
  /// less).
  @Test func everyFilterStopsAtTheLimit() throws {
    let limit = 1000
    let kinds: [(String, (Int) throws -> [UInt8], [PDFStreamFilter])] = [
      ("flate", { try Self.flate([UInt8](repeating: 32, count: $0)) }, [.flate(.none)]),
      ("hex", { Self.hex([UInt8](repeating: 32, count: $0)) }, [.asciiHex]),
      ("a85", { Array(String(repeating: "z", count: $0 / 4).utf8) }, [.ascii85]),
      (
        "runlength",
        { Array(repeating: [0, 32], count: $0).flatMap { $0 } + [128] }, [.runLength]
      ),
      (
        "hex then flate", { Self.hex(try Self.flate([UInt8](repeating: 32, count: $0))) },
        [.asciiHex, .flate(.none)]
      ),
    ]
    for (name, make, filters) in kinds {
      #expect(Self.size(try make(limit), filters, limit: limit) == limit, "\(name)")
      #expect(Self.size(try make(limit + 4), filters, limit: limit) == nil, "\(name)")
    }
    // 2,000 hex digits on the way to 1,000 bytes.
    let hexOfSpaces = try Self.flate(Self.hex([UInt8](repeating: 32, count: 1000)))
    #expect(Self.size(hexOfSpaces, [.flate(.none), .asciiHex], limit: 1999) == nil)
    #expect(Self.size(hexOfSpaces, [.flate(.none), .asciiHex], limit: 2001) == 1000)
  }

  /// The streams fuzzed: one of each filter, and chains.
  static func seeds() throws -> [(filters: String, parsed: [PDFStreamFilter], bytes: [UInt8])] {
    let text = Array(
      String(repeating: "BT /F1 12 Tf 72 700 Td (Hello, filters) Tj ET\n", count: 40).utf8)
    let flated = try flate(text)
    // LZW: the PDF Reference's example, then a clear code and the same
    // again (the codes of `-----A---B` twice).
    let lzw: [UInt8] = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01]
    var runLength: [UInt8] = []
    for chunk in stride(from: 0, to: text.count, by: 100) {
      let part = text[chunk..<min(text.count, chunk + 100)]
      runLength += [UInt8(part.count - 1)] + part + [200, 32]
    }
    runLength.append(128)
    return [
      ("/FlateDecode", [.flate(.none)], flated),
      ("/ASCIIHexDecode", [.asciiHex], hex(text)),
      ("/ASCII85Decode", [.ascii85], ascii85(text)),
      ("[/ASCII85Decode /FlateDecode]", [.ascii85, .flate(.none)], ascii85(flated)),
      ("/RunLengthDecode", [.runLength], runLength),
      ("/LZWDecode", [.lzw(earlyChange: true, .none)], lzw),
      ("[/ASCIIHexDecode /FlateDecode]", [.asciiHex, .flate(.none)], hex(flated)),
      ("[/FlateDecode /FlateDecode]", [.flate(.none), .flate(.none)], try flate(flated)),
      (
        "[/FlateDecode] /DecodeParms << /Predictor 12 /Columns 4 >>",
        [.flate(PDFPredictor(predictor: 12, columns: 4))],
        try flate((0..<400).map { $0 % 5 == 0 ? UInt8($0 / 5 % 5) : UInt8(truncatingIfNeeded: $0) })
      ),
    ]
  }

  /// Random damage to each kind of stream never crashes the count, and it
  /// never counts less than qpdf decodes from the same stream (at the
  /// level it decodes a page's content), so that no bomb slips under the
  /// limit by being damaged.
  @Test func damagedStreamsAreNeverCountedBelowWhatQpdfDecodes() throws {
    guard let qpdf = ExternalCheckers.qpdf else { return }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var state: UInt64 = 45
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var compared = 0
    for seed in try Self.seeds() {
      for round in 0..<30 {
        var bytes = seed.bytes
        // The first round of each is the stream undamaged.
        for _ in 0..<(round == 0 ? 0 : 1 + next() % 3) where !bytes.isEmpty {
          let i = Int(next() % UInt64(bytes.count))
          switch next() % 4 {
          case 0: bytes[i] ^= UInt8(truncatingIfNeeded: next() | 1)
          case 1: bytes = Array(bytes.prefix(i))
          case 2: bytes.removeSubrange(i..<min(bytes.count, i + Int(next() % 40)))
          default:
            bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + Int(next() % 40))], at: i)
          }
        }
        let counted = Self.size(bytes, seed.parsed)
        let stream =
          Data("<< /Length \(bytes.count) /Filter \(seed.filters) >>\nstream\n".utf8)
          + Data(bytes) + Data("\nendstream".utf8)
        let pdf = folder.appendingPathComponent("fuzz.pdf")
        try HandMadePDF.file(
          [
            Data("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Data("<< /Type /Pages /Kids [] /Count 0 >>".utf8), stream,
          ], header: "%PDF-1.4\n%\u{e2}\u{e3}\n"
        ).write(to: pdf)
        let decoded = folder.appendingPathComponent("decoded")
        let (code, output) = try ExternalCheckers.run(
          "/bin/sh",
          [
            "-c",
            "\"$0\" --show-object=3 --filtered-stream-data --decode-level=specialized \"$1\" > \"$2\"",
            qpdf, pdf.path, decoded.path,
          ])
        let qpdfBytes = (try? Data(contentsOf: decoded))?.count ?? 0
        if round == 0 { #expect(code == 0 && counted == qpdfBytes, "\(seed.filters): \(output)") }
        guard code == 0 || code == 3 else { continue }
        compared += 1
        #expect(
          (counted ?? 0) >= qpdfBytes,
          "\(seed.filters), round \(round): counted \(String(describing: counted)), qpdf decoded \(qpdfBytes)"
        )
      }
    }
    #expect(compared > 100)
  }
}
