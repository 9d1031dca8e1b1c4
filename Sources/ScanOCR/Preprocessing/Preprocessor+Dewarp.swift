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
  /// A page is dewarped when its most bent text line, by the smooth fit
  /// of the lines' curvatures down the page, bends from its middle to the
  /// page's edges by at least this share of the line spacing
  /// (``CurlMeasurement/bend``), and that fit explains the curvatures
  /// (``minimumCurlCoherence``).
  ///
  /// Why this value (measured by the page model on develop seeds
  /// 1000–1039 of the `photo` family, the sample pages and the real
  /// scans): flat pages measure 0.003–0.05 (the 17 flat develop photos
  /// with a model, every flat sample page, `linn`, `fleming-jaeger`,
  /// `8071_093.3B`), `kant-0017` 0.20 (its lines' curvatures are noise
  /// the fit does not explain: coherence 0.58) and `bengel-abriss` 0.18
  /// (two columns whose lines Leptonica joins across the gutter, 9 of
  /// them, bent alike). Curled develop photos measure 0.17–0.85 (a curl
  /// of 41–190 page pixels at the spine), `photo-curl.jpg` 0.78 and the
  /// real cookbook photo `boston-cooking-a` 1.16. The populations meet
  /// between 0.17 and 0.18, so the line lies above both: a page bent by
  /// less than a fifth of its line spacing is read as it is (the no-harm
  /// rule; one curled develop page, 0.17, is not dewarped).
  static let minimumBend = 0.2

  /// The share of the curvatures' energy that a smooth change down the
  /// page must explain for a page to count as curled. The physics: a page
  /// curling toward its spine bends every line by a curvature that changes
  /// smoothly down the page: the same for every line seen square on (the
  /// curled develop photos: 0.92–1.00), turning from one way at the top to
  /// the other at the bottom when photographed from above
  /// (`boston-cooking-a`: from +129 to −66 millionths, 0.98). The
  /// curvatures Leptonica fits to a flat page's straight lines are noise
  /// around zero, which no smooth change explains: 0–0.46 on the flat
  /// develop photos, at most 0.58 on the sample pages and real scans
  /// (`kant-0017`).
  static let minimumCurlCoherence = 0.9

  /// The fewest long text lines a page model is built from. Leptonica's
  /// default is 15; a page of three paragraphs whose last lines are short
  /// (the generated curled photo: 17 lines, 13 long) has fewer, and the
  /// model's fit down the page (a quadratic through the lines' middles)
  /// needs far fewer points than that.
  static let minimumLines: Int32 = 8

  /// What the dewarp step measures on a page: Leptonica's page model and
  /// how its text lines bend.
  struct CurlMeasurement {
    /// Leptonica's page model, applied when the page is dewarped.
    var models: DewarpModels
    /// How far the page's typical line bends from its middle to the
    /// page's edges, in line spacings: the median of the long lines'
    /// curvatures (the quadratic term Leptonica fits to each line's
    /// centre) times the square of half the page's width, over the
    /// median distance between the lines' middles.
    var bend: Double
    /// The share of the curvatures' energy that a smooth change down the
    /// page explains (``lineBend(curvatures:middles:width:)``).
    var coherence: Double
    /// The long lines' curvatures (their middles' order, top to bottom).
    var curvatures: [Double]
    /// The long lines the model was built from.
    var lines: Int { curvatures.count }
    /// The rows of the page (its own pixels) the model was built on, when
    /// not the whole page: the page is then dewarped as that band.
    var band: Range<Int>?

    /// Whether the lines are curled enough, and all the same way, to be
    /// straightened (``minimumBend``, ``minimumCurlCoherence``).
    var callsForDewarping: Bool {
      bend >= Preprocessor.minimumBend && coherence >= Preprocessor.minimumCurlCoherence
    }
  }

  /// What the dewarp step measured and did on a page.
  struct Dewarped {
    var image: LeptonicaImage
    var disparity: Disparity
    /// The bend of the page's most bent line over the line spacing.
    var curl: Double
    /// The first row of the page the dewarped image holds (its band's).
    var top = 0

    /// From the dewarped image back to the page it was made from.
    var map: PointMap {
      let dewarp = PointMap(.dewarp(disparity))
      return top == 0
        ? dewarp : PointMap(.projective(.undoCrop(x: 0, y: top))).composed(after: dewarp)
    }
  }

  /// How an upright page's text lines bend, from Leptonica's page model
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
  ///
  /// The bend is the median line's, not the most curved line's (as it was
  /// until issue 29): one line bent by noise or joined across a gutter
  /// made flat pages measure up to 0.52 line spacings that way, as much as
  /// a curled page with a moderate curl.
  ///
  /// Leptonica builds a model only from lines spread over more than 40 %
  /// of the image's height, in both its halves (`dewarpIsLineCoverageValid`).
  /// A photo whose text fills only the top of the page (a chapter's last
  /// paragraphs, the page and table below them) builds none: 16 of the 40
  /// develop photos, 10 of them curled. When the page as a whole builds
  /// none, the model is built on the band of rows that holds its ink (the
  /// ink the model sees, with a margin), and the page is dewarped as that
  /// band (``CurlMeasurement/band``).
  static func measureCurl(binary ink: LeptonicaImage) -> CurlMeasurement? {
    guard let reduced = halved(ink),
      let halved = scantext_pixRemoveBorderConnComps(reduced.pix, 8).map({
        LeptonicaImage(taking: $0)
      })
    else { return nil }
    if let whole = curlModel(halved) { return whole }
    guard let inked = inkRows(halved) else { return nil }
    let margin = 16
    let band = max(0, inked.lowerBound - margin)..<min(halved.height, inked.upperBound + margin)
    guard band.count * 10 < halved.height * 9, band.count > 2 * margin,
      let clipped = rows(band, of: halved),
      var measured = curlModel(clipped)
    else { return nil }
    // In the page's own pixels (the model's are halved).
    measured.band = (2 * band.lowerBound)..<min(ink.height, 2 * band.upperBound)
    return measured
  }

  /// The `band` of rows of an image, its whole width (its resolution
  /// kept); `nil` when Leptonica cannot cut it.
  static func rows(_ band: Range<Int>, of image: LeptonicaImage) -> LeptonicaImage? {
    guard
      let box = scantext_boxCreate(0, Int32(band.lowerBound), Int32(image.width), Int32(band.count))
    else { return nil }
    var owned: UnsafeMutablePointer<BOX>? = box
    defer { scantext_boxDestroy(&owned) }
    guard let clipped = scantext_pixClipRectangle(image.pix, box, nil) else { return nil }
    scantext_pixCopyResolution(clipped, image.pix)
    return LeptonicaImage(taking: clipped)
  }

  /// The rows of a 1-bit image that hold ink, first to last; `nil` when
  /// none does.
  /// - Complexity: O(*w* · *h* / 32).
  static func inkRows(_ binary: LeptonicaImage) -> Range<Int>? {
    guard scantext_pixGetDepth(binary.pix) == 1, let data = scantext_pixGetData(binary.pix)
    else { return nil }
    let wpl = Int(scantext_pixGetWpl(binary.pix))
    let words = (binary.width + 31) / 32
    let tail = binary.width % 32
    let lastMask: UInt32 = tail == 0 ? .max : ~(UInt32.max >> UInt32(tail))
    func inked(_ y: Int) -> Bool {
      let line = data + y * wpl
      for i in 0..<words where line[i] & (i == words - 1 ? lastMask : .max) != 0 { return true }
      return false
    }
    guard let first = (0..<binary.height).first(where: inked),
      let last = (0..<binary.height).last(where: inked)
    else { return nil }
    return first..<(last + 1)
  }

  /// Leptonica's page model of a halved, cleaned binary page and how its
  /// lines bend (``measureCurl(binary:)``).
  private static func curlModel(_ halved: LeptonicaImage) -> CurlMeasurement? {
    guard let models = DewarpModels(scantext_dewarpaCreate(1, 0, 2, minimumLines, -1)),
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
      let middles = dew.pointee.namidys, let curves = dew.pointee.nacurves
    else { return nil }
    var ys: [Double] = []
    var curvatures: [Double] = []
    for i in 0..<min(scantext_numaGetCount(middles), scantext_numaGetCount(curves)) {
      var y: Float = 0
      var c: Float = 0
      guard scantext_numaGetFValue(middles, i, &y) == 0,
        scantext_numaGetFValue(curves, i, &c) == 0
      else { return nil }
      ys.append(Double(y))
      curvatures.append(Double(c))
    }
    guard
      let bent = lineBend(
        curvatures: curvatures, middles: ys, width: Double(halved.width))
    else { return nil }
    return CurlMeasurement(
      models: models, bend: bent.bend, coherence: bent.coherence, curvatures: curvatures)
  }

  /// How a page's text lines bend, from each long line's curvature and
  /// its middle's height: the curvatures fitted by a straight line down
  /// the page (c(y) = a + b·y, least squares), the page's most bent line
  /// by that fit (at the top or the bottom line) times the square of half
  /// the page's `width`, over the median spacing of the lines' `middles`
  /// (in line spacings); and the share of the curvatures' energy the fit
  /// explains (1 − Σ(c − fit)² / Σc²). `nil` without two lines at
  /// distinct heights.
  /// - Parameters:
  ///   - curvatures: Each line's quadratic term (y = c·x² + …), in 1/pixel.
  ///   - middles: The lines' middles, top to bottom, in pixels.
  ///   - width: The page's width in the same pixels.
  /// - Complexity: O(*n* log *n*) in the lines.
  static func lineBend(curvatures: [Double], middles: [Double], width: Double)
    -> (bend: Double, coherence: Double)?
  {
    let n = min(curvatures.count, middles.count)
    guard n >= 2 else { return nil }
    let c = Array(curvatures.prefix(n))
    let y = Array(middles.prefix(n))
    let spacings = zip(y.dropFirst(), y).map { $0 - $1 }.filter { $0 > 0 }.sorted()
    guard !spacings.isEmpty else { return nil }
    let spacing = spacings[spacings.count / 2]
    let meanY = y.reduce(0, +) / Double(n)
    let meanC = c.reduce(0, +) / Double(n)
    let syy = y.reduce(0) { $0 + ($1 - meanY) * ($1 - meanY) }
    let syc = zip(y, c).reduce(0) { $0 + ($1.0 - meanY) * ($1.1 - meanC) }
    let slope = syy > 0 ? syc / syy : 0
    let fit = { (at: Double) in meanC + slope * (at - meanY) }
    let energy = c.reduce(0) { $0 + $1 * $1 }
    let residual = zip(y, c).reduce(0) { $0 + ($1.1 - fit($1.0)) * ($1.1 - fit($1.0)) }
    let ends = [y.min() ?? meanY, y.max() ?? meanY].map { abs(fit($0)) }
    let half = width / 2
    return (
      (ends.max() ?? 0) * half * half / spacing, energy > 0 ? 1 - residual / energy : 0
    )
  }

  /// The dewarp step: the upright gray page with its text lines
  /// straightened, when their bend (``measureCurl(binary:)``) calls for it
  /// (``CurlMeasurement/callsForDewarping``); `nil` otherwise. Only the vertical disparity is
  /// applied (lines straightened; columns are left as they are), so a
  /// point maps back by moving it up or down (``Disparity``).
  static func dewarp(_ gray: LeptonicaImage, binary ink: LeptonicaImage) -> Dewarped? {
    guard let measured = measureCurl(binary: ink), measured.callsForDewarping else {
      return nil
    }
    return applyDewarp(gray, measured)
  }

  /// The dewarp step's work, once decided: `gray` dewarped by the page
  /// model measured on it (``measureCurl(binary:)``).
  static func applyDewarp(_ page: LeptonicaImage, _ measured: CurlMeasurement) -> Dewarped? {
    guard let dewa = measured.models.pointer else { return nil }
    // A model built on a band of the page dewarps that band; the rows
    // outside it hold no ink but what touches the image's edge (table).
    var gray = page
    if let band = measured.band {
      guard let clipped = rows(band, of: page) else { return nil }
      gray = clipped
    }
    guard let model = dewa.pointee.dewarp?[0], let disparity = restateAtFullResolution(model)
    else { return nil }
    var out: UnsafeMutablePointer<PIX>?
    guard scantext_dewarpaApplyDisparity(dewa, 0, gray.pix, 255, 0, 0, &out, nil) == 0,
      let out
    else { return nil }
    let image = LeptonicaImage(taking: out)
    scantext_pixCopyResolution(image.pix, gray.pix)
    return Dewarped(
      image: image,
      disparity: disparity, curl: measured.bend, top: measured.band?.lowerBound ?? 0)
  }

  /// Restates the page model of a page modelled halved at full
  /// resolution, in place, for the dewarp step to apply; `nil` when the
  /// model has no vertical samples.
  ///
  /// The model was built on the page halved. Leptonica sizes the
  /// full-resolution field it applies by comparing the page's width with
  /// the samples' span in halved pixels, so it adds a slope border as
  /// wide and as high as the page (four times the field, filled pixel by
  /// pixel: 0.9 s of the cookbook's 5.1 s). Restated at full resolution
  /// (samples doubled, 60 pixels apart, `redfactor` 1) the model spreads
  /// to the same field over the page, with only the few pixels of border
  /// it needs: the same dewarped image, byte for byte.
  ///
  /// Only the vertical field is applied (`dewarpaUseBothArrays(dewa, 0)`),
  /// but Leptonica spreads the horizontal samples to a full-resolution
  /// field of their own as well (4 bytes a pixel, alive beside the vertical
  /// one at the step's peak) unless the model says to skip them: it does.
  /// - Returns: The vertical samples, restated: the disparity the boxes
  ///   read on the dewarped page map back through.
  static func restateAtFullResolution(_ model: UnsafeMutablePointer<L_DEWARP>) -> Disparity? {
    guard let samples = model.pointee.sampvdispar, let data = scantext_fpixGetData(samples)
    else { return nil }
    var w: Int32 = 0
    var h: Int32 = 0
    guard scantext_fpixGetDimensions(samples, &w, &h) == 0, w > 0, h > 0 else { return nil }
    let wpl = Int(scantext_fpixGetWpl(samples))
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
    model.pointee.skip_horiz = 1
    return Disparity(
      step: Int(model.pointee.sampling), columns: Int(w), rows: Int(h), values: values)
  }
}
