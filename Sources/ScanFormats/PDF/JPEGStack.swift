import Foundation

/// Joins JPEG images of the same width, coded alike, one under the other
/// into one JPEG, without decoding them: each one's entropy-coded data is
/// kept byte for byte and follows the one above it after a restart marker.
///
/// A restart marker (ITU T.81, B.2.1 and F.1.2.3) ends a run of a fixed
/// number of MCUs, the restart interval (`DRI`): the coder's bit buffer is
/// flushed to a whole byte and the DC predictions start again from 0,
/// which is how every JPEG image starts. So when each image holds whole
/// MCU rows and as many MCUs as the one above, its data is, unchanged, the
/// next interval of the image they make: the frame header takes the sum
/// of their heights and a `DRI` segment their number of MCUs. A TIFF
/// page's JPEG tiles in a column, or its JPEG strips, join so: a searchable
/// PDF draws one image where it would draw each tile, each with its own
/// copy of the tables (`indian-ferns-0004.tif`: 609 tiles with 574 bytes of
/// tables each, against 21 columns).
///
/// Only sequential Huffman-coded images (`SOF0`, `SOF1`) in one scan of
/// every component join, with no restart interval of their own and the
/// same segments (tables, frame header but its height, scan header) in
/// each; the last may have fewer rows.
public enum JPEGStack {
  /// The JPEG image of `parts` one under the other, the first at the top;
  /// `parts[0]` itself when it is alone; `nil` when they cannot be joined
  /// (see the type).
  ///
  /// - Parameter parts: Whole JPEG files (SOI to EOI), tables included.
  /// - Returns: A JPEG of the parts' width and the sum of their heights.
  /// - Complexity: O(*n*) in the parts' bytes.
  public static func joined(_ parts: [Data]) -> Data? {
    guard let first = parts.first else { return nil }
    if parts.count == 1 { return first }
    var scans: [Scan] = []
    for part in parts {
      guard let scan = Scan(part) else { return nil }
      scans.append(scan)
    }
    let top = scans[0]
    guard let last = scans.last,
      scans.allSatisfy({ $0.header == top.header && $0.scanHeader == top.scanHeader }),
      scans.dropLast().allSatisfy({ $0.height == top.height }), last.height <= top.height,
      top.height % top.mcuHeight == 0
    else { return nil }
    let interval = top.mcusPerRow * (top.height / top.mcuHeight)
    let height = top.height * (scans.count - 1) + last.height
    guard interval <= 0xFFFF, height <= 0xFFFF else { return nil }
    var header = top.header
    header[top.heightOffset] = UInt8(height >> 8)
    header[top.heightOffset + 1] = UInt8(height & 0xFF)
    var out = Data([0xFF, 0xD8])
    out.append(header)
    out.append(Scan.segment(0xDD, [UInt8(interval >> 8), UInt8(interval & 0xFF)]))
    out.append(Scan.segment(0xDA, top.scanHeader))
    for (i, scan) in scans.enumerated() {
      if i > 0 { out.append(contentsOf: [0xFF, 0xD0 + UInt8((i - 1) % 8)]) }
      out.append(scan.data)
    }
    out.append(contentsOf: [0xFF, 0xD9])
    return out
  }

  /// One JPEG image taken apart: its segments before the scan, written
  /// out again with the frame's height set to 0 (to compare them), its
  /// scan header, its entropy-coded data.
  struct Scan {
    var header: Data
    /// Where the frame's height lies in ``header``.
    var heightOffset: Int
    var scanHeader: [UInt8]
    var data: Data
    var height: Int
    var mcuHeight: Int
    var mcusPerRow: Int

    /// A marker segment: the marker, the length, the body.
    static func segment<Body: Collection<UInt8>>(_ marker: UInt8, _ body: Body) -> Data {
      Data([0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]) + body
    }

    init?(_ jpeg: Data) {
      let bytes = [UInt8](jpeg)
      let (found, scanStart) = JPEGSegments.walk(bytes)
      guard let scanStart, scanStart + 4 <= bytes.count else { return nil }
      var header = Data()
      var frame: [UInt8]?
      var heightOffset = 0
      for (marker, body) in found {
        switch marker {
        // Baseline and extended sequential, Huffman-coded.
        case 0xC0, 0xC1:
          guard frame == nil else { return nil }
          frame = Array(body)
          heightOffset = header.count + 5
          var zeroed = Array(body)
          if zeroed.count >= 3 { (zeroed[1], zeroed[2]) = (0, 0) }
          header.append(Self.segment(marker, zeroed))
        // Other frames (progressive, lossless, arithmetic), a restart
        // interval, a number of lines: not joined.
        case 0xC2...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDC, 0xDD: return nil
        default: header.append(Self.segment(marker, body))
        }
      }
      // The frame: precision, height, width, components (id, sampling
      // factors, table).
      guard let frame, frame.count >= 6, frame[0] == 8 else { return nil }
      let height = Int(frame[1]) << 8 | Int(frame[2])
      let width = Int(frame[3]) << 8 | Int(frame[4])
      let components = Int(frame[5])
      guard height > 0, width > 0, components > 0, frame.count == 6 + 3 * components else {
        return nil
      }
      let factors = (0..<components).map { frame[6 + 3 * $0 + 1] }
      let h = factors.map { Int($0 >> 4) }.max() ?? 0
      let v = factors.map { Int($0 & 0x0F) }.max() ?? 0
      guard h > 0, v > 0 else { return nil }
      // One component alone is coded in 8×8 blocks (T.81 A.2.2); several
      // interleaved, in MCUs of the largest sampling factors.
      let mcuWidth = components == 1 ? 8 : 8 * h
      mcuHeight = components == 1 ? 8 : 8 * v
      mcusPerRow = (width + mcuWidth - 1) / mcuWidth
      self.height = height
      // The scan: every component at once, then its data up to the EOI
      // that ends the file, with no marker in it (a zero after each 0xFF).
      let length = Int(bytes[scanStart + 2]) << 8 | Int(bytes[scanStart + 3])
      let dataStart = scanStart + 2 + length
      guard length >= 3, dataStart + 2 <= bytes.count,
        Int(bytes[scanStart + 4]) == components,
        bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9
      else { return nil }
      let dataEnd = bytes.count - 2
      var i = dataStart
      while i < dataEnd {
        if bytes[i] == 0xFF {
          guard i + 1 < dataEnd, bytes[i + 1] == 0 else { return nil }
          i += 2
        } else {
          i += 1
        }
      }
      self.header = header
      self.heightOffset = heightOffset
      scanHeader = Array(bytes[(scanStart + 4)..<dataStart])
      data = Data(bytes[dataStart..<dataEnd])
    }
  }
}
