import Foundation
import ScanModel
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanFormats

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
private func page(_ paragraphs: [Paragraph], image: String? = "scan.png", language: String? = "eng")
  -> Page
{
  Page(
    image: image, width: 1000, height: 1400, language: language,
    blocks: paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) })
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
        #"<img class="scan" src="scan.png" alt="Scan of scan.png. Its recognised text follows." width="1000" height="1400">"#
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
        + "</p></footer></div></body></html>")
    #expect(html.components(separatedBy: "<main>").count == 2)
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
    #expect(html.contains("--u: calc(100cqw / 1000)"))
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
    #expect(html.contains(#"<img class="scan" src="headings.png""#))
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
    let noModel = scantext(["html", folder.appendingPathComponent("none.json").path, "-o", out])
    #expect(noModel.code == 1)
    #expect(noModel.stderr.contains("none.json"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}

/// Headless Chromium and the tools venv (Tools/install-dependencies.sh
/// installs both), or why the browser test skips.
private enum Browser {
  static let python = Fixtures.packageRoot.appendingPathComponent(".build/tools-venv/bin/python")
    .path
  static let script = Fixtures.packageRoot.appendingPathComponent("Tools/check-html.py").path

  static var absentReason: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard
      path.split(separator: ":").contains(where: {
        FileManager.default.isExecutableFile(atPath: "\($0)/chromium")
      })
    else {
      return "chromium not installed (run Tools/install-dependencies.sh): browser check skipped"
    }
    guard FileManager.default.isExecutableFile(atPath: python),
      (try? ExternalCheckers.run(python, ["-c", "import websocket"]))?.0 == 0
    else {
      return
        "websocket-client not in .build/tools-venv (run Tools/install-dependencies.sh): browser check skipped"
    }
    return nil
  }
}

@Suite("HTML in Chromium")
struct HTMLBrowserTests {
  /// Every sample page (its ground truth) and two real pages (a PAGE XML
  /// ground truth and a recognised scan) in one Chromium: lines and words
  /// on their outlines within 2 CSS px at 100 %, 200 % and 2000 CSS px
  /// wide, headings and text in reading order in the accessibility tree,
  /// the copied text, hyphenated words found by `window.find`.
  @Test func samplePagesPassInChromium() throws {
    if let reason = Browser.absentReason {
      print(reason)
      return
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var pairs: [String] = []
    for image in Fixtures.scanImages {
      let truth = Fixtures.scans.appendingPathComponent(Fixtures.stem(image) + ".truth.json").path
      let html = folder.appendingPathComponent(Fixtures.stem(image) + ".html").path
      let url = Fixtures.scans.appendingPathComponent(image).absoluteString
      let run = scantext(["html", truth, "-o", html, "--image-url", url])
      #expect(run.code == 0, "\(image): \(run.stderr)")
      pairs += [html, truth]
    }
    // Marks, an emoji with a skin tone, CJK, right-to-left words and
    // lines, a soft hyphen, markup characters, a hyphenated word.
    let special = page([
      paragraph(
        ["cafe\u{301} 👍🏽 ſchön 中文 שלום a&<b> x\u{AD}y", "character recog-", "nition here"],
        y: 100, confidences: ["ſchön": 20]),
      paragraph(["שלום עולם ומלואו"], y: 300, role: .heading),
    ])
    let specialModel = try model(special)
    let specialHTML = folder.appendingPathComponent("special.html").path
    #expect(scantext(["html", specialModel, "-o", specialHTML]).code == 0)
    pairs += [specialHTML, specialModel]
    if let real = RealScans.folder {
      let kant = real.appendingPathComponent("ocrd/kant-0017.page.xml").path
      let eurotext = real.appendingPathComponent("tesseract-test/eurotext.tif").path
      let model = folder.appendingPathComponent("eurotext.json").path
      #expect(scantext(["ocr", eurotext, "-o", model, "-q", "--no-cache"]).code == 0)
      // The cookbook photo: curled lines (each word moved onto its
      // stretch of the curve) and a word hyphenated before a comma.
      let boston = real.appendingPathComponent("ocrd/boston-cooking-a.jpg").path
      let bostonModel = folder.appendingPathComponent("boston.json").path
      #expect(scantext(["ocr", boston, "-o", bostonModel, "-q", "--no-cache"]).code == 0)
      for (name, source) in [
        ("kant-0017", kant), ("eurotext", model), ("boston-cooking-a", bostonModel),
      ] {
        let html = folder.appendingPathComponent(name + ".html").path
        #expect(scantext(["html", source, "-o", html]).code == 0)
        pairs += [html, source]
      }
    } else {
      print(RealScans.absentMessage)
    }
    let (status, output) = try ExternalCheckers.run(
      Browser.python,
      [Browser.script, "--json", "--scantext", Fixtures.executable.path] + pairs)
    let start = output.firstIndex(of: "{") ?? output.startIndex
    let report = try JSONValue(parsing: String(output[start...]))
    let pages = try #require(report["pages"]?.arrayValue, "check-html.py: \(output)")
    #expect(pages.count == pairs.count / 2)
    for page in pages {
      let name = page["html"]?.stringValue ?? "?"
      let failures = page["failures"]?.arrayValue?.compactMap(\.stringValue) ?? ["no report"]
      #expect(failures.isEmpty, "\(name): \(failures.joined(separator: "\n"))")
      #expect((page["lines"]?.intValue ?? 0) > 0, "\(name) has no lines")
    }
    #expect(status == 0, "check-html.py exited with \(status)")
    // What the checks saw: headings on the heading pages, the hyphenated
    // word found.
    let byName = Dictionary(
      pages.map { (URL(fileURLWithPath: $0["html"]?.stringValue ?? "").lastPathComponent, $0) },
      uniquingKeysWith: { a, _ in a })
    #expect(byName["headings.html"]?["headings"]?.intValue == 3)
    #expect(byName["justified-hyphenated.html"]?["found"]?.intValue == 1)
    #expect(byName["special.html"]?["found"]?.intValue == 1)
    #expect(byName["special.html"]?["headings"]?.intValue == 1)
  }
}
