import Foundation
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanFormats
@testable import ScanService

/// A paragraph of one line per text, 40 px apart from `y`; words 10 px a
/// character, with the given confidences (95 otherwise).
private func paragraph(
  _ texts: [String], y: Int, role: ParagraphRole = .body, level: Int? = nil,
  confidences: [String: Double] = [:]
) -> Paragraph {
  var lines: [TextLine] = []
  for (k, text) in texts.enumerated() {
    var x = 100
    var words: [Word] = []
    for token in text.split(separator: " ") {
      let width = 10 * token.count
      let top = y + 40 * k
      words.append(
        Word(
          text: String(token), bbox: PixelRect(minX: x, minY: top, maxX: x + width, maxY: top + 20),
          confidence: confidences[String(token)] ?? 95))
      x += width + 10
    }
    lines.append(TextLine(bbox: PixelRect.union(words.map(\.bbox)) ?? words[0].bbox, words: words))
  }
  let box = PixelRect.union(lines.map(\.bbox)) ?? PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1)
  return Paragraph(bbox: box, lines: lines, role: role, headingLevel: level)
}

/// A page of the given paragraphs, one block each.
private func page(
  _ paragraphs: [Paragraph], image: String? = "scan.png", language: String? = "eng",
  width: Int = 1000, height: Int = 1400, orientation: Int = 0, exifOrientation: Int? = nil
) -> Page {
  Page(
    image: image, width: width, height: height, orientation: orientation, language: language,
    blocks: paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) },
    exifOrientation: exifOrientation)
}

/// The `src` of every picture of an HTML file.
private func imageSources(_ html: String) -> [String] {
  html.matches(of: #/<img class="scan" src="([^"]*)"/#).map { String($0.output.1) }
}

/// The TIFF structure of an Exif block holding orientation `tag`
/// (big-endian when `motorola`).
private func exifTIFF(orientation tag: Int, motorola: Bool = false) -> [UInt8] {
  func u16(_ v: Int) -> [UInt8] {
    motorola ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
  }
  func u32(_ v: Int) -> [UInt8] {
    let b = (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) }
    return motorola ? b.reversed() : b
  }
  return (motorola ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8) + u16(1)
    + u16(274) + u16(3) + u32(1) + u16(tag) + [0, 0] + u32(0)
}

/// A JPEG's first bytes with an Exif APP1 segment carrying orientation
/// `tag`, after a JFIF APP0.
private func jpegHead(orientation tag: Int, motorola: Bool = false) -> [UInt8] {
  let app1 = Array("Exif".utf8) + [0, 0] + exifTIFF(orientation: tag, motorola: motorola)
  let jfif: [UInt8] = [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
  let length = app1.count + 2
  return [0xFF, 0xD8] + jfif + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1
    + [0xFF, 0xDA, 0, 2]
}

/// A PNG's chunks (CRCs left zero: only the layout is read), with an
/// `eXIf` chunk of orientation `tag` before or after the image data.
private func pngChunks(orientation tag: Int, afterData: Bool) -> [UInt8] {
  func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let n = data.count
    return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
      + Array(type.utf8) + data + [0, 0, 0, 0]
  }
  let exif = chunk("eXIf", exifTIFF(orientation: tag, motorola: true))
  let header = chunk("IHDR", [UInt8](repeating: 0, count: 13))
  let data = chunk("IDAT", [1, 2, 3])
  return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + header
    + (afterData ? data + exif : exif + data) + chunk("IEND", [])
}

