import Foundation

extension Deflate {
  /// `data` (zlib's format, RFC 1950) uncompressed; `nil` when it is not
  /// whole zlib data or uncompresses to more than `limit` bytes.
  /// - Complexity: O(*n*) in the bytes uncompressed.
  package static func inflated(_ data: Data, limit: Int) -> Data? {
    ICCProfile.inflated(data, limit: limit)
  }
}
