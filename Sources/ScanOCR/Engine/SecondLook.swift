import CScanOCR
import Foundation
import ScanImaging
import ScanModel

extension OCREngine {
  /// Why a line is read again.
  enum WeakReading: String {
    /// Its words' mean confidence is under
    /// ``ScanModel/ScanConventions/lowConfidenceThreshold``.
    case lowConfidence = "low confidence"
    /// It reads as junk (``SecondLook/isJunk(_:)``).
    case junk
  }

  /// One way of drawing a line's pixels again for a second look.
  enum Rendering: String, CaseIterable {
    /// Enlarged twice (`pixScaleGrayLI`), for letters under
    /// ``SecondLook/smallXHeight``.
    case upscaled = "upscaled ×2"
    /// Binarised by Sauvola's local threshold (`pixSauvolaBinarize`)
    /// instead of Tesseract's global one.
    case sauvola = "sauvola"
    /// Contrast stretched tile by tile (`pixContrastNorm`).
    case contrast = "contrast-stretched"
  }

  /// A second look at the lines read weakly: after the page's reading,
  /// each line whose words Tesseract read with low confidence or that
  /// reads as junk (``SecondLook/weakness(of:)``) is read again on its
  /// own, as one line of text (PSM 7), from other renderings of the same
  /// pixels (``Rendering``), each made from the line's crop with a margin
  /// of paper. A rendering's reading maps back into the recognised image
  /// through a ``PointMap`` (the crop and the scale, as every step's map)
  /// and replaces the line only when it is better
  /// (``SecondLook/isBetter(_:than:)``: more confident, no fewer
  /// word-like words, no junkier). Each line read again gets one record
  /// (``ScanModel/StepDecision/reread(_:)``): its box in the original's
  /// pixels, why, and which rendering was kept ("first reading" when none
  /// was better).
  ///
  /// A page with no weak line takes no second look and gets no record.
  /// Only with preprocessing on, when ``RecognitionOptions/secondLook``
  /// asks for it.
  /// - Parameters:
  ///   - reading: The page's reading, in the recognised image's pixels.
  ///   - image: The original (for the records' boxes).
  /// - Complexity: One Tesseract reading per weak line and rendering, on
  ///   the line's crop.
  func secondLook(
    _ reading: Reading, image: LeptonicaImage, index: Int, path: String, started: Date
  ) throws(OCRError) -> Reading {
    guard options.secondLook, options.preprocessing != .none else { return reading }
    let page = reading.prepared.image
    var weak: [(b: Int, p: Int, l: Int, why: WeakReading)] = []
    for (b, block) in reading.blocks.enumerated() {
      for (p, paragraph) in block.paragraphs.enumerated() {
        for (l, line) in paragraph.lines.enumerated() {
          guard line.bbox.height >= SecondLook.leastLineHeight,
            line.bbox.height * 4 <= page.height, let why = SecondLook.weakness(of: line)
          else { continue }
          weak.append((b, p, l, why))
        }
      }
    }
    guard !weak.isEmpty else { return reading }
    // The weakest lines first, as far as the budget goes.
    weak.sort {
      let a = reading.blocks[$0.b].paragraphs[$0.p].lines[$0.l]
      let b = reading.blocks[$1.b].paragraphs[$1.p].lines[$1.l]
      return SecondLook.meanConfidence(a) < SecondLook.meanConfidence(b)
    }
    let lineArea = reading.blocks.flatMap(\.paragraphs).flatMap(\.lines).reduce(0) {
      $0 + $1.bbox.width * $1.bbox.height
    }
    var budget = Double(lineArea) * SecondLook.budget
    let lookStarted = ContinuousClock.now
    let toOriginal = ElementMapper(
      map: reading.prepared.map, width: image.width, height: image.height)
    // Black and white as scanned (a fax), even when enlarged to gray since.
    let binary = scantext_pixGetDepth(image.pix) == 1 || scantext_pixGetDepth(page.pix) == 1
    var result = reading
    var records: [StepRecord] = []
    scantext_TessBaseAPISetPageSegMode(api, PSM_SINGLE_LINE)
    defer { scantext_TessBaseAPIClear(api) }
    for item in weak.prefix(SecondLook.mostLines) {
      try checkDeadline(started, path: path, page: index)
      let line = result.blocks[item.b].paragraphs[item.p].lines[item.l]
      let renderings = SecondLook.renderings(for: line, binary: binary)
      let cost = renderings.reduce(0.0) {
        $0 + Double(line.bbox.width * line.bbox.height) * ($1 == .upscaled ? 4 : 1)
      }
      // A line read as words takes a reading only two renderings agree
      // on (``SecondLook/chosen(_:over:junk:)``): with one, none can win.
      guard renderings.count >= (item.why == .junk ? 1 : 2), cost <= budget else { continue }
      budget -= cost
      var reads: [(line: TextLine, rendering: Rendering)] = []
      // The line's own ink, as the first reading saw it: the boxes of a
      // reading again are fitted to it (``SecondLook/fitted(_:to:ink:)``).
      let ink = Preprocessor.clip(page, line.bbox).flatMap(SecondLook.ink)
      for rendering in renderings {
        if let read = reread(
          line, on: page, as: rendering, resolution: reading.prepared.resolution, ink: ink)
        {
          reads.append((read, rendering))
        }
      }
      let best = SecondLook.chosen(reads, over: line, junk: item.why == .junk)
      if let best {
        result.blocks[item.b].paragraphs[item.p].lines[item.l] = best.line
        let grown = result.blocks[item.b].paragraphs[item.p].bbox.union(best.line.bbox)
        result.blocks[item.b].paragraphs[item.p].bbox = grown
        result.blocks[item.b].bbox = result.blocks[item.b].bbox.union(grown)
      }
      let box = toOriginal.box(line.bbox)
      records.append(
        StepRecord(
          .secondLook,
          decision: .reread(
            "line [\(box.minX),\(box.minY),\(box.maxX),\(box.maxY)] \(item.why.rawValue), kept "
              + (best.map(\.rendering.rawValue) ?? "first reading"))))
    }
    let seconds = (ContinuousClock.now - lookStarted).inSeconds
    if !records.isEmpty { records[0].seconds = seconds }
    result.prepared.applied += records
    result.quality = ReadingQuality(result.blocks)
    return result
  }

