/// One recognised page: its geometry, its text, and the element tree that
/// maps between them.
///
/// The page text is built from the elements the way Tesseract joins text:
/// one space between the words of a line, `\n` after each line, and an empty
/// line between paragraphs (so the text ends with a single `\n`).
/// Every element's ``TextRange`` indexes into that text in UTF-16 code units.
///
/// Building a page also builds its query index (line and word offsets, a
/// spatial index of the lines, caret stops, tokenizer boundaries), so every
/// query runs in logarithmic time. A `Page` is an immutable value and safe to
/// share across threads.
public struct Page: Sendable, Equatable {
  /// The page's position in its document, from 0.
  public private(set) var index: Int
  /// The source image's file name (no directory), when known.
  public private(set) var image: String?
  /// The source image's width in pixels.
  public let width: Int
  /// The source image's height in pixels.
  public let height: Int
  /// The resolution used for recognition, in dots per inch, when known.
  public let dpi: Int?
  /// How far the page content is turned clockwise in the source image, in
  /// degrees: 0, 90, 180 or 270.
  public let orientation: Int
  /// The skew of the text lines in the source image, in degrees (positive:
  /// clockwise).
  public let skew: Double
  /// The recognition language(s), such as `eng` or `eng+deu`, when known.
  public let language: String?
  /// The page's typed provenance: the preprocessing steps that changed the
  /// image before recognition, in order, each with what it measured,
  /// decided and cost (``StepRecord``); empty when the image was
  /// recognised as it is or the page did not come from OCR. A page read
  /// back from a document has each step's name and decision only.
  public let steps: [StepRecord]
  /// The preprocessing steps as the JSON and every export record them, in
  /// order (`"illumination"`, `"colour: red channel"`, `"rules"`,
  /// `"deskew"`…): each of ``steps`` as ``StepRecord/recorded``.
  /// - Complexity: O(*n*) in the number of steps.
  public var preprocessing: [String] { steps.map(\.recorded) }
  /// The part of the source image recognised, when the page was cropped out
  /// of a photo (the `"crop"` step); `nil` when the whole image was read.
  public let crop: PixelRect?
  /// The page's corners in the source image (top-left, top-right,
  /// bottom-right, bottom-left) when its perspective was corrected (the
  /// `"perspective"` step); `nil` otherwise.
  public let perspective: Quad?
  /// Where the page came from when its image was a page of a PDF; `nil`
  /// for an image file.
  public let pdf: PDFPageSource?
  /// Where the page's words came from: recognition (the default), or the
  /// text a PDF page already carried (``PageTextSource/pdfText``).
  public let source: PageTextSource
  /// Where ``dpi`` came from, when known: the image's tag, an estimate
  /// from the text's size, the `--dpi` option, or the PDF page's rendering.
  public let dpiSource: ResolutionSource?
  /// The image file's EXIF or TIFF orientation tag (1–8), when it had one.
  /// The page's pixels, and every coordinate, are in the frame a viewer
  /// shows: the tag was applied when the image was read.
  public let exifOrientation: Int?
  /// The page text (see the type's discussion for how it is joined).
  public let text: String
  /// The blocks in reading order.
  public let blocks: [Block]
  /// The regions of the page that hold pictures, not text, top to bottom
  /// (``Figure``); empty when none is known. Not part of ``text``.
  public let figures: [Figure]

  let layout: PageLayout

  /// Builds a page from its elements, assigning every element's text range.
  ///
  /// Lines without words, paragraphs without lines and blocks without
  /// paragraphs are dropped. Glyph ranges follow each word's text when the
  /// glyph texts concatenate to it; otherwise a glyph whose text does not fit
  /// gets an empty range at the current position.
  ///
  /// The page's provenance (``steps``, ``crop``, ``perspective``,
  /// ``pdf``, ``source``, ``dpiSource``, ``exifOrientation``) and its
  /// ``figures`` are given here
  /// once, with its blocks: a page is built once, where it is made (the
  /// engine, a document's decoder, an importer, a PDF's text), and not
  /// patched afterwards.
  ///
  /// - Complexity: O(*n* log *n*) in the number of glyphs and words.
  public init(
    index: Int = 0, image: String? = nil, width: Int, height: Int, dpi: Int? = nil,
    orientation: Int = 0, skew: Double = 0, language: String? = nil, blocks: [Block],
    steps: [StepRecord] = [], crop: PixelRect? = nil, perspective: Quad? = nil,
    pdf: PDFPageSource? = nil, source: PageTextSource = .ocr,
    dpiSource: ResolutionSource? = nil, exifOrientation: Int? = nil, figures: [Figure] = []
  ) {
    self.index = index
    self.image = image
    self.width = width
    self.height = height
    self.dpi = dpi
    self.orientation = orientation
    self.skew = skew
    self.language = language
    self.steps = steps
    self.crop = crop
    self.perspective = perspective
    self.pdf = pdf
    self.source = source
    self.dpiSource = dpiSource
    self.exifOrientation = exifOrientation
    self.figures = figures
    var builder = TextBuilder()
    self.blocks = builder.assignRanges(blocks)
    self.text = builder.text
    self.layout = PageLayout(blocks: self.blocks, text: self.text)
  }

