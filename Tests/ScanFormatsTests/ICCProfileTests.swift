import Foundation
import Testing

@testable import ScanFormats

/// The ICC profile readers on hand-made files: a JPEG's profile split in
/// segments that come out of order, one segment missing, a PNG's `iCCP`
/// damaged.
@Suite("ICC profiles")
struct ICCProfileTests {
  func app2(_ sequence: UInt8, of total: UInt8, _ text: String) -> [UInt8] {
    let body = Array("ICC_PROFILE".utf8) + [0, sequence, total] + Array(text.utf8)
    let length = body.count + 2
    return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }

  @Test func jpegSegmentsAreJoinedInTheirOrder() {
    let soi: [UInt8] = [0xFF, 0xD8]
    let sos: [UInt8] = [0xFF, 0xDA, 0, 2]
    let whole = soi + app2(2, of: 2, " world") + app2(1, of: 2, "hello") + sos
    #expect(ICCProfile.jpeg(Data(whole)) == Data("hello world".utf8))
    #expect(ICCProfile.jpeg(Data(soi + app2(2, of: 2, " world") + sos)) == nil)
    #expect(ICCProfile.jpeg(Data(soi + sos)) == nil)
    // A segment claiming more bytes than the file has.
    #expect(ICCProfile.jpeg(Data(soi + [0xFF, 0xE2, 0xFF, 0xFF, 0])) == nil)
  }

  @Test func pngProfileIsInflatedAndDamageRefused() throws {
    let profile = Data((0..<300).map { UInt8($0 & 0xFF) })
    let compressed = try #require(Deflate.compress(profile))
    func png(_ data: [UInt8]) -> Data {
      let chunk = Array("iCCP".utf8) + Array("icc".utf8) + [0, 0] + data
      let length = UInt32(chunk.count - 4).bigEndian
      return Data(
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
          + withUnsafeBytes(of: length, Array.init) + chunk + [0, 0, 0, 0])
    }
    #expect(ICCProfile.png(png([UInt8](compressed))) == profile)
    var damaged = [UInt8](compressed)
    damaged[damaged.count / 2] ^= 0xFF
    damaged[damaged.count / 2 + 1] ^= 0xFF
    #expect(ICCProfile.png(png(damaged)) == nil)
    #expect(ICCProfile.png(png(Array(compressed.prefix(10)))) == nil)
    #expect(ICCProfile.components(profile) == nil)
  }
}
