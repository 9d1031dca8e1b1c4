import CScanOCR
import ScanImaging
import ScanModel

/// Stamps over the text (issue 48 point 2): coloured ink that crosses the
/// neutral print is taken out of the gray the page is read in.
///
/// A rubber stamp is pressed over a page already printed: its strokes,
/// thin and of one hue, run across the lines of text, and wherever a
/// stroke of the print passes under one of its strokes, the print cuts
/// the stamp's stroke in two (black under a stamp's ink stays black: ink
/// multiplies). Print of a colour of its own never does that: a blue
/// heading, a red word in a sentence, a coloured chart or screenshot stand
/// *beside* the black print, and a tinted box or a highlighter's band
/// lies *behind* it as a fill. So a mark (saturated pixels joined within a
/// tenth of an inch) is taken for a stamp only when neutral ink crosses
/// its strokes at ``minimumCrossings`` places or more, it spans
/// ``minimumStampSide(_:)`` both ways, its ink is strokes, not fill
/// (``isStrokes(_:resolution:)``), and it is of one ink
/// (``oneInkShare``); anything else on the page, coloured text included,
/// is read as it is.
///
/// On `redp5110_sampled` p14 (../shared/docling, screenshots) the marks
/// that neutral ink crosses are the coloured fringes of sub-pixel
/// rendered text and columns of coloured icons: 0.36–0.64 of their ink of
/// one hue (one, a filled band, 0.87), where the stamps of the `misc`
/// family are 1.0.
extension Preprocessor {
  /// A stamp crosses the print at several places (its strokes cross the
  /// letters of more than one word); one or two crossings are a coloured
  /// mark that happens to touch the print (an underline, an arrow's tip).
  static let minimumCrossings = 3
  /// A stamp is of one ink: at least this share of its saturated pixels
  /// lie within 60 degrees of hue of one another. The coloured fringes of
  /// a screenshot's sub-pixel rendered text (orange on one side of a
  /// stem, blue on the other) and a column of coloured icons are not.
  static let oneInkShare = 0.9

  /// A stamp's ink spans at least a quarter of an inch both ways (its
  /// letters alone are that tall, its frame more): a line of coloured
  /// text, or a small icon, is less.
  static func minimumStampSide(_ resolution: Int) -> Int32 { Int32(max(8, resolution / 4)) }

