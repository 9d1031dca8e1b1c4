import CScanOCR
import ScanImaging
import ScanModel

extension ImageStepName {
  /// Lay the paper over leaders (rows of dots or dashes between an entry
  /// and its number), which OCR reads as junk and which make it misread
  /// the words beside them.
  public static let leaders = ImageStepName("leaders")
}

/// Leaders: the rows of evenly spaced dots or dashes of a contents page, an
/// index or a form (``ScanImaging/Leaders``), found before recognition and
/// kept, in original pixels, for ``LeadersPass`` to take out of what OCR
/// reads over them: "1.1 Scope ........ 12" is read "1.1 Scope 12".
///
/// The pixels stay as they are: with its leaders made paper, Tesseract's
/// layout reads a contents page's entries and its page numbers as two
/// columns (or loses the numbers: develop `contents` 1001 read none of
/// its 28), while the leaders hold each entry and its number on one line.
struct LeadersStep: ImageStep {
  let descriptor = StepDescriptor(
    .leaders,
    flag: ("no-leaders", "Read dot and dash leaders as OCR reads them (contents pages, forms)."),
    summary: "takes dot and dash leaders between an entry and its number out of the text")

  /// The leaders found: each its marks' boxes in the page's pixels.
  struct Found {
    var runs: [[PixelRect]]
  }

  func measure(_ page: inout WorkingPage, _ context: StepContext) -> Found? {
    guard let ink = page.ink() else { return nil }
    let boxes = Preprocessor.componentBoxes(ink)
    let runs = Leaders.runs(in: boxes, resolution: page.resolution)
    return Found(runs: runs.map { $0.map { boxes[$0] } })
  }

  func decide(_ found: Found, _ page: WorkingPage, _ context: StepContext) -> Found? {
    // Kept in original pixels: a page in perspective has no upright box
    // there, and keeps its leaders.
    guard !found.runs.isEmpty, page.frame?.perspective == nil, page.map.projective != nil else {
      return nil
    }
    return found
  }

  func apply(_ found: Found, to page: inout WorkingPage, _ context: StepContext)
    -> (image: LeptonicaImage, map: PointMap)?
  {
    guard let back = page.map.projective else { return nil }
    for run in found.runs {
      guard let box = PixelRect.union(run) else { continue }
      let corners = [
        (box.minX, box.minY), (box.maxX, box.minY), (box.minX, box.maxY), (box.maxX, box.maxY),
      ]
      .map { back.apply(Point(x: Double($0.0), y: Double($0.1))) }
      page.leaders.append(
        PixelRect(
          minX: Int((corners.map(\.x).min() ?? 0).rounded(.down)),
          minY: Int((corners.map(\.y).min() ?? 0).rounded(.down)),
          maxX: Int((corners.map(\.x).max() ?? 0).rounded(.up)),
          maxY: Int((corners.map(\.y).max() ?? 0).rounded(.up))))
    }
    return (page.image, .identity)
  }

  func record(_ found: Found, _ decision: Found) -> StepRecord {
    StepRecord(.leaders, measurement: Double(found.runs.count))
  }
}