/// The HTML of a page, with the text of its tags only (line spans and
/// their attributes left out), to check the structure.
private func outline(_ html: String) -> String {
  guard let body = html.range(of: "<main>") else { return "" }
  var text = String(html[body.lowerBound...])
  let patterns = [#"<span[^>]*>"#, #"</span>"#, #"\n"#]
  for p in patterns {
    text = text.replacingOccurrences(of: p, with: "", options: .regularExpression)
  }
  return text
}

@Suite("HTML reading layer")
struct HTMLTests {
  @Test func structureFollowsRolesInReadingOrder() {
    let p = page([
      paragraph(["The Quarterly"], y: 50, role: .header),
      paragraph(["A Title"], y: 120, role: .heading, level: 1),
      paragraph(["Deep section"], y: 180, role: .heading, level: 3),
      paragraph(["Some text here."], y: 240),
      paragraph(["one"], y: 300, role: .listItem),
      paragraph(["two"], y: 340, role: .listItem),
      paragraph(["Figure 1. A map."], y: 400, role: .caption),
      paragraph(["A note"], y: 460, role: .marginalia),
      paragraph(["1 A footnote."], y: 1200, role: .footnote),
      paragraph(["The Quarterly"], y: 1300, role: .footer),
      paragraph(["17"], y: 1340, role: .pageNumber),
    ])
    let html = AccessibleHTML(image: .url("scan.png")).html(for: p)
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
    #expect(html.contains("<title>A Title</title>"))
    #expect(
      html.contains(
        #"<div class="page" id="page-1" data-page="1" data-width="1000" data-height="1400" style="--u:calc(100cqw / 1000);aspect-ratio:1000 / 1400">"#
          + "\n"
          + #"<div class="frame" style="width:calc(1000*var(--u));height:calc(1400*var(--u))">"#
          + "\n"
          + #"<img class="scan" src="scan.png" alt="Scan of scan.png. Its recognised text follows." width="1000" height="1400" style="width:calc(1000*var(--u));height:calc(1400*var(--u))">"#
      ))
    #expect(html.contains("<header>\n<p class=\"header\"><span class=\"line\""))
    // The h3 after an h1 becomes an h2: levels never jump.
    #expect(
      outline(html)
        == "<main><h1 class=\"heading\">A Title</h1><h2 class=\"heading\">Deep section</h2>"
        + "<p class=\"body\">Some text here.</p><ul><li class=\"list-item\">one</li>"
        + "<li class=\"list-item\">two</li></ul><figure><figcaption class=\"caption\">"
        + "Figure 1. A map.</figcaption></figure><aside class=\"marginalia\" "
        + "aria-label=\"Margin note\"><p class=\"marginalia\">A note</p></aside></main>"
        + "<aside class=\"footnotes\" aria-label=\"Footnotes\"><p class=\"footnote\">1 A footnote."
        + "</p></aside><footer><p class=\"footer\">The Quarterly</p><p class=\"page-number\">17"
        + "</p></footer></div></div></body></html>")
    #expect(html.components(separatedBy: "<main>").count == 2)
  }

  /// Numbered items are an `ol`, items one level deeper a list inside
  /// an `li` of their own (HTML allows no list straight inside a list).
  @Test func nestedAndNumberedListsAreNestedLists() {
    var items = [
      paragraph(["1. Ropes"], y: 300, role: .listItem),
      paragraph(["• long"], y: 340, role: .listItem),
      paragraph(["• short"], y: 380, role: .listItem),
      paragraph(["2. Lanterns"], y: 420, role: .listItem),
    ]
    items[1].listLevel = 2
    items[2].listLevel = 2
    let html = AccessibleHTML(image: .none).html(for: page(items))
    #expect(
      outline(html).hasPrefix(
        "<main><ol><li class=\"list-item\">1. Ropes</li><li><ul><li class=\"list-item\">• long"
          + "</li><li class=\"list-item\">• short</li></ul></li><li class=\"list-item\">"
          + "2. Lanterns</li></ol></main>"))
  }

  @Test func everyLineLiesOnItsOutline() throws {
    let p = page([paragraph(["Some text here.", "A second line"], y: 240)])
    let html = AccessibleHTML(image: .none).html(for: p)
    // The outline of line 0 is 100...250 × 240...260 (150 px long, 20 high):
    // the font is 8 × 20 px, scaled by 1/8; "Some" is 40 px for 4
    // half-em advances of 10 px: no spacing; the gap (10 px) is one space.
    #expect(
      html.contains(
        #"<span class="line" data-line="0" data-quad="100 240 250 240 250 260 100 260" style="left:calc(100*var(--u));top:calc(240*var(--u));font-size:calc(160*var(--u));transform:scale(0.125)"><span class="w" data-range="0 4">Some</span> <span class="w" data-range="5 9">text</span> <span class="w" data-range="10 15">here.</span><span class="eol" aria-hidden="true">\#n</span></span>"#
      ))
    #expect(html.contains("--u:calc(100cqw / 1000)"))
    #expect(html.contains(#"<div class="scan blank" role="img""#))
  }

  @Test func textAndAttributesAreEscaped() {
    let p = page(
      [paragraph(["<b>&amp; \"quoted\" it's"], y: 100, role: .heading)],
      image: "a\"b<c>.png")
    let html = AccessibleHTML(image: .url("x.png?a=1&b=\"2\"")).html(for: p)
    #expect(
      html.contains(
        "&lt;b&gt;&amp;amp;</span> <span class=\"w\" data-range=\"9 17\">&quot;quoted&quot;"))
    #expect(html.contains("it&#39;s</span>"))
    #expect(html.contains("<title>&lt;b&gt;&amp;amp; &quot;quoted&quot; it&#39;s</title>"))
    #expect(html.contains(#"src="x.png?a=1&amp;b=&quot;2&quot;""#))
    #expect(html.contains(#"alt="Scan of a&quot;b&lt;c&gt;.png. Its recognised text follows.""#))
    #expect(!html.contains("<b>"))
  }

  @Test func languageAndTitle() {
    let german = page([paragraph(["Guten Tag"], y: 100)], language: "deu+eng")
    let html = AccessibleHTML(image: .none).html(for: german)
    #expect(html.contains("<html lang=\"de\">"))
    #expect(html.contains("<title>scan.png</title>"))
    let unknown = page([paragraph(["Hello"], y: 100)], image: nil, language: nil)
    let plain = AccessibleHTML(image: .none).html(for: unknown)
    #expect(plain.contains("<html>\n"))
    #expect(plain.contains("<title>Scanned page</title>"))
  }

  @Test func hyphenatedWordsReadAsOneWord() {
    let p = page([
      paragraph(["Optical character recog-", "nition, of an e-", "mail"], y: 100)
    ])
    let html = AccessibleHTML(image: .none).html(for: p)
    // The printed parts stay (hidden from assistive technology); the
    // joined word follows the last part, visually hidden, and takes in the
    // rest of that part's word (a comma, hidden in print), so that it
    // reads as the spoken text ("recognition," where a browser read the
    // cookbook's "serv-" "ing," as "serving ,").
    #expect(
      html.contains(
        #"<span class="w" data-range="18 24"><span aria-hidden="true">recog-</span></span><span class="eol""#
      ))
    #expect(
      html.contains(
        #"<span class="w" data-range="25 32"><span aria-hidden="true">nition,</span><span class="joined">recognition,</span></span>"#
      ))
    #expect(
      html.contains(#"<span aria-hidden="true">mail</span><span class="joined">e-mail</span>"#))
    #expect(
      html.contains(
        ".joined, .eol { position: absolute; width: 1px; height: 1px; overflow: hidden;"))
    #expect(html.contains(".joined { user-select: none; }"))
  }

  @Test func uncertainWordsAreDescribedAndShownOnRequest() {
    let p = page([paragraph(["a StraBe here"], y: 100, confidences: ["StraBe": 31.4])])
    let html = AccessibleHTML(image: .none).html(for: p)
    #expect(
      html.contains(
        #"<span class="w uncertain" aria-description="uncertain recognition, confidence 31 %" data-range="2 8""#
      ))
    #expect(!html.contains(".uncertain {"))
    #expect(html.contains("color: transparent; }"))
    let shown = AccessibleHTML(image: .none, options: [.showUncertain, .showText]).html(for: p)
    #expect(shown.contains(".uncertain { background: rgba(255, 160, 0, 0.45); }"))
    #expect(!shown.contains("color: transparent; }"))
    let strict = AccessibleHTML(image: .none, lowConfidenceThreshold: 20).html(for: p)
    #expect(!strict.contains("uncertain recognition"))
  }

  @Test func advancesSkipMarksAndIgnorables() {
    #expect(AccessibleHTML.advanceCount("cafe\u{301}") == 4)
    #expect(AccessibleHTML.advanceCount("recog\u{AD}") == 5)
    #expect(AccessibleHTML.advanceCount("👍🏽 a") == 4)
    #expect(AccessibleHTML.clusterCount("👍🏽 a") == 3)
    #expect(AccessibleHTML.clusterCount("cafe\u{301}") == 4)
  }

  @Test func commandWritesTheFile() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truth = Fixtures.scans.appendingPathComponent("headings.truth.json").path
    let out = folder.appendingPathComponent("page.html").path
    let plain = scantext(["html", truth, "-o", out])
    #expect(plain.code == 0)
    #expect(plain.stdout.isEmpty && plain.stderr.isEmpty)
    let html = try String(contentsOfFile: out, encoding: .utf8)
    // The image found beside the model, linked by its path from the HTML.
    let src = try #require(imageSources(html).first)
    #expect(src.hasSuffix("/Scans/headings.png") && src.hasPrefix("../"))
    #expect(
      URL(string: src, relativeTo: folder.appendingPathComponent("page.html"))?
        .standardizedFileURL.path
        == Fixtures.scans.appendingPathComponent("headings.png").standardizedFileURL.path)
    #expect(html.contains("<title>Notes from the Archive</title>"))

    // --embed-image finds the image beside the model.
    let model = folder.appendingPathComponent("headings.json").path
    try FileManager.default.copyItem(atPath: truth, toPath: model)
    try FileManager.default.copyItem(
      atPath: Fixtures.scans.appendingPathComponent("headings.png").path,
      toPath: folder.appendingPathComponent("headings.png").path)
    #expect(scantext(["html", model, "-o", out, "--embed-image"]).code == 0)
    let embedded = try String(contentsOfFile: out, encoding: .utf8)
    #expect(embedded.contains(#"<img class="scan" src="data:image/png;base64,iVBORw0KGgo"#))

    #expect(scantext(["html", truth, "-o", out, "--image-url", "https://x/p.png"]).code == 0)
    #expect(try String(contentsOfFile: out, encoding: .utf8).contains(#"src="https://x/p.png""#))
  }

  @Test func turnedPagesAreShownUpright() {
    let text = [paragraph(["Some text here."], y: 240)]
    // The frame (the model's pixels) turned back by the content's turn, in
    // a page box as wide as the upright page.
    let turns = [
      (90, "1400 / 1000", "translate(calc(0*var(--u)),calc(1000*var(--u))) matrix(0,-1,1,0,0,0)"),
      (
        180, "1000 / 1400",
        "translate(calc(1000*var(--u)),calc(1400*var(--u))) matrix(-1,0,0,-1,0,0)"
      ),
      (270, "1400 / 1000", "translate(calc(1400*var(--u)),calc(0*var(--u))) matrix(0,1,-1,0,0,0)"),
    ]
    for (orientation, aspect, transform) in turns {
      let turned = page(text, orientation: orientation)
      let html = AccessibleHTML(image: .url("scan.png")).html(for: turned)
      let side = aspect.split(separator: " ")[0]
      #expect(html.contains("style=\"--u:calc(100cqw / \(side));aspect-ratio:\(aspect)\">"))
      #expect(
        html.contains(
          "<div class=\"frame\" style=\"width:calc(1000*var(--u));height:calc(1400*var(--u));transform:\(transform)\">"
        ), "\(orientation)")
      // --keep-rotation: as scanned.
      let kept = AccessibleHTML(image: .url("scan.png"), options: .keepRotation).html(for: turned)
      #expect(kept.contains("style=\"--u:calc(100cqw / 1000);aspect-ratio:1000 / 1400\">"))
      #expect(
        kept.contains(
          "<div class=\"frame\" style=\"width:calc(1000*var(--u));height:calc(1400*var(--u))\">"))
    }
  }

  @Test func frameMapsAreTheEightOrientations() {
    let all = (1...8).map { FrameMap(exifOrientation: $0) }
    #expect(Set(all.map { "\($0)" }).count == 8)
    for map in all {
      #expect(map.after(map.inverse) == .identity)
      #expect(map.inverse.after(map) == .identity)
    }
    func o(_ tag: Int) -> FrameMap { FrameMap(exifOrientation: tag) }
    // Turns: 6 is 90° clockwise, 3 is 180°, 8 is 270°; a mirror then a
    // turn makes the transposes.
    #expect(o(6).after(o(6)) == o(3))
    #expect(o(6).after(o(3)) == o(8))
    #expect(o(6).inverse == o(8))
    #expect(o(8).after(o(2)) == o(5))
    #expect(o(6).after(o(2)) == o(7))
    #expect(o(3).after(o(2)) == o(4))
    #expect(FrameMap(clockwise: 90) == o(6) && FrameMap(clockwise: -90) == o(8))
    #expect(FrameMap(clockwise: 0) == .identity && FrameMap(exifOrientation: 9) == .identity)
    #expect(all.map(\.swapsSides) == [false, false, false, false, true, true, true, true])
    #expect(FrameMap.identity.css(width: 10, height: 20) == nil)
    #expect(
      o(2).css(width: 10, height: 20)
        == "translate(calc(10*var(--u)),calc(0*var(--u))) matrix(-1,0,0,1,0,0)")
  }

  @Test func browserOrientationIsAJPEGsOrAPNGsTag() {
    for tag in 1...8 {
      #expect(AccessibleHTML.browserOrientation(ofImage: jpegHead(orientation: tag)) == tag)
      #expect(
        AccessibleHTML.browserOrientation(ofImage: jpegHead(orientation: tag, motorola: true))
          == tag)
      #expect(
        AccessibleHTML.browserOrientation(ofImage: pngChunks(orientation: tag, afterData: false))
          == tag)
      // Chromium ignores an eXIf chunk after the image data.
      #expect(
        AccessibleHTML.browserOrientation(ofImage: pngChunks(orientation: tag, afterData: true))
          == 1)
    }
    // A WebP's EXIF chunk is not applied; no tag, a bad value, cut files.
    let webp =
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8X".utf8) + jpegHead(orientation: 6)
    #expect(AccessibleHTML.browserOrientation(ofImage: webp) == 1)
    #expect(AccessibleHTML.browserOrientation(ofImage: [0xFF, 0xD8, 0xFF, 0xDA, 0, 2]) == 1)
    #expect(AccessibleHTML.browserOrientation(ofImage: jpegHead(orientation: 9)) == 1)
    let jpeg = jpegHead(orientation: 6)
    for cut in [3, 10, 24, 40, 50] {
      #expect(AccessibleHTML.browserOrientation(ofImage: Array(jpeg.prefix(cut))) == 1)
    }
    #expect(AccessibleHTML.browserOrientation(ofImage: []) == 1)
  }

  /// `html --image-url` takes the browser's orientation from the page's
  /// image file, reading it whole only when it is a JPEG or a PNG: each
  /// page of a PDF read its whole file here (issue 45, point 2: two
  /// copies of a 3.4 MB file a page at 20,000 pages). A sparse 8 GB file
  /// that starts as a PDF is answered from its first bytes.
  @Test func anImageFilesOrientationIsReadWholeOnlyForAJPEGOrAPNG() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
      let url = folder.appendingPathComponent(name)
      try Data(bytes).write(to: url)
      return url.path
    }
    let jpeg = try file("p.jpg", jpegHead(orientation: 6))
    let png = try file("p.png", pngChunks(orientation: 8, afterData: false))
    #expect(HTMLPictures.browserOrientation(ofImageAt: jpeg) == 6)
    #expect(HTMLPictures.browserOrientation(ofImageAt: png) == 8)
    #expect(
      HTMLPictures.browserOrientation(ofImageAt: try file("p.tif", [0x49, 0x49, 42, 0])) == 1)
    #expect(HTMLPictures.browserOrientation(ofImageAt: try file("short", [0xFF])) == 1)
    // As before: nothing to read gives no orientation (the page's own).
    #expect(HTMLPictures.browserOrientation(ofImageAt: try file("empty", [])) == nil)
    #expect(HTMLPictures.browserOrientation(ofImageAt: folder.path + "/missing") == nil)
    let huge = try file("huge.pdf", Array("%PDF-1.4\n".utf8))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
    try handle.truncate(atOffset: 8 << 30)
    try handle.close()
    #expect(HTMLPictures.browserOrientation(ofImageAt: huge) == 1)
  }

  /// The pictures of a PDF's pages are rendered from one opening of the
  /// file, each the same PNG as a drawing from the file's bytes gives
  /// (issue 45: each page read the whole file and opened it in Poppler
  /// again, so `html` of a long PDF took time in the square of its pages).
  @Test func aPDFsPagesArePicturedFromOneOpening() throws {
    guard PDFInputTests.popplerPresent else {
      print(PDFInputTests.absentMessage)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pdf = folder.appendingPathComponent("five.pdf").path
    let scan = Fixtures.scans.appendingPathComponent("scan.pdf").path
    let (code, output) = try ExternalCheckers.run(
      "/usr/bin/qpdf", ["--empty", "--pages", scan, "3,3,3,3,3", "--", pdf])
    try #require(code == 0, "\(output)")
    let model = folder.appendingPathComponent("five.json").path
    let read = scantext(["convert", pdf, model])
    try #require(read.code == 0, "\(read.stderr)")
    let pages = try DocumentFiles.read(model).pages
    try #require(pages.count == 5)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
    for origin in [pdf, model] {
      var pictures = HTMLPictures(outputPath: folder.appendingPathComponent("out.html").path)
      for (n, page) in pages.enumerated() {
        let shown = try pictures.picture(
          of: page, from: PageOrigin(path: origin, page: n, number: n + 1))
        let drawn = try PageDrawing(layers: []).png(
          of: page, imageData: bytes, imagePath: pdf, imagePage: n)
        #expect(shown.image == .embedded(bytes: [UInt8](drawn), mediaType: "image/png"))
      }
      #expect(pictures.pdfOpenings == 1, "\(origin)")
    }
  }

  @Test func pictureIsTurnedIntoTheModelsFrame() {
    let text = [paragraph(["Some text here."], y: 240)]
    // A model in the viewer's frame (tag 6 applied: 1400 × 1000) over a
    // picture the browser draws as stored (a WebP's: 1000 × 1400).
    let viewer = page(text, width: 1400, height: 1000, exifOrientation: 6)
    let writer = AccessibleHTML()
    let asStored = writer.html(pages: [
      .init(page: viewer, image: .url("p.webp"), imageOrientation: 1)
    ])
    #expect(
      asStored.contains(
        #"width="1000" height="1400" style="width:calc(1000*var(--u));height:calc(1400*var(--u));transform:translate(calc(1400*var(--u)),calc(0*var(--u))) matrix(0,1,-1,0,0,0)">"#
      ))
    // Drawn with the tag applied (a JPEG's): as it is.
    let applied = writer.html(pages: [.init(page: viewer, image: .url("p.jpg"))])
    #expect(
      applied.contains(
        #"width="1400" height="1000" style="width:calc(1400*var(--u));height:calc(1000*var(--u))">"#
      ))
    // A model of the stored pixels (no tag recorded) over an embedded JPEG
    // whose tag 6 the browser applies: turned back.
    let stored = page(text, width: 1000, height: 1400)
    let embedded = AccessibleHTML(
      image: .embedded(bytes: jpegHead(orientation: 6), mediaType: "image/jpeg")
    ).html(for: stored)
    #expect(
      embedded.contains(
        #"width="1400" height="1000" style="width:calc(1400*var(--u));height:calc(1000*var(--u));transform:translate(calc(0*var(--u)),calc(1400*var(--u))) matrix(0,-1,1,0,0,0)">"#
      ))
  }

  @Test func severalPagesAreOneMainWithASectionEach() {
    let first = page([paragraph(["A Title"], y: 120, role: .heading, level: 1)])
    let second = page(
      [paragraph(["Deep section"], y: 180, role: .heading, level: 3), paragraph(["Text"], y: 240)],
      language: "deu")
    let html = AccessibleHTML().html(pages: [
      .init(page: first, image: .url("p1.png"), number: 3),
      .init(page: second, image: .url("p2.png"), number: 4),
    ])
    #expect(html.components(separatedBy: "<main>").count == 2)
    #expect(
      html.contains(
        "<body>\n<main>\n<section class=\"page\" id=\"page-3\" data-page=\"3\" aria-label=\"Page 3\" data-width"
      ))
    #expect(
      html.contains(
        "<section class=\"page\" id=\"page-4\" data-page=\"4\" aria-label=\"Page 4\" lang=\"de\" data-width"
      ))
    #expect(html.contains("alt=\"Scan of scan.png, page 4. Its recognised text follows.\""))
    #expect(html.hasSuffix("</section>\n</main>\n</body>\n</html>\n"))
    #expect(html.contains("<html lang=\"en\">"))
    #expect(html.contains("<title>A Title</title>"))
    // Heading levels never jump, across pages: the h3 after page 3's h1
    // becomes an h2; each page's text is a div in its section.
    #expect(
      outline(html).contains(
        "<div class=\"text\"><h2 class=\"heading\">Deep section</h2><p class=\"body\">Text</p></div>"
      ))
  }

  @Test func commandWritesEveryPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let truths = ["headings", "clean", "justified-hyphenated"].map {
      Fixtures.scans.appendingPathComponent($0 + ".truth.json").path
    }
    let document = folder.appendingPathComponent("doc.json").path
    #expect(scantext(["ocr"] + truths + ["-o", document, "-q"]).code == 0)
    let out = folder.appendingPathComponent("doc.html").path
    #expect(scantext(["html", document, "-o", out]).code == 0)
    let all = try String(contentsOfFile: out, encoding: .utf8)
    #expect(
      all.matches(of: #/<section class="page" id="page-(\d)"/#).map { String($0.output.1) } == [
        "1", "2", "3",
      ])
    // Not found beside the model: each page's image by its own name.
    #expect(imageSources(all) == ["headings.png", "clean.png", "justified-hyphenated.png"])

    #expect(scantext(["html", document, "-o", out, "--pages", "2-3"]).code == 0)
    let chosen = try String(contentsOfFile: out, encoding: .utf8)
    #expect(chosen.matches(of: #/data-page="(\d)"/#).map { String($0.output.1) } == ["2", "3"])
    #expect(imageSources(chosen) == ["clean.png", "justified-hyphenated.png"])

    // --image-url: each page's number in it, else refused.
    #expect(
      scantext(["html", document, "-o", out, "--image-url", "https://x/p{page}.png"]).code == 0)
    #expect(
      imageSources(try String(contentsOfFile: out, encoding: .utf8))
        == ["https://x/p1.png", "https://x/p2.png", "https://x/p3.png"])
    try FileManager.default.removeItem(atPath: out)
    let one = scantext(["html", document, "-o", out, "--image-url", "https://x/p.png"])
    #expect(one.code == 64)
    #expect(
      one.stderr.hasPrefix(
        "Error: '--image-url' names one image and \(document) has several pages: put {page} in it (each page's number)\nUsage: scantext html"
      ))
    let past = scantext(["html", document, "-o", out, "--pages", "4"])
    #expect(past.code != 0 && past.stderr.contains(document))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// `ocr --format accessible-html` and `convert --format accessible-html`
  /// write the registry's row through the same pictures as `html`: the same
  /// bytes, from a model (each page's image by its name) and from a scan
  /// (linked by its path from the HTML file).
  @Test func ocrAndConvertWriteWhatHTMLWrites() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let document = try FormatRegistryTests.twoPageModel(in: folder)
    let scan = Fixtures.scans.appendingPathComponent("clean.png").path
    for input in [document, scan] {
      let html = folder.appendingPathComponent("html.html").path
      let r = scantext(["html", input, "-o", html])
      #expect(r.code == 0, "\(r.stderr)")
      let expected = try Data(contentsOf: URL(fileURLWithPath: html))
      let commands = [
        ["ocr", input, "-o", "ocr.html", "--format", "accessible-html", "-q"],
        ["convert", input, "convert.html", "--format", "accessible-html"],
      ]
      for command in commands {
        let out = folder.appendingPathComponent(command[command[0] == "ocr" ? 3 : 2]).path
        let run = scantext(command.map { $0.hasSuffix(".html") ? out : $0 })
        #expect(run.code == 0 && run.stderr.isEmpty, "\(command): \(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == expected, "\(command)")
      }
      let sources = imageSources(String(decoding: expected, as: UTF8.self))
      if input == scan {
        #expect(sources.count == 1)
        #expect(sources.allSatisfy { $0.hasPrefix("../") && $0.hasSuffix("/Scans/clean.png") })
      } else {
        #expect(sources == ["headings.png", "clean.png"])
      }
    }
  }

  @Test func commandErrorsNameTheProblem() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("page.html").path
    let model = folder.appendingPathComponent("m.json").path
    try FileManager.default.copyItem(
      atPath: Fixtures.scans.appendingPathComponent("clean.truth.json").path, toPath: model)
    let both = scantext(["html", model, "-o", out, "--embed-image", "--image-url", "u"])
    #expect(both.code == 64)
    #expect(
      both.stderr.hasPrefix(
        "Error: '--embed-image' and '--image-url' cannot be used together\nUsage: scantext html"))
    #expect(scantext(["html", model, "-o", out, "--image", "x.png"]).code == 64)
    let missing = scantext(["html", model, "-o", out, "--embed-image"])
    #expect(missing.code == 1)
    #expect(
      missing.stderr
        == "Error: \(model): no page image to embed (the model names 'clean.png' and it is not beside the model); give it with --image\n"
    )
    // An image of another size than the page (issue 27, point 8) was
    // stretched under the layer silently; draw and the PDF refuse it.
    let other = Fixtures.scans.appendingPathComponent("dpi-100.png").path
    let wrongSize = scantext(["html", model, "-o", out, "--embed-image", "--image", other])
    #expect(wrongSize.code == 1)
    #expect(
      wrongSize.stderr.hasPrefix("Error: \(other): the image is ")
        && wrongSize.stderr.hasSuffix(" pixels but the page is 1275×1650\n"), "\(wrongSize.stderr)")
    let noModel = scantext(["html", folder.appendingPathComponent("none.json").path, "-o", out])
    #expect(noModel.code == 1)
    #expect(noModel.stderr.contains("none.json"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}

