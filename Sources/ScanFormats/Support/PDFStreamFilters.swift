import CZlib

/// One of the filters a PDF stream's data went through that qpdf undoes
/// when it decodes a page's content (its "specialized" level): the ones
/// that make data bigger when undone, so the ones a compression bomb can
/// be made of (issue 45, point 4).
package enum PDFStreamFilter: Equatable, Sendable {
  /// `/FlateDecode` (zlib), with the predictor its `/DecodeParms` give.
  case flate(PDFPredictor)
  /// `/LZWDecode`, its `/EarlyChange` (1 unless 0) and its predictor.
  case lzw(earlyChange: Bool, PDFPredictor)
  /// `/ASCII85Decode`.
  case ascii85
  /// `/ASCIIHexDecode`.
  case asciiHex
  /// `/RunLengthDecode`.
  case runLength

  /// The filter a `/Filter` name gives (its full or abbreviated name,
  /// slash included), `nil` for one qpdf does not undo when it decodes
  /// content (`/DCTDecode`, `/CCITTFaxDecode`, `/JBIG2Decode`,
  /// `/JPXDecode`, `/Crypt`, or an unknown name).
  /// - Parameters:
  ///   - name: The filter's name, with its slash.
  ///   - predictor: The predictor its `/DecodeParms` give (Flate and LZW
  ///     only).
  ///   - earlyChange: Its `/DecodeParms`' `/EarlyChange` (LZW only).
  package init?(name: String, predictor: PDFPredictor = .none, earlyChange: Bool = true) {
    switch name {
    case "/FlateDecode", "/Fl": self = .flate(predictor)
    case "/LZWDecode", "/LZW": self = .lzw(earlyChange: earlyChange, predictor)
    case "/ASCII85Decode", "/A85": self = .ascii85
    case "/ASCIIHexDecode", "/AHx": self = .asciiHex
    case "/RunLengthDecode", "/RL": self = .runLength
    default: return nil
    }
  }

  /// The number of bytes `data` gives once `filters` (in the stream's
  /// order) are undone, counted through fixed buffers without keeping
  /// them; `nil` when it, or what any filter of the chain gives on the
  /// way, is more than `limit` bytes. Every filter is counted, whichever
  /// comes first: an LZW, RunLength or Flate stream, or a Flate stream
  /// behind ASCII85, ASCIIHex or another Flate. Data that is damaged or
  /// ends early counts what comes before the damage (the reader that
  /// decodes it afterwards decides what to do with the rest).
  /// - Parameters:
  ///   - data: The stream's stored bytes.
  ///   - filters: Its filters, the first applied to the stored bytes.
  ///   - limit: The most bytes any filter may give.
  /// - Complexity: O(*n*) in the bytes decoded, at most `limit` a filter;
  ///   memory O(1) (a few buffers of 64 kB).
  package static func decodedSize(
    of data: UnsafeRawBufferPointer, through filters: [PDFStreamFilter], limit: Int
  ) -> Int? {
    let last = Counter(limit: limit, next: nil)
    var next: any FilterSink = last
    for filter in filters.reversed() {
      next = filter.stages(limit: limit, next: next)
    }
    guard next.take(data), next.end() else { return nil }
    return last.count
  }

  /// This filter's stages, each followed by a counter, ending in `next`.
  private func stages(limit: Int, next: any FilterSink) -> any FilterSink {
    func counted(_ make: (any FilterSink) -> any FilterSink) -> any FilterSink {
      make(Counter(limit: limit, next: next))
    }
    switch self {
    case .flate(let predictor):
      let predicted = predictor.stage(limit: limit, next: next)
      return Inflater(next: Counter(limit: limit, next: predicted))
    case .lzw(let earlyChange, let predictor):
      let predicted = predictor.stage(limit: limit, next: next)
      return LZWDecoder(earlyChange: earlyChange, next: Counter(limit: limit, next: predicted))
    case .ascii85: return counted { ASCII85Decoder(next: $0) }
    case .asciiHex: return counted { ASCIIHexDecoder(next: $0) }
    case .runLength: return counted { RunLengthDecoder(next: $0) }
    }
  }
}

