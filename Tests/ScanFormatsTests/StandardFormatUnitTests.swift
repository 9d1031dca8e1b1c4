import Foundation
import ScanFormats
import ScanModel
import Testing

/// A page whose text needs escaping in every format.
enum AwkwardPage {
  static var page: Page {
    let words = ["<a&b>", "\"quoted\"", "it's", "naïve", "😀", "x\u{1}y"].enumerated().map { i, t in
      Word(
        text: t, bbox: PixelRect(minX: 10 + 60 * i, minY: 20, maxX: 60 + 60 * i, maxY: 40),
        confidence: 90 + Double(i))
    }
    let line = TextLine(
      bbox: PixelRect(minX: 10, minY: 20, maxX: 400, maxY: 40),
      baseline: Baseline(start: Point(x: 10, y: 36), end: Point(x: 400, y: 36)), words: words)
    return Page(
      image: "a \"b\";c.png", width: 500, height: 100, dpi: 300, language: "eng",
      blocks: [
        Block(
          bbox: line.bbox, paragraphs: [Paragraph(bbox: line.bbox, lines: [line])])
      ])
  }
}

@Suite("Standard formats: writing and reading")
struct StandardFormatUnitTests {
  static let generator = Generator(name: "scantext", version: "test")
  static let formats: [DocumentFormat] = [.hocr, .alto, .page, .tsv]

  func encode(_ page: Page, _ format: DocumentFormat) throws -> String {
    try format.encode(Document(pages: [page]), generator: Self.generator)
  }

  @Test(arguments: formats)
  func textThatNeedsEscapingRoundTrips(_ format: DocumentFormat) throws {
    let page = AwkwardPage.page
    let text = try encode(page, format)
    let back = try #require(try format.decode(Data(text.utf8)).pages.first)
    // XML 1.0 cannot hold U+0001: it becomes U+FFFD; TSV keeps it.
    let expected =
      format == .tsv ? page.text : page.text.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
    #expect(back.text == expected)
    #expect(back.words.map(\.bbox) == page.words.map(\.bbox))
    if format != .tsv {
      #expect(!text.contains("<a&b>"))
      #expect(text.contains("&lt;a&amp;b&gt;"))
    }
  }

