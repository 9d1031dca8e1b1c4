import Foundation
import Testing

@testable import ScanFormats

/// The content-stream tokenizer and the XMP update behind the searchable
/// PDF of a PDF input (`--redo-ocr` and metadata).
@Suite("PDF content streams and XMP")
struct PDFContentStreamTests {
  static let packet = """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
    <xmp:CreateDate>2020-01-02T03:04:05Z</xmp:CreateDate><xmp:ModifyDate>2020-01-02T03:04:05Z</xmp:ModifyDate>
    <pdf:Producer>Hand</pdf:Producer></rdf:Description></rdf:RDF></x:xmpmeta>
    <?xpacket end="w"?>
    """

  @Test func xmpElementsAreUpdated() throws {
    let date = Date(timeIntervalSince1970: 1_800_000_000)
    let updated = try #require(
      XMPMetadata.updated(Array(Self.packet.utf8), producer: "ScanText & co", date: date))
    let text = String(decoding: updated, as: UTF8.self)
    #expect(text.contains("<xmp:ModifyDate>2027-01-15T08:00:00Z</xmp:ModifyDate>"))
    #expect(text.contains("<xmp:CreateDate>2020-01-02T03:04:05Z</xmp:CreateDate>"))
    #expect(text.contains("<pdf:Producer>ScanText &amp; co</pdf:Producer>"))
    #expect(text.contains(#"xmp:MetadataDate="2027-01-15T08:00:00Z""#))
  }

  /// Packets in other shapes: a property as an attribute is changed there;
  /// a namespace not declared is declared; text that is not XML, or a
  /// property held twice, is left alone (nil).
  @Test func xmpAttributesAndRefusals() throws {
    let date = Date(timeIntervalSince1970: 0)
    let attributes = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
      <r:Description r:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" a:ModifyDate='2001-01-01'/>\
      </r:RDF></x:xmpmeta>
      """
    let updated = try #require(
      XMPMetadata.updated(Array(attributes.utf8), producer: "P", date: date))
    let text = String(decoding: updated, as: UTF8.self)
    #expect(text.contains(#"a:ModifyDate="1970-01-01T00:00:00Z""#))
    #expect(text.contains(#"a:MetadataDate="1970-01-01T00:00:00Z""#))
    #expect(text.contains(#"xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="P""#))
    #expect(!text.contains("2001-01-01"))
    let twice = Self.packet.replacingOccurrences(
      of: "<pdf:Producer>Hand</pdf:Producer>",
      with: "<pdf:Producer>Hand</pdf:Producer><pdf:Producer>Again</pdf:Producer>")
    #expect(XMPMetadata.updated(Array(twice.utf8), producer: "P", date: date) == nil)
    #expect(XMPMetadata.updated(Array("<x:xmpmeta".utf8), producer: "P", date: date) == nil)
    #expect(XMPMetadata.updated([0xFF, 0xFE, 0x00], producer: "P", date: date) == nil)
  }

  /// A packet without a `dc:title` (as `skew.pdf`'s, from tiff2pdf) that is
  /// to claim PDF/UA gets the title shown, then `pdfuaid:part`; it had no
  /// PDF/UA identification before (pdfua: UA-28-004). Without a title to
  /// give, or with a title of its own, it is as before; a packet whose
  /// descriptions are all empty elements gets no title and no claim.
  @Test func xmpGetsTheTitleToClaimPDFUA() throws {
    let date = Date(timeIntervalSince1970: 0)
    let updated = try #require(
      XMPMetadata.updated(
        Array(Self.packet.utf8), producer: "P", date: date, pdfUA: true, title: "Scan <1>"))
    let text = String(decoding: updated, as: UTF8.self)
    #expect(text.contains(#"xmlns:dc="http://purl.org/dc/elements/1.1/""#), "\(text)")
    #expect(
      text.contains(
        "\">\n<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">Scan &lt;1&gt;</rdf:li></rdf:Alt></dc:title>\n<xmp:CreateDate>"
      ), "\(text)")
    #expect(text.contains(#"pdfuaid:part="1""#), "\(text)")
    // No title to give: no claim, as before.
    let untitled = try #require(
      XMPMetadata.updated(Array(Self.packet.utf8), producer: "P", date: date, pdfUA: true))
    #expect(!String(decoding: untitled, as: UTF8.self).contains("pdfuaid"))
    // A title of its own is kept.
    let titled = Self.packet.replacingOccurrences(
      of: "<pdf:Producer>Hand</pdf:Producer>",
      with:
        #"<pdf:Producer>Hand</pdf:Producer><dc:title xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Alt><rdf:li xml:lang="x-default">Own</rdf:li></rdf:Alt></dc:title>"#
    )
    let kept = String(
      decoding: try #require(
        XMPMetadata.updated(
          Array(titled.utf8), producer: "P", date: date, pdfUA: true, title: "Other")),
      as: UTF8.self)
    #expect(kept.contains(">Own<") && !kept.contains("Other") && kept.contains("pdfuaid:part"))
    // Only empty descriptions: nowhere to put the element.
    let empty = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><r:RDF xmlns:r="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
      <r:Description r:about="" xmlns:a="http://ns.adobe.com/xap/1.0/" a:ModifyDate='2001-01-01'/>\
      </r:RDF></x:xmpmeta>
      """
    let bare = String(
      decoding: try #require(
        XMPMetadata.updated(
          Array(empty.utf8), producer: "P", date: date, pdfUA: true, title: "T")),
      as: UTF8.self)
    #expect(!bare.contains("title") && !bare.contains("pdfuaid"))
  }

  /// Every kind of token: numbers (signs, leading points), names with
  /// `#xx`, literal strings with escapes, octal codes, nested and escaped
  /// parentheses and line continuations, hex strings (odd length, spaces),
  /// arrays, dictionaries, booleans, null, comments, and an inline image
  /// whose data holds bytes that look like operators.
  @Test func tokens() {
    let text = #"""
      % a comment with Tj in it
      1 -2 +3.5 .25 -.5 4. cm /A#20b /Name Do
      (a\\b\(c\)\n\101\0537(nested (twice))\
      end) Tj <48 656c6C6f7> Tj
      [(x) -250 <79>] TJ << /K [1 2] /B true /N null >> BDC
      BI /W 2 /H 1 /BPC 8 /CS /G ID \#("\u{7}")EI Tj Q\#("\u{1}") EI Q
      """#
    let stream = PDFContentStream(Array(text.utf8))
    let operators = stream.operations.map { $0.operator }
    #expect(operators == ["cm", "Do", "Tj", "Tj", "TJ", "BDC", "BI", "Q"])
    #expect(
      stream.operations[0].operands == [
        .number(1), .number(-2), .number(3.5), .number(0.25), .number(-0.5), .number(4),
      ]
    )
    #expect(stream.operations[1].operands == [.name("A b"), .name("Name")])
    #expect(
      stream.operations[2].operands == [.string(Array("a\\b(c)\nA+7(nested (twice))end".utf8))])
    #expect(stream.operations[3].operands == [.string(Array("Hello".utf8) + [0x70])])
    #expect(
      stream.operations[4].operands == [.array([.string([0x78]), .number(-250), .string([0x79])])])
    #expect(
      stream.operations[5].operands == [
        .dictionary([
          (key: "K", value: .array([.number(1), .number(2)])), (key: "B", value: .boolean(true)),
          (key: "N", value: .null),
        ])
      ])
    // The inline image ends at the EI with white space on both sides.
    let image = stream.operations[6]
    #expect(String(decoding: stream.bytes[image.range], as: UTF8.self).hasSuffix("\u{1} EI"))
    // Its operand is its dictionary.
    #expect(
      image.operands == [
        .dictionary([
          (key: "W", value: .number(2)), (key: "H", value: .number(1)),
          (key: "BPC", value: .number(8)), (key: "CS", value: .name("G")),
        ])
      ])
  }

  /// Each inline image's claimed size is read from its dictionary, by the
  /// abbreviated keys or the full ones, whatever its data holds (issue 45:
  /// 100,000 × 100,000 pixels claimed in a few bytes).
  @Test func inlineImageSizesAreWhatTheDictionariesClaim() {
    let text = """
      q 10 0 0 10 0 0 cm BI /W 100000 /H 100000 /BPC 8 /CS /G /F [/AHx] ID 00ff> EI Q
      BI /Width 3 /Height 2 /BitsPerComponent 1 /ImageMask true /Decode [1 0] ID \u{0}\u{0} EI
      BI /W /oops ID x EI
      (not BI /W 9 /H 9 ID) Tj
      """
    let sizes = PDFContentStream(Array(text.utf8)).inlineImageSizes
    #expect(sizes.map(\.width) == [100_000, 3, 0])
    #expect(sizes.map(\.height) == [100_000, 2, 0])
  }

  /// The render mode is graphics state: `q`/`Q` save and restore it, text
  /// objects leave it; empty strings show nothing; a form starts in the
  /// mode it is drawn in.
  @Test func textKinds() {
    func kind(_ s: String, _ mode: Int = 0) -> PDFContentStream.TextKind {
      PDFContentStream(Array(s.utf8)).textKind(startingIn: mode)
    }
    #expect(kind("0 0 m 10 10 l S") == .noText)
    #expect(kind("BT /F 1 Tf () Tj [()] TJ ET") == .noText)
    #expect(kind("BT (a) Tj ET") == .visibleOnly)
    #expect(kind("3 Tr BT (a) Tj ET") == .invisibleOnly)
    #expect(kind("BT 7 Tr (a) Tj ET") == .invisibleOnly)
    #expect(kind("q 3 Tr BT (a) Tj ET Q BT (b) Tj ET") == .both)
    #expect(kind("BT 3 Tr ET BT (b) ' ET") == .invisibleOnly)
    #expect(kind("BT (a) Tj ET", 3) == .invisibleOnly)
    #expect(kind("BT 0 Tr (a) Tj ET", 3) == .visibleOnly)
    let drawn = PDFContentStream(Array("q 3 Tr /Fm1 Do Q /Fm2 Do".utf8)).text().drawn
    #expect(drawn.map(\.name) == ["Fm1", "Fm2"] && drawn.map(\.renderMode) == [3, 0])
    #expect(PDFContentStream(Array("q q Q q".utf8)).unclosedSaves == 2)
    #expect(PDFContentStream(Array("Q q Q".utf8)).unclosedSaves == 0)
  }

  /// Taking an invisible layer out keeps every other byte; `'` and `"`
  /// keep their line moves and spacing.
  @Test func removingInvisibleText() throws {
    let text =
      "q 1 0 0 1 0 0 cm BT /F1 12 Tf (Visible) Tj ET Q\nBT 3 Tr /G 1 Tf 1 0 0 1 5 5 Tm <0041> Tj (next) ' 2 1 (more) \" [(x)] TJ ET\n"
    let stream = PDFContentStream(Array(text.utf8))
    #expect(stream.textKind() == .both)
    let cleaned = String(decoding: try #require(stream.removingInvisibleText()), as: UTF8.self)
    #expect(
      cleaned
        == "q 1 0 0 1 0 0 cm BT /F1 12 Tf (Visible) Tj ET Q\nBT 3 Tr /G 1 Tf 1 0 0 1 5 5 Tm    T*   2 Tw 1 Tc T*    ET\n"
    )
    #expect(PDFContentStream(Array(cleaned.utf8)).textKind() == .visibleOnly)
    #expect(PDFContentStream(Array("BT (a) Tj ET".utf8)).removingInvisibleText() == nil)
  }
}