/// The predictor of a Flate or LZW stream (its `/DecodeParms`):
/// `/Predictor` 1 (none), 2 (TIFF) or 10 to 15 (PNG), with the row's
/// `/Colors`, `/BitsPerComponent` and `/Columns`.
package struct PDFPredictor: Equatable, Sendable {
  /// `/Predictor` (1 when absent).
  package var predictor: Int
  /// `/Colors` (1 when absent).
  package var colors: Int
  /// `/BitsPerComponent` (8 when absent).
  package var bitsPerComponent: Int
  /// `/Columns` (1 when absent).
  package var columns: Int

  /// No predictor.
  package static let none = PDFPredictor(predictor: 1)

  /// A predictor with the entries given (the others as absent).
  package init(predictor: Int, colors: Int = 1, bitsPerComponent: Int = 8, columns: Int = 1) {
    self.predictor = predictor
    self.colors = colors
    self.bitsPerComponent = bitsPerComponent
    self.columns = columns
  }

  /// The bytes of a row, or `nil` for entries no row can have (the data
  /// then goes on as it is, since qpdf does not decode such a stream).
  private var rowBytes: Int? {
    guard (1...32).contains(colors), [1, 2, 4, 8, 16].contains(bitsPerComponent),
      (1...(1 << 24)).contains(columns)
    else { return nil }
    return (colors * bitsPerComponent * columns + 7) / 8
  }

  /// The stage undoing this predictor, followed by a counter, ending in
  /// `next`; `next` itself for none.
  fileprivate func stage(limit: Int, next: any FilterSink) -> any FilterSink {
    guard predictor == 2 || predictor >= 10, let rowBytes else { return next }
    let counter = Counter(limit: limit, next: next)
    if predictor == 2 {
      return TIFFPredictor(
        rowBytes: rowBytes, colors: colors, bits: bitsPerComponent, next: counter)
    }
    let pixelBytes = max(1, (colors * bitsPerComponent + 7) / 8)
    return PNGPredictor(rowBytes: rowBytes, pixelBytes: pixelBytes, next: counter)
  }
}

// MARK: - Stages

/// Where a filter's output goes, a part at a time.
private protocol FilterSink: AnyObject {
  /// Takes the next part; `false` stops the whole chain (a limit passed).
  func take(_ bytes: UnsafeRawBufferPointer) -> Bool
  /// The data ended; `false` when a limit passed.
  func end() -> Bool
}

/// Counts what passes (against the limit) and hands it on.
private final class Counter: FilterSink {
  let limit: Int
  let next: (any FilterSink)?
  private(set) var count = 0

  init(limit: Int, next: (any FilterSink)?) {
    self.limit = limit
    self.next = next
  }

  func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    count += bytes.count
    guard count <= limit else { return false }
    return next?.take(bytes) ?? true
  }

  func end() -> Bool { next?.end() ?? true }
}

/// A stage's output, gathered in a buffer of 64 kB and handed on when full.
private class Stage: FilterSink {
  let next: any FilterSink
  private var buffer: [UInt8] = []
  /// Whether the data ended (its end marker) or is damaged: what follows is
  /// ignored.
  var stopped = false

  init(next: any FilterSink) {
    self.next = next
    buffer.reserveCapacity(1 << 16)
  }

  func take(_ bytes: UnsafeRawBufferPointer) -> Bool { true }

  func end() -> Bool { flush() && next.end() }

  final func emit(_ byte: UInt8) -> Bool {
    buffer.append(byte)
    return buffer.count < 1 << 16 || flush()
  }

  final func emit(repeating byte: UInt8, count: Int) -> Bool {
    buffer.append(contentsOf: repeatElement(byte, count: count))
    return buffer.count < 1 << 16 || flush()
  }

