/// An image file's orientation tag (EXIF and TIFF tag 274, `0x0112`): how
/// the stored pixels are turned or mirrored against the picture a viewer
/// shows. A phone stores a photo as its sensor read it and sets the tag;
/// viewers and browsers turn the pixels before showing them, Leptonica
/// does not (except for TIFF strips): ScanOCR applies it when reading, and
/// ``Page/exifOrientation`` records it.
///
/// The eight values, as the EXIF standard defines them (where the stored
/// first row and first column lie in the picture shown):
///
/// | tag | stored row 0 | stored column 0 | to show it |
/// | --- | --- | --- | --- |
/// | 1 | top | left | nothing |
/// | 2 | top | right | mirror left–right |
/// | 3 | bottom | right | turn 180° |
/// | 4 | bottom | left | mirror top–bottom |
/// | 5 | left | top | transpose (turn 90° clockwise, mirror left–right) |
/// | 6 | right | top | turn 90° clockwise |
/// | 7 | right | bottom | transverse (turn 90° clockwise, mirror top–bottom) |
/// | 8 | left | bottom | turn 90° counter-clockwise |
public struct ImageOrientation: Hashable, Sendable {
  /// The tag's value, 1–8.
  public let tag: Int

  /// The orientation `tag` says, when it is one of the eight values.
  public init?(tag: Int) {
    guard (1...8).contains(tag) else { return nil }
    self.tag = tag
  }

  /// Tag 1: the stored image is the picture shown.
  public static let upright = ImageOrientation(checked: 1)

  private init(checked tag: Int) { self.tag = tag }

  /// Whether the picture shown has the stored image's width and height
  /// swapped (tags 5–8).
  public var swapsSides: Bool { tag >= 5 }

  /// Where a point of the stored image lies in the picture shown.
  ///
  /// - Parameters:
  ///   - x: The point's x in the stored image (continuous pixel
  ///     coordinates: a pixel's top-left corner is its index).
  ///   - y: The point's y in the stored image.
  ///   - width: The stored image's width in pixels.
  ///   - height: The stored image's height in pixels.
  /// - Returns: The point in the picture shown, which is `height` ×
  ///   `width` pixels when ``swapsSides``.
  public func shown(x: Double, y: Double, width: Double, height: Double) -> (x: Double, y: Double) {
    switch tag {
    case 2: return (width - x, y)
    case 3: return (width - x, height - y)
    case 4: return (x, height - y)
    case 5: return (y, x)
    case 6: return (height - y, x)
    case 7: return (height - y, width - x)
    case 8: return (y, width - x)
    default: return (x, y)
    }
  }
}
