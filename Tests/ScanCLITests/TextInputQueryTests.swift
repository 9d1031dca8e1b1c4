import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

/// How a built line runs in the image.
private enum Run {
  /// Left to right from (x, y).
  case right
  /// Right to left from (x, y), as Hebrew: glyphs and words leftward.
  case left
  /// Down the image from (x, y): content turned by 90° clockwise, with quads.
  case down
}

/// One line of 10 × 20 px glyphs and 10 px spaces.
private func line(_ text: String, x: Int, y: Int, _ run: Run) -> TextLine {
  func box(_ s0: Int, _ s1: Int) -> (PixelRect, Quad?) {
    switch run {
    case .right: return (PixelRect(minX: x + s0, minY: y, maxX: x + s1, maxY: y + 20), nil)
    case .left: return (PixelRect(minX: x - s1, minY: y, maxX: x - s0, maxY: y + 20), nil)
    case .down:
      let quad = Quad(
        topLeft: Point(x: Double(x + 20), y: Double(y + s0)),
        topRight: Point(x: Double(x + 20), y: Double(y + s1)),
        bottomRight: Point(x: Double(x), y: Double(y + s1)),
        bottomLeft: Point(x: Double(x), y: Double(y + s0)))
      return (PixelRect(minX: x, minY: y + s0, maxX: x + 20, maxY: y + s1), quad)
    }
  }
  var s = 0
  var words: [Word] = []
  for token in text.split(separator: " ") {
    let start = s
    var glyphs: [Glyph] = []
    for c in token {
      let (b, q) = box(s, s + 10)
      glyphs.append(Glyph(text: String(c), bbox: b, quad: q))
      s += 10
    }
    let (b, q) = box(start, s)
    words.append(Word(text: String(token), bbox: b, quad: q, confidence: 90, glyphs: glyphs))
    s += 10
  }
  let (b, q) = box(0, s - 10)
  return TextLine(bbox: b, quad: q, words: words)
}

