import CScanOCR
import Foundation
import ScanModel

/// The vertical disparity of a dewarped page: how far each point of the
/// dewarped image was moved down from the page it came from. Leptonica's
/// `pixApplyVertDisparity` fills the dewarped pixel (x, y) from the page's
/// (x, y − v(x, y)); ``source(of:)`` makes the same step for a point.
///
/// The field is kept every ``step`` pixels and read bilinearly between:
/// Leptonica builds it by interpolating samples 60 pixels apart, so it is
/// smooth at that scale (the full field of a 16-megapixel photo would be
/// 64 MB; this one is 1 MB).
struct Disparity: Sendable, Equatable {
  /// The spacing of the kept values, in pixels.
  let step: Int
  /// Values per row and rows.
  let columns: Int
  let rows: Int
  /// v at (column × step, row × step), row by row.
  let values: [Float]

  /// The point of the page before dewarping that `p` (a point of the
  /// dewarped image) came from.
  func source(of p: Point) -> Point {
    Point(x: p.x, y: p.y - shift(at: p))
  }

  /// v at `p`, read bilinearly (held constant beyond the last values).
  func shift(at p: Point) -> Double {
    guard columns > 0, rows > 0, values.count == columns * rows else { return 0 }
    let fx = min(max(0, p.x / Double(step)), Double(columns - 1))
    let fy = min(max(0, p.y / Double(step)), Double(rows - 1))
    let x0 = min(Int(fx), max(0, columns - 2))
    let y0 = min(Int(fy), max(0, rows - 2))
    let x1 = min(x0 + 1, columns - 1)
    let y1 = min(y0 + 1, rows - 1)
    let tx = fx - Double(x0)
    let ty = fy - Double(y0)
    func v(_ x: Int, _ y: Int) -> Double { Double(values[y * columns + x]) }
    let top = v(x0, y0) * (1 - tx) + v(x1, y0) * tx
    let bottom = v(x0, y1) * (1 - tx) + v(x1, y1) * tx
    return top * (1 - ty) + bottom * ty
  }
}

/// Leptonica's dewarping models of one page (`L_DEWARPA`): one owner,
/// freed with its page model when it goes.
final class DewarpModels {
  private var models: UnsafeMutablePointer<L_DEWARPA>?
  init?(_ models: UnsafeMutablePointer<L_DEWARPA>?) {
    guard let models else { return nil }
    self.models = models
  }
  deinit { scantext_dewarpaDestroy(&models) }
  var pointer: UnsafeMutablePointer<L_DEWARPA>? { models }
}

extension Preprocessor {
  /// A page is dewarped when its most curved text line bends, from its
  /// middle to its ends, by at least this share of the page's line spacing
  /// (Leptonica's page model: the line curvature `maxcurv`/`mincurv` over
  /// the page's width, against the median distance of the lines' middles).
  /// Flat pages measure 0.08–0.52 (the real scans, the ruled magazine page
  /// `8071_093.3B` highest) and 0.09 (`clean`); the phone photo of a
  /// cookbook's curled page, `boston-cooking-a`, 1.38. There Tesseract's
  /// words at confidence ≥ 80 went from 296 to 332 of 375 and the mean
  /// confidence from 84.5 to 88.9.
  static let minimumCurl = 0.8

  /// What the dewarp step measured and did on a page.
  struct Dewarped {
    var image: LeptonicaImage
    var disparity: Disparity
    /// The bend of the most curved line over the line spacing.
    var curl: Double
  }

