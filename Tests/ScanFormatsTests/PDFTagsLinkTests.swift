import Testing

@testable import ScanFormats

/// Link annotations in the structure tree (issue 46 point 3): each becomes
/// a `Link` element after its page's elements, holding an object reference
/// to the annotation, with a parent tree key after the pages'.
@Suite("PDF tags of links")
struct PDFTagsLinkTests {
  @Test func eachLinkIsALinkElementWithItsOwnParentTreeKey() {
    var first = PDFTags.PagePart(PDFTags.PagePlan())
    first.links = ["50 0 R"]
    var second = PDFTags.PagePart(PDFTags.PagePlan())
    second.links = ["51 0 R", "52 0 R"]
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
}
