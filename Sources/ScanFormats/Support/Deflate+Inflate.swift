import CZlib
import Foundation

extension Deflate {
  /// `data` (zlib's format, RFC 1950) uncompressed; `nil` when it is not
  /// whole zlib data or uncompresses to more than `limit` bytes.
  /// - Complexity: O(*n*) in the bytes uncompressed.
  package static func inflated(_ data: Data, limit: Int) -> Data? {
    ICCProfile.inflated(data, limit: limit)
  }
}

extension Deflate {
  /// The number of bytes `data` (zlib's format) uncompresses to, counted
  /// through a fixed buffer without keeping them; `nil` when it is more
  /// than `limit`. Damaged or truncated data counts what comes before the
  /// damage (the reader that decodes it afterwards decides what to do with
  /// the rest).
  /// - Parameters:
  ///   - data: The compressed bytes.
  ///   - limit: The most bytes allowed.
  /// - Complexity: O(*n*) in the bytes uncompressed, at most `limit`;
  ///   memory O(1).
  package static func inflatedSize(of data: UnsafeRawBufferPointer, limit: Int) -> Int? {
    inflating(data, limit: limit) { _ in true }.map(\.count)
  }

  /// Uncompresses `data` (zlib's format) through a fixed buffer, handing
  /// each part to `body` as it comes, so that only what `body` keeps is
  /// held.
  /// - Parameters:
  ///   - data: The compressed bytes.
  ///   - limit: The most bytes allowed.
  ///   - body: Takes the next part; returns whether to go on.
  /// - Returns: The number of bytes uncompressed and whether `data` was
  ///   whole zlib data (its end reached); `nil` when they are more than
  ///   `limit` or `body` stopped. Damaged or truncated data gives what
  ///   comes before the damage, not whole.
  /// - Complexity: O(*n*) in the bytes uncompressed, at most `limit`;
  ///   memory O(1).
  package static func inflating(
    _ data: UnsafeRawBufferPointer, limit: Int, _ body: (UnsafeRawBufferPointer) -> Bool
  ) -> (count: Int, whole: Bool)? {
    var stream = z_stream()
    guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK,
      let base = data.baseAddress
    else { return (0, false) }
    defer { inflateEnd(&stream) }
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset = 0
    while true {
      // zlib counts its input in 32 bits: a gigabyte at a time.
      if stream.avail_in == 0 && offset < data.count {
        let take = min(data.count - offset, 1 << 30)
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
      total += produced
      if total > limit { return nil }
      if produced > 0 {
        let goOn = buffer.withUnsafeBytes {
          body(UnsafeRawBufferPointer(rebasing: $0[0..<produced]))
        }
        if !goOn { return nil }
      }
      if status == Z_STREAM_END { return (total, true) }
      guard status == Z_OK, produced > 0 || stream.avail_in > 0 || offset < data.count else {
        return (total, false)
      }
    }
  }
}
