import Foundation
import ScanImaging
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// Images are read in the frame a viewer shows: the EXIF or TIFF
/// orientation tag applied before anything else (issue 26 point 3).
@Suite("Image orientation tags")
struct ImageOrientationTests {
  // MARK: Finding the tag

  /// A TIFF structure (as EXIF holds it) whose first directory has an
  /// orientation entry, in either byte order.
  static func exif(_ tag: Int, bigEndian: Bool = false) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
      bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
    }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? [0, 0] + u16(v) : u16(v) + [0, 0] }
    let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    // Two entries: ImageWidth first, as cameras write them, then Orientation.
    return order + u16(42) + u32(8) + u16(2)
      + u16(0x0100) + u16(4) + u32(1) + u32(3264)
      + u16(0x0112) + u16(3) + u32(1) + u16(tag) + [0, 0] + u32(0)
  }

  static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let n = body.count
    return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
      + Array(type.utf8) + body + [0, 0, 0, 0]
  }

  static func jpeg(_ exif: [UInt8]) -> [UInt8] {
    let app0: [UInt8] =
      [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 1, 0, 72, 0, 72, 0, 0]
    let body = Array("Exif".utf8) + [0, 0] + exif
    let app1: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)]
    return [0xFF, 0xD8] + app0 + app1 + body + [0xFF, 0xDA, 0, 2, 0xFF, 0xD9]
  }

  static func png(_ exif: [UInt8]) -> [UInt8] {
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]) + chunk("eXIf", exif)
      + chunk("IEND", [])
  }

  static func webp(_ exif: [UInt8]) -> [UInt8] {
    func riff(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let n = body.count
      return Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0] + body
        + (n % 2 == 1 ? [0] : [])
    }
    let chunks = riff("VP8X", [UInt8](repeating: 0, count: 10)) + riff("EXIF", exif)
    let n = chunks.count + 4
    return Array("RIFF".utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), 0, 0]
      + Array("WEBP".utf8) + chunks
  }

  @Test func tagIsFoundInEveryContainerInEitherByteOrder() {
    for tag in 1...8 {
      for big in [false, true] {
        let exif = Self.exif(tag, bigEndian: big)
        #expect(OrientationTag.find(in: Data(Self.jpeg(exif)), format: "JPEG") == tag)
        #expect(OrientationTag.find(in: Data(Self.png(exif)), format: "PNG") == tag)
        #expect(OrientationTag.find(in: Data(Self.webp(exif)), format: "WebP") == tag)
      }
    }
    // Some writers put the JPEG segment's "Exif\0\0" before a PNG's data.
    let prefixed = Array("Exif".utf8) + [0, 0] + Self.exif(6)
    #expect(OrientationTag.find(in: Data(Self.png(prefixed)), format: "PNG") == 6)
  }

  /// Files without a tag, and damaged ones: no tag, no crash, no endless
  /// walk (every offset and length comes from the file).
  @Test func damagedOrMissingTagsAreNoTag() {
    #expect(OrientationTag.find(in: Data(Self.jpeg([])), format: "JPEG") == nil)
    #expect(OrientationTag.find(in: Data(Self.png([1, 2, 3])), format: "PNG") == nil)
    let exif = Self.exif(6)
    let whole = Self.jpeg(exif)
    for cut in stride(from: 0, to: whole.count, by: 3) {
      let found = OrientationTag.find(in: Data(whole.prefix(cut)), format: "JPEG")
      #expect(found == nil || found == 6)
    }
    // The directory's offset points past the end; its entry count is huge.
    var far = exif
    far[4] = 0xFF
    far[5] = 0xFF
    #expect(OrientationTag.find(in: Data(Self.png(far)), format: "PNG") == nil)
    var many = exif
    many[8] = 0xFF
    many[9] = 0xFF
    many[22] = 0x13
    #expect(OrientationTag.find(in: Data(Self.png(many)), format: "PNG") == nil)
    // A segment length that runs past the end.
    var long = whole
    long[22] = 0xFF
    #expect(OrientationTag.find(in: Data(long), format: "JPEG") == nil)
    // Not an orientation a file can have: no orientation.
    #expect(ImageOrientation(tag: 9) == nil && ImageOrientation(tag: 0) == nil)
  }

  // MARK: Reading in the viewer's frame

  /// The sample page stored for each of the 8 tags (as Pillow's
  /// `exif_transpose` would undo it): a PNG with an `eXIf` chunk, a JPEG
  /// with an APP1 `Exif` segment (Pillow), a TIFF in strips and a tiled one
  /// with tag 274 set by `tiffset -s 274 N`.
  static let variants: Result<URL, FixtureError>? = {
    guard let tiffset = Self.tool("tiffset"), let tiffcp = Self.tool("tiffcp") else { return nil }
    let script =
      GeneratedImages.storedTranspose + """
        import sys
        from PIL import Image
        src, out = sys.argv[1], sys.argv[2]
        up = Image.open(src).convert('L')
        for tag in range(1, 9):
            im = stored(up, tag)
            exif = Image.Exif()
            exif[0x0112] = tag
            im.save(f'{out}/page-{tag}.png', exif=exif.tobytes())
            im.save(f'{out}/page-{tag}.jpg', exif=exif.tobytes(), quality=95)
            im.save(f'{out}/page-{tag}.tif', dpi=(100, 100))
            im.convert('RGB').save(f'{out}/page-{tag}-rgb.tif', compression='tiff_lzw')
        """
    return GeneratedImages.folder(
      script, { [Fixtures.scans.appendingPathComponent("dpi-100.png").path, $0.path] }
    ) { folder in
      for tag in 1...8 {
        let strips = folder.appendingPathComponent("page-\(tag).tif").path
        let rgb = folder.appendingPathComponent("page-\(tag)-rgb.tif").path
        let tiles = folder.appendingPathComponent("page-\(tag)-tiled.tif").path
        let (set, output) = try ExternalCheckers.run(tiffset, ["-s", "274", "\(tag)", strips])
        let (setRGB, outputRGB) = try ExternalCheckers.run(
          tiffset, ["-s", "274", "\(tag)", rgb])
        let (copied, more) = try ExternalCheckers.run(
          tiffcp, ["-t", "-w", "64", "-l", "64", strips, tiles])
        guard set == 0, setRGB == 0, copied == 0 else {
          throw FixtureError("\(output)\(outputRGB)\(more)")
        }
      }
    }
  }()

  /// The generated variants' folder; `nil` (with a message) when they
  /// cannot be made here.
  static func variantsFolder() throws -> URL? {
    guard let variants = Self.variants else {
      print(GeneratedImages.absentMessage + " (or tiffset/tiffcp missing)")
      return nil
    }
    return try variants.get()
  }

  static func tool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  static func decode(_ path: String) throws -> (LeptonicaImage, Int?) {
    let source = try ImageSource(ImageReader.readBytes(path), path: path, maxPixels: .max)
    return (try source.decode(page: 0), source.orientationTag(page: 0))
  }

  /// Each variant decodes to the upright page: pixel for pixel from the
  /// lossless files, within JPEG's loss (and the stored copy's own) from
  /// the JPEGs; the tag is reported. (An RGB TIFF in strips tagged 8 came
  /// out wrong when Leptonica applied the tag: every sample off.)
  @Test(arguments: ["png", "tif", "rgb.tif", "tiled.tif", "jpg"])
  func everyTagIsReadUpright(kind: String) throws {
    guard let folder = try Self.variantsFolder() else { return }
    let (upright, _) = try Self.decode(Fixtures.scans.appendingPathComponent("dpi-100.png").path)
    for tag in 1...8 {
      let name = kind.contains(".") ? "page-\(tag)-\(kind)" : "page-\(tag).\(kind)"
      let (image, found) = try Self.decode(folder.appendingPathComponent(name).path)
      #expect(found == tag, "\(name)")
      #expect(image.width == upright.width && image.height == upright.height, "\(name)")
      guard image.width == upright.width, image.height == upright.height else { continue }
      if kind == "jpg" {
        let a = try GrayPixels.read(Fixtures.scans.appendingPathComponent("dpi-100.png").path)
        let b = try GrayPixels.read(folder.appendingPathComponent(name).path)
        let difference =
          zip(a.values, b.values).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
          / a.values.count
        #expect(difference <= 3, "\(name): mean difference \(difference)")
      } else {
        #expect(image.hasSamePixels(as: upright), "\(name)")
      }
    }
  }

  /// Each JPEG and PNG variant is read to the same words at the same places
  /// as the upright page, and records its tag.
  @Test(arguments: ["png", "jpg"])
  func everyTagReadsTheSameWords(kind: String) throws {
    guard let folder = try Self.variantsFolder() else { return }
    let reference = Array(try RecognizedScans.page("dpi-100.png").words)
    let engine = try OCREngine()
    for tag in 1...8 {
      let path = folder.appendingPathComponent("page-\(tag).\(kind)").path
      let page = try #require(try engine.recognize(contentsOf: path).first)
      #expect(page.exifOrientation == tag)
      #expect(page.orientation == 0, "page-\(tag).\(kind): read turned \(page.orientation)°")
      let words = Array(page.words)
      #expect(words.map(\.text) == reference.map(\.text), "page-\(tag).\(kind)")
      let worst =
        zip(words, reference).map { $0.bbox.intersectionOverUnion($1.bbox) }.min() ?? 0
      #expect(worst >= 0.8, "page-\(tag).\(kind): worst box IoU \(worst)")
    }
  }

  /// The phone photo with orientation 6 is read upright as it is (it was
  /// read sideways, then turned by orientation detection), taller than
  /// wide, its tag recorded.
  @Test func thePhonephotoIsReadUpright() throws {
    guard RealScans.isAvailable else {
      print(RealScans.absentMessage)
      return
    }
    let page = try #require(try RealScans.pages("ocrd/boston-cooking-a.jpg").first)
    #expect(page.exifOrientation == 6)
    #expect(page.width == 2448 && page.height == 3264)
    #expect(page.orientation == 0)
    #expect(page.text.contains("BOSTON COOKING-SCHOOL COOK BOOK"), "\(page.text.prefix(200))")
    // `draw` reads the image through the same reader: the drawing is the
    // page's size, upright.
    let png = try PageDrawing().png(
      of: page, imageData: ImageReader.readBytes(RealScans.path("ocrd/boston-cooking-a.jpg")))
    let drawn = try ImageSource(png, path: "drawing.png", maxPixels: .max).decode(page: 0)
    #expect(drawn.width == 2448 && drawn.height == 3264)
  }
}
