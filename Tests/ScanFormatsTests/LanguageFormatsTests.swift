import Foundation
import ScanFormats
import ScanModel
import Testing

/// Each format names a page's languages from its ``LanguageCode``s, as it
/// did when each split the stored `deu+eng` itself.
@Suite("Languages in the formats")
struct LanguageFormatsTests {
  static let generator = Generator(name: "scantext", version: "test")

  /// A page of one word (ALTO and PAGE name the language on its blocks).
  func page(_ language: String) -> Page {
    let box = PixelRect(minX: 10, minY: 10, maxX: 60, maxY: 30)
    let line = TextLine(
      bbox: box, baseline: Baseline(start: Point(x: 10, y: 28), end: Point(x: 60, y: 28)),
      words: [Word(text: "Wort", bbox: box, confidence: 90)])
    return Page(
      image: "p.png", width: 100, height: 50, language: language,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
  }

  func encode(_ page: Page, _ format: DocumentFormat) throws -> String {
    try format.encode(Document(pages: [page]), generator: Self.generator)
  }

  @Test func theFirstLanguageNamesThePageInALTOAndPAGE() throws {
    let page = page("deu+eng")
    #expect(try encode(page, .alto).contains("LANG=\"deu\""))
    #expect(try encode(page, .page).contains("primaryLanguage=\"German\""))
    #expect(try encode(page, .hocr).contains("lang=\"deu+eng\""))
    #expect(try encode(page, .json).contains("\"language\": \"deu+eng\""))
    // Read back, PAGE's English name is the code again.
    let back = try DocumentFormat.page.decode(Data(try encode(page, .page).utf8))
    #expect(back.pages.first?.languages == ["deu"])
  }

  @Test func aCodeAFormatCannotNameIsLeftOut() throws {
    let page = page("chi_sim+eng")
    #expect(!(try encode(page, .alto).contains("LANG=")))
    #expect(!(try encode(page, .page).contains("primaryLanguage")))
  }
}