  @Test func hocrLooksLikeTesseracts() throws {
    let text = try encode(AwkwardPage.page, .hocr)
    #expect(text.contains("<meta name=\"ocr-system\" content=\"scantext test\"/>"))
    #expect(
      text.contains(
        "<div class=\"ocr_page\" id=\"page_1\" lang=\"eng\" title=\"image &quot;a _b__c.png&quot;; bbox 0 0 500 100; ppageno 0; scan_res 300 300\">"
      ))
    #expect(text.contains("title=\"bbox 10 20 400 40; baseline 0 -4; x_size 20\""))
    #expect(
      text.contains(
        "<span class=\"ocrx_word\" id=\"word_1_3\" title=\"bbox 130 20 180 40; x_wconf 92\">it&#39;s</span>"
      ))
  }

  @Test func altoAndPageCarryConfidencesAndBaselines() throws {
    let alto = try encode(AwkwardPage.page, .alto)
    #expect(alto.contains("BASELINE=\"10,36 400,36\""))
    #expect(alto.contains("CONTENT=\"it&#39;s\" WC=\"0.92\""))
    #expect(alto.contains("<SP WIDTH=\"10\" HPOS=\"60\"/>"))
    let page = try encode(AwkwardPage.page, .page)
    #expect(page.contains("<Baseline points=\"10,36 400,36\"/>"))
    #expect(page.contains("<TextEquiv conf=\"0.92\">"))
    #expect(page.contains("<Coords points=\"10,20 400,20 400,40 10,40\"/>"))
  }

  @Test func tsvIsTesseractsLayout() throws {
    let text = try encode(AwkwardPage.page, .tsv)
    let rows = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows[0] == Substring(TSV.header))
    #expect(rows[1] == "1\t1\t0\t0\t0\t0\t0\t0\t500\t100\t-1\t")
    #expect(rows[2] == "2\t1\t1\t0\t0\t0\t10\t20\t390\t20\t-1\t")
    #expect(rows[3] == "3\t1\t1\t1\t0\t0\t10\t20\t390\t20\t-1\t")
    #expect(rows[4] == "4\t1\t1\t1\t1\t0\t10\t20\t390\t20\t-1\t")
    #expect(rows[5] == "5\t1\t1\t1\t1\t1\t10\t20\t50\t20\t90.000000\t<a&b>")
    #expect(text.hasSuffix("\n"))
  }

  @Test func formatsFromNamesAndContent() {
    #expect(DocumentFormat(fileName: "x.alto.xml") == .alto)
    #expect(DocumentFormat(fileName: "X.PAGE.XML") == .page)
    #expect(DocumentFormat(fileName: "x.hocr") == .hocr)
    #expect(DocumentFormat(fileName: "x.tsv") == .tsv)
    #expect(DocumentFormat(fileName: "x.txt") == .text)
    #expect(DocumentFormat(fileName: "x.xml") == nil)
    #expect(DocumentFormat(fileName: "x.png") == nil)
    #expect(DocumentFormat.isDocument(fileName: "x.xml"))
    #expect(!DocumentFormat.isDocument(fileName: "x.txt"))
    #expect(
      DocumentFormat.detect(
        data: Data("<?xml version=\"1.0\"?>\n<!-- c -->\n<alto xmlns=\"x\">".utf8)) == .alto)
    #expect(DocumentFormat.detect(data: Data("<pc:PcGts xmlns:pc=\"x\">".utf8)) == .page)
    #expect(DocumentFormat.detect(data: Data("<!DOCTYPE html>\n<html>".utf8)) == .hocr)
    #expect(DocumentFormat.detect(data: Data(" {\"version\": 1}".utf8)) == .json)
    #expect(DocumentFormat.detect(data: Data("hello".utf8)) == nil)
  }

  @Test(arguments: [DocumentFormat.page, .alto, .hocr])
  func rolesAndHeadingLevelsRoundTrip(_ format: DocumentFormat) throws {
    let page = Self.pageWithEveryRole()
    let back = try #require(try format.decode(Data(try encode(page, format).utf8)).pages.first)
    let decoded = back.blocks.flatMap { $0.paragraphs.map { ($0.role, $0.headingLevel) } }
    #expect(decoded.map(\.0) == Self.everyRole.map(\.0), "\(format)")
    #expect(decoded.map(\.1) == Self.everyRole.map(\.1), "\(format)")
  }

  @Test func altoTagsEachTextBlockWithItsRole() throws {
    let xml = try encode(Self.pageWithEveryRole(), .alto)
    #expect(
      xml.contains(
        #"<StructureTag ID="role_heading_2" TYPE="role" LABEL="heading" DESCRIPTION="heading, level 2"/>"#
      ))
    #expect(xml.contains(#"TAGREFS="role_pageNumber""#))
    // Tags of other kinds, and labels that name no role, leave paragraphs as running text.
    let foreign = xml.replacingOccurrences(of: #"LABEL="caption""#, with: #"LABEL="person""#)
    let back = try #require(try DocumentFormat.alto.decode(Data(foreign.utf8)).pages.first)
    #expect(back.blocks[2].paragraphs[0].role == .body)
  }

  @Test func hocrLineClassesAndParagraphsSayTheRole() throws {
    let html = try encode(Self.pageWithEveryRole(), .hocr)
    let lines = html.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let pars = lines.filter { $0.hasPrefix("<p class=\"ocr_par\"") }
    #expect(pars[0].contains(#"title="bbox 10 10 90 40; x_role heading 2""#), "\(pars[0])")
    #expect(pars[5].contains(#"title="bbox 10 210 90 240; x_role pageNumber""#), "\(pars[5])")
    let lineClasses = lines.filter { $0.hasPrefix("<span class=\"ocr_") && !$0.contains("ocrx") }
      .map { $0.dropFirst(#"<span class=""#.count).prefix { $0 != "\"" } }
    #expect(
      lineClasses == [
        "ocr_header", "ocr_line", "ocr_caption", "ocr_line", "ocr_line", "ocr_line", "ocr_line",
        "ocr_line", "ocr_textfloat", "ocr_line",
      ])
    #expect(html.contains("ocr_line ocr_header ocr_caption ocr_textfloat ocrx_word"))
  }

  @Test func hocrFromOtherEnginesGetsRolesFromClasses() throws {
    // Tesseract's hOCR: a heading block's lines are ocr_header; the hOCR
    // specification's ocr_footer and ocr_pageno hold lines.
    let html = """
      <html><body><div class="ocr_page" title="bbox 0 0 500 500">
      <div class="ocr_carea" title="bbox 10 10 400 40"><p class="ocr_par" title="bbox 10 10 400 40">
      <span class="ocr_header" title="bbox 10 10 400 40"><span class="ocrx_word" title="bbox 10 10 400 40">Title</span></span>
      </p></div>
      <div class="ocr_carea" title="bbox 10 60 400 90"><p class="ocr_par" title="bbox 10 60 400 90">
      <span class="ocr_line" title="bbox 10 60 400 90"><span class="ocrx_word" title="bbox 10 60 400 90">Text</span></span>
      </p></div>
      <div class="ocr_footer" title="bbox 10 400 400 430"><span class="ocr_line" title="bbox 10 400 400 430">Foot</span></div>
      <div class="ocr_pageno" title="bbox 200 450 220 470"><span class="ocr_line" title="bbox 200 450 220 470">7</span></div>
      <div class="ocr_carea" title="bbox 10 100 400 130"><p class="ocr_par" title="bbox 10 100 400 130; x_role listItem">
      <span class="ocr_line" title="bbox 10 100 400 130">- item</span></p></div>
      </div></body></html>
      """
    let page = try #require(try HOCR.decode(Data(html.utf8)).pages.first)
    let roles = page.blocks.flatMap { $0.paragraphs.map(\.role) }
    #expect(roles == [.heading, .body, .footer, .pageNumber, .listItem])
    #expect(page.blocks[0].paragraphs[0].headingLevel == 1)
    #expect(
      failure(.hocr, html.replacingOccurrences(of: "x_role listItem", with: "x_role aside"))
        .contains("'x_role' must be one of heading, body, caption"))
  }

  /// PAGE as its 2013-07-15 schema has it: a reading order without
  /// groups, a region without words, a heading region.
  static let page2013 = """
    <?xml version="1.0" encoding="UTF-8"?>
    <PcGts xmlns="http://schema.primaresearch.org/PAGE/gts/pagecontent/2013-07-15">
     <Metadata><Creator>x</Creator><Created>2014-01-01T00:00:00</Created><LastChange>2014-01-01T00:00:00</LastChange></Metadata>
     <Page imageFilename="images/scan.tif" imageWidth="600" imageHeight="400">
      <ReadingOrder><OrderedGroup id="ro1">
       <RegionRefIndexed index="1" regionRef="r1"/><RegionRefIndexed index="0" regionRef="r2"/>
      </OrderedGroup></ReadingOrder>
      <TextRegion id="r1" type="paragraph"><Coords points="10,100 500,100 500,140 10,140"/>
       <TextLine id="l2"><Coords points="10,100 200,100 200,140 10,140"/><Baseline points="10,135 200,135"/>
        <Word id="w3"><Coords points="10,100 100,100 100,140 10,140"/><TextEquiv conf="0.9"><Unicode>Body</Unicode></TextEquiv></Word>
        <Word id="w4"><Coords points="120,100 200,100 200,140 120,140"/><TextEquiv><Unicode>text</Unicode></TextEquiv></Word>
        <TextEquiv><Unicode>Body text</Unicode></TextEquiv>
       </TextLine>
      </TextRegion>
      <TextRegion id="r2" type="heading"><Coords points="10,10 300,10 300,50 10,50"/>
       <TextLine id="l1"><Coords points="10,10 300,10 300,50 10,50"/><TextEquiv><Unicode>Title</Unicode></TextEquiv></TextLine>
      </TextRegion>
     </Page>
    </PcGts>
    """

  @Test func pageXML2013Imports() throws {
    let page = try #require(try PAGEXML.decode(Data(Self.page2013.utf8)).pages.first)
    #expect(page.text == "Title\n\nBody text\n")
    #expect(page.image == "scan.tif")
    #expect(page.blocks.flatMap { $0.paragraphs.map(\.role) } == [.heading, .body])
    #expect(
      page.words.map(\.bbox) == [
        PixelRect(minX: 10, minY: 10, maxX: 300, maxY: 50),
        PixelRect(minX: 10, minY: 100, maxX: 100, maxY: 140),
        PixelRect(minX: 120, minY: 100, maxX: 200, maxY: 140),
      ])
    #expect(page.words.map(\.confidence) == [nil, 90, nil])
    #expect(
      page.lines.last?.baseline == Baseline(start: Point(x: 10, y: 135), end: Point(x: 200, y: 135))
    )
  }

  /// ALTO as versions 2 and 3 write it: a one-number BASELINE, styles,
  /// a hyphen at a line end, pixel units.
  static func oldALTO(namespace: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <alto xmlns="\(namespace)">
     <Description><MeasurementUnit>pixel</MeasurementUnit>
      <sourceImageInformation><fileName>/scans/old.tif</fileName></sourceImageInformation></Description>
     <Styles><TextStyle ID="f1" FONTSIZE="10"/><ParagraphStyle ID="p1" ALIGN="Block"/></Styles>
     <Layout><Page ID="P1" WIDTH="600" HEIGHT="400" PHYSICAL_IMG_NR="1">
      <PrintSpace HPOS="0" VPOS="0" WIDTH="600" HEIGHT="400">
       <TextBlock ID="b1" HPOS="10" VPOS="10" WIDTH="300" HEIGHT="70" STYLEREFS="p1 f1">
        <TextLine ID="l1" HPOS="10" VPOS="10" WIDTH="300" HEIGHT="30" BASELINE="35">
         <String ID="s1" HPOS="10" VPOS="10" WIDTH="100" HEIGHT="30" CONTENT="Old" WC="0.8"/>
         <SP HPOS="110" VPOS="10" WIDTH="20"/>
         <String ID="s2" HPOS="130" VPOS="10" WIDTH="170" HEIGHT="30" CONTENT="recog" SUBS_TYPE="HypPart1" SUBS_CONTENT="recognition"/>
         <HYP HPOS="300" VPOS="10" WIDTH="10" HEIGHT="30" CONTENT="-"/>
        </TextLine>
        <TextLine ID="l2" HPOS="10" VPOS="50" WIDTH="120" HEIGHT="30" BASELINE="75">
         <String ID="s3" HPOS="10" VPOS="50" WIDTH="120" HEIGHT="30" CONTENT="nition" SUBS_TYPE="HypPart2" SUBS_CONTENT="recognition"/>
        </TextLine>
       </TextBlock>
      </PrintSpace>
     </Page></Layout>
    </alto>
    """
  }

  @Test(arguments: [
    "http://www.loc.gov/standards/alto/ns-v2#", "http://www.loc.gov/standards/alto/ns-v3#",
    "http://www.loc.gov/standards/alto/ns-v4#",
  ])
  func altoVersions2To4Import(_ namespace: String) throws {
    let page = try #require(
      try ALTO.decode(Data(Self.oldALTO(namespace: namespace).utf8)).pages.first)
    #expect(page.text == "Old recog-\nnition\n")
    #expect(page.image == "old.tif")
    #expect(
      page.words.map(\.bbox) == [
        PixelRect(minX: 10, minY: 10, maxX: 110, maxY: 40),
        PixelRect(minX: 130, minY: 10, maxX: 310, maxY: 40),
        PixelRect(minX: 10, minY: 50, maxX: 130, maxY: 80),
      ])
    #expect(page.words.first?.confidence == 80)
    #expect(
      page.lines.first?.baseline == Baseline(start: Point(x: 10, y: 35), end: Point(x: 310, y: 35)))
    #expect(page.spokenText == "Old recognition\n")
  }

  static let everyRole: [(ParagraphRole, Int?)] = [
    (.heading, 2), (.body, nil), (.caption, nil), (.header, nil), (.footer, nil),
    (.pageNumber, nil), (.footnote, nil), (.listItem, nil), (.marginalia, nil),
    (.tableCell, nil),
  ]

  static func pageWithEveryRole() -> Page {
    let blocks = everyRole.enumerated().map { i, role in
      let y = 10 + i * 40
      let box = PixelRect(minX: 10, minY: y, maxX: 90, maxY: y + 30)
      return Block(
        bbox: box,
        paragraphs: [
          Paragraph(
            bbox: box, lines: [TextLine(bbox: box, words: [Word(text: "w\(i)", bbox: box)])],
            role: role.0, headingLevel: role.1)
        ])
    }
    return Page(width: 100, height: 420, blocks: blocks)
  }

  @Test func pageXMLCarriesRolesAndHeadingLevels() throws {
    let roles: [(ParagraphRole, Int?)] = [
      (.heading, 2), (.body, nil), (.caption, nil), (.header, nil), (.footer, nil),
      (.pageNumber, nil), (.footnote, nil), (.listItem, nil), (.marginalia, nil),
      (.tableCell, nil),
    ]
    let blocks = roles.enumerated().map { i, role in
      let y = 10 + i * 40
      let box = PixelRect(minX: 10, minY: y, maxX: 90, maxY: y + 30)
      let word = Word(text: "w\(i)", bbox: box)
      return Block(
        bbox: box,
        paragraphs: [
          Paragraph(
            bbox: box, lines: [TextLine(bbox: box, words: [word])], role: role.0,
            headingLevel: role.1)
        ])
    }
    let page = Page(width: 100, height: 420, blocks: blocks)
    let xml = try encode(page, .page)
    #expect(xml.contains(#"type="heading""#) && xml.contains("structure {type:heading; level:2;}"))
    #expect(xml.contains(#"type="page-number""#) && xml.contains("structure {type:list-item;}"))
    let back = try #require(try DocumentFormat.page.decode(Data(xml.utf8)).pages.first)
    let decoded = back.blocks.flatMap { $0.paragraphs.map { ($0.role, $0.headingLevel) } }
    #expect(decoded.map(\.0) == roles.map(\.0))
    #expect(decoded.map(\.1) == roles.map(\.1))
  }

  @Test func pageXMLHoldsOnePage() throws {
    let two = Document(pages: [AwkwardPage.page, AwkwardPage.page.withIndex(1)])
    let error = #expect(throws: DocumentFormatError.self) {
      try DocumentFormat.page.encode(two, generator: Self.generator)
    }
    #expect(error?.reason.contains("PAGE XML holds one page and the document has 2") == true)
  }

  @Test func turnedPagesKeepOrientationSkewAndQuads() throws {
    // A word turned by 90°: its quad starts at the box's top-right corner.
    let quad = Quad(
      topLeft: Point(x: 40, y: 10), topRight: Point(x: 40, y: 60),
      bottomRight: Point(x: 20, y: 60), bottomLeft: Point(x: 20, y: 10))
    let box = PixelRect(minX: 20, minY: 10, maxX: 40, maxY: 60)
    let word = Word(text: "up", bbox: box, quad: quad, confidence: 80)
    let line = TextLine(bbox: box, quad: quad, words: [word])
    let page = Page(
      width: 100, height: 100, orientation: 90, skew: -1.25,
      blocks: [Block(bbox: box, paragraphs: [Paragraph(bbox: box, lines: [line])])])
    for format in [DocumentFormat.hocr, .alto, .page] {
      let back = try #require(try format.decode(Data(encode(page, format).utf8)).pages.first)
      #expect(back.orientation == 90, "\(format)")
      #expect(back.skew == -1.25, "\(format)")
      #expect(back.words.first?.quad == quad, "\(format)")
      #expect(back.lines.first?.quad == quad, "\(format)")
    }
  }

  /// A word's quad under a pixel high (a speck read as ":" between two
  /// curled lines of a phone photo, squeezed into its line by the repair)
  /// rounded to whole pixels was a line of points: PAGE read it back as a
  /// box without area (`verify`: emptyBox), hOCR dropped it. The formats
  /// that write whole pixels write the word's box instead.
  @Test(arguments: [DocumentFormat.hocr, .page])
  func aQuadUnderAPixelHighIsWrittenAsItsBox(_ format: DocumentFormat) throws {
    let sliver = Quad(
      topLeft: Point(x: 291.07, y: 445.71), topRight: Point(x: 296.26, y: 445.98),
      bottomRight: Point(x: 296.24, y: 446.47), bottomLeft: Point(x: 291.04, y: 446.2))
    let speck = PixelRect(minX: 291, minY: 446, maxX: 296, maxY: 447)
    let wordQuad = Quad(
      topLeft: Point(x: 300, y: 430), topRight: Point(x: 340, y: 432),
      bottomRight: Point(x: 339, y: 452), bottomLeft: Point(x: 299, y: 450))
    let wordBox = PixelRect(minX: 299, minY: 430, maxX: 340, maxY: 452)
    let lineBox = PixelRect(minX: 291, minY: 430, maxX: 340, maxY: 452)
    let line = TextLine(
      bbox: lineBox, quad: Quad(lineBox.rect),
      words: [
        Word(
          text: ":", bbox: speck, quad: sliver,
          glyphs: [Glyph(text: ":", bbox: speck, quad: sliver)]),
        Word(text: "Or", bbox: wordBox, quad: wordQuad),
      ])
    let page = Page(
      width: 600, height: 600,
      blocks: [Block(bbox: lineBox, paragraphs: [Paragraph(bbox: lineBox, lines: [line])])])
    let text = try encode(page, format)
    #expect(!text.contains("291,446 296,446 296,446 291,446"))
    #expect(!text.contains("poly 291 446 296 446 296 446 291 446"))
    let back = try #require(try format.decode(Data(text.utf8)).pages.first)
    #expect(back.words.map(\.bbox) == [speck, wordBox])
    #expect(back.words.last?.quad == wordQuad)
    #expect(back.words.first?.glyphs.first?.bbox == speck)
    #expect(!back.verify().violations.contains { $0.kind == .emptyBox }, "\(back.verify())")
  }

  /// Reads `text` as `format` and returns the error.
  func failure(_ format: DocumentFormat, _ text: String) -> String {
    do {
      _ = try format.decode(Data(text.utf8))
      return "no error"
    } catch {
      return String(describing: error)
    }
  }

  @Test func xmlWithBytesThatAreNotUTF8IsAnErrorNotATrap() {
    // Found by the importer fuzzer: XMLParser trapped on this element name.
    var data = Data("<PcGts>\n<TextEq".utf8)
    data.append(0xF5)
    data.append(contentsOf: Data("iv/></PcGts>".utf8))
    #expect(throws: DocumentFormatError.self) { _ = try PAGEXML.decode(data) }
    do {
      _ = try PAGEXML.decode(data)
    } catch {
      #expect(error.path == "line 2")
      #expect(error.reason.contains("not valid UTF-8"))
    }
  }

  /// Found by the importer fuzzer: an hOCR file whose declaration names an
  /// encoding that does not exist ("UT+F-8") went unchecked, and XMLParser
  /// trapped on an attribute name of 0xFF bytes. A declared Latin-1 file
  /// is still converted by libxml2 and read.
  @Test func aMisspeltEncodingDoesNotLetBadBytesThrough() {
    var data = Data(
      "<?xml version=\"1.0\" encoding=\"UT+F-8\"?>\n<html><body><span class=\"ocrx_word\" i".utf8)
    data.append(contentsOf: [UInt8](repeating: 0xFF, count: 71))
    data.append(contentsOf: Data("=\"x\">a</span></body></html>".utf8))
    do {
      _ = try HOCR.decode(data)
      Issue.record("no error")
    } catch {
      #expect(error.path == "line 2")
      #expect(error.reason.contains("not valid UTF-8"))
    }
    var latin = Data(
      "<?xml version='1.0' encoding='ISO-8859-1'?>\n<PcGts><Page imageWidth=\"10\" imageHeight=\"10\"><TextRegion id=\"r\"><Coords points=\"0,0 9,0 9,9 0,9\"/><TextEquiv><Unicode>caf"
        .utf8)
    latin.append(0xE9)
    latin.append(contentsOf: Data("</Unicode></TextEquiv></TextRegion></Page></PcGts>".utf8))
    #expect(throws: Never.self) { _ = try PAGEXML.decode(latin) }
  }

  @Test func badFilesNameTheElementAndTheReason() {
    #expect(
      failure(.alto, "<alto><Layout><Page")
        == "line 1, column 20: not well-formed XML: a missing '>' (libxml2 error 73)"
    )
    #expect(
      failure(.alto, "<alto><Layout></alto>")
        == "line 1, column 22: not well-formed XML: an end tag that does not match its start tag (libxml2 error 76)"
    )
    #expect(
      failure(.alto, "<PcGts/>")
        == "line 1: PcGts: the root element is 'PcGts', not 'alto': not an ALTO document")
    let noContent = """
      <alto><Layout><Page WIDTH="10" HEIGHT="10"><PrintSpace><TextBlock><TextLine>
      <String HPOS="1" VPOS="1" WIDTH="2" HEIGHT="2"/></TextLine></TextBlock></PrintSpace></Page></Layout></alto>
      """
    #expect(
      failure(.alto, noContent)
        == "line 2: alto/Layout[1]/Page[1]/PrintSpace[1]/TextBlock[1]/TextLine[1]/String[1]: missing attribute 'CONTENT'"
    )
    let badNumber = noContent.replacingOccurrences(
      of: "HPOS=\"1\"", with: "HPOS=\"x\" CONTENT=\"a\"")
    #expect(
      failure(.alto, badNumber).hasSuffix("String[1]: attribute 'HPOS' is not a number: \"x\""))
    #expect(
      failure(.hocr, "<html><body><div class='ocr_page' title='bbox 0 0 a b'/></body></html>")
        == "line 1: html/body[1]/div[1]: 'bbox' must be four numbers x0 y0 x1 y1 within ±10000000, not \"0 0 a b\""
    )
    // Numbers too large for a pixel coordinate are errors, not a trap
    // converting them (FuzzImport found `bbox 1034 1281 1071 1314777…`).
    let huge = String(repeating: "7", count: 80)
    #expect(
      failure(
        .hocr,
        "<html><body><div class='ocr_page' title='bbox 0 0 100 100'><span class='ocr_line' title='bbox 1 1 9 \(huge)'/></div></body></html>"
      ).hasSuffix("'bbox' must be four numbers x0 y0 x1 y1 within ±10000000, not \"1 1 9 \(huge)\"")
    )
    #expect(
      failure(
        .hocr,
        "<html><body><div class='ocr_page' title='bbox 0 0 100 100'><span class='ocr_line' title='bbox 1 1 9 9'><span class='ocrx_word' title='bbox 1 1 9 9; poly 1 1 9 1 9 9 1 1e300'>a</span></span></div></body></html>"
      ).hasSuffix("'poly' must be pairs of numbers within ±10000000, not \"1 1 9 1 9 9 1 1e300\""))
    #expect(
      failure(
        .page,
        """
        <PcGts><Page imageWidth="10" imageHeight="10"><TextRegion id="r"><Coords points="0,0 5,5"/>
        <TextLine id="l"><Coords points="1,1 \(huge),2"/></TextLine></TextRegion></Page></PcGts>
        """
      ).hasSuffix("'points' must be x,y pairs within ±10000000, not \"1,1 \(huge),2\""))
    #expect(
      failure(
        .alto,
        noContent.replacingOccurrences(
          of: "HEIGHT=\"2\"/>",
          with:
            "HEIGHT=\"2\" CONTENT=\"a\"><Shape><Polygon POINTS=\"1,1 2,1 \(huge),2\"/></Shape></String>"
        )
      ).contains("'POINTS' must list three or more x,y points within ±10000000"))
    #expect(
      failure(.hocr, "<html/>").hasSuffix("no element of class 'ocr_page': not an hOCR document"))
    let page = """
      <PcGts><Page imageWidth="10" imageHeight="10"><TextRegion id="r"><Coords points="0,0 5,5"/>
      <TextLine id="l"><Coords points="1,1 x,2"/></TextLine></TextRegion></Page></PcGts>
      """
    #expect(
      failure(.page, page)
        == "line 2: PcGts/Page[1]/TextRegion[1]/TextLine[1]/Coords[1]: 'points' must be x,y pairs within ±10000000, not \"1,1 x,2\""
    )
    #expect(
      failure(.page, "<PcGts><Page/></PcGts>").hasSuffix(
        "missing attribute 'imageWidth' or 'imageHeight'"))
    #expect(
      failure(.tsv, "hello") == "line 1: not Tesseract TSV: the header must be '\(TSV.header)'")
    #expect(
      failure(.tsv, TSV.header + "\n1\t1\t0")
        == "line 2: expected 12 tab-separated columns, found 3")
    #expect(
      failure(.tsv, TSV.header + "\n5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tx")
        == "line 2: a level 5 row before any page row (level 1)")
    #expect(
      failure(.tsv, TSV.header + "\n1\t1\t0\t0\t0\t0\t0\t0\t-5\t1\t-1\t")
        == "line 2: negative width or height")
    // The smallest and largest integers Swift reads: refused, no trap
    // (abs(Int.min) crashed the fuzzer).
    for extreme in ["-9223372036854775808", "9223372036854775807"] {
      #expect(
        failure(.tsv, TSV.header + "\n1\t\(extreme)\t0\t0\t0\t0\t0\t0\t5\t1\t-1\t")
          == "line 2: 'page_num' lies beyond ±10000000")
    }
  }

  /// libxml2 closes the open elements itself at the end of the data: a file
  /// cut right after an inner end tag must still be refused.
  @Test(arguments: [DocumentFormat.alto, .page, .hocr])
  func aFileCutAfterAnInnerEndTagIsTruncated(_ format: DocumentFormat) throws {
    let text = try encode(AwkwardPage.page, format)
    let inner = format == .hocr ? "</div>" : (format == .alto ? "</Page>" : "</TextRegion>")
    let cut = try #require(text.range(of: inner, options: .backwards))
    let message = failure(format, String(text[..<cut.upperBound]))
    #expect(message.contains("not well-formed XML"), "\(format): \(message)")
    // Whitespace, comments and processing instructions may follow the root.
    let padded = text + "\n<!-- written by a test -->\n<?done yes?>\n"
    #expect(try format.decode(Data(padded.utf8)).pages.count == 1)
  }

  @Test(arguments: formats)
  func truncatedFilesFailCleanly(_ format: DocumentFormat) throws {
    let text = Array(try encode(AwkwardPage.page, format).utf8)
    // Every cut either reads (a shorter but consistent page) or fails with
    // a format error; never a crash.
    for cut in stride(from: 0, to: text.count, by: 7) {
      do {
        let document = try format.decode(Data(text[..<cut]))
        // XML cut anywhere is refused; TSV cut between rows is a shorter page.
        // (A cut that only drops the final newline is the whole file.)
        let dropped = String(decoding: text[cut...], as: UTF8.self)
        #expect(
          format == .tsv || dropped.allSatisfy(\.isWhitespace),
          "\(format) cut at \(cut) read as a document")
        for page in document.pages {
          #expect(page.text.count <= AwkwardPage.page.text.count + 1)
        }
      } catch is DocumentFormatError {
      } catch {
        Issue.record("\(format) cut at \(cut): \(error)")
      }
    }
  }

  @Test func deeplyNestedXMLIsRefused() {
    let text = String(repeating: "<a>", count: 1000) + String(repeating: "</a>", count: 1000)
    #expect(failure(.alto, text).contains("nested deeper than 256"))
  }

  @Test func aDocumentDeclaringItsOwnEntitiesIsRefusedNotShortened() throws {
    // Issue 27: "&w;" declared in the internal subset silently deleted the
    // word that used it.
    let hocr = """
      <?xml version="1.0"?>
      <!DOCTYPE html [
        <!-- a comment -->
        <!ENTITY w "world">
      ]>
      <html><body><div class='ocr_page' title='bbox 0 0 100 100'><span class='ocrx_word' title='bbox 1 1 9 9'>&w;</span></div></body></html>
      """
    #expect(failure(.hocr, hocr).hasPrefix("line 4: the document declares its own entities"))
    // A DOCTYPE without entities, and the predefined ones, still read.
    let plain = """
      <?xml version="1.0"?>
      <!DOCTYPE html>
      <html><body><div class='ocr_page' title='bbox 0 0 100 100'><span class='ocr_line' title='bbox 1 1 90 9'><span class='ocrx_word' title='bbox 1 1 9 9'>a&amp;b</span></span></div></body></html>
      """
    let page = try #require(try DocumentFormat.hocr.decode(Data(plain.utf8)).pages.first)
    #expect(page.text == "a&b\n")
  }
}

/// Documents past libxml2's one-chunk limit (10,000,000 bytes) read back.
@Suite struct LargeXMLDocumentTests {
  /// A page of `lines` lines of `words` words with glyphs.
  static func densePage(index: Int, lines: Int, words: Int) -> Page {
    var textLines: [TextLine] = []
    for l in 0..<lines {
      var row: [Word] = []
      for w in 0..<words {
        let text = "w\(l)x\(w)"
        let x = 50 + w * 90
        let y = 50 + l * 30
        row.append(
          Word(
            text: text, bbox: Samples.box(x, y, x + 10 * text.count, y + 20), confidence: 91.5,
            glyphs: Samples.glyphs(text, x: x, y: y, confidences: [90, 91, 92, 93, 94])))
      }
      textLines.append(
        TextLine(bbox: Samples.box(50, 50 + l * 30, 50 + words * 90, 70 + l * 30), words: row))
    }
    return Page(
      index: index, image: "p\(index).png", width: 50 + words * 90 + 50,
      height: 50 + lines * 30 + 50, dpi: 300, language: "eng",
      blocks: [
        Block(
          bbox: Samples.box(50, 50, 50 + words * 90, 70 + (lines - 1) * 30),
          paragraphs: [
            Paragraph(
              bbox: Samples.box(50, 50, 50 + words * 90, 70 + (lines - 1) * 30),
              lines: textLines)
          ])
      ])
  }

  @Test(arguments: [DocumentFormat.hocr, .alto])
  func aManyPageExportPastTenMegabytesRoundTrips(format: DocumentFormat) throws {
    // 300 pages, each long enough that together they pass libxml2's
    // 10,000,000-byte chunk limit.
    let count = 300
    var lines = 4
    var page = Self.densePage(index: 0, lines: lines, words: 12)
    while try format.encode(Document(pages: [page]), generator: Samples.generator).utf8.count
      * count < 10_200_000
    {
      lines += 2
      page = Self.densePage(index: 0, lines: lines, words: 12)
    }
    let pages = (0..<count).map { page.withIndex($0).withImage("p\($0).png") }
    let text = try format.encode(Document(pages: pages), generator: Samples.generator)
    #expect(text.utf8.count > 10_000_000)
    let decoded = try format.decode(Data(text.utf8))
    #expect(decoded.pages.count == pages.count)
    #expect(decoded.pages.last?.text == page.text)
    #expect(decoded.pages.last?.words.map(\.bbox) == page.words.map(\.bbox))
  }

  /// PAGE XML holds one page: a 300-page document is 300 files, each read
  /// back.
  @Test func aManyPagePAGEExportRoundTrips() throws {
    let pages = (0..<300).map {
      Self.densePage(index: 0, lines: 2 + $0 % 5, words: 6).withImage("p\($0).png")
    }
    let files = PAGEXML.encode(
      Document(pages: pages), generator: Samples.generator, created: "2026-12-03T00:00:00Z")
    #expect(files.count == 300)
    for (file, page) in zip(files, pages) {
      let decoded = try DocumentFormat.page.decode(Data(file.utf8))
      #expect(decoded.pages.first?.text == page.text)
      #expect(decoded.pages.first?.image == page.image)
    }
  }

  @Test func aLargePAGEFileReads() throws {
    // PAGE XML holds one page: one page large enough on its own.
    let page = Self.densePage(index: 0, lines: 700, words: 40)
    let text = try DocumentFormat.page.encode(
      Document(pages: [page]), generator: Samples.generator)
    #expect(text.utf8.count > 10_000_000)
    let decoded = try DocumentFormat.page.decode(Data(text.utf8))
    #expect(decoded.pages.first?.text == page.text)
  }
}