  /// The same page at another position in a document.
  ///
  /// Kept because it is no patching of provenance: a page's position is
  /// its document's, not its own, and changes when pages are merged into
  /// one document (the pages of several inputs numbered in output order).
  /// - Parameter index: The page's position in its new document, from 0.
  /// - Returns: The page with ``index`` set.
  /// - Complexity: O(1).
  public func withIndex(_ index: Int) -> Page {
    var page = self
    page.index = index
    return page
  }

  /// The same page with another source image name.
  ///
  /// Kept because it is no patching of provenance: the name is the input
  /// file's, and the same pixels read under another name (a cached
  /// reading found again for a file of another name) are the same page.
  /// - Parameter image: The image file's name (no directory), or `nil`.
  /// - Returns: The page with ``image`` set.
  /// - Complexity: O(1).
  public func withImage(_ image: String?) -> Page {
    var page = self
    page.image = image
    return page
  }

  /// The position before the first character.
  public var startPosition: TextPosition { TextPosition(offset: 0) }
  /// The position after the last character.
  public var endPosition: TextPosition { TextPosition(offset: layout.length) }
  /// The whole text's range.
  public var documentRange: TextRange { startPosition..<endPosition }

  /// The lines of the page in reading order, as a random-access view of the
  /// element tree (no array is built).
  /// - Complexity: O(1) to get; each element access is O(1).
  public var lines: Lines { Lines(blocks: blocks, entries: layout.lines) }

  /// The line at a reading-order line number, or `nil` if out of range.
  /// - Complexity: O(1).
  public func line(number: Int) -> TextLine? {
    guard layout.lines.indices.contains(number) else { return nil }
    return line(at: layout.lines[number])
  }

  /// The number of lines on the page.
  public var lineCount: Int { layout.lines.count }

  /// The words of the page in reading order (as the OCR engine delimits
  /// them), as a random-access view of the element tree (no array is built).
  /// - Complexity: O(1) to get; each element access is O(1).
  public var words: Words { Words(blocks: blocks, entries: layout.words) }

  func line(at ref: PageLayout.LineEntry) -> TextLine {
    blocks[ref.block].paragraphs[ref.paragraph].lines[ref.line]
  }

  func word(at ref: PageLayout.WordEntry) -> Word {
    blocks[ref.block].paragraphs[ref.paragraph].lines[ref.line].words[ref.word]
  }

  /// Whether two pages are the same page: every stored property takes part
  /// (`PageEqualityTests` checks it), the derived text and index aside;
  /// ``steps`` take part as the page records them (``preprocessing``),
  /// since a step's measurement and time are observations of one run (the
  /// time differs on every run) that no document keeps.
  /// - Complexity: O(*n*) in the number of elements.
  public static func == (a: Page, b: Page) -> Bool {
    a.index == b.index && a.image == b.image && a.width == b.width && a.height == b.height
      && a.dpi == b.dpi && a.orientation == b.orientation && a.skew == b.skew
      && a.language == b.language && a.preprocessing == b.preprocessing && a.crop == b.crop
      && a.perspective == b.perspective && a.pdf == b.pdf && a.source == b.source
      && a.dpiSource == b.dpiSource && a.exifOrientation == b.exifOrientation
      && a.text == b.text && a.blocks == b.blocks && a.figures == b.figures
  }
}

/// A recognised document: pages in order.
public struct Document: Sendable, Equatable {
  /// The pages in order.
  public var pages: [Page]
  /// Creates a document from its pages.
  public init(pages: [Page]) { self.pages = pages }
}

/// Joins element texts into the page text and assigns ranges.
struct TextBuilder {
  var text = ""
  var length = 0

  private mutating func append(_ s: String) {
    text += s
    length += s.utf16.count
  }