/// Headless Chromium and the tools venv (Tools/install/install-dependencies.sh
/// installs both), or why the browser test skips.
private enum Browser {
  static let python = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/python")
    .path
  static let script = Fixtures.packageRoot.appendingPathComponent("Tools/check/check-html.py").path

  static var absentReason: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      path.split(separator: ":").contains(where: {
        FileManager.default.isExecutableFile(atPath: "\($0)/chromium")
      })
    else {
      return
        "chromium not installed (run Tools/install/install-dependencies.sh): browser check skipped"
    }
    guard FileManager.default.isExecutableFile(atPath: python),
      (try? ExternalCheckers.run(python, ["-c", "import websocket, numpy, PIL"]))?.0 == 0
    else {
      return
        "websocket-client, numpy or Pillow not in .build/tools-venv (run Tools/install/install-dependencies.sh): browser check skipped"
    }
    return nil
  }

  /// Runs `Tools/check/check-html.py` on (HTML, MODEL) pairs in one Chromium;
  /// returns its exit status and each HTML's report by file name.
  /// The geometry is checked at 100 % only with `oneZoom` (the sample
  /// pages check it at every zoom).
  static func check(_ pairs: [(html: String, model: String)], oneZoom: Bool = false) throws
    -> (status: Int32, reports: [String: JSONValue])
  {
    let (status, output) = try ExternalCheckers.run(
      python,
      [script, "--json", "--scantext", Fixtures.executable.path]
        + (oneZoom ? ["--zooms", "100%"] : []) + pairs.flatMap { [$0.html, $0.model] })
    let start = output.firstIndex(of: "{") ?? output.startIndex
    let report = try JSONValue(parsing: String(output[start...]))
    let pages = try #require(report["pages"]?.arrayValue, "check-html.py: \(output)")
    #expect(pages.count == pairs.count, "check-html.py: \(output)")
    return (
      status,
      Dictionary(
        pages.map { (URL(fileURLWithPath: $0["html"]?.stringValue ?? "").lastPathComponent, $0) },
        uniquingKeysWith: { a, _ in a })
    )
  }

  /// The failures check-html.py reports for one HTML (["no report"] when
  /// it has none).
  static func failures(_ report: JSONValue?) -> [String] {
    report?["failures"]?.arrayValue?.compactMap(\.stringValue) ?? ["no report"]
  }

  /// Runs `body` with a new folder (removed after), or says why the
  /// browser tests skip.
  static func inFolder(_ body: (URL) throws -> Void) throws {
    if let reason = absentReason {
      print(reason)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(folder)
  }

  /// Expects every report to pass, with lines.
  static func expectPassed(_ reports: [String: JSONValue], status: Int32) {
    for (name, report) in reports.sorted(by: { $0.key < $1.key }) {
      #expect(failures(report).isEmpty, "\(name): \(failures(report).joined(separator: "\n"))")
      #expect((report["lines"]?.intValue ?? 0) > 0, "\(name) has no lines")
    }
    #expect(status == 0, "check-html.py exited with \(status)")
  }
}