  final func emit<C: Collection<UInt8>>(contentsOf bytes: C) -> Bool {
    buffer.append(contentsOf: bytes)
    return buffer.count < 1 << 16 || flush()
  }

  final func flush() -> Bool {
    guard !buffer.isEmpty else { return true }
    defer { buffer.removeAll(keepingCapacity: true) }
    return buffer.withUnsafeBytes { next.take($0) }
  }
}

/// Flate (zlib's format), through zlib.
private final class Inflater: FilterSink {
  let next: any FilterSink
  private var stream = z_stream()
  private var ready: Bool
  private var stopped = false
  private var buffer = [UInt8](repeating: 0, count: 1 << 16)

  init(next: any FilterSink) {
    self.next = next
    ready = inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
  }

  deinit { if ready { inflateEnd(&stream) } }

  func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard ready, let base = bytes.baseAddress else { return true }
    var offset = 0
    while !stopped {
      // zlib counts its input in 32 bits: a gigabyte at a time.
      if stream.avail_in == 0 {
        guard offset < bytes.count else { return true }
        let take = min(bytes.count - offset, 1 << 30)
        stream.next_in = UnsafeMutablePointer(
          mutating: base.assumingMemoryBound(to: UInt8.self) + offset)
        stream.avail_in = uInt(take)
        offset += take
      }
      let (status, produced) = buffer.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
        stream.next_out = target.baseAddress
        stream.avail_out = uInt(target.count)
        let status = inflate(&stream, Z_NO_FLUSH)
        return (status, target.count - Int(stream.avail_out))
      }
      if produced > 0 {
        let goOn = buffer.withUnsafeBytes {
          next.take(UnsafeRawBufferPointer(rebasing: $0[0..<produced]))
        }
        guard goOn else { return false }
      }
      // The end of the data, or damage: what follows is ignored. (Z_BUF_ERROR
      // with input left and nothing made is damage too; without input
      // left, zlib waits for the next part.)
      if status == Z_STREAM_END || (status != Z_OK && status != Z_BUF_ERROR)
        || (status == Z_BUF_ERROR && produced == 0 && stream.avail_in > 0)
      {
        stopped = true
      }
    }
    stream.avail_in = 0
    return true
  }

  func end() -> Bool { next.end() }
}

/// LZW (PDF's: 9 to 12-bit codes, most significant bit first, 256 clears
/// the table, 257 ends the data).
private final class LZWDecoder: Stage {
  private let earlyChange: Int
  /// Each code's prefix code and last byte (codes from 258).
  private var prefix = [UInt16](repeating: 0, count: 4096)
  private var suffix = [UInt8](repeating: 0, count: 4096)
  private var first = [UInt8](repeating: 0, count: 4096)
  private var nextCode = 258
  private var codeSize = 9
  private var previous: Int?
  private var bits: UInt32 = 0
  private var bitCount = 0
  private var scratch = [UInt8](repeating: 0, count: 4096)