private func page(_ paragraphs: [TextLine]) -> Page {
  let built = paragraphs.map { Paragraph(bbox: $0.bbox, lines: [$0]) }
  let box = PixelRect.union(built.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
  return Page(width: 1000, height: 1000, blocks: [Block(bbox: box, paragraphs: built)])
}

/// "Hello world.\n\nשלום עולם\n": English, then Hebrew laid out from the right.
///  0    5 6     12 14  18 19  23
private let mixedPage = page([
  line("Hello world.", x: 100, y: 100, .right), line("שלום עולם", x: 900, y: 160, .left),
])

/// "Down here\n", read down the image (a page turned by 90°).
private let turnedPage = page([line("Down here", x: 500, y: 100, .down)])

@Suite("Query protocol: UITextInput navigation, transforms, writing direction")
struct TextInputQueryTests {
  @Test func navigationOps() throws {
    #expect(mixedPage.text == "Hello world.\n\nשלום עולם\n")
    let path = try model([mixedPage, turnedPage])
    let answers = try query(
      path,
      [
        #"{"op":"position","from":1,"direction":"right","offset":3,"id":"a"}"#,
        #"{"op":"position","from":1,"direction":"left"}"#,
        #"{"op":"position","from":0,"direction":"left"}"#,
        #"{"op":"position","from":14,"direction":"left","offset":2}"#,
        #"{"op":"position","from":16,"direction":"right","offset":-1}"#,
        #"{"op":"position","from":2,"direction":"down","offset":2,"page":1}"#,
        #"{"op":"farthest","range":[2,8],"direction":"left"}"#,
        #"{"op":"farthest","range":[15,17],"direction":"left"}"#,
        #"{"op":"extend","position":3,"direction":"right"}"#,
        #"{"op":"extend","position":16,"direction":"right"}"#,
        #"{"op":"extend","position":3,"direction":"down"}"#,
        #"{"op":"compare","position":3,"other":7}"#,
        #"{"op":"compare","position":7,"other":7}"#,
        #"{"op":"compare","position":9,"other":7}"#,
        #"{"op":"writingDirection","position":3}"#,
        #"{"op":"writingDirection","position":15,"direction":"backward"}"#,
        #"{"op":"writingDirection","position":13,"direction":"forward"}"#,
        #"{"op":"writingDirection","position":13,"direction":"backward"}"#,
      ])
    #expect(answers[0] == .object(["position": .number(4), "id": .string("a")]))
    #expect(answers[1]["position"] == .number(0))
    #expect(answers[2]["position"] == .null)
    // On the Hebrew line, left is forward and right backward.
    #expect(answers[3]["position"] == .number(16))
    #expect(answers[4]["position"] == .number(17))
    // On the turned page, down is forward along the line.
    #expect(answers[5]["position"] == .number(4))
    #expect(answers[6]["position"] == .number(2))
    #expect(answers[7]["position"] == .number(17))
    #expect(offsets(answers[8]["range"]) == 3..<12)
    #expect(offsets(answers[9]["range"]) == 14..<16)
    #expect(offsets(answers[10]["range"]) == 3..<24)
    #expect(answers[11] == .object(["order": .string("orderedAscending"), "value": .number(-1)]))
    #expect(answers[12]["order"] == .string("orderedSame"))
    #expect(answers[13]["value"] == .number(1))
    #expect(answers[14] == .object(["writingDirection": .string("leftToRight")]))
    #expect(answers[15]["writingDirection"] == .string("rightToLeft"))
    #expect(answers[16]["writingDirection"] == .string("rightToLeft"))
    #expect(answers[17]["writingDirection"] == .string("leftToRight"))
  }

  @Test func badNavigationRequestsGetErrors() throws {
    let path = try model([mixedPage])
    let answers = try query(
      path,
      [
        #"{"op":"position","from":1,"direction":"forward"}"#,
        #"{"op":"position","direction":"left"}"#,
        #"{"op":"position","from":99,"direction":"left"}"#,
        #"{"op":"position","from":1,"direction":"left","offset":1.5}"#,
        #"{"op":"farthest","range":[5,2],"direction":"left"}"#,
        #"{"op":"extend","position":-1,"direction":"up"}"#,
        #"{"op":"compare","position":1}"#,
        #"{"op":"writingDirection","position":1,"direction":"left"}"#,
        #"{"op":"nonsense"}"#,
      ])
    for (k, a) in answers.enumerated() {
      #expect(a["error"]?.stringValue != nil, "request \(k): \(a)")
    }
    #expect(answers[0]["error"]?.stringValue?.contains("left, right, up, down") == true)
    #expect(answers[2]["error"]?.stringValue?.contains("outside the page text") == true)
    #expect(answers[8]["error"]?.stringValue?.contains("writingDirection") == true)
  }

  /// `firstRect(for:)` through the protocol: a range over two lines gives
  /// the bounds of its part on the first; an empty range its caret's
  /// bounds; a range outside the text an error.
  @Test func firstRectIsTheFirstLinesPart() throws {
    let path = try model([mixedPage, turnedPage])
    let answers = try query(
      path,
      [
        #"{"op":"firstRect","range":[6,16]}"#,
        #"{"op":"firstRect","range":[6,6]}"#,
        #"{"op":"firstRect","range":[5,9],"page":1}"#,
        #"{"op":"firstRect","range":[6,99]}"#,
        #"{"op":"rects","range":[6,16]}"#,
      ])
    // "world." on the first line; the Hebrew line below is not taken in.
    let world = try #require(answers[4]["rects"]?.arrayValue?.first?["bbox"])
    #expect(answers[0]["rect"] == world)
    #expect(answers[0]["rect"] == .array([160, 100, 220, 120].map { .number($0) }))
    #expect(answers[1]["rect"] == .array([160, 100, 160, 120].map { .number($0) }))
    // "here" read down the turned page: its upright bounds in the image.
    #expect(answers[2]["rect"] == .array([500, 150, 520, 190].map { .number($0) }))
    #expect(answers[3]["error"]?.stringValue?.contains("outside the page text") == true)
  }

  @Test func rectsAndCaretsCarryAnUprightRectAndATransform() throws {
    let path = try model([mixedPage, turnedPage])
    let answers = try query(
      path,
      [
        #"{"op":"rects","range":[6,11]}"#,
        #"{"op":"rects","range":[14,18]}"#,
        #"{"op":"caret","position":6}"#,
        #"{"op":"rects","range":[5,9],"page":1}"#,
        #"{"op":"caret","position":5,"page":1}"#,
      ])
    let world = try #require(answers[0]["rects"]?.arrayValue?.first)
    #expect(world["bbox"] == .array([160, 100, 210, 120].map { .number($0) }))
    #expect(world["rect"] == world["bbox"])
    #expect(world["transform"] == .array([1, 0, 0, 1, 0, 0].map { .number($0) }))
    #expect(world["writingDirection"] == .string("leftToRight"))
    for key in ["quad", "containsStart", "containsEnd", "line", "range", "isVertical"] {
      #expect(world[key] != nil, "\(key)")
    }
    let shalom = try #require(answers[1]["rects"]?.arrayValue?.first)
    #expect(shalom["writingDirection"] == .string("rightToLeft"))
    #expect(shalom["bbox"] == .array([860, 160, 900, 180].map { .number($0) }))
    // The caret: a zero-width box as before, and a 2 px wide upright rect.
    let caret = answers[2]
    #expect(caret["bbox"] == .array([160, 100, 160, 120].map { .number($0) }))
    #expect(caret["rect"] == .array([159, 100, 161, 120].map { .number($0) }))
    #expect(caret["width"] == .number(2))
    #expect(caret["transform"] == .array([1, 0, 0, 1, 0, 0].map { .number($0) }))
    #expect(caret["line"] == .number(0))
    // On the turned page: "here" (50 px along, 20 across) and a quarter turn.
    let here = try #require(answers[3]["rects"]?.arrayValue?.first)
    #expect(here["isVertical"] == .bool(true))
    #expect(here["transform"] == .array([0, 1, -1, 0, 0, 0].map { .number($0) }))
    #expect(here["bbox"] == .array([500, 150, 520, 190].map { .number($0) }))
    #expect(here["rect"] == .array([490, 160, 530, 180].map { .number($0) }))
    #expect(answers[4]["transform"] == here["transform"])
  }

  @Test func hitCarriesTheOCRWordAndTheTokenizerWord() throws {
    let path = try model([mixedPage])
    let answers = try query(
      path,
      [
        #"{"op":"hit","point":[185,110]}"#,
        #"{"op":"hit","point":[215,110]}"#,
        #"{"op":"hit","point":[155,110]}"#,
        #"{"op":"hit","point":[875,170]}"#,
      ])
    // Over the "r" of "world.": the OCR word keeps its full stop.
    #expect(answers[0]["word"]?["text"] == .string("world."))
    #expect(answers[0]["tokenizerWord"]?["text"] == .string("world"))
    #expect(offsets(answers[0]["tokenizerWord"]?["range"]) == 6..<11)
    // Over the full stop: the OCR word, no tokenizer word.
    #expect(answers[1]["word"]?["text"] == .string("world."))
    #expect(answers[1]["tokenizerWord"] == .null)
    // In the gap between words: neither.
    #expect(answers[2]["word"] == .null)
    #expect(answers[2]["tokenizerWord"] == .null)
    #expect(answers[3]["tokenizerWord"]?["text"] == .string("שלום"))
  }
}
