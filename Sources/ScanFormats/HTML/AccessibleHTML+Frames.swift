/// A map between two frames of one picture that turns it by quarter turns
/// and may mirror it: one of the eight EXIF orientations (TIFF tag 274),
/// acting on coordinates normalised to the picture's size, so that
/// `(u, v)` in `0...1` goes to `(a·u + b·v + e, c·u + d·v + f)`.
///
/// The HTML writer uses it twice: to bring the picture a browser draws
/// into the model's frame (the two differ when the image file's
/// orientation tag is applied by one and not the other), and to show a
/// page whose content was found turned upright.
struct FrameMap: Equatable, Sendable {
  var a: Int
  var b: Int
  var c: Int
  var d: Int
  var e: Int
  var f: Int

  /// The identity: the picture as it is.
  static let identity = FrameMap(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

  /// The map from an image's stored pixels to the picture a viewer shows
  /// for EXIF orientation `tag` (1 top-left … 8 left-bottom); the identity
  /// for a value outside 1–8.
  init(exifOrientation tag: Int) {
    switch tag {
    case 2: self.init(a: -1, b: 0, c: 0, d: 1, e: 1, f: 0)  // mirrored left to right
    case 3: self.init(a: -1, b: 0, c: 0, d: -1, e: 1, f: 1)  // turned 180°
    case 4: self.init(a: 1, b: 0, c: 0, d: -1, e: 0, f: 1)  // mirrored top to bottom
    case 5: self.init(a: 0, b: 1, c: 1, d: 0, e: 0, f: 0)  // transposed
    case 6: self.init(a: 0, b: -1, c: 1, d: 0, e: 1, f: 0)  // turned 90° clockwise
    case 7: self.init(a: 0, b: -1, c: -1, d: 0, e: 1, f: 1)  // transversed
    case 8: self.init(a: 0, b: 1, c: -1, d: 0, e: 0, f: 1)  // turned 90° anticlockwise
    default: self = .identity
    }
  }

  /// A turn of the picture by `degrees` clockwise (a multiple of 90).
  init(clockwise degrees: Int) {
    switch ((degrees % 360) + 360) % 360 {
    case 90: self.init(exifOrientation: 6)
    case 180: self.init(exifOrientation: 3)
    case 270: self.init(exifOrientation: 8)
    default: self = .identity
    }
  }

  private init(a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) {
    (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
  }

  /// Whether the map swaps the picture's width and height.
  var swapsSides: Bool { b != 0 }

  /// This map after `first`: a point goes through `first`, then this.
  func after(_ first: FrameMap) -> FrameMap {
    FrameMap(
      a: a * first.a + b * first.c, b: a * first.b + b * first.d,
      c: c * first.a + d * first.c, d: c * first.b + d * first.d,
      e: a * first.e + b * first.f + e, f: c * first.e + d * first.f + f)
  }

  /// The map back: the linear part is orthogonal, so its inverse is its
  /// transpose.
  var inverse: FrameMap {
    FrameMap(
      a: a, b: c, c: b, d: d, e: -(a * e + c * f), f: -(b * e + d * f))
  }

  /// The CSS `transform` (with `transform-origin: 0 0`) that carries an
  /// element laid out as the source frame, `width` × `height` image
  /// pixels of `var(--u)` each, onto the target frame; `nil` for the
  /// identity.
  func css(width: Int, height: Int) -> String? {
    guard self != .identity else { return nil }
    // The target's sides; in pixels, the linear part keeps its ±1 and 0
    // (a side goes onto a side of the same length).
    let (tw, th) = swapsSides ? (height, width) : (width, height)
    let x = e * tw
    let y = f * th
    // CSS's matrix(a, b, c, d, e, f) maps (x, y) to (a·x + c·y + e, b·x + d·y + f).
    return
      "translate(calc(\(x)*var(--u)),calc(\(y)*var(--u))) matrix(\(a),\(c),\(b),\(d),0,0)"
  }
}

extension AccessibleHTML {
  /// The EXIF orientation (1–8) a browser applies when it draws an image
  /// file's bytes as they are (`image-orientation: from-image`, the
  /// default): a JPEG's tag (APP1 `Exif`) and a PNG's (an `eXIf` chunk
  /// before the image data); 1 for every other format and for a file
  /// without a tag.
  ///
  /// Measured in Chromium 156 (`Tools/check/check-html.py`'s screenshot check
  /// runs on each): a JPEG's and a PNG's tag turn the picture, linked or
  /// embedded; a PNG's `eXIf` after its `IDAT` and a WebP's `EXIF` chunk
  /// are ignored; TIFF, PNM and JPEG 2000 are not shown at all (ScanText
  /// embeds them as PNG).
  /// - Parameter bytes: The image file's bytes.
  /// - Returns: The orientation, 1 when the browser draws the pixels as
  ///   stored.
  /// - Complexity: O(*n*) in the bytes before the tag (a JPEG's segment
  ///   headers, a PNG's chunk headers), at most the file's length.
  public static func browserOrientation(ofImage bytes: [UInt8]) -> Int {
    let tiff: ArraySlice<UInt8>?
    if bytes.starts(with: jpegStart) {
      tiff = jpegExif(bytes)
    } else if bytes.starts(with: pngStart) {
      tiff = pngExif(bytes)
    } else {
      tiff = nil
    }
    guard let tiff, let tag = orientationTag(tiff), (1...8).contains(tag) else { return 1 }
    return tag
  }

  /// Whether an image file that starts with `head` (its first 8 bytes, or
  /// all of a shorter file) may carry an orientation a browser applies
  /// (``browserOrientation(ofImage:)``): whether it is a JPEG or a PNG. Any
  /// other file's orientation is 1 without reading the rest of it.
  public static func mayCarryBrowserOrientation(head: [UInt8]) -> Bool {
    head.starts(with: jpegStart) || head.starts(with: pngStart)
  }

  private static let jpegStart: [UInt8] = [0xFF, 0xD8]
  private static let pngStart: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The TIFF structure of a JPEG's `Exif` APP1 segment.
  private static func jpegExif(_ b: [UInt8]) -> ArraySlice<UInt8>? {
    JPEGSegments.beforeImageData(b).first {
      $0.marker == 0xE1 && $0.body.starts(with: Array("Exif".utf8) + [0, 0])
    }?.body.dropFirst(6)
  }

  /// The data of a PNG's `eXIf` chunk, when it comes before the image
  /// data (Chromium ignores one after it).
  private static func pngExif(_ b: [UInt8]) -> ArraySlice<UInt8>? {
    var i = 8
    while i + 8 <= b.count {
      let length = b[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
      guard length >= 0, i + 12 + length <= b.count else { return nil }
      if type == "IDAT" || type == "IEND" { return nil }
      if type == "eXIf" { return b[(i + 8)..<(i + 8 + length)] }
      i += 12 + length
    }
    return nil
  }

  /// The orientation entry (tag 274, a SHORT) of the first image file
  /// directory of a TIFF structure.
  private static func orientationTag(_ t: ArraySlice<UInt8>) -> Int? {
    let s = t.startIndex
    guard t.count >= 8 else { return nil }
    let little: Bool
    switch (t[s], t[s + 1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func read(_ at: Int, _ size: Int) -> Int? {
      guard at >= 0, at + size <= t.count else { return nil }
      let bytes = t[(s + at)..<(s + at + size)]
      return (little ? bytes.reversed() : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
    }
    guard read(2, 2) == 42, let directory = read(4, 4), let count = read(directory, 2) else {
      return nil
    }
    for k in 0..<count {
      let entry = directory + 2 + 12 * k
      guard let tag = read(entry, 2) else { return nil }
      if tag == 274, read(entry + 2, 2) == 3 { return read(entry + 8, 2) }
    }
    return nil
  }
}