  /// The stamps over the text of an RGB page, as a mask of their
  /// saturated pixels (`saturated`, 1-bit), and how many there are; `nil`
  /// when no mark is a stamp over the text or Leptonica fails.
  ///
  /// A pixel of neutral ink (dark in `luminance`, below 128, and not
  /// saturated) crosses a coloured stroke when saturated ink lies within
  /// a twenty-fifth of an inch on both its sides, left and right or above
  /// and below (`scantext_crossings`): the width of a text's heaviest
  /// stem, so the stroke's two halves are on either side of it.
  /// - Complexity: O(*p*) for *p* pixels, and O(*p*) again for each mark
  ///   that neutral ink crosses.
  static func stampsOverText(
    _ saturated: LeptonicaImage, original: LeptonicaImage, luminance: LeptonicaImage,
    resolution: Int?
  ) -> (marks: LeptonicaImage, count: Int)? {
    let dpi = resolution ?? 300
    guard let dark = scantext_pixThresholdToBinary(luminance.pix, 128).map(LeptonicaImage.init),
      let neutral = scantext_pixSubtract(nil, dark.pix, saturated.pix).map(LeptonicaImage.init),
      let crossings = scantext_crossings(saturated.pix, neutral.pix, Int32(max(2, dpi / 25)))
        .map(LeptonicaImage.init)
    else { return nil }
    let letterHeight = medianLetterHeight(Self.componentBoxes(neutral))
    var crossingPixels: Int32 = 0
    guard scantext_pixCountPixels(crossings.pix, &crossingPixels, nil) == 0, crossingPixels > 0
    else { return nil }
    let reach = Int32(max(3, dpi / 10)) | 1
    guard
      let groups = scantext_pixDilateBrick(nil, saturated.pix, reach, reach).map(
        LeptonicaImage.init),
      let boxes = scantext_pixConnCompBB(groups.pix, 8),
      let seeds = scantext_pixCreate(
        scantext_pixGetWidth(saturated.pix), scantext_pixGetHeight(saturated.pix), 1
      ).map(LeptonicaImage.init)
    else { return nil }
    var ownedBoxes: UnsafeMutablePointer<Boxa>? = boxes
    defer { scantext_boxaDestroy(&ownedBoxes) }
    var stamps = 0
    for i in 0..<scantext_boxaGetCount(boxes) {
      var x: Int32 = 0
      var y: Int32 = 0
      var w: Int32 = 0
      var h: Int32 = 0
      guard scantext_boxaGetBoxGeometry(boxes, i, &x, &y, &w, &h) == 0,
        let box = scantext_boxCreate(x, y, w, h)
      else { continue }
      var ownedBox: UnsafeMutablePointer<Box>? = box
      defer { scantext_boxDestroy(&ownedBox) }
      // The dilation's reach is on both sides of the ink.
      guard min(w, h) - reach + 1 >= minimumStampSide(dpi),
        let mark = clipped(groups, box),
        let crossed = clipped(crossings, box).flatMap({ within($0, mark) }),
        count(crossed, components: true) >= minimumCrossings,
        let ink = clipped(saturated, box).flatMap({ within($0, mark) }),
        isStrokes(ink, resolution: dpi, letterHeight: letterHeight),
        let colours = clipped(original, box),
        scantext_hueConcentration(colours.pix, ink.pix) >= oneInkShare
      else { continue }
      guard scantext_pixSetInRectArbitrary(seeds.pix, box, 1) == 0 else { return nil }
      stamps += 1
    }
    guard stamps > 0,
      let seeded = scantext_pixAnd(nil, seeds.pix, crossings.pix).map(LeptonicaImage.init),
      let chosen = scantext_pixSeedfillBinary(nil, seeded.pix, groups.pix, 8).map(
        LeptonicaImage.init),
      let marks = scantext_pixAnd(nil, chosen.pix, saturated.pix).map(LeptonicaImage.init),
      let wider = scantext_pixDilateBrick(nil, marks.pix, 3, 3).map(LeptonicaImage.init)
    else { return nil }
    return (wider, stamps)
  }

  /// Whether a mark's saturated pixels are strokes: at most a tenth of
  /// them lie in areas as thick both ways as a text line: a tenth of an
  /// inch, or the page's letters (`letterHeight`) when they are smaller
  /// (a fill behind text, a tinted box, a highlighter's band, the
  /// coloured areas of a drawing are that thick; a stamp's letters and
  /// frame are lines). The coloured drawings of ../shared/docling that
  /// neutral lines cross (hatching over brass in `amt_handbook_sample`, an
  /// outlined figure in `redp5110_sampled` p7) have a quarter or more of
  /// their ink in such areas; the `misc` family's stamps none.
  ///
  /// Why the letters: a fill lies behind the text, so it is at least as
  /// thick as the letters on it, whatever the page's resolution. A page
  /// without a resolution is taken for 300 dpi, where a tenth of an inch
  /// is 30 px; a table cut from a web page (PubTabNet's
  /// `PMC5402779_004_00`, letters 5–7 px high) has rows tinted in bands
  /// 12 px high, which that measure took for strokes: the tint was
  /// separated as a stamp and the table read as garbage.
  /// - Parameters:
  ///   - ink: The mark's saturated pixels (1 bit).
  ///   - resolution: The page's resolution in dpi.
  ///   - letterHeight: The median height of the page's neutral letters
  ///     (``medianLetterHeight(_:)``), or `nil` when not measured.
  static func isStrokes(_ ink: LeptonicaImage, resolution: Int, letterHeight: Int? = nil) -> Bool {
    let side = Int32(max(3, min(resolution / 10, letterHeight ?? Int.max)))
    guard let fill = scantext_pixOpenBrick(nil, ink.pix, side, side).map(LeptonicaImage.init)
    else { return false }
    return 10 * count(fill) <= count(ink)
  }