  /// `line` read again alone from one rendering of its crop (with a margin
  /// of paper) of `page`, its boxes mapped back into `page`'s pixels and
  /// fitted to the line (``SecondLook/fitted(_:to:ink:)``, `ink` the
  /// line's box of `page` in 1 bit); `nil` when the rendering cannot be
  /// made or Tesseract reads no single line there.
  private func reread(
    _ line: TextLine, on page: LeptonicaImage, as rendering: Rendering, resolution: Int?,
    ink: LeptonicaImage?
  ) -> TextLine? {
    let margin = max(4, line.bbox.height / 3)
    let box = PixelRect(
      minX: max(0, line.bbox.minX - margin), minY: max(0, line.bbox.minY - margin),
      maxX: min(page.width, line.bbox.maxX + margin),
      maxY: min(page.height, line.bbox.maxY + margin))
    guard box.width > 0, box.height > 0, let crop = Preprocessor.clip(page, box),
      let drawn = SecondLook.render(crop, as: rendering)
    else { return nil }
    let scale = rendering == .upscaled ? 2.0 : 1.0
    scantext_TessBaseAPISetImage2(api, drawn.pix)
    let dpi = resolution.map { Int(Double($0) * scale) } ?? options.dpi
    if let dpi { scantext_TessBaseAPISetSourceResolution(api, Int32(dpi)) }
    guard scantext_TessBaseAPIRecognize(api, nil) == 0 else { return nil }
    let lines = ResultReader.read(api).blocks.flatMap(\.paragraphs).flatMap(\.lines)
    guard lines.count == 1, !lines[0].words.isEmpty else { return nil }
    // Back from the rendering to the page: the scale first, then the crop.
    let map = PointMap(.projective(.undoCrop(x: box.minX, y: box.minY)))
      .composed(after: .projective(.undoScale(scale)))
    let mapper = ElementMapper(map: map, width: page.width, height: page.height)
    let mapped = mapper.map([
      Block(bbox: lines[0].bbox, paragraphs: [Paragraph(bbox: lines[0].bbox, lines: lines)])
    ])
    return mapped.first?.paragraphs.first?.lines.first.flatMap {
      SecondLook.fitted($0, to: line, ink: ink)
    }
  }
}