  init(earlyChange: Bool, next: any FilterSink) {
    self.earlyChange = earlyChange ? 1 : 0
    super.init(next: next)
    for code in 0..<256 {
      suffix[code] = UInt8(code)
      first[code] = UInt8(code)
    }
  }

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      if stopped { return true }
      bits = bits << 8 | UInt32(byte)
      bitCount += 8
      while bitCount >= codeSize {
        let code = Int(bits >> UInt32(bitCount - codeSize)) & ((1 << codeSize) - 1)
        bitCount -= codeSize
        bits &= (1 << UInt32(bitCount)) - 1
        guard decode(code) else { return false }
        if stopped { return true }
      }
    }
    return true
  }

  /// Emits `code`'s string; `false` when a limit passed.
  private func decode(_ code: Int) -> Bool {
    if code == 256 {
      nextCode = 258
      codeSize = 9
      previous = nil
      return true
    }
    if code == 257 {
      stopped = true
      return true
    }
    guard let previous else {
      guard code < 256 else {
        stopped = true
        return true
      }
      self.previous = code
      return emit(UInt8(code))
    }
    guard code <= nextCode, code < 4096 else {
      stopped = true
      return true
    }
    // The new entry: the previous string and the first byte of this one
    // (of the previous one when this code is the entry being made).
    let head = code == nextCode ? first[previous] : first[code]
    if nextCode < 4096 {
      prefix[nextCode] = UInt16(previous)
      suffix[nextCode] = head
      first[nextCode] = first[previous]
      nextCode += 1
      if nextCode + earlyChange >= 1 << codeSize && codeSize < 12 { codeSize += 1 }
    }
    self.previous = code
    // The string, last byte first.
    var length = 0
    var walk = code
    while walk >= 258 && length < scratch.count - 1 {
      scratch[length] = suffix[walk]
      walk = Int(prefix[walk])
      length += 1
    }
    scratch[length] = UInt8(truncatingIfNeeded: walk)
    length += 1
    return emit(contentsOf: scratch[0..<length].reversed())
  }
}

/// ASCII85 (`~>` ends the data; `z` stands for four zero bytes).
private final class ASCII85Decoder: Stage {
  private var group: UInt64 = 0
  private var digits = 0
  private var tilde = false

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      if stopped { return true }
      if tilde {
        stopped = true
        break
      }
      switch byte {
      case 0x00, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20: continue
      case UInt8(ascii: "~"):
        tilde = true
      case UInt8(ascii: "z") where digits == 0:
        guard emit(repeating: 0, count: 4) else { return false }
      case 0x21...0x75:
        group = group * 85 + UInt64(byte - 0x21)
        digits += 1
        if digits == 5 {
          digits = 0
          guard emitGroup(bytes: 4) else { return false }
        }
      default:
        stopped = true
      }
    }
    return true
  }

  override func end() -> Bool {
    // A last group of two to four digits gives one to three bytes.
    if digits > 1 {
      for _ in digits..<5 { group = group * 85 + 84 }
      guard emitGroup(bytes: digits - 1) else { return false }
    }
    digits = 0
    return super.end()
  }

  private func emitGroup(bytes: Int) -> Bool {
    let value = UInt32(truncatingIfNeeded: group)
    group = 0
    for shift in stride(from: 24, through: 32 - 8 * bytes, by: -8) {
      guard emit(UInt8(truncatingIfNeeded: value >> UInt32(shift))) else { return false }
    }
    return true
  }
}

/// ASCIIHex (`>` ends the data; an odd last digit is followed by 0).
private final class ASCIIHexDecoder: Stage {
  private var high: UInt8?

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      if stopped { return true }
      let digit: UInt8
      switch byte {
      case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20: continue
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        stopped = true
        continue
      }
      if let high {
        self.high = nil
        guard emit(high << 4 | digit) else { return false }
      } else {
        high = digit
      }
    }
    return true
  }

  override func end() -> Bool {
    if let high {
      self.high = nil
      guard emit(high << 4) else { return false }
    }
    return super.end()
  }
}

/// RunLength (a length byte: 0–127 copies the next 1–128 bytes, 129–255
/// repeats the next byte 128–2 times, 128 ends the data, though qpdf
/// reads on after it).
private final class RunLengthDecoder: Stage {
  /// Literal bytes still to copy.
  private var literal = 0
  /// The times the next byte is repeated.
  private var repeats = 0

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex, !stopped {
      if literal > 0 {
        let count = min(literal, bytes.endIndex - index)
        guard emit(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + count]))
        else { return false }
        literal -= count
        index += count
        continue
      }
      let byte = bytes[index]
      index += 1
      if repeats > 0 {
        guard emit(repeating: byte, count: repeats) else { return false }
        repeats = 0
      } else if byte < 128 {
        literal = Int(byte) + 1
      } else if byte > 128 {
        repeats = 257 - Int(byte)
      }
      // 128 ends the data, but qpdf reads on after it: so does the count.
    }
    return true
  }
}

