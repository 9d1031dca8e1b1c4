import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI

/// A page with a hyphen break, a compound at a line end, combining marks,
/// an emoji and known confidences:
/// "Optical character recog-\nnition of an e-\nmail café 👍🏽 StraBe\n".
private let builtPage: Page = {
  var y = 100
  var lines: [TextLine] = []
  let confidences: [String: Double] = ["StraBe": 31, "e-": 58, "café": 75]
  for text in ["Optical character recog-", "nition of an e-", "mail cafe\u{301} 👍🏽 StraBe"] {
    var x = 100
    var words: [Word] = []
    for token in text.split(separator: " ") {
      let width = 10 * token.count
      words.append(
        Word(
          text: String(token), bbox: PixelRect(minX: x, minY: y, maxX: x + width, maxY: y + 20),
          confidence: confidences[String(token)] ?? 95))
      x += width + 10
    }
    lines.append(
      TextLine(bbox: PixelRect.union(words.map(\.bbox)) ?? words[0].bbox, words: words))
    y += 30
  }
  let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
  return Page(
    width: 1000, height: 1000,
    blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: lines)])])
}()

@Suite("Query protocol: find and uncertain")
struct FindQueryTests {
  @Test func spokenTextJoinsHyphenatedWords() throws {
    let answers = try query(
      try model(builtPage),
      [
        #"{"op":"text","range":[0,45],"spoken":true}"#,
        #"{"op":"text","range":[0,45],"spoken":false}"#,
        #"{"op":"text","range":[0,45],"spoken":1}"#,
      ])
    #expect(answers[0]["text"] == .string("Optical character recognition of an e-mail"))
    #expect(answers[1]["text"] == .string("Optical character recog-\nnition of an e-\nmail"))
    #expect(answers[2]["error"] == .string("\"spoken\" must be true or false"))
  }

  @Test func findAnswersRangesTextAndRects() throws {
    let page = builtPage
    let path = try model(page)
    let answers = try query(
      path,
      [
        #"{"op":"find","query":"recognition","id":1}"#,
        #"{"op":"find","query":"RECOGNITION"}"#,
        #"{"op":"find","query":"RECOGNITION","caseInsensitive":true,"diacriticInsensitive":false}"#,
        #"{"op":"find","query":"email"}"#,
        #"{"op":"find","query":"cafe"}"#,
        #"{"op":"find","query":"cafe","diacriticInsensitive":true}"#,
        #"{"op":"find","query":"👍"}"#,
        #"{"op":"find","query":"of an e-mail"}"#,
      ])
    let recognition = try #require(answers[0]["matches"]?.arrayValue)
    #expect(recognition.count == 1)
    #expect(answers[0]["id"] == .number(1))
    let match = try #require(recognition.first)
    let range = try #require(offsets(match["range"]))
    #expect(range == 18..<31)
    #expect(match["text"] == .string("recog-\nnition"))
    let rects = try #require(match["rects"]?.arrayValue)
    let expected = page.selectionRects(for: TextRange(offsets: range))
    #expect(rects.count == 2)
    #expect(rects.map { $0["line"]?.intValue } == [0, 1])
    #expect(rects.map { offsets($0["range"]) } == expected.map(\.range.offsets))
    #expect(rects[0]["bbox"] == DocumentJSON.box(expected[0].bounds))
    #expect(rects[1]["bbox"] == .array([100, 130, 160, 150].map { .number($0) }))
    #expect(rects[0]["containsStart"] == .bool(true))
    #expect(rects[1]["containsEnd"] == .bool(true))

    #expect(answers[1]["matches"] == .array([]))
    #expect(answers[2]["matches"]?.arrayValue?.count == 1)
    #expect(answers[3]["matches"]?.arrayValue?.first?["text"] == .string("e-\nmail"))
    // "cafe" never matches inside the decomposed "é" (a grapheme cluster).
    #expect(answers[4]["matches"] == .array([]))
    #expect(answers[5]["matches"]?.arrayValue?.first?["text"] == .string("cafe\u{301}"))
    #expect(answers[6]["matches"] == .array([]))
    #expect(answers[7]["matches"]?.arrayValue?.first?["text"] == .string("of an e-\nmail"))
  }

  @Test func uncertainAnswersWordsAndTheRotor() throws {
    let page = builtPage
    let path = try model(page)
    let end = page.endPosition.offset
    let answers = try query(
      path,
      [
        #"{"op":"uncertain","below":60}"#,
        #"{"op":"uncertain","below":60,"position":0}"#,
        #"{"op":"uncertain","below":60,"position":45,"direction":"forward"}"#,
        "{\"op\":\"uncertain\",\"below\":60,\"position\":\(end),\"direction\":\"backward\"}",
        #"{"op":"uncertain","below":60,"position":39,"direction":"backward"}"#,
        #"{"op":"uncertain","below":30}"#,
      ])
    let words = try #require(answers[0]["words"]?.arrayValue)
    #expect(words.map { $0["text"]?.stringValue } == ["e-", "StraBe"])
    let straBe = try #require(page.words.first { $0.text == "StraBe" })
    #expect(words[1]["confidence"] == .number(31))
    #expect(offsets(words[1]["range"]) == straBe.range.offsets)
    #expect(words[1]["bbox"] == DocumentJSON.box(straBe.bbox))
    #expect(words[1]["quad"] == DocumentJSON.quad(straBe.corners))
    #expect(words[1]["line"] == .number(2))
    #expect(answers[1]["word"]?["text"] == .string("e-"))
    #expect(answers[2]["word"]?["text"] == .string("StraBe"))
    #expect(answers[3]["word"]?["text"] == .string("StraBe"))
    #expect(answers[4]["word"] == .null)
    #expect(answers[5]["words"] == .array([]))
  }