/// The rules of the second look (``OCREngine/secondLook(_:image:index:path:started:)``):
/// which lines are weak, how they are drawn again, and which reading wins.
enum SecondLook {
  /// Lines lower than this (pixels of the recognised image) are specks,
  /// not text: not read again.
  static let leastLineHeight = 8
  /// At most this many lines of a page are read again (the weakest page
  /// costs at most this many small readings per rendering).
  static let mostLines = 60
  /// Letters with an x-height under this (pixels) are read enlarged ×2
  /// as well: Tesseract reads type well from an x-height near 20 px.
  static let smallXHeight = 20.0
  /// A rendering's reading must be this much more confident (mean word
  /// confidence, 0–100) than the line's reading to replace it.
  static let confidenceGain = 5.0
  /// The pixels of the lines read again, each counted once per rendering
  /// (four times enlarged), may add up to this share of the area of all
  /// the page's lines: a page's reading costs about its lines' area, so
  /// the second look adds about half of it at most.
  static let budget = 0.5
  /// A reading read again may have at most this much larger a share of
  /// characters that are neither letters nor digits than the line's:
  /// a stray mark read as "." or "»" next to a number is not a better
  /// reading of it.
  static let symbolShareGain = 0.15

  /// Why `line` is weak, or `nil` when it reads well.
  /// - Complexity: O(*c*) in the line's characters.
  static func weakness(of line: TextLine) -> OCREngine.WeakReading? {
    guard !line.words.isEmpty else { return nil }
    if meanConfidence(line) < ScanConventions.lowConfidenceThreshold { return .lowConfidence }
    return isJunk(line.words.map(\.text)) ? .junk : nil
  }

  /// The mean confidence of a line's words (0 for none).
  static func meanConfidence(_ line: TextLine) -> Double {
    guard !line.words.isEmpty else { return 0 }
    return line.words.map { $0.confidence ?? 0 }.reduce(0, +) / Double(line.words.count)
  }

  /// Whether words read as junk: fewer than half of them word-like
  /// (``isWordLike(_:)``), or fewer than half of their characters letters
  /// or digits (runs of symbols: a leader's "cece eeeee", a barcode's
  /// "||l|!l").
  static func isJunk(_ words: [String]) -> Bool {
    guard !words.isEmpty else { return false }
    let characters = words.flatMap { Array($0) }
    let alphanumeric = characters.count { $0.isLetter || $0.isNumber }
    if alphanumeric * 2 < characters.count { return true }
    return wordLikeCount(words) * 2 < words.count
  }

  /// How many of `words` are word-like.
  static func wordLikeCount(_ words: [String]) -> Int { words.count(where: isWordLike) }

  /// Whether a word reads like a word of text (without its surrounding
  /// punctuation): letters with a vowel (any letter outside ASCII counts
  /// as one), at most an apostrophe or hyphen inside, in one case or
  /// capitalised, not one or two letters repeated; or a number (digits with `.,:/-%` between them, a
  /// currency sign before); or one of "a", "I", "&".
  static func isWordLike(_ word: String) -> Bool {
    let edge = CharacterSet(charactersIn: ".,;:!?\"'()[]{}«»“”‘’*")
    let core = word.trimmingCharacters(in: edge)
    guard !core.isEmpty else { return false }
    if ["a", "A", "I", "&"].contains(core) { return true }
    let chars = Array(core)
    if chars.contains(where: \.isNumber) {
      let body = chars.first.map { "$€£".contains($0) } == true ? Array(chars.dropFirst()) : chars
      return body.allSatisfy { $0.isNumber || ".,:/-%".contains($0) }
        && body.first?.isNumber == true
    }
    guard chars.count >= 2, chars.first?.isLetter == true, chars.last?.isLetter == true,
      chars.allSatisfy({ $0.isLetter || $0 == "'" || $0 == "-" || $0 == "’" })
    else { return false }
    let letters = chars.filter(\.isLetter)
    // One or two letters over and over ("ee", "cece", a leader read as
    // letters) are no word.
    let distinct = Set(letters.map { $0.lowercased() }).count
    if distinct == 1 || (distinct == 2 && letters.count >= 4) { return false }
    let hasVowel = letters.contains { !$0.isASCII || "aeiouyAEIOUY".contains($0) }
    let tail = letters.dropFirst()
    let oneCase =
      tail.allSatisfy(\.isLowercase) || letters.allSatisfy(\.isUppercase)
    return hasVowel && oneCase
  }