/// Writes pages as a ScanText document in `folder`, each page's image (a
/// real scan) linked beside it, so that `scantext html` finds them there;
/// returns the document's path.
private func writeModel(
  _ pages: [Page], named name: String, in folder: URL, images: [String: String] = [:]
) throws -> String {
  let url = folder.appendingPathComponent(name)
  let document = Document(pages: pages.enumerated().map { $1.withIndex($0) })
  try DocumentJSON.encode(document, generator: ScanText.generator)
    .write(to: url, atomically: true, encoding: .utf8)
  for (file, source) in images {
    let link = folder.appendingPathComponent(file)
    if !FileManager.default.fileExists(atPath: link.path) {
      try FileManager.default.createSymbolicLink(
        at: link, withDestinationURL: URL(fileURLWithPath: source))
    }
  }
  return url.path
}

/// Runs `scantext`, expecting success.
private func html(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
  let run = scantext(["html"] + arguments)
  #expect(
    run.code == 0, "html \(arguments.joined(separator: " ")): \(run.stderr)",
    sourceLocation: sourceLocation)
}

@Suite("HTML in Chromium")
struct HTMLBrowserTests {
  /// Every sample page (its ground truth) and real pages (a PAGE XML ground
  /// truth and recognised scans: a 1-bit TIFF and the cookbook photo,
  /// whose EXIF tag turns it) in one Chromium: lines and words on their
  /// outlines within 2 CSS px at 100 %, 200 % and 2000 CSS px wide, the
  /// picture's ink under the words, headings and text in reading order in
  /// the accessibility tree, the copied text, hyphenated words found by
  /// `window.find`.
  @Test func samplePagesPassInChromium() throws {
    try Browser.inFolder { folder in
      var pairs: [(html: String, model: String)] = []
      for image in Fixtures.scanImages {
        let truth = Fixtures.scans.appendingPathComponent(Fixtures.stem(image) + ".truth.json").path
        let out = folder.appendingPathComponent(Fixtures.stem(image) + ".html").path
        let url = Fixtures.scans.appendingPathComponent(image).absoluteString
        html([truth, "-o", out, "--image-url", url])
        pairs.append((out, truth))
      }
      // Marks, an emoji with a skin tone, CJK, right-to-left words and
      // lines, a soft hyphen, markup characters, a hyphenated word; no
      // picture.
      let special = page(
        [
          paragraph(
            ["cafe\u{301} 👍🏽 ſchön 中文 שלום a&<b> x\u{AD}y", "character recog-", "nition here"],
            y: 100, confidences: ["ſchön": 20]),
          paragraph(["שלום עולם ומלואו"], y: 300, role: .heading),
        ], image: nil)
      let specialModel = try model(special)
      let specialHTML = folder.appendingPathComponent("special.html").path
      html([specialModel, "-o", specialHTML])
      pairs.append((specialHTML, specialModel))
      if let real = RealScans.folder {
        // Kant's PAGE ground truth names its image INPUT_0017.tif: given.
        let kant = real.appendingPathComponent("ocrd/kant-0017.page.xml").path
        let kantHTML = folder.appendingPathComponent("kant-0017.html").path
        html([
          kant, "-o", kantHTML, "--embed-image", "--image",
          real.appendingPathComponent("ocrd/kant-0017.tif").path,
        ])
        pairs.append((kantHTML, kant))
        // Recognised (the recognitions the real-scan suites share), the
        // image beside the model: the TIFF embedded as PNG, the photo linked
        // (Chromium turns it by its EXIF tag, 6) with curled lines (each
        // word moved onto its stretch of the curve) and a word hyphenated
        // before a comma.
        for (name, image) in [
          ("eurotext", "tesseract-test/eurotext.tif"),
          ("boston-cooking-a", "ocrd/boston-cooking-a.jpg"),
        ] {
          let recognised = try RealScans.pages(image)
          let source = try writeModel(
            recognised, named: name + ".json", in: folder,
            images: [URL(fileURLWithPath: image).lastPathComponent: RealScans.path(image)])
          let out = folder.appendingPathComponent(name + ".html").path
          html([source, "-o", out])
          pairs.append((out, source))
        }
      } else {
        print(RealScans.absentMessage)
      }
      let (status, reports) = try Browser.check(pairs)
      Browser.expectPassed(reports, status: status)
      // What the checks saw: headings on the heading pages, the hyphenated
      // word found, the pictures' ink under the words.
      #expect(reports["headings.html"]?["headings"]?.intValue == 3)
      #expect(reports["justified-hyphenated.html"]?["found"]?.intValue == 1)
      #expect(reports["special.html"]?["found"]?.intValue == 1)
      #expect(reports["special.html"]?["headings"]?.intValue == 1)
      #expect(reports["special.html"]?["ink"]?.stringValue == "no picture")
      #expect((reports["clean.html"]?["ink"]?["inside"]?.doubleValue ?? 0) > 0.95)
    }
  }