  /// The curl of an upright page's text lines, from Leptonica's page model
  /// built on the page halved (`redfactor` 2: a quarter of the cost; on a
  /// 16-megapixel photo the model took 0.4 s on the page itself, a fifth
  /// of a reading), or `nil` when no valid model is found: fewer than 15
  /// long lines, or curvatures beyond Leptonica's own limits (doubled, as
  /// curvatures are on the page halved). The sample page of two columns,
  /// whose lines Leptonica joins across the gutter, is rejected there:
  /// its lines' curvatures differ by 392 millionths, the limit is 340.
  static func measureCurl(binary ink: LeptonicaImage) -> (models: DewarpModels, curl: Double)? {
    guard let halved = halved(ink),
      let models = DewarpModels(scantext_dewarpaCreate(1, 0, 2, 0, -1)),
      let dewa = models.pointer
    else { return nil }
    scantext_dewarpaUseBothArrays(dewa, 0)
    // Leptonica's limits on line curvature are for the page itself; on the
    // page halved a line's curvature doubles.
    scantext_dewarpaSetCurvatures(
      dewa, 2 * dewa.pointee.max_linecurv, -1, 2 * dewa.pointee.max_diff_linecurv, -1, -1, -1)
    guard let dew = scantext_dewarpCreate(halved.pix, 0) else { return nil }
    // Owned by `models` once inserted.
    guard scantext_dewarpaInsertDewarp(dewa, dew) == 0 else {
      var owned: UnsafeMutablePointer<L_DEWARP>? = dew
      scantext_dewarpDestroy(&owned)
      return nil
    }
    guard scantext_dewarpBuildPageModel(dew, nil) == 0, dew.pointee.vsuccess == 1,
      scantext_dewarpaInsertRefModels(dewa, 0, 0) == 0, dew.pointee.vvalid == 1,
      let middles = dew.pointee.namidys
    else { return nil }
    var spacings: [Double] = []
    var previous: Float?
    for i in 0..<scantext_numaGetCount(middles) {
      var y: Float = 0
      guard scantext_numaGetFValue(middles, i, &y) == 0 else { return nil }
      if let previous, y > previous { spacings.append(Double(y - previous)) }
      previous = y
    }
    spacings.sort()
    guard !spacings.isEmpty else { return nil }
    let spacing = spacings[spacings.count / 2]
    let curvature = Double(max(abs(dew.pointee.mincurv), abs(dew.pointee.maxcurv))) * 1e-6
    let halfWidth = Double(halved.width) / 2
    return (models, curvature * halfWidth * halfWidth / spacing)
  }

  /// The dewarp step: the upright gray page with its text lines
  /// straightened, when their curl (``measureCurl(binary:)``) reaches
  /// ``minimumCurl``; `nil` otherwise. Only the vertical disparity is
  /// applied (lines straightened; columns are left as they are), so a
  /// point maps back by moving it up or down (``Disparity``).
  static func dewarp(_ gray: LeptonicaImage, binary ink: LeptonicaImage) -> Dewarped? {
    guard let measured = measureCurl(binary: ink), measured.curl >= minimumCurl,
      let dewa = measured.models.pointer
    else { return nil }
    var out: UnsafeMutablePointer<PIX>?
    guard scantext_dewarpaApplyDisparity(dewa, 0, gray.pix, 255, 0, 0, &out, nil) == 0,
      let out
    else { return nil }
    let image = LeptonicaImage(taking: out)
    // The full-resolution field the image was made with (Leptonica frees
    // it after applying it): the same interpolation of the model's samples.
    guard let dew = dewa.pointee.dewarp?[0],
      scantext_dewarpPopulateFullRes(dew, gray.pix, 0, 0) == 0,
      let field = dew.pointee.fullvdispar,
      let data = scantext_fpixGetData(field)
    else { return nil }
    var w: Int32 = 0
    var h: Int32 = 0
    guard scantext_fpixGetDimensions(field, &w, &h) == 0, w > 0, h > 0 else { return nil }
    let wpl = Int(scantext_fpixGetWpl(field))
    let step = 8
    let columns = (Int(w) - 1) / step + 1
    let rows = (Int(h) - 1) / step + 1
    var values: [Float] = []
    values.reserveCapacity(columns * rows)
    for row in 0..<rows {
      let line = data + row * step * wpl
      for column in 0..<columns { values.append(line[column * step]) }
    }
    scantext_pixCopyResolution(image.pix, gray.pix)
    return Dewarped(
      image: image, disparity: Disparity(step: step, columns: columns, rows: rows, values: values),
      curl: measured.curl)
  }
}