  /// The renderings to read `line` from: enlarged first when its letters
  /// are small (an x-height, about three fifths of its words' median
  /// height, under ``smallXHeight``), then Sauvola's binarisation and the
  /// contrast stretch.
  /// On a page already black and white (`binary`: a fax), only
  /// enlarging draws other pixels: binarising or stretching black and
  /// white gives the same pixels again, and their readings would agree
  /// for nothing.
  static func renderings(for line: TextLine, binary: Bool) -> [OCREngine.Rendering] {
    let heights = line.words.map(\.bbox.height).sorted()
    let xHeight = 0.6 * Double(heights.isEmpty ? line.bbox.height : heights[heights.count / 2])
    return (xHeight < smallXHeight ? [.upscaled] : []) + (binary ? [] : [.sauvola, .contrast])
  }

  /// Whether `candidate` (a line read again) is a better reading than
  /// `current`: no junkier (not junk when `current` is not, no smaller
  /// share of word-like words), no fewer word-like words (a reading that
  /// drops words never wins), no fewer letters and digits, no larger a
  /// share of symbols (by ``symbolShareGain``), and more confident by
  /// ``confidenceGain``.
  static func isBetter(_ candidate: TextLine, than current: TextLine) -> Bool {
    let new = candidate.words.map(\.text)
    let old = current.words.map(\.text)
    guard !new.isEmpty else { return false }
    if isJunk(new) && !isJunk(old) { return false }
    let newLike = wordLikeCount(new)
    let oldLike = wordLikeCount(old)
    guard newLike >= oldLike, newLike * old.count >= oldLike * new.count else { return false }
    let newCharacters = new.flatMap { Array($0) }
    let oldCharacters = old.flatMap { Array($0) }
    let newAlphanumeric = newCharacters.count { $0.isLetter || $0.isNumber }
    let oldAlphanumeric = oldCharacters.count { $0.isLetter || $0.isNumber }
    guard newAlphanumeric >= oldAlphanumeric,
      symbolShare(newCharacters.count, newAlphanumeric)
        <= symbolShare(oldCharacters.count, oldAlphanumeric) + symbolShareGain
    else { return false }
    return meanConfidence(candidate) >= meanConfidence(current) + confidenceGain
  }

  /// The reading kept among a weak line's readings again (`reads`), or
  /// `nil` to keep the line's own: the most confident of those better than
  /// it (``isBetter(_:than:)``). A line read as junk takes it; a line read
  /// as words with low confidence only when another rendering read the
  /// same text: a rendering's confidence alone does not tell a word from
  /// a neighbour of it (the fax of `clean`'s "finds." read at confidence
  /// 0, and by Sauvola's binarisation alone as "tinds." at 86).
  static func chosen(
    _ reads: [(line: TextLine, rendering: OCREngine.Rendering)], over line: TextLine, junk: Bool
  ) -> (line: TextLine, rendering: OCREngine.Rendering)? {
    func text(_ l: TextLine) -> String { l.words.map(\.text).joined(separator: " ") }
    let better = reads.filter { read in
      isBetter(read.line, than: line)
        && (junk || reads.count { text($0.line) == text(read.line) } >= 2)
    }
    return better.max { meanConfidence($0.line) < meanConfidence($1.line) }
  }

