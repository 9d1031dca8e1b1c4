import ScanModel
import Testing

@testable import ScanFormats

/// A born-digital page's own content marked for its structure tree
/// (issue 46 point 3): text tied to the words it shows, everything else an
/// artifact, every byte of the content kept.
@Suite("PDF content marking")
struct PDFContentMarkingTests {
  /// The marks of a page with a heading (MCID 0 in the plan) above y 700
  /// and a paragraph (MCID 1) below, in user space.
  static func mark(_ point: Point) -> PDFTags.Mark {
    point.y > 700 ? .content(type: "H1", mcid: 0) : .content(type: "P", mcid: 1)
  }

  static func marked(_ content: String, textForms: Set<String> = [])
    -> (text: String, owners: [Int])?
  {
    guard
      let result = PDFContentMarking.marked(
        PDFContentStream(Array(content.utf8)), textForms: textForms, mark: mark)
    else { return nil }
    return (String(decoding: result.bytes, as: UTF8.self), result.owners)
  }

  /// Each line of text is its own sequence of its element (found through
  /// `cm` and the text matrices); a path and an image are artifacts; the
  /// operators between are kept as they were.
  @Test func textIsTaggedAndTheRestIsAnArtifact() throws {
    let content = """
      q 1 0 0 1 0 400 cm
      BT /F1 16 Tf 36 340 Td (Title) Tj /F1 11 Tf 14 TL 0 -60 Td (First line) Tj T* (second) Tj ET
      Q
      0 0 m 100 0 l S
      q 10 0 0 10 0 0 cm /Im0 Do Q
      """
    let (text, owners) = try #require(Self.marked(content))
    let expected = """
      q 1 0 0 1 0 400 cm
      BT /F1 16 Tf 36 340 Td
      /H1 << /MCID 0 >> BDC
      (Title) Tj /F1 11 Tf 14 TL 0 -60 Td
      EMC
      /P << /MCID 1 >> BDC
      (First line) Tj T*
      EMC
      /P << /MCID 2 >> BDC
      (second) Tj
      EMC
      ET
      Q
      /Artifact BMC
      0 0 m 100 0 l S
      EMC
      q 10 0 0 10 0 0 cm
      /Artifact BMC
      /Im0 Do
      EMC
      Q
      """
    #expect(
      text.split(whereSeparator: \.isWhitespace) == expected.split(whereSeparator: \.isWhitespace))
    // Every byte of the content is kept, in order: only lines of marked-
    // content operators are added.
    let added = ["BDC", "BMC", "EMC"]
    let kept = text.split(separator: "\n").filter { line in
      !added.contains { line.hasSuffix($0) }
    }.joined(separator: "\n")
    #expect(
      kept.filter { !$0.isWhitespace } == content.filter { !$0.isWhitespace })
    // MCIDs 0, 1, 2 belong to the plan's heading and paragraph.
    #expect(owners == [0, 1, 1])
  }

  /// Content already in an artifact of the page's own is left as it is;
  /// the page's own marked content closes a sequence that is open.
  @Test func ownArtifactsAreKept() throws {
    let content = "/Artifact BMC BT 1 0 0 1 36 30 Tm (page 2) Tj ET 0 0 m 1 1 l S EMC"
    let (text, owners) = try #require(Self.marked(content))
    #expect(text == content)
    #expect(owners.isEmpty)
  }

  /// A page that draws a form showing text cannot be marked without
  /// rewriting the form: not marked at all.
  @Test func aFormThatShowsTextIsRefused() {
    #expect(Self.marked("q /Fm0 Do Q", textForms: ["Fm0"]) == nil)
    #expect(Self.marked("q /Fm1 Do Q", textForms: ["Fm0"]) != nil)
  }

  /// The plan's elements take the MCIDs written for them, in content
  /// order; an element none was written for (a broken word's hyphen,
  /// shown in the word's own string) is left out.
  @Test func planTakesTheWrittenMCIDs() {
    var plan = PDFTags.PagePlan()
    var heading = PDFTags.Element("H1")
    heading.kids = [.content(mcid: 0)]
    var paragraph = PDFTags.Element("P")
    paragraph.kids = [.content(mcid: 1), .element(PDFTags.Element("Span")), .content(mcid: 3)]
    if case .element(var span) = paragraph.kids[1] {
      span.kids = [.content(mcid: 2)]
      paragraph.kids[1] = .element(span)
    }
    plan.elements = [heading, paragraph]
    plan.mcidCount = 4
    let remapped = plan.remapped(owners: [0, 1, 3, 1])
    #expect(remapped.mcidCount == 4)
    #expect(remapped.elements.map(\.type) == ["H1", "P"])
    let kids = remapped.elements[1].kids.map { kid -> String in
      switch kid {
      case .content(let mcid): "\(mcid)"
      case .element(let element): element.type
      }
    }
    #expect(kids == ["1", "3", "2"])
  }

  /// The grid search finds the box a search of every box finds (the
  /// first of those equally near), inside, between and far outside the
  /// boxes.
  @Test func nearestBoxIsTheNearest() {
    var seed: UInt64 = 46
    func next(_ bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for count in [1, 7, 300] {
      let boxes = (0..<count).map { _ in
        let (x, y) = (next(2500), next(3300))
        return PixelRect(minX: x, minY: y, maxX: x + 1 + next(200), maxY: y + 1 + next(40))
      }
      let search = NearestBox(boxes)
      for _ in 0..<500 {
        let p = Point(x: Double(next(4000) - 500), y: Double(next(5000) - 500))
        var best = 0
        var bestDistance = Double.infinity
        for (k, box) in boxes.enumerated() {
          let dx = max(Double(box.minX) - p.x, 0, p.x - Double(box.maxX))
          let dy = max(Double(box.minY) - p.y, 0, p.y - Double(box.maxY))
          if dx * dx + dy * dy < bestDistance { (best, bestDistance) = (k, dx * dx + dy * dy) }
        }
        #expect(search.nearest(to: p) == best, "\(count) boxes, \(p)")
      }
    }
    #expect(NearestBox([]).nearest(to: Point(x: 0, y: 0)) == nil)
  }
}