  @Test func badFindAndUncertainRequestsGetErrors() throws {
    let path = try model(builtPage)
    let requests = [
      #"{"op":"find"}"#,
      #"{"op":"find","query":7}"#,
      #"{"op":"find","query":"a","caseInsensitive":"yes"}"#,
      #"{"op":"find","query":"a","diacriticInsensitive":1}"#,
      #"{"op":"uncertain"}"#,
      #"{"op":"uncertain","below":"60"}"#,
      #"{"op":"uncertain","below":60,"position":100000}"#,
      #"{"op":"uncertain","below":60,"position":1.5}"#,
      #"{"op":"uncertain","below":60,"position":0,"direction":"up"}"#,
      #"{"op":"uncertain","below":60,"direction":"forward"}"#,
      #"{"op":"find","query":"a","page":3}"#,
    ]
    let answers = try query(path, requests)
    for (request, answer) in zip(requests, answers) {
      #expect(answer["error"]?.stringValue != nil, "\(request) gets an error")
    }
    #expect(answers[0]["error"] == .string("\"query\" must be a string"))
    #expect(answers[2]["error"] == .string("\"caseInsensitive\" must be true or false"))
    #expect(answers[6]["error"]?.stringValue?.contains("outside the page text") == true)
    #expect(answers[8]["error"] == .string("\"direction\" must be forward or backward"))
    // The session goes on after errors.
    let after = try query(path, [#"{"op":"fly"}"#, #"{"op":"find","query":"StraBe"}"#])
    #expect(after[0]["error"]?.stringValue?.contains("find, uncertain,") == true)
    #expect(after[1]["matches"]?.arrayValue?.count == 1)
  }

  @Test func aRecognisedSamplePage() throws {
    let page = try RecognizedScans.page("justified-hyphenated.png")
    // The library: "recog-" / "nition" is one word, spoken whole.
    let b = try #require(page.hyphenBreaks.first { page.text(in: $0.word) == "recog-\nnition" })
    #expect(b.kind == .wordBreak)
    #expect(
      page.rangeEnclosingPosition(b.continuation, with: .word, inDirection: .forward) == b.word)
    #expect(page.spokenText.contains("optical character recognition has learned"))
    #expect(page.text.contains("optical character recog-\nnition has learned"))
    let found = page.find("Recognition", options: .caseInsensitive)
    #expect(found.map(\.range) == [b.word])
    #expect(found.first?.rects.count == 2)
    // The protocol answers the same.
    let lowest = try #require(page.words.compactMap(\.confidence).min())
    let path = try model(page)
    let answers = try query(
      path,
      [
        #"{"op":"find","query":"recognition","caseInsensitive":true}"#,
        "{\"op\":\"uncertain\",\"below\":\(lowest + 0.01)}",
        "{\"op\":\"uncertain\",\"below\":\(lowest + 0.01),\"position\":0}",
      ])
    let match = try #require(answers[0]["matches"]?.arrayValue?.first)
    #expect(offsets(match["range"]) == b.word.offsets)
    #expect(match["rects"]?.arrayValue?.count == 2)
    let uncertain = page.words(withConfidenceBelow: lowest + 0.01)
    #expect(!uncertain.isEmpty)
    #expect(
      answers[1]["words"]?.arrayValue?.map { $0["text"]?.stringValue } == uncertain.map(\.text))
    #expect(answers[2]["word"]?["text"] == .string(uncertain[0].text))
  }

  @Test func realFrakturGroundTruth() throws {
    guard let folder = RealScans.folder else {
      print(RealScans.absentMessage)
      return
    }
    // Kant's "Aufklärung" (OCR-D ground truth): the hyphen is a word of its
    // own ("Men" "-" / "ſchen"), "ü" is written "uͤ" (u + U+0364).
    let truth = folder.appendingPathComponent("ocrd/kant-0017.page.xml").path
    let answers = try query(
      truth,
      [
        #"{"op":"find","query":"menschen","caseInsensitive":true}"#,
        #"{"op":"find","query":"Unmündigkeit","caseInsensitive":true,"diacriticInsensitive":true}"#,
        #"{"op":"find","query":"Unmündigkeit"}"#,
      ])
    let menschen = try #require(answers[0]["matches"]?.arrayValue)
    #expect(menschen.map { $0["text"]?.stringValue } == ["Men -\nſchen", "Menſchen"])
    #expect(menschen.first?["rects"]?.arrayValue?.count == 2)
    let unmuendigkeit = try #require(answers[1]["matches"]?.arrayValue)
    #expect(
      unmuendigkeit.map { $0["text"]?.stringValue } == [
        "Unmuͤn -\ndigkeit", "Unmuͤndigkeit", "Unmuͤn -\ndigkeit",
      ])
    #expect(answers[2]["matches"] == .array([]))
  }
}
