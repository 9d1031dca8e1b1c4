import Foundation
import Testing

@testable import ScanFormats

/// The pieces of PDF/A (issue 46) that need no validator: output types and
/// their levels, the XMP packet made from a document's information, PDF
/// and XMP dates, and stream data that never ends in a carriage return.
@Suite("PDF/A pieces")
struct PDFArchivePiecesTests {
  @Test func levelsFollowTheTags() {
    #expect(PDFOutputType.pdf.level(tagged: true) == nil)
    #expect(PDFOutputType.pdfA.level(tagged: true)?.description == "PDF/A-2a")
    #expect(PDFOutputType.pdfA.level(tagged: false)?.description == "PDF/A-2u")
    #expect(PDFOutputType.pdfA1.level(tagged: false)?.description == "PDF/A-1b")
    #expect(PDFOutputType.pdfA3.level(tagged: true)?.description == "PDF/A-3a")
    #expect(PDFOutputType(rawValue: "pdfa-2") == .pdfA2)
  }

  @Test func datesConvertBothWays() {
    #expect(PDFDates.xmp(pdfDate: "D:20200102030405Z") == "2020-01-02T03:04:05Z")
    #expect(PDFDates.xmp(pdfDate: "D:20161107123128-08'00'") == "2016-11-07T12:31:28-08:00")
    #expect(PDFDates.xmp(pdfDate: "D:2016") == "2016-01-01T00:00:00")
    #expect(PDFDates.xmp(pdfDate: "D:20161307") == nil)
    #expect(PDFDates.xmp(pdfDate: "yesterday") == nil)
    #expect(PDFDates.pdf(xmpDate: "2016-11-07T12:31:28-08:00") == "D:20161107123128-08'00'")
    #expect(PDFDates.pdf(xmpDate: "2020-01-02T03:04:05.25Z") == "D:20200102030405Z")
    #expect(PDFDates.pdf(xmpDate: "2020-01-02") == "D:20200102000000")
    #expect(PDFDates.pdf(xmpDate: "soon") == nil)
  }

  /// A packet made from the Info dictionary says what it says; read back,
  /// it gives the same information.
  @Test func packetRepeatsTheDocumentInformation() throws {
    let info = PDFDocumentInfo(
      title: "A <turned> page", author: "Ada Lovelace", subject: "Engines",
      keywords: "scan, test", creator: "Hand", producer: "ScanText",
      creationDate: "D:20200102030405Z", modificationDate: "D:20261206104500+01'00'")
    let packet = XMPMetadata.packet(
      info: info, pdfUA: true, archive: PDFArchive.Level(part: 2, conformance: "A"))
    #expect(
      packet.contains("<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">A &lt;turned&gt; page"))
    #expect(packet.contains("<dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq>"))
    #expect(packet.contains("<xmp:CreateDate>2020-01-02T03:04:05Z</xmp:CreateDate>"))
    #expect(packet.contains("<xmp:ModifyDate>2026-12-06T10:45:00+01:00</xmp:ModifyDate>"))
    #expect(packet.contains("<pdfaid:part>2</pdfaid:part>"))
    #expect(packet.contains("<pdfaid:conformance>A</pdfaid:conformance>"))
    #expect(packet.contains("<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>"))
    #expect(XMPMetadata.documentInfo(of: Array(packet.utf8)) == info)
    // Untagged: no PDF/UA claim, so no extension schema.
    let plain = XMPMetadata.packet(
      info: info, pdfUA: false, archive: PDFArchive.Level(part: 2, conformance: "U"))
    #expect(!plain.contains("pdfuaid"))
    #expect(!plain.contains("pdfaExtension"))
  }

  /// Properties held as attributes of a description are read too.
  @Test func documentInfoReadsAttributes() {
    let packet = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="2016-11-07T12:31:28-08:00" xmp:CreatorTool="tiff2pdf"/>
      </rdf:RDF></x:xmpmeta>
      """
    let info = XMPMetadata.documentInfo(of: Array(packet.utf8))
    #expect(info.creationDate == "D:20161107123128-08'00'")
    #expect(info.creator == "tiff2pdf")
    #expect(info.title == nil)
  }

  /// Content whose zlib data ends in 0x0D (its checksum's last byte) gets
  /// a newline, which changes the checksum; data that may not be padded is
  /// stored as it is. Before, such a stream was written as it came, and a
  /// PDF/A reader counted it one byte short.
  @Test func streamDataNeverEndsInACarriageReturn() throws {
    let data = try #require(
      (20..<400).lazy.map { Data("BT (\(String(repeating: "1", count: $0))) Tj ET\n".utf8) }
        .first { Deflate.compress($0)?.last == 0x0D })
    let content = Deflate.streamBytes(data, padding: true)
    #expect(content.compressed)
    #expect(content.bytes.last != 0x0D)
    #expect(content.bytes == Deflate.compress(data + Data([0x0A])))
    let binary = Deflate.streamBytes(data, padding: false)
    #expect(!binary.compressed)
    #expect(binary.bytes == data)
    // Data that compresses well and does not end in CR is compressed.
    let plain = Data(repeating: 0x41, count: 1000)
    #expect(Deflate.streamBytes(plain, padding: false).compressed)
  }
}
