import Foundation
import Testing

@testable import ScanFormats

/// ``JPEGStack`` on hand-made JPEG structures (the entropy-coded data is
/// not decoded: only its markers matter): what it writes, and the parts it
/// refuses. Real tiles are joined and decoded in `TiledJPEGPDFTests`.
@Suite("JPEG stack")
struct JPEGStackTests {
  static let table: [UInt8] = [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01]

  /// A gray JPEG of `width` × `height` (one component: 8 × 8 MCUs) with
  /// `data` as its entropy-coded data.
  static func part(
    width: Int = 16, height: Int = 8, frame: UInt8 = 0xC0, data: [UInt8], extra: [UInt8] = []
  ) -> Data {
    let sof: [UInt8] = [
      0xFF, frame, 0x00, 0x0B, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8),
      UInt8(width & 0xFF), 1, 1, 0x11, 0,
    ]
    let sos: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0]
    return Data([0xFF, 0xD8] + table + extra + sof + sos + data + [0xFF, 0xD9])
  }

  @Test func partsJoinAfterRestartMarkers() throws {
    let joined = try #require(
      JPEGStack.joined([
        Self.part(data: [0x12, 0x34]), Self.part(data: [0x56, 0xFF, 0x00]),
        Self.part(height: 3, data: [0x78]),
      ]))
    let expected: [UInt8] =
      [0xFF, 0xD8] + Self.table
      // The frame: 8 + 8 + 3 rows.
      + [0xFF, 0xC0, 0x00, 0x0B, 8, 0, 19, 0, 16, 1, 1, 0x11, 0]
      // A restart every 2 MCUs (one piece's: 16 / 8 across, 1 row).
      + [0xFF, 0xDD, 0x00, 0x04, 0x00, 0x02]
      + [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0]
      + [0x12, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0x00, 0xFF, 0xD1, 0x78, 0xFF, 0xD9]
    #expect(Array(joined) == expected)
  }

  @Test func aPartAloneIsItself() {
    let part = Self.part(frame: 0xC2, data: [1])
    #expect(JPEGStack.joined([part]) == part)
    #expect(JPEGStack.joined([]) == nil)
  }

  @Test func partsThatCannotJoinAreRefused() {
    let plain = Self.part(data: [1])
    let refused: [(String, [Data])] = [
      ("progressive", [Self.part(frame: 0xC2, data: [1]), Self.part(frame: 0xC2, data: [2])]),
      ("widths differ", [plain, Self.part(width: 24, data: [2])]),
      (
        "rows not whole MCU rows",
        [Self.part(height: 6, data: [1]), Self.part(height: 6, data: [2])]
      ),
      ("last taller", [plain, Self.part(height: 16, data: [2])]),
      ("a marker in the data", [plain, Self.part(data: [1, 0xFF, 0xD0, 2])]),
      ("a restart interval", [plain, Self.part(data: [2], extra: [0xFF, 0xDD, 0, 4, 0, 1])]),
      ("other tables", [plain, Self.part(data: [2], extra: Self.table)]),
      ("no EOI", [plain, plain.dropLast(2)]),
    ]
    for (name, parts) in refused {
      #expect(JPEGStack.joined(parts) == nil, "\(name)")
    }
  }
}