/// The PNG predictors (a tag byte before each row; an unknown tag is
/// taken for none, as qpdf takes it).
private final class PNGPredictor: Stage {
  private let rowBytes: Int
  private let pixelBytes: Int
  private var row: [UInt8]
  private var above: [UInt8]
  private var filled = 0

  init(rowBytes: Int, pixelBytes: Int, next: any FilterSink) {
    self.rowBytes = rowBytes
    self.pixelBytes = pixelBytes
    row = [UInt8](repeating: 0, count: rowBytes + 1)
    above = [UInt8](repeating: 0, count: rowBytes + 1)
    super.init(next: next)
  }

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      if stopped { return true }
      row[filled] = byte
      filled += 1
      if filled == row.count {
        filled = 0
        guard decodeRow() else { return false }
      }
    }
    return true
  }

  override func end() -> Bool {
    if filled > 0 {
      for index in filled..<row.count { row[index] = 0 }
      filled = 0
      guard decodeRow() else { return false }
    }
    return super.end()
  }

  private func decodeRow() -> Bool {
    let tag = row[0]
    for index in 1...rowBytes {
      let left = index > pixelBytes ? row[index - pixelBytes] : 0
      let up = above[index]
      let upLeft = index > pixelBytes ? above[index - pixelBytes] : 0
      switch tag {
      case 0: break
      case 1: row[index] &+= left
      case 2: row[index] &+= up
      case 3: row[index] &+= UInt8((Int(left) + Int(up)) / 2)
      case 4:
        let p = Int(left) + Int(up) - Int(upLeft)
        let (pa, pb, pc) = (abs(p - Int(left)), abs(p - Int(up)), abs(p - Int(upLeft)))
        row[index] &+= pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      default: break  // qpdf takes an unknown tag for none
      }
    }
    swap(&row, &above)
    return emit(contentsOf: above[1...])
  }
}

/// The TIFF predictor (2: each sample the difference from the one a pixel
/// to its left).
private final class TIFFPredictor: Stage {
  private let rowBytes: Int
  private let colors: Int
  private let bits: Int
  private var row: [UInt8]
  private var filled = 0

  init(rowBytes: Int, colors: Int, bits: Int, next: any FilterSink) {
    self.rowBytes = rowBytes
    self.colors = colors
    self.bits = bits
    row = [UInt8](repeating: 0, count: rowBytes)
    super.init(next: next)
  }

  override func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes {
      row[filled] = byte
      filled += 1
      if filled == rowBytes {
        filled = 0
        guard decodeRow(count: rowBytes) else { return false }
      }
    }
    return true
  }

  override func end() -> Bool {
    if filled > 0 {
      let count = filled
      filled = 0
      guard decodeRow(count: count) else { return false }
    }
    return super.end()
  }

  private func decodeRow(count: Int) -> Bool {
    if bits == 8 {
      for index in colors..<max(colors, count) { row[index] &+= row[index - colors] }
      return emit(contentsOf: row[0..<count])
    }
    let samples = count * 8 / bits
    let mask = (1 << bits) - 1
    for sample in colors..<max(colors, samples) {
      let value = (read(sample) + read(sample - colors)) & mask
      write(value, at: sample)
    }
    return emit(contentsOf: row[0..<count])
  }

  private func read(_ sample: Int) -> Int {
    var value = 0
    for bit in sample * bits..<(sample + 1) * bits {
      value = value << 1 | Int(row[bit >> 3] >> (7 - UInt8(bit & 7)) & 1)
    }
    return value
  }

  private func write(_ value: Int, at sample: Int) {
    for (offset, bit) in (sample * bits..<(sample + 1) * bits).enumerated() {
      let on = value >> (bits - 1 - offset) & 1
      let flag = UInt8(1) << (7 - UInt8(bit & 7))
      if on != 0 { row[bit >> 3] |= flag } else { row[bit >> 3] &= ~flag }
    }
  }
}
