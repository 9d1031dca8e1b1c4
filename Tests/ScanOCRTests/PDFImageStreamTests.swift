import CScanOCR
import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// A searchable PDF's image is the file's picture without loss (issue 26
/// point 2): for every format, the page rendered by Poppler's Cairo
/// backend (`pdftocairo`, which draws an image at its own resolution pixel
/// for pixel; `pdftoppm`'s Splash smooths it, by up to 237 levels on
/// `clean.png`, img2pdf's PDF alike) equals the file's pixels as ScanText
/// reads them, and the stream is the file's own data where a PDF can hold
/// it.
@Suite("Searchable PDF image streams")
struct PDFPageImageTests {
  static let pdftocairo: String? = ["/usr/bin/pdftocairo", "/usr/local/bin/pdftocairo"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// The test images, made once: a piece of a sample page in each format
  /// and layout, some with an orientation tag.
  static let images: Result<URL, FixtureError>? = {
    let script =
      GeneratedImages.storedTranspose + """
        import sys, struct, zlib
        import numpy as np
        from PIL import Image, features
        src, out = sys.argv[1], sys.argv[2]
        page = Image.open(src).convert('L').crop((140, 140, 500, 380))
        w, h = page.size
        g = np.asarray(page).astype(np.uint8)
        # A colour version: ink blue, paper cream, a red band.
        rgb = np.stack([g, g, np.clip(g.astype(int) + 30, 0, 255).astype(np.uint8)], -1)
        rgb[20:40, :, 0] = 200
        col = Image.fromarray(rgb)
        page.save(f'{out}/gray.png')
        col.save(f'{out}/rgb.png')
        col.quantize(16).save(f'{out}/palette.png')
        low = np.tile(np.arange(w, dtype=np.uint16) * 37 % 256, (h, 1)).astype(np.uint16)
        Image.fromarray((g.astype(np.uint16) << 8) | low).save(f'{out}/gray16.png')
        page.point(lambda v: 255 if v > 128 else 0).convert('1').save(f'{out}/bilevel.png')
        la = Image.merge('LA', (page, Image.fromarray(np.tile(np.arange(w, dtype=np.uint8), (h, 1)))))
        la.save(f'{out}/gray-alpha.png')
        Image.alpha_composite(Image.new('RGBA', la.size, 'white'), la.convert('RGBA')).convert('RGB').save(f'{out}/gray-alpha-expected.png')
        # Interlaced (Adam7), 8-bit gray, written by hand: Pillow cannot.
        raw = b''
        for x0, y0, dx, dy in [(0,0,8,8),(4,0,8,8),(0,4,4,8),(2,0,4,4),(0,2,2,4),(1,0,2,2),(0,1,1,2)]:
            sub = g[y0::dy, x0::dx]
            for row in sub:
                raw += b'\\0' + row.tobytes()
        def chunk(t, b):
            return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b))
        with open(f'{out}/interlaced.png', 'wb') as f:
            f.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 1)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
        page.save(f'{out}/gray.jpg', quality=90)
        col.save(f'{out}/rgb.jpg', quality=90)
        page.point(lambda v: 255 if v > 128 else 0).convert('1').save(f'{out}/g4.tif', compression='group4')
        page.save(f'{out}/lzw-gray.tif', compression='tiff_lzw')
        col.save(f'{out}/lzw-rgb.tif', compression='tiff_lzw')
        col.save(f'{out}/jpeg-rgb.tif', compression='jpeg', quality=90, strip_size=1 << 30)
        page.save(f'{out}/pages.tif', save_all=True, append_images=[col], compression='tiff_lzw')
        page.save(f'{out}/gray.pgm')
        col.save(f'{out}/rgb.ppm')
        col.save(f'{out}/rgb.bmp')
        col.quantize(32).save(f'{out}/palette.gif')
        col.save(f'{out}/lossless.webp', lossless=True)
        col.save(f'{out}/lossy.webp', quality=80)
        if features.check('jpg_2000'):
            col.save(f'{out}/rgb.jp2')
        for tag, ext in [(6, 'jpg'), (8, 'png'), (3, 'jpg')]:
            exif = Image.Exif()
            exif[0x0112] = tag
            stored(col, tag).save(f'{out}/exif-{tag}.{ext}', exif=exif.tobytes(), quality=90)
        """
    return GeneratedImages.folder(
      script, { [Fixtures.scans.appendingPathComponent("clean.png").path, $0.path] }
    ) { folder in
      // A G4 page in strips of 16 rows (not one stream: decoded, then G4),
      // a min-is-white one (Pillow writes min-is-black), and one with
      // orientation 6.
      let g4 = folder.appendingPathComponent("g4.tif").path
      guard let tiffcp = ImageOrientationTests.tool("tiffcp"),
        let tiffset = ImageOrientationTests.tool("tiffset")
      else { throw FixtureError("tiffcp and tiffset are needed (libtiff-tools)") }
      _ = try ExternalCheckers.run(
        tiffcp, ["-r", "16", g4, folder.appendingPathComponent("g4-strips.tif").path])
      for (name, tag, value) in [("g4-miniswhite.tif", "262", "0"), ("g4-exif-6.tif", "274", "6")] {
        let copy = folder.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: g4, toPath: copy)
        _ = try ExternalCheckers.run(tiffset, ["-s", tag, value, copy])
      }
    }
  }()

