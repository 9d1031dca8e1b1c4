import CZlib

extension CompactModel {
  /// Appends the compact model's primitive values to a byte array: unsigned
  /// integers as LEB128 varints, signed ones zigzag-coded first, doubles as
  /// their eight IEEE 754 bytes (little-endian, so a value survives exactly),
  /// strings as a varint length and their UTF-8 bytes.
  struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ v: UInt8) { bytes.append(v) }

    mutating func unsigned(_ v: UInt64) {
      var v = v
      while v >= 0x80 {
        bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
        v >>= 7
      }
      bytes.append(UInt8(v))
    }

    mutating func count(_ n: Int) { unsigned(UInt64(max(0, n))) }

    mutating func int(_ v: Int) {
      let v = Int64(v)
      unsigned(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    mutating func double(_ v: Double) { fixed(v.bitPattern, size: 8) }

    mutating func fixed(_ v: UInt64, size: Int) {
      for i in 0..<size { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
    }

    mutating func string(_ s: String) {
      var s = s
      s.withUTF8 { utf8 in
        count(utf8.count)
        bytes.append(contentsOf: utf8)
      }
    }

    mutating func flag(_ b: Bool) { bytes.append(b ? 1 : 0) }
  }

  /// Reads what ``ByteWriter`` writes, every read checked against the end
  /// of the bytes: a damaged record is an error, never a read out of
  /// bounds or an allocation it does not pay for.
  struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    func fail(_ reason: String) -> CompactModelError {
      .damaged(reason: reason)
    }

    mutating func byte() throws(CompactModelError) -> UInt8 {
      guard position < bytes.count else { throw fail("it ends in the middle of a value") }
      defer { position += 1 }
      return bytes[position]
    }

    mutating func unsigned() throws(CompactModelError) -> UInt64 {
      var value: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        let b = try byte()
        guard shift < 64 else { throw fail("a number is longer than 64 bits") }
        value |= UInt64(b & 0x7F) << shift
        if b < 0x80 { return value }
        shift += 7
      }
    }

    /// A count of items that each take at least `itemSize` bytes: never
    /// more than the bytes left could hold.
    mutating func count(itemSize: Int = 1) throws(CompactModelError) -> Int {
      let n = try unsigned()
      guard n <= UInt64(remaining / max(1, itemSize)) else {
        throw fail("a count of \(n) items is more than the record holds")
      }
      return Int(n)
    }

    mutating func int() throws(CompactModelError) -> Int {
      let u = try unsigned()
      let v = Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
      return Int(v)
    }

    mutating func fixed(size: Int) throws(CompactModelError) -> UInt64 {
      guard remaining >= size else { throw fail("it ends in the middle of a value") }
      if size == 8 {
        // Doubles and offsets: one load (a byte loop was 6 % of a page's
        // decoding).
        let v = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        position += 8
        return UInt64(littleEndian: v)
      }
      var v: UInt64 = 0
      for i in 0..<size { v |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
      position += size
      return v
    }

    mutating func double() throws(CompactModelError) -> Double {
      Double(bitPattern: try fixed(size: 8))
    }

    mutating func string() throws(CompactModelError) -> String {
      let n = try count()
      let slice = UnsafeRawBufferPointer(rebasing: bytes[position..<(position + n)])
      position += n
      let utf8 = slice.bindMemory(to: UInt8.self)
      // ASCII is UTF-8 as it is; `String(validating:)` goes through generic
      // code (its metadata looked up at run time: a tenth of decoding a
      // page whose glyphs are each a short string).
      if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
      guard let s = String(validating: utf8, as: UTF8.self) else {
        throw fail("a text is not UTF-8")
      }
      return s
    }

    mutating func flag() throws(CompactModelError) -> Bool {
      switch try byte() {
      case 0: return false
      case 1: return true
      case let b: throw fail("a flag is \(b), not 0 or 1")
      }
    }
  }

  /// The CRC-32 (zlib's, as in PNG and gzip) of `bytes`.
  static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var crc: uLong = crc32(0, nil, 0)
    var rest = bytes
    // zlib takes a 32-bit length.
    while !rest.isEmpty {
      let n = min(rest.count, 1 << 30)
      crc = crc32(crc, rest.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(n))
      rest = UnsafeRawBufferPointer(rebasing: rest[n...])
    }
    return UInt32(truncatingIfNeeded: crc)
  }

  static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }
}