  /// Pages found turned (the sample pages turned 90°, 180° and 270°, and
  /// real ones: cardinal-2/3/4, the pages of cardinal.pdf turned 90°,
  /// 180° and 270°, and Tesseract's phototest turned left, right and
  /// upside down) are shown upright, the scan and the layer together; with
  /// --keep-rotation (the sample pages), as scanned. Written as one
  /// document of many pages, each its own image.
  @Test func turnedPagesAreShownUpright() throws {
    try Browser.inFolder { folder in
      var pages = try ["rotated-90", "rotated-180", "rotated-270"].map {
        try Fixtures.truth($0 + ".png")
      }
      var images = Dictionary(
        uniqueKeysWithValues: ["rotated-90", "rotated-180", "rotated-270"].map {
          ($0 + ".png", Fixtures.scans.appendingPathComponent($0 + ".png").path)
        })
      if RealScans.isAvailable {
        for image in [
          "ocrmypdf/cardinal-2.png", "ocrmypdf/cardinal-3.png", "ocrmypdf/cardinal-4.png",
          "tesseract-test/phototest-rotated-L.png", "tesseract-test/phototest-rotated-R.png",
          "tesseract-test/phototest-rotated-180.png",
        ] {
          pages += try RealScans.pages(image)
          images[URL(fileURLWithPath: image).lastPathComponent] = RealScans.path(image)
        }
      } else {
        print(RealScans.absentMessage)
      }
      #expect(pages.allSatisfy { $0.orientation != 0 }, "\(pages.map(\.orientation))")
      let source = try writeModel(pages, named: "turned.json", in: folder, images: images)
      let keptSource = try writeModel(
        Array(pages.prefix(3)), named: "kept.json", in: folder, images: images)
      let upright = folder.appendingPathComponent("upright.html").path
      let kept = folder.appendingPathComponent("kept.html").path
      html([source, "-o", upright])
      html([keptSource, "-o", kept, "--keep-rotation"])
      // Each page's box is the upright page's (or the scan's, kept).
      let uprightHTML = try String(contentsOfFile: upright, encoding: .utf8)
      let keptHTML = try String(contentsOfFile: kept, encoding: .utf8)
      let boxes =
        #/data-width="(\d+)" data-height="(\d+)" style="--u:calc\(100cqw / \d+\);aspect-ratio:(\d+) / (\d+)"/#
      let shown = uprightHTML.matches(of: boxes).map { ($0.output.3, $0.output.4) }
      #expect(shown.count == pages.count)
      for (page, box) in zip(pages, shown) {
        let side =
          page.orientation % 180 == 0 ? (page.width, page.height) : (page.height, page.width)
        #expect("\(side.0)" == box.0 && "\(side.1)" == box.1, "\(page.image ?? "")")
      }
      #expect(keptHTML.matches(of: boxes).allSatisfy { $0.output.1 == $0.output.3 })
      let (status, reports) = try Browser.check(
        [(upright, source), (kept, keptSource)], oneZoom: true)
      Browser.expectPassed(reports, status: status)
      #expect(reports["upright.html"]?["pages"]?.intValue == pages.count)
    }
  }

