import CScanOCR
import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanOCR

/// The second look (`--second-look`, issue 48 point 1): lines read weakly
/// are read again from other renderings of their pixels; a clean page
/// takes none.
@Suite("Second look")
struct SecondLookTests {
  /// `receipts-1002` of the receipts family (faded thermal print): its
  /// quantity line "3 @ 1.81" is first read "3 @1.81" at low confidence.
  static let receipt = made("receipts", seed: 1002)

  /// `columns-1000` of the columns family (a develop seed): its line
  /// "additional attribution notices" is read with low confidence, and
  /// read again from the contrast-stretched crop as the same three words.
  static let columns = made("columns", seed: 1000)

  /// A folder holding the page `seed` of `family`, made by
  /// `Tools/generate/make-family`; `nil` without Python.
  static func made(_ family: String, seed: Int) -> Result<URL, FixtureError>? {
    guard let python = GeneratedImages.python else { return nil }
    do {
      let folder = try Fixtures.temporaryFolder()
      let generator = Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-family").path
      let (status, output) = try ExternalCheckers.run(
        python, [generator, family, "--seeds", "\(seed)", "--out", folder.path])
      guard status == 0 else { return .failure(FixtureError("make-family failed: \(output)")) }
      return .success(folder)
    } catch {
      return .failure(FixtureError("\(error)"))
    }
  }

  static func read(_ path: String, secondLook: Bool) throws -> Page {
    var options = RecognitionOptions()
    options.secondLook = secondLook
    return try OCREngine(options: options).recognize(contentsOf: path)[0]
  }

  static func line(_ page: Page, containing text: String) -> TextLine? {
    page.blocks.flatMap(\.paragraphs).flatMap(\.lines).first {
      $0.words.contains { $0.text.contains(text) }
    }
  }

  /// On a faded receipt, the quantity line "3 @ 1.81" is first read
  /// "3 @1.81" at low confidence; read again enlarged ×2, it is "3 @ 1.81",
  /// which is kept: its words' boxes in the original's pixels inside the
  /// line's, and the page's record names the line, why and the rendering.
  /// (The faded `two-columns.png` this test read before is now read right
  /// the first time: the illumination step averages a noisy faded page.)
  @Test func aWeakLineIsReadRightTheSecondTime() throws {
    guard let made = Self.receipt else {
      print(GeneratedImages.absentMessage)
      return
    }
    let stem = try made.get().appendingPathComponent("receipts-1002").path
    let first = try Self.read(stem + ".png", secondLook: false)
    let again = try Self.read(stem + ".png", secondLook: true)
    let truth = try #require(
      try DocumentJSON.decode(String(contentsOfFile: stem + ".truth.json", encoding: .utf8))
        .pages.first)
    #expect(truth.text.contains("3 @ 1.81"))

    let before = try #require(Self.line(first, containing: "1.81"))
    #expect(before.words.map(\.text) == ["3", "@1.81"])
    #expect(first.steps.allSatisfy { $0.step != .secondLook })

    let after = try #require(Self.line(again, containing: "1.81"))
    #expect(after.words.map(\.text) == ["3", "@", "1.81"])
    #expect(after.words.allSatisfy { after.bbox.contains($0.bbox) }, "\(after.words.map(\.bbox))")
    #expect(zip(after.words, after.words.dropFirst()).allSatisfy { $0.bbox.maxX <= $1.bbox.minX })