  /// The blocks with every element's range (and each line's text) set,
  /// lines without words, paragraphs without lines and blocks without
  /// paragraphs left out.
  ///
  /// The tree is changed in place: `blocks` is consumed, so a caller that
  /// hands over its blocks (a page's decoder) has them changed without a
  /// copy. Copying each element into a new array, as this did, copied
  /// every word's glyphs a second time (a word changed while its line
  /// still held it): a tenth of decoding a dense page from a compact model
  /// (`perf`, issue 32).
  mutating func assignRanges(_ blocks: consuming [Block]) -> [Block] {
    for b in blocks.indices {
      blocks[b].paragraphs.removeAll { !$0.lines.contains { !$0.words.isEmpty } }
      var blockStart: Int?
      for p in blocks[b].paragraphs.indices {
        // An empty line between paragraphs, none after the last.
        if length > 0 { append("\n") }
        let paragraphStart = length
        blockStart = blockStart ?? paragraphStart
        blocks[b].paragraphs[p].lines.removeAll { $0.words.isEmpty }
        for l in blocks[b].paragraphs[p].lines.indices {
          let lineStart = length
          let lineText = place(&blocks[b].paragraphs[p].lines[l].words)
          blocks[b].paragraphs[p].lines[l].range = .init(offsets: lineStart..<length)
          blocks[b].paragraphs[p].lines[l].text = lineText
          append("\n")
        }
        blocks[b].paragraphs[p].range = .init(offsets: paragraphStart..<(length - 1))
      }
      if let blockStart, let last = blocks[b].paragraphs.last {
        blocks[b].range = .init(offsets: blockStart..<last.range.upperBound.offset)
      }
    }
    blocks.removeAll { $0.paragraphs.isEmpty }
    return blocks
  }

  /// Appends a line's words, a space between each two, setting their
  /// ranges and their glyphs'; returns the line's text.
  private mutating func place(_ words: inout [Word]) -> String {
    var line = ""
    for w in words.indices {
      if w > 0 {
        append(" ")
        line += " "
      }
      place(&words[w])
      line += words[w].text
    }
    return line
  }

  /// Sets the ranges of a word and of the glyphs that spell it in order (a
  /// glyph whose text is not the word's next units gets an empty range
  /// where it stands), and appends its text.
  private mutating func place(_ word: inout Word) {
    let start = length
    var cursor = start
    let units = word.text.utf16
    var next = units.startIndex
    for g in word.glyphs.indices {
      let glyphUnits = word.glyphs[g].text.utf16
      var probe = next
      var matches = !glyphUnits.isEmpty
      for unit in glyphUnits where matches {
        if probe == units.endIndex || units[probe] != unit {
          matches = false
        } else {
          probe = units.index(after: probe)
        }
      }
      if matches {
        let n = units.distance(from: next, to: probe)
        word.glyphs[g].range = .init(offsets: cursor..<(cursor + n))
        cursor += n
        next = probe
      } else {
        word.glyphs[g].range = .init(offsets: cursor..<cursor)
      }
    }
    append(word.text)
    word.range = .init(offsets: start..<length)
  }
}

/// Where a page's words came from.
public enum PageTextSource: String, Sendable, Equatable, CaseIterable {
  /// Recognised from the page's image (OCR).
  case ocr
  /// Read from the text a PDF page already carried (born-digital text or an
  /// earlier text layer): exact text, each glyph's box from the PDF.
  case pdfText = "pdf-text"
}

/// Where a page's resolution (``Page/dpi``) came from.
public enum ResolutionSource: String, Sendable, Equatable, CaseIterable {
  /// The image file's resolution tag.
  case tag
  /// Estimated from the size of the text, because the image had no tag or
  /// one no scan has (below 100 or above 2,400 dpi).
  case estimated
  /// Given with `--dpi`.
  case option
  /// The resolution a PDF page was read at: its one image's own, else the
  /// rendering's.
  case pdf
}

/// The PDF page a ``Page``'s image was rendered from, and how to map the
/// page's pixels back onto it.
///
/// Pixels map to the PDF page as displayed (after its `/Rotate`), in
/// points, with the origin at its top-left corner and y growing down (the
/// space of `pdftotext -bbox`): a point is `(a·x + c·y + e, b·x + d·y + f)`
/// for ``pixelToPoint`` `[a, b, c, d, e, f]`, the order of a PDF matrix.
public struct PDFPageSource: Sendable, Equatable {
  /// The page's number in the PDF, from 1, as viewers and `--pages` count.
  public var page: Int
  /// The page's width and height as displayed, in points.
  public var width: Double
  public var height: Double
  /// The affine map from the image's pixels to the page's points.
  public var pixelToPoint: [Double]
  /// Whether the page already carried text (a text layer or born-digital
  /// text) before ScanText read it.
  public var hasText: Bool
  /// Whether the image is the page's one embedded image at its own
  /// resolution (`true`), or the page rendered at a chosen resolution.
  /// Whether the page was recognised or read from its own text is
  /// ``Page/source``.
  public var nativeImage: Bool

  /// Creates a source record; see the properties.
  public init(
    page: Int, width: Double, height: Double, pixelToPoint: [Double], hasText: Bool,
    nativeImage: Bool
  ) {
    self.page = page
    self.width = width
    self.height = height
    self.pixelToPoint = pixelToPoint
    self.hasText = hasText
    self.nativeImage = nativeImage
  }
}