  /// Photos whose EXIF tag turns or mirrors them: a page made from
  /// `headings.png` stored under each of the 8 tags
  /// (`Tools/generate/make-orientation-samples.py`), as JPEG (linked), PNG with
  /// `eXIf` (embedded) and WebP (Chromium ignores its tag: the writer
  /// turns it), with the page's model in the viewer's frame (the tag
  /// recorded as applied), and TIFFs turned by their tag, recognised: the
  /// picture is drawn in the model's frame. The same files under a model that says the tag was not applied
  /// (sideways, upside down, mirrored against the picture the browser
  /// draws), and the real photo `boston-cooking-a.jpg` (tag 6) written as
  /// before (the browser taken to draw its stored pixels), fail the ink
  /// check: it is what catches a layer across the picture.
  @Test func exifPhotosAreShownInTheModelsFrame() throws {
    try Browser.inFolder { folder in
      let made = try ExternalCheckers.run(
        Browser.python,
        [
          Fixtures.packageRoot.appendingPathComponent("Tools/generate/make-orientation-samples.py")
            .path,
          Fixtures.scans.appendingPathComponent("headings.png").path, folder.path,
          "--formats", "jpg,png,webp,tif",
        ])
      try #require(made.0 == 0, "make-orientation-samples.py: \(made.1)")
      let truth = try Fixtures.truth("headings.png")
      func tagged(_ tag: Int, _ ext: String, applied: Bool = true) -> Page {
        truth.withImage("headings-o\(tag).\(ext)").rebuilt(
          pdf: truth.pdf, exifOrientation: applied ? tag : nil)
      }
      var pairs: [(html: String, model: String)] = []
      for (ext, tags, embed) in [
        ("jpg", Array(1...8), false), ("png", Array(1...8), true), ("webp", [2, 6, 7], false),
      ] {
        let source = try writeModel(tags.map { tagged($0, ext) }, named: ext + ".json", in: folder)
        let out = folder.appendingPathComponent(ext + ".html").path
        html([source, "-o", out] + (embed ? ["--embed-image"] : []))
        pairs.append((out, source))
      }
      // TIFFs (embedded as PNG) turned by their tag, recognised: the model
      // in the viewer's frame, or (a reader that ignores the tag) in the
      // stored one with the turn found by orientation detection.
      for tag in [3, 6] {
        let image = folder.appendingPathComponent("headings-o\(tag).tif").path
        let source = folder.appendingPathComponent("tif-o\(tag).json").path
        #expect(scantext(["ocr", image, "-o", source, "-q", "--no-cache"]).code == 0)
        let out = folder.appendingPathComponent("tif-o\(tag).html").path
        html([source, "-o", out])
        pairs.append((out, source))
      }
      var wrong = [(6, "jpg", "sideways"), (3, "jpg", "upside-down"), (2, "png", "mirrored")]
      for (tag, ext, name) in wrong {
        let source = try writeModel(
          [tagged(tag, ext, applied: false)], named: name + ".json", in: folder)
        let out = folder.appendingPathComponent(name + ".html").path
        html([source, "-o", out])
        pairs.append((out, source))
      }
      // The real photo (tag 6) as the writer drew it before: taking the
      // browser to draw the stored pixels. Chromium turns them, so the layer
      // runs across the picture, whichever frame the model is in.
      if RealScans.isAvailable {
        let photo = "ocrd/boston-cooking-a.jpg"
        let recognised = try #require(try RealScans.pages(photo).first)
        let source = try writeModel(
          [recognised], named: "boston.json", in: folder,
          images: ["boston-cooking-a.jpg": RealScans.path(photo)])
        let out = folder.appendingPathComponent("boston-as-before.html").path
        let before = AccessibleHTML().html(pages: [
          .init(page: recognised, image: .url("boston-cooking-a.jpg"), imageOrientation: 1)
        ])
        try before.write(toFile: out, atomically: true, encoding: .utf8)
        pairs.append((out, source))
        wrong.append((6, "jpg", "boston-as-before"))
      }
      let (status, reports) = try Browser.check(pairs, oneZoom: true)
      #expect(status == 1)
      Browser.expectPassed(
        reports.filter { !wrong.map { "\($0.2).html" }.contains($0.key) }, status: 0)
      #expect(reports["jpg.html"]?["pages"]?.intValue == 8)
      for (_, _, name) in wrong {
        let failures = Browser.failures(reports[name + ".html"])
        #expect(failures.contains { $0.hasPrefix("ink: ") }, "\(name): \(failures)")
      }
    }
  }