  /// The median height of the letter-shaped pieces among `pieces` (3 px
  /// high or more, at most three times as wide as high); `nil` when there
  /// are fewer than 20 of them (no text to measure).
  static func medianLetterHeight(_ pieces: [PixelRect]) -> Int? {
    let heights = pieces.filter { $0.height >= 3 && $0.width <= 3 * $0.height }.map(\.height)
      .sorted()
    guard heights.count >= 20 else { return nil }
    return heights[heights.count / 2]
  }

  /// A part of a 1-bit image.
  private static func clipped(
    _ image: LeptonicaImage, _ box: UnsafeMutablePointer<Box>
  ) -> LeptonicaImage? {
    scantext_pixClipRectangle(image.pix, box, nil).map(LeptonicaImage.init)
  }

  /// `image`'s pixels inside `mask` (the same size).
  private static func within(_ image: LeptonicaImage, _ mask: LeptonicaImage) -> LeptonicaImage? {
    scantext_pixAnd(nil, image.pix, mask.pix).map(LeptonicaImage.init)
  }

  /// A 1-bit image's pixels, or its 8-connected components.
  private static func count(_ image: LeptonicaImage, components: Bool = false) -> Int {
    var n: Int32 = 0
    let failed =
      components
      ? scantext_pixCountConnComp(image.pix, 8, &n) != 0
      : scantext_pixCountPixels(image.pix, &n, nil) != 0
    return failed ? 0 : Int(n)
  }

  /// The page's neutral layer (``ColourConversion/neutralLayer(_:)``):
  /// luminance, where the stamps over the text (``stampsOverText(_:luminance:resolution:)``)
  /// become paper, or keep the neutral ink under them
  /// (``ColourSeparation/neutralGray(_:threshold:)``). Saturated pixels
  /// are those at the separation's threshold; a stamp reaches on through
  /// pixels at half the threshold joined to it (its paler, grainy and
  /// anti-aliased parts). `nil` when no stamp lies over the text or
  /// Leptonica fails: the page is then read as it is.
  /// - Complexity: O(*p*) for *p* pixels.
  static func neutralLayer(
    _ original: LeptonicaImage, _ separation: ColourSeparation
  ) -> LeptonicaImage? {
    let ink = [separation.ink.x, separation.ink.y, separation.ink.z]
    let paper = [separation.paper.x, separation.paper.y, separation.paper.z]
    // Pixels at or above a chroma: 1 in a mask (pixThresholdToBinary
    // marks the pixels below its threshold).
    func atLeast(_ chroma: LeptonicaImage, _ level: Double) -> LeptonicaImage? {
      let threshold = Int32(min(255, level.rounded(.up)))
      guard let below = scantext_pixThresholdToBinary(chroma.pix, threshold) else { return nil }
      let mask = LeptonicaImage(taking: below)
      return scantext_pixInvert(mask.pix, mask.pix) != nil ? mask : nil
    }
    guard
      let chroma = scantext_chromaFromAxis(original.pix, ink, paper).map(LeptonicaImage.init),
      let luminance = scantext_pixConvertRGBToLuminance(original.pix).map(LeptonicaImage.init),
      let high = atLeast(chroma, separation.threshold),
      let stamps = stampsOverText(
        high, original: original, luminance: luminance, resolution: original.resolution),
      let low = atLeast(chroma, separation.threshold / 2),
      let reach = scantext_pixSeedfillBinary(nil, stamps.marks.pix, low.pix, 8).map(
        LeptonicaImage.init),
      let layerMask = scantext_pixOr(nil, reach.pix, stamps.marks.pix).map(LeptonicaImage.init),
      scantext_neutralLayerInMask(
        luminance.pix, original.pix, layerMask.pix, Int32(separation.neutralBelow),
        Int32(separation.paperGray)) == 0
    else { return nil }
    return luminance
  }
}