  static func imagesFolder() throws -> URL? {
    guard let images = Self.images else {
      print(GeneratedImages.absentMessage)
      return nil
    }
    return try images.get()
  }

  /// One image: the file, the page of it, the filter its stream must
  /// have, whether the stream is the file's own bytes, and the largest
  /// difference allowed between the rendering and ScanText's reading.
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var page = 0
    var filter: String
    var fileBytes = false
    var tolerance = 0
    /// The image a viewer shows, when it is not the file itself (alpha
    /// composited on white).
    var expected: String?
    var testDescription: String { page == 0 ? file : "\(file) page \(page + 1)" }
  }

  static let cases: [Case] = [
    Case(file: "gray.png", filter: "FlateDecode"),
    Case(file: "rgb.png", filter: "FlateDecode"),
    Case(file: "palette.png", filter: "FlateDecode"),
    // 16-bit samples go in as they are; Leptonica reads their high byte,
    // Poppler rounds: one level apart at most.
    Case(file: "gray16.png", filter: "FlateDecode", tolerance: 1),
    Case(file: "bilevel.png", filter: "CCITTFaxDecode"),
    Case(file: "interlaced.png", filter: "FlateDecode"),
    // Composited on white as Pillow composites it, to the rounding.
    Case(
      file: "gray-alpha.png", filter: "FlateDecode", tolerance: 1,
      expected: "gray-alpha-expected.png"),
    Case(file: "gray.jpg", filter: "DCTDecode", fileBytes: true),
    Case(file: "rgb.jpg", filter: "DCTDecode", fileBytes: true),
    Case(file: "rgb.jp2", filter: "JPXDecode", fileBytes: true),
    Case(file: "g4.tif", filter: "CCITTFaxDecode"),
    Case(file: "g4-miniswhite.tif", filter: "CCITTFaxDecode"),
    Case(file: "g4-strips.tif", filter: "CCITTFaxDecode"),
    Case(file: "g4-exif-6.tif", filter: "CCITTFaxDecode"),
    Case(file: "lzw-gray.tif", filter: "FlateDecode"),
    Case(file: "lzw-rgb.tif", filter: "FlateDecode"),
    // The strip's JPEG data as it is; libtiff's YCbCr conversion and
    // Poppler's (libjpeg's) round differently.
    Case(file: "jpeg-rgb.tif", filter: "DCTDecode", tolerance: 2),
    Case(file: "pages.tif", filter: "FlateDecode"),
    Case(file: "pages.tif", page: 1, filter: "FlateDecode"),
    Case(file: "gray.pgm", filter: "FlateDecode"),
    Case(file: "rgb.ppm", filter: "FlateDecode"),
    Case(file: "rgb.bmp", filter: "FlateDecode"),
    Case(file: "palette.gif", filter: "FlateDecode"),
    Case(file: "lossless.webp", filter: "FlateDecode"),
    Case(file: "lossy.webp", filter: "FlateDecode"),
    Case(file: "exif-6.jpg", filter: "DCTDecode", fileBytes: true),
    Case(file: "exif-3.jpg", filter: "DCTDecode", fileBytes: true),
    Case(file: "exif-8.png", filter: "FlateDecode"),
  ]

  /// The largest difference of any sample between two images of the same
  /// size, both made 32-bit RGB; `nil` when their sizes differ.
  static func difference(_ a: LeptonicaImage, _ b: LeptonicaImage) -> Int? {
    guard a.width == b.width, a.height == b.height,
      let ca = scantext_pixConvertTo32(a.pix), let cb = scantext_pixConvertTo32(b.pix)
    else { return nil }
    let x = LeptonicaImage(taking: ca)
    let y = LeptonicaImage(taking: cb)
    guard let px = scantext_pixGetData(x.pix), let py = scantext_pixGetData(y.pix) else {
      return nil
    }
    let wpl = Int(scantext_pixGetWpl(x.pix))
    var worst = 0
    for row in 0..<x.height {
      for column in 0..<x.width {
        let p = px[row * wpl + column]
        let q = py[row * wpl + column]
        for shift in [24, 16, 8] as [UInt32] {
          worst = max(worst, abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)))
        }
      }
    }
    return worst
  }

  @Test(arguments: cases)
  func theImageGoesInWithoutLoss(_ c: Case) throws {
    guard let folder = try Self.imagesFolder() else { return }
    let pdftocairo = try #require(Self.pdftocairo, "pdftocairo (poppler-utils) is needed")
    let path = folder.appendingPathComponent(c.file).path
    guard FileManager.default.fileExists(atPath: path) else {
      print("\(c.file) not made (Pillow without that codec): skipped")
      return
    }
    let stream = try PDFImages.stream(page: c.page, ofFile: path)
    #expect(stream.filter == c.filter, "\(c.testDescription)")
    if c.fileBytes { #expect(stream.data == (try Data(contentsOf: URL(fileURLWithPath: path)))) }
    let source = try ImageSource(ImageReader.readBytes(path), path: path, maxPixels: .max)
    let shown = try source.decode(page: c.page)
    // A page of the picture's size at 72 dpi: one pixel, one point.
    let page = Page(width: shown.width, height: shown.height, dpi: 72, blocks: [])
    let pdf = try SearchablePDF.data(
      pages: [
        SearchablePDF.PageInput(page: page, image: stream)
      ], font: PDFImages.glyphlessFont(), title: nil, producer: "test")
    let out = folder.appendingPathComponent(
      c.testDescription.replacingOccurrences(of: " ", with: "-"))
    try pdf.write(to: out.appendingPathExtension("pdf"))
    let (status, output) = try ExternalCheckers.run(
      pdftocairo,
      ["-png", "-r", "72", "-singlefile", out.appendingPathExtension("pdf").path, out.path])
    #expect(status == 0, "\(output)")
    let rendered = try ImageSource(
      ImageReader.readBytes(out.path + ".png"), path: out.path + ".png", maxPixels: .max
    ).decode(page: 0)
    var expected = shown
    if let name = c.expected {
      let other = folder.appendingPathComponent(name).path
      expected = try ImageSource(ImageReader.readBytes(other), path: other, maxPixels: .max)
        .decode(page: 0)
    }
    let worst = try #require(
      Self.difference(rendered, expected),
      "\(c.testDescription): rendered \(rendered.width)×\(rendered.height), read \(expected.width)×\(expected.height)"
    )
    #expect(worst <= c.tolerance, "\(c.testDescription): samples differ by up to \(worst)")
  }

  /// An image's ICC colour profile goes with it (the page's colour space
  /// `/ICCBased`, the device space its alternate): JPEG (APP2), PNG
  /// (iCCP), TIFF (tag 34675) decoded or passed through; it was dropped
  /// (`kant-0017.tif`'s 669 kB profile among the real scans). A profile
  /// for another colour space than the stream's is not carried.
  @Test func iccProfilesGoWithTheirImages() throws {
    guard
      let made = GeneratedImages.folder(
        """
        import sys
        from PIL import Image, ImageCms
        src, out = sys.argv[1], sys.argv[2]
        icc = ImageCms.ImageCmsProfile(ImageCms.createProfile('sRGB')).tobytes()
        open(f'{out}/srgb.icc', 'wb').write(icc)
        im = Image.open(src).convert('RGB')
        im.save(f'{out}/icc.jpg', icc_profile=icc)
        im.save(f'{out}/icc.png', icc_profile=icc)
        im.save(f'{out}/icc-lzw.tif', icc_profile=icc, compression='tiff_lzw')
        im.save(f'{out}/icc-jpeg.tif', icc_profile=icc, compression='jpeg')
        im.convert('L').save(f'{out}/gray-rgb-profile.png', icc_profile=icc)
        im.save(f'{out}/none.png')
        """, { [Fixtures.scans.appendingPathComponent("dpi-100.png").path, $0.path] })
    else {
      print(GeneratedImages.absentMessage)
      return
    }
    let folder = try made.get()
    let profile = try Data(contentsOf: folder.appendingPathComponent("srgb.icc"))
    #expect(ICCProfile.components(profile) == 3)
    let qpdf = try #require(ExternalCheckers.qpdf, "qpdf is needed")
    for file in ["icc.jpg", "icc.png", "icc-lzw.tif", "icc-jpeg.tif"] {
      let stream = try PDFImages.stream(
        page: 0, ofFile: folder.appendingPathComponent(file).path)
      #expect(stream.iccProfile == profile, "\(file)")
      let page = Page(width: stream.width, height: stream.height, dpi: 72, blocks: [])
      let pdf = folder.appendingPathComponent(file + ".pdf")
      try SearchablePDF.data(
        pages: [SearchablePDF.PageInput(page: page, image: stream)],
        font: PDFImages.glyphlessFont(), title: nil, producer: "test"
      ).write(to: pdf)
      // One page: objects 10-12 are the page's, 13 the profile.
      let (status, image) = try ExternalCheckers.run(
        qpdf, ["--show-object=12", "--raw-stream-data", pdf.path])
      let (_, dictionary) = try ExternalCheckers.run(qpdf, ["--show-object=12", pdf.path])
      #expect(status == 0 && !image.isEmpty)
      #expect(dictionary.contains("/ColorSpace [ /ICCBased 13 0 R ]"), "\(file): \(dictionary)")
      let out = folder.appendingPathComponent(file + ".icc")
      let (shown, _) = try ExternalCheckers.run(
        "/bin/sh",
        ["-c", "\(qpdf) --show-object=13 --filtered-stream-data '\(pdf.path)' > '\(out.path)'"])
      #expect(shown == 0)
      #expect(try Data(contentsOf: out) == profile, "\(file): the profile in the PDF")
      let (checked, report) = try ExternalCheckers.run(qpdf, ["--check", pdf.path])
      #expect(checked == 0, "\(report)")
    }
    for file in ["gray-rgb-profile.png", "none.png"] {
      let stream = try PDFImages.stream(
        page: 0, ofFile: folder.appendingPathComponent(file).path)
      #expect(stream.iccProfile == nil, "\(file)")
    }
  }

  /// A stored image keeps its file's orientation tag (the page draws it
  /// turned); a decoded one is upright already.
  @Test func storedImagesKeepTheirTag() throws {
    guard let folder = try Self.imagesFolder() else { return }
    for (file, tag) in [("exif-6.jpg", 6), ("exif-8.png", 8), ("gray.png", 1)] {
      let stream = try PDFImages.stream(page: 0, ofFile: folder.appendingPathComponent(file).path)
      #expect(stream.orientation == tag, "\(file)")
    }
  }
}
