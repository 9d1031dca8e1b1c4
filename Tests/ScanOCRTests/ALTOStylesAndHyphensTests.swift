import Foundation
import ScanFormats
import ScanModel
import ScanTestSupport
import Testing

/// ALTO's `Styles`/`ParagraphStyle` and `HYP`: what a user finds in the
/// file, that it validates, and that reading gives the page back.
@Suite("ALTO paragraph styles and line-end hyphens")
struct ALTOStylesAndHyphensTests {
  /// A justified paragraph with an indented first line and three words
  /// hyphenated at line ends (a word break, a compound, a hyphen set
  /// apart), then two one-line paragraphs centred in the column.
  static let paragraphs = [
    [
      "   Each page is read, recog-",
      "nition finds words and it is",
      "all of it checked in that e-",
      "mail we sent to all the Men -",
      "ſchen are done.",
    ],
    ["           Notes"],
    ["           Index"],
  ]

  static func alto(_ page: Page) -> String {
    ALTO.encode(Document(pages: [page]), generator: Generator(name: "scantext", version: "test"))
  }

  @Test func paragraphStylesComeFromTheLayout() throws {
    let xml = Self.alto(TypesetPage.page(Self.paragraphs))
    let lines = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let styles = try #require(lines.firstIndex(of: "<Styles>"))
    #expect(
      lines[styles + 1]
        == #"<ParagraphStyle ID="pstyle_0" ALIGN="Block" LEFT="0" RIGHT="0" LINESPACE="30" FIRSTLINE="30"/>"#
    )
    #expect(
      lines[styles + 2] == #"<ParagraphStyle ID="pstyle_1" ALIGN="Center" LEFT="110" RIGHT="120"/>"#
    )
    #expect(lines[styles + 3] == "</Styles>")
    // Each TextBlock names its style; the two centred notes share one.
    let refs = xml.split(separator: "\n").filter { $0.contains("<TextBlock ") }.map {
      $0.contains(#"STYLEREFS="pstyle_0""#) ? 0 : $0.contains(#"STYLEREFS="pstyle_1""#) ? 1 : -1
    }
    #expect(refs == [0, 1, 1])
    #expect(!xml.contains("pstyle_2"))
  }

  @Test(arguments: [false, true])
  func lineEndHyphensAreHYP(glyphs: Bool) throws {
    let page = TypesetPage.page(Self.paragraphs, glyphs: glyphs)
    let xml = Self.alto(page)
    let lines = xml.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    func string(_ content: String) -> String? {
      lines.first { $0.hasPrefix("<String ") && $0.contains(#"CONTENT="\#(content)""#) }
    }
    let hyps = lines.filter { $0.hasPrefix("<HYP ") }
    // recog- / nition: the hyphen leaves the String for a HYP; both parts
    // carry the whole word.
    let recog = try #require(string("recog"))
    #expect(recog.contains(#"HPOS="320" VPOS="100" WIDTH="50" HEIGHT="20""#), "\(recog)")
    #expect(recog.contains(#"SUBS_TYPE="HypPart1" SUBS_CONTENT="recognition""#))
    // Glyph confidences (95 here) also as ALTO's CC digits, one per
    // character of the CONTENT: 0 sure … 9 unsure.
    #expect(recog.contains(#"CC="1 1 1 1 1""#) == glyphs, "\(recog)")
    #expect(hyps.contains(#"<HYP CONTENT="-" HPOS="370" VPOS="100" WIDTH="10" HEIGHT="20"/>"#))
    let nition = try #require(string("nition"))
    #expect(nition.contains(#"SUBS_TYPE="HypPart2" SUBS_CONTENT="recognition""#))
    // e- / mail: the hyphen belongs to the word.
    #expect(try #require(string("e")).contains(#"SUBS_CONTENT="e-mail""#))
    #expect(try #require(string("mail")).contains(#"SUBS_TYPE="HypPart2" SUBS_CONTENT="e-mail""#))
    // Men - / ſchen: a hyphen set apart is a HYP after the space.
    #expect(try #require(string("Men")).contains(#"SUBS_TYPE="HypPart1" SUBS_CONTENT="Menſchen""#))
    #expect(hyps.contains(#"<HYP CONTENT="-" HPOS="370" VPOS="190" WIDTH="10" HEIGHT="20"/>"#))
    #expect(string("-") == nil && string("recog-") == nil && string("e-") == nil)
    // No other String has a hyphen split off.
    #expect(hyps.count == 3, "\(hyps)")
    #expect(lines.filter { $0.contains("SUBS_TYPE") }.count == 6)

    // Reading gives the page back: text, ranges, boxes and glyphs.
    let back = try #require(try ALTO.decode(Data(xml.utf8)).pages.first)
    #expect(back.text == page.text)
    #expect(back.words.map(\.text) == page.words.map(\.text))
    #expect(back.words.map(\.range) == page.words.map(\.range))
    #expect(back.words.map(\.bbox) == page.words.map(\.bbox))
    #expect(back.words.map(\.confidence) == page.words.map { $0.text == "-" ? nil : $0.confidence })
    #expect(back.hyphenBreaks == page.hyphenBreaks)
    if glyphs {
      #expect(back.words.map { $0.glyphs.map(\.text).joined() } == page.words.map(\.text))
      #expect(back.words.map { $0.glyphs.map(\.bbox) } == page.words.map { $0.glyphs.map(\.bbox) })
    }
  }

  @Test func stylesAndHyphensValidateAgainstTheSchema() throws {
    guard ExternalCheckers.xmllint != nil, ExternalCheckers.schemas != nil else {
      print(ExternalCheckers.schemaAbsentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var files: [URL] = []
    for glyphs in [false, true] {
      let file = folder.appendingPathComponent("typeset-\(glyphs).alto.xml")
      try Data(Self.alto(TypesetPage.page(Self.paragraphs, glyphs: glyphs)).utf8).write(to: file)
      files.append(file)
    }
    #expect(try ExternalCheckers.validate(files, schema: "alto-4-4.xsd") == "")
  }
}