    let records = again.preprocessing.filter { $0.hasPrefix("second look: ") }
    let record = try #require(
      records.first { $0.contains("low confidence") && $0.hasSuffix("kept upscaled ×2") },
      "records: \(records)")
    let numbers = record.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    let recorded = PixelRect(
      minX: numbers[0], minY: numbers[1], maxX: numbers[2], maxY: numbers[3])
    #expect(recorded.contains(after.bbox, tolerance: 2), "\(record) vs \(after.bbox)")
    // The rest of the page reads as it did or better.
    #expect(try Self.cer(again, truth) <= Self.cer(first, truth))
  }

  /// A line read again keeps the first reading's place: the words it
  /// reads as the first reading did keep their boxes, fitted to the ink
  /// (before, they took the boxes of the crop read as one line, taller
  /// than the ink, and the columns family's word recall fell under
  /// Tesseract's). Here the first reading, "additional attribution _
  /// notices", has a stray "_"; the contrast-stretched crop reads the three
  /// words alone. The page's JSON names the line, why it was read again
  /// and the rendering kept, and every record of a second look says why.
  @Test func aLineReadAgainKeepsItsWordBoxes() throws {
    guard let made = Self.columns else {
      print(GeneratedImages.absentMessage)
      return
    }
    let path = try made.get().appendingPathComponent("columns-1000.png").path
    let first = try Self.read(path, secondLook: false)
    let again = try Self.read(path, secondLook: true)
    let before = try #require(Self.line(first, containing: "additional"))
    let after = try #require(Self.line(again, containing: "additional"))
    #expect(before.words.map(\.text) == ["additional", "attribution", "_", "notices"])
    #expect(after.words.map(\.text) == ["additional", "attribution", "notices"])
    #expect(after.bbox == before.bbox)
    for word in after.words {
      let was = try #require(before.words.first { $0.text == word.text })
      #expect(word.bbox == was.bbox, "\(word.text)")
    }

    let json = DocumentJSON.encode(
      Document(pages: [again]), generator: Generator(name: "scantext", version: "test"))
    let records = again.preprocessing.filter { $0.hasPrefix("second look: ") }
    let record = try #require(
      records.first { $0.hasSuffix("low confidence, kept contrast-stretched") },
      "records: \(records)")
    #expect(json.contains(record))
    #expect(
      records.allSatisfy { $0.contains(" low confidence, kept ") || $0.contains(" junk, kept ") },
      "\(records)")
  }

  /// A reading again with as many words as the first keeps the first
  /// reading's boxes and takes only the new text: a word read the same
  /// keeps its glyphs' boxes, a word read otherwise has its new glyphs
  /// fitted within its box. With other words, a word outside the line
  /// (a neighbour's ink in the crop's margin) is dropped and the rest are
  /// clipped to the line's box, but a word read as it was, where it was,
  /// keeps the first reading's word.
  @Test func aReadingAgainTakesTheFirstReadingsPlace() throws {
    func rect(_ x0: Int, _ x1: Int, _ y0: Int = 20, _ y1: Int = 40) -> PixelRect {
      PixelRect(minX: x0, minY: y0, maxX: x1, maxY: y1)
    }
    let first = TextLine(
      bbox: rect(10, 200),
      words: [
        Word(
          text: "tap", bbox: rect(10, 60), confidence: 40,
          glyphs: [
            Glyph(text: "t", bbox: rect(10, 25)), Glyph(text: "a", bbox: rect(25, 45)),
            Glyph(text: "p", bbox: rect(45, 60)),
          ]),
        Word(text: "it,", bbox: rect(80, 120), confidence: 30),
      ])
    let read = TextLine(
      bbox: rect(0, 230, 10, 50),
      words: [
        Word(
          text: "tap", bbox: rect(2, 66, 12, 50), confidence: 90,
          glyphs: [
            Glyph(text: "t", bbox: rect(2, 24, 12, 50)), Glyph(text: "a", bbox: rect(24, 46)),
            Glyph(text: "p", bbox: rect(46, 66)),
          ]),
        Word(
          text: "it.", bbox: rect(75, 130, 12, 50), confidence: 92,
          glyphs: [Glyph(text: "it.", bbox: rect(75, 130, 12, 50))]),
      ])
    let kept = try #require(SecondLook.fitted(read, to: first, ink: nil))
    #expect(kept.words.map(\.text) == ["tap", "it."])
    #expect(kept.words.map(\.bbox) == first.words.map(\.bbox))
    #expect(kept.words.map(\.confidence) == [90, 92])
    #expect(kept.words[0].glyphs.map(\.bbox) == first.words[0].glyphs.map(\.bbox))
    #expect(kept.words[1].glyphs.map(\.bbox) == [rect(80, 120)])
    #expect(kept.bbox == first.bbox)

    var more = read
    more.words.append(Word(text: "x", bbox: rect(205, 230, 10, 50)))
    more.words.insert(Word(text: "&", bbox: rect(62, 72, 12, 50)), at: 1)
    let clipped = try #require(SecondLook.fitted(more, to: first, ink: nil))
    #expect(clipped.words.map(\.text) == ["tap", "&", "it."])
    #expect(clipped.words.map(\.bbox) == [rect(10, 60), rect(62, 72), rect(75, 130)])
    #expect(clipped.words[0].glyphs == first.words[0].glyphs)
    #expect(clipped.words[0].confidence == 90)
  }

  static func cer(_ page: Page, _ truth: Page) throws -> Double {
    page.evaluate(against: truth).cer
  }

  /// A clean page has no weak line: no second look is taken, its record
  /// says nothing was read again, and its JSON is byte for byte the JSON
  /// without the option.
  @Test func aCleanPageTakesNoSecondLook() throws {
    let path = Fixtures.scans.appendingPathComponent("clean.png").path
    let plain = try Self.read(path, secondLook: false)
    let looked = try Self.read(path, secondLook: true)
    #expect(!looked.steps.contains { $0.step == .secondLook })
    let generator = Generator(name: "scantext", version: "test")
    #expect(
      DocumentJSON.encode(Document(pages: [looked]), generator: generator)
        == DocumentJSON.encode(Document(pages: [plain]), generator: generator))
  }

  /// A second look's record reads back from its string, as a document's
  /// JSON holds it.
  @Test func theRecordReadsBack() throws {
    let record = StepRecord(
      .secondLook, decision: .reread("line [10,20,300,48] junk, kept upscaled ×2"))
    #expect(record.recorded == "second look: line [10,20,300,48] junk, kept upscaled ×2")
    let read = try #require(StepRecord(recorded: record.recorded))
    #expect(read == record)
    #expect(StepRecord(recorded: "second look: ") == nil)
  }

  /// What reads as junk and what as words.
  @Test func junkAndWords() {
    #expect(SecondLook.isJunk(["cece", "eeeee", "ee"]))
    #expect(SecondLook.isJunk(["||l|!", "—~"]))
    #expect(!SecondLook.isJunk(["The", "town", "library", "12.70", "£4.15"]))
    #expect(SecondLook.isWordLike("permitting."))
    #expect(SecondLook.isWordLike("\"Hello,\""))
    #expect(!SecondLook.isWordLike("tHiS"))
    #expect(!SecondLook.isWordLike("2A2"))
  }
}