  /// Multi-page inputs write every page, or those `--pages` selects: a PDF
  /// of two sample pages (its pages' renderings embedded) and a two-page
  /// TIFF (embedded as PNG, each page its own page of the file), given as
  /// models and as the files themselves.
  @Test func multiPageInputsWriteEveryPage() throws {
    guard PDFInputTests.popplerPresent, let img2pdf = PDFInputTests.img2pdf else {
      print(PDFInputTests.absentMessage)
      return
    }
    try Browser.inFolder { folder in
      func sample(_ name: String) -> String { Fixtures.scans.appendingPathComponent(name).path }
      let pdf = folder.appendingPathComponent("two.pdf").path
      let made = try ExternalCheckers.run(
        img2pdf, [sample("headings.png"), sample("justified-hyphenated.png"), "-o", pdf])
      try #require(made.0 == 0, "img2pdf: \(made.1)")
      let tiff = folder.appendingPathComponent("two.tif").path
      let joined = try ExternalCheckers.run(
        Browser.python,
        [
          "-c",
          "import sys; from PIL import Image; a, b = (Image.open(p) for p in sys.argv[1:3]); "
            + "a.save(sys.argv[3], save_all=True, append_images=[b], compression='tiff_deflate')",
          sample("clean.png"), sample("two-columns.png"), tiff,
        ])
      try #require(joined.0 == 0, "Pillow: \(joined.1)")
      var pairs: [(html: String, model: String)] = []
      for input in [pdf, tiff] {
        let stem = URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        let ext = URL(fileURLWithPath: input).pathExtension
        let source = folder.appendingPathComponent(stem + "-" + ext + ".json").path
        #expect(scantext(["ocr", input, "-o", source, "-q", "--no-cache"]).code == 0)
        let all = folder.appendingPathComponent(ext + "-model.html").path
        let second = folder.appendingPathComponent(ext + "-page2.html").path
        html([source, "-o", all])
        html([input, "-o", second, "--pages", "2", "--no-cache"])
        pairs += [(all, source), (second, source)]
      }
      let (status, reports) = try Browser.check(pairs, oneZoom: true)
      Browser.expectPassed(reports, status: status)
      for ext in ["pdf", "tif"] {
        #expect(reports[ext + "-model.html"]?["pages"]?.intValue == 2)
        #expect(reports[ext + "-page2.html"]?["pages"]?.intValue == 1)
      }
      let second = try String(
        contentsOfFile: folder.appendingPathComponent("tif-page2.html").path, encoding: .utf8)
      #expect(second.contains(#"data-page="2""#))
      #expect(second.contains(#"src="data:image/png;base64,"#))
    }
  }
}