  /// A line read again (`read`, in the recognised image's pixels) put in
  /// the first reading's place (`line`): a rendering reads a line's text
  /// again, not its place, and the boxes Tesseract gives a crop read as
  /// one line take in what a stretched or binarised margin turned black
  /// (on `columns-9000`, "use" came back 25 % wider and 54 % taller than
  /// its ink, and word recall counted it missed).
  ///
  /// - With as many words as `line`, each word keeps the first reading's
  ///   box and takes the new text and confidence; a word whose text is
  ///   unchanged keeps its glyphs' boxes too, and a changed word's glyphs
  ///   are fitted within its box.
  /// - Otherwise each box is clipped to `line`'s box and fitted to the ink
  ///   inside it (`ink`: `line`'s box of the recognised image in 1 bit; no
  ///   ink there, the clipped box); a word with nothing inside `line`'s box
  ///   (a neighbour's ink in the crop's margin) is dropped, and a word
  ///   whose text a word of `line` had where it lies keeps that word's
  ///   boxes.
  ///
  /// The line keeps its own box, quad, polygon and baseline. `nil` when no
  /// word is left.
  /// - Complexity: O(*a*) in the pixels of the line's box.
  static func fitted(_ read: TextLine, to line: TextLine, ink: LeptonicaImage?) -> TextLine? {
    func fit(_ box: PixelRect, within outer: PixelRect) -> PixelRect? {
      guard let clipped = box.intersection(outer), !clipped.isEmpty else { return nil }
      guard let ink else { return clipped }
      let area = PixelRect(
        minX: clipped.minX - line.bbox.minX, minY: clipped.minY - line.bbox.minY,
        maxX: clipped.maxX - line.bbox.minX, maxY: clipped.maxY - line.bbox.minY)
      let (rows, columns) = OCREngine.inkProfiles(ink, in: area)
      guard let top = rows.firstIndex(where: { $0 > 0 }),
        let bottom = rows.lastIndex(where: { $0 > 0 }),
        let left = columns.firstIndex(where: { $0 > 0 }),
        let right = columns.lastIndex(where: { $0 > 0 })
      else { return clipped }
      return PixelRect(
        minX: clipped.minX + left, minY: clipped.minY + top,
        maxX: clipped.minX + right + 1, maxY: clipped.minY + bottom + 1)
    }
    func fitGlyphs(_ glyphs: [Glyph], within box: PixelRect) -> [Glyph] {
      glyphs.map { glyph in
        var glyph = glyph
        glyph.bbox = fit(glyph.bbox, within: box) ?? box
        return glyph
      }
    }
    var result = line
    if read.words.count == line.words.count {
      for (w, word) in read.words.enumerated() {
        let old = line.words[w]
        result.words[w].text = word.text
        result.words[w].confidence = word.confidence
        if word.text == old.text, word.glyphs.count == old.glyphs.count {
          for g in old.glyphs.indices {
            result.words[w].glyphs[g].confidence = word.glyphs[g].confidence
          }
        } else if word.text != old.text {
          result.words[w].glyphs = fitGlyphs(word.glyphs, within: old.bbox)
        }
      }
      return result
    }
    result.words = read.words.compactMap { word in
      guard let box = fit(word.bbox, within: line.bbox) else { return nil }
      // A word read as the first reading read it, where it was, keeps
      // the first reading's word.
      if var same = line.words.first(where: {
        $0.text == word.text && $0.bbox.intersection(box).map { !$0.isEmpty } == true
      }) {
        same.confidence = word.confidence
        return same
      }
      var word = word
      word.bbox = box
      word.glyphs = fitGlyphs(word.glyphs, within: box)
      return word
    }
    return result.words.isEmpty ? nil : result
  }

  /// `crop` in 1 bit, its pixels darker than the middle gray as ink, as the
  /// page's other steps see ink (``Preprocessor/binarize(_:)``).
  static func ink(_ crop: LeptonicaImage) -> LeptonicaImage? {
    if scantext_pixGetDepth(crop.pix) == 1, scantext_pixGetColormap(crop.pix) == nil {
      return crop
    }
    return scantext_pixConvertTo8(crop.pix, 0).map(LeptonicaImage.init(taking:))
      .flatMap(Preprocessor.binarize)
  }

  /// The share of `characters` that are neither letters nor digits.
  static func symbolShare(_ characters: Int, _ alphanumeric: Int) -> Double {
    characters > 0 ? Double(characters - alphanumeric) / Double(characters) : 0
  }

  /// `crop` (of the recognised image) drawn as `rendering` asks, 8-bit
  /// gray or 1-bit, with its resolution; `nil` when Leptonica cannot.
  static func render(_ crop: LeptonicaImage, as rendering: OCREngine.Rendering)
    -> LeptonicaImage?
  {
    guard let gray = scantext_pixConvertTo8(crop.pix, 0).map(LeptonicaImage.init(taking:))
    else { return nil }
    scantext_pixCopyResolution(gray.pix, crop.pix)
    switch rendering {
    case .upscaled:
      return scantext_pixScaleGrayLI(gray.pix, 2, 2).map(LeptonicaImage.init(taking:))
    case .sauvola:
      let window = Int32(max(4, min(gray.width, gray.height) / 3))
      var binary: UnsafeMutablePointer<Pix>?
      guard scantext_pixSauvolaBinarize(gray.pix, window, 0.34, 1, nil, nil, nil, &binary) == 0,
        let binary
      else { return nil }
      return LeptonicaImage(taking: binary)
    case .contrast:
      let tileX = Int32(max(5, min(50, gray.width / 2)))
      let tileY = Int32(max(5, min(50, gray.height / 2)))
      return scantext_pixContrastNorm(nil, gray.pix, tileX, tileY, 40, 2, 2).map(
        LeptonicaImage.init(taking:))
    }
  }
}
