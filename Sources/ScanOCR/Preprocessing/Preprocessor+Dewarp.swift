import CScanOCR
import Foundation
import ScanImaging
import ScanModel

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

  /// The fewest long text lines a page model is built from. Leptonica's
  /// default is 15; a page of three paragraphs whose last lines are short
  /// (the generated curled photo: 17 lines, 13 long) has fewer, and the
  /// model's fit down the page (a quadratic through the lines' middles)
  /// needs far fewer points than that. No flat sample or real page
  /// measures a curl above 0.52 either way (`DewarpTests`).
  static let minimumLines: Int32 = 8

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
  /// of a reading), or `nil` when no valid model is found: fewer than
  /// ``minimumLines`` long lines, or curvatures beyond Leptonica's own
  /// limits (doubled, as curvatures are on the page halved). The sample
  /// page of two columns, whose lines Leptonica joins across the gutter,
  /// is rejected there: its lines' curvatures differ by 392 millionths,
  /// the limit is 340.
  ///
  /// Ink touching the image's edge is left out of the model: in a photo
  /// it is the table, the page's curled edge or the facing page, never a
  /// whole text line, and Leptonica keeps only lines at least 0.8 times
  /// as long as the longest, which such a band across the page is (on the
  /// generated curled photo the table above the curled top edge left no
  /// text line standing).
  static func measureCurl(binary ink: LeptonicaImage) -> (models: DewarpModels, curl: Double)? {
    guard let reduced = halved(ink),
      let halved = scantext_pixRemoveBorderConnComps(reduced.pix, 8).map({
        LeptonicaImage(taking: $0)
      }),
      let models = DewarpModels(scantext_dewarpaCreate(1, 0, 2, minimumLines, -1)),
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
    guard let measured = measureCurl(binary: ink), measured.curl >= minimumCurl else {
      return nil
    }
    return applyDewarp(gray, measured)
  }

  /// The dewarp step's work, once decided: `gray` dewarped by the page
  /// model measured on it (``measureCurl(binary:)``).
  static func applyDewarp(_ gray: LeptonicaImage, _ measured: (models: DewarpModels, curl: Double))
    -> Dewarped?
  {
    guard let dewa = measured.models.pointer else { return nil }
    // The model was built on the page halved. Leptonica sizes the
    // full-resolution field it applies by comparing the page's width with
    // the samples' span in halved pixels, so it adds a slope border as
    // wide and as high as the page (four times the field, filled pixel by
    // pixel: 0.9 s of the cookbook's 5.1 s). Restated at full resolution
    // (samples doubled, 60 pixels apart, `redfactor` 1) the model spreads
    // to the same field over the page, with only the few pixels of border
    // it needs: the same dewarped image, byte for byte.
    guard let model = dewa.pointee.dewarp?[0], let samples = model.pointee.sampvdispar,
      let data = scantext_fpixGetData(samples)
    else { return nil }
    var w: Int32 = 0
    var h: Int32 = 0
    guard scantext_fpixGetDimensions(samples, &w, &h) == 0, w > 0, h > 0 else { return nil }
    let wpl = Int(scantext_fpixGetWpl(samples))
    // Samples of a page modelled halved are in its halved pixels; restated
    // in place, they are also the disparity the boxes map back through.
    let factor = model.pointee.redfactor
    var values: [Float] = []
    values.reserveCapacity(Int(w) * Int(h))
    for row in 0..<Int(h) {
      let line = data + row * wpl
      for column in 0..<Int(w) {
        line[column] *= Float(factor)
        values.append(line[column])
      }
    }
    model.pointee.sampling *= factor
    model.pointee.redfactor = 1
    var out: UnsafeMutablePointer<PIX>?
    guard scantext_dewarpaApplyDisparity(dewa, 0, gray.pix, 255, 0, 0, &out, nil) == 0,
      let out
    else { return nil }
    let image = LeptonicaImage(taking: out)
    scantext_pixCopyResolution(image.pix, gray.pix)
    return Dewarped(
      image: image,
      disparity: Disparity(
        step: Int(model.pointee.sampling), columns: Int(w), rows: Int(h), values: values),
      curl: measured.curl)
  }
}
