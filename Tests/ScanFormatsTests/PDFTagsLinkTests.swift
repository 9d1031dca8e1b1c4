import ScanModel
import Testing

@testable import ScanFormats

/// Link and widget annotations in the structure tree (issue 46 point 3):
/// each becomes a `Link` or `Form` element, inside the element whose words
/// it covers, else after its page's elements, holding an object reference
/// to the annotation, with a parent tree key after the pages'.
@Suite("PDF tags of links")
struct PDFTagsLinkTests {
  @Test func eachLinkIsALinkElementWithItsOwnParentTreeKey() {
    var first = PDFTags.PagePart(PDFTags.PagePlan())
    first.annotations = [PDFTags.Annotation("50 0 R", type: "Link")]
    var second = PDFTags.PagePart(PDFTags.PagePlan())
    second.annotations = ["51 0 R", "52 0 R"].map { PDFTags.Annotation($0, type: "Link") }
    var next = 100
    let written = PDFTags.objects(
      pages: [first, second], pageReferences: ["10 0 R", "11 0 R"], count: 2
    ) { count in
      defer { next += count }
      return (next..<next + count).map { "\($0) 0 R" }
    }
    let text = Dictionary(uniqueKeysWithValues: written.objects.map { ($0.0, $0.1.text) })
    // Root, document, parent tree, then the three links in page order.
    #expect(
      text["103 0 R"]
        == "<< /S /Link /P 101 0 R /Pg 10 0 R /K << /Type /OBJR /Obj 50 0 R /Pg 10 0 R >> >>")
    #expect(
      text["105 0 R"]
        == "<< /S /Link /P 101 0 R /Pg 11 0 R /K << /Type /OBJR /Obj 52 0 R /Pg 11 0 R >> >>")
    #expect(
      text["101 0 R"] == "<< /S /Document /P 100 0 R /K [103 0 R 104 0 R 105 0 R] >>")
    #expect(text["102 0 R"] == "<< /Nums [0 [] 1 [] 2 103 0 R 3 104 0 R 4 105 0 R] >>")
    #expect(text["100 0 R"]?.hasSuffix("/ParentTreeNextKey 5 >>") == true)
  }

  /// A link over a paragraph's words goes inside that paragraph, after its
  /// content; a widget beside the text, over no word, after the page's
  /// elements; their keys follow the page's in the order given.
  @Test func anAnnotationGoesInsideTheParagraphWhoseWordsItCovers() {
    func paragraph(_ text: String, y: Int) -> Paragraph {
      let box = PixelRect(minX: 100, minY: y, maxX: 100 + 10 * text.count, maxY: y + 20)
      let line = TextLine(bbox: box, words: [Word(text: text, bbox: box, confidence: 90)])
      return Paragraph(bbox: box, lines: [line])
    }
    let paragraphs = [paragraph("First", y: 100), paragraph("Second", y: 160)]
    let page = Page(
      width: 1000, height: 1000,
      blocks: [
        Block(bbox: PixelRect(minX: 100, minY: 100, maxX: 160, maxY: 180), paragraphs: paragraphs)
      ])
    var tags = PDFTags()
    var part = PDFTags.PagePart(tags.plan(page))
    // Pixels onto points, y up.
    part.pixelToUser = AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 1000)
    part.annotations = [
      PDFTags.Annotation("50 0 R", type: "Form", rect: [600, 600, 700, 620]),
      PDFTags.Annotation("51 0 R", type: "Link", rect: [90, 815, 200, 845]),
    ]
    var next = 100
    let written = PDFTags.objects(pages: [part], pageReferences: ["10 0 R"], count: 1) { count in
      defer { next += count }
      return (next..<next + count).map { "\($0) 0 R" }
    }
    let text = Dictionary(uniqueKeysWithValues: written.objects.map { ($0.0, $0.1.text) })
    // Root, document, parent tree, the first P, the second P, its link,
    // then the widget's Form after the page's elements.
    #expect(text["104 0 R"] == "<< /S /P /P 101 0 R /Pg 10 0 R /K [1 105 0 R] >>")
    #expect(
      text["105 0 R"]
        == "<< /S /Link /P 104 0 R /Pg 10 0 R /K << /Type /OBJR /Obj 51 0 R /Pg 10 0 R >> >>")
    #expect(
      text["106 0 R"]
        == "<< /S /Form /P 101 0 R /Pg 10 0 R /K << /Type /OBJR /Obj 50 0 R /Pg 10 0 R >> >>")
    #expect(text["101 0 R"] == "<< /S /Document /P 100 0 R /K [103 0 R 104 0 R 106 0 R] >>")
    #expect(text["102 0 R"] == "<< /Nums [0 [103 0 R 104 0 R] 1 106 0 R 2 105 0 R] >>")
  }
}
