import Foundation
import ScanTestSupport
import Testing

@testable import ScanCLI
@testable import ScanOCR

/// Mixed documents tagged (issue 46 point 3): a page whose text came from
/// the PDF (born-digital, kept as it is) joins the structure tree with the
/// scanned pages, its content marked in place; an input that is already
/// tagged keeps its tree, and the scanned pages' tags join it in page
/// order. Checked with the validator (`page`: PDF/A and PDF/UA-1),
/// `qpdf --check`, `pdfua`, `Tools/check/check-tagged-pdf.py` and Poppler's
/// reading of the tags (`pdfinfo -struct-text`).
@Suite("Mixed PDFs tagged")
struct MixedPDFTagsTests {
  static let python = PDFArchiveTests.python
  static var present: Bool {
    PDFArchiveTests.validatorPresent && TaggedPDFTests.checkersPresent
      && PDFOutputTests.toolsPresent
      && ((try? ExternalCheckers.run(python, ["-c", "import pymupdf"]).0) ?? 1) == 0
  }
  static let absentMessage =
    "page-validation, pdfua, pymupdf (.build/tools-venv), qpdf or Poppler's tools missing (run Tools/install/install-dependencies.sh): mixed PDF tag tests skipped"
  static let font = "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"

  /// Makes a two-page PDF with PyMuPDF: a born-digital page (a heading,
  /// two paragraphs, a rule; Liberation Sans embedded) and a page that is
  /// `Scans/clean.png` at 300 dpi.
  static let mixedScript = """
    import sys, pikepdf, pymupdf
    font, image, out = sys.argv[1:4]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_font(fontname="F0", fontfile=font)
    page.insert_text((72, 90), "Minutes of the Reading Room", fontname="F0", fontsize=20)
    y = 130
    for lines in (["This page was typed, not scanned: its words are stored",
                   "as text, so a reader can select and search them."],
                  ["The committee agreed to open the reading room on",
                   "Saturday mornings from the first of May."]):
        for line in lines:
            page.insert_text((72, y), line, fontname="F0", fontsize=11)
            y += 15
        y += 24
    page.draw_line((72, 300), (540, 300))
    pix = pymupdf.Pixmap(image)
    scan = doc.new_page(width=pix.width * 72 / 300, height=pix.height * 72 / 300)
    scan.insert_image(scan.rect, filename=image)
    if sys.argv[4:] == ["link"]:
        typed = doc.new_page(width=612, height=792)
        typed.insert_font(fontname="F0", fontfile=font)
        typed.insert_text((72, 130), "See the library's website.", fontname="F0", fontsize=11)
        typed.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(72, 120, 300, 140),
                           "uri": "https://example.com/"})
        doc[1].insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(10, 10, 100, 40),
                            "page": 0})
    doc.save(out, garbage=3, deflate=True)
    # PyMuPDF leaves out the CIDFont's /CIDToGIDMap (its CIDs are glyph
    # ids): Identity, as PDF/A asks a Type 2 CIDFont to say.
    with pikepdf.open(out, allow_overwriting_input=True) as pdf:
        for p in pdf.pages:
            for f in p.Resources.get("/Font", {}).values():
                for d in f.get("/DescendantFonts", []):
                    d.CIDToGIDMap = pikepdf.Name.Identity
        pdf.save(out)
    """

  /// The mixed PDF of ``mixedScript`` in `folder` (with a third page,
  /// typed, with a link, and a link on the scanned page to page 1, when
  /// `link`).
  static func mixedPDF(in folder: URL, link: Bool = false) throws -> URL {
    let pdf = folder.appendingPathComponent("mixed-in.pdf")
    let (status, output) = try ExternalCheckers.run(
      python,
      ["-c", mixedScript, font, PDFArchiveTests.sample("clean.png"), pdf.path]
        + (link ? ["link"] : []))
    try #require(status == 0, "\(output)")
    return pdf
  }

  /// The structure elements (their types) with the page each is on, in
  /// the tree's order, as `pdfinfo -struct-text` does not say the page.
  static func elements(_ pdf: URL) throws -> [String] {
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      pages = {p.objgen: i + 1 for i, p in enumerate(pdf.pages)}
      def walk(e):
          if isinstance(e, pikepdf.Dictionary) and "/S" in e:
              if "/Pg" in e: print(str(e.S)[1:], pages.get(e.Pg.objgen))
              k = e.get("/K")
              for x in (list(k) if isinstance(k, pikepdf.Array) else [k]): walk(x)
      walk(pdf.Root.StructTreeRoot.K)
      """
    let (status, output) = try ExternalCheckers.run(python, ["-c", script, pdf.path])
    try #require(status == 0, "\(output)")
    return output.split(separator: "\n").map(String.init)
  }

  /// A born-digital page with its font embedded and a scanned page: PDF/A-2a
  /// and PDF/UA-1 with no failed rule; the typed page's heading and
  /// paragraphs are tags before the scan's, and its text is drawn as before.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func bornDigitalAndScannedPagesAreTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.mixedPDF(in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "mixed")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let checked = try TaggedPDFTests.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    // The typed page's heading and paragraphs, then the scan's.
    let elements = try Self.elements(pdf)
    #expect(elements.first == "H1 1", "\(elements)")
    let pages = elements.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
    #expect(pages == pages.sorted() && Set(pages) == [1, 2], "\(elements)")
    #expect(
      checked.structText.contains(
        """
          H1 (block)
            "Minutes of the Reading Room"
          P (block)
            "This page was typed, not scanned: its words are stored"
            "as text, so a reader can select and search them."
        """), "\(checked.structText)")
    #expect(
      checked.structText.contains(
        """
            "The committee agreed to open the reading room on"
            "Saturday mornings from the first of May."
        """), "\(checked.structText)")
    // The typed page shows the same text where it did.
    let args = ["-f", "1", "-l", "1"]
    #expect(
      try PDFOutputTests.run(ExternalCheckers.pdftotext, args + [input.path, "-"])
        == PDFOutputTests.run(ExternalCheckers.pdftotext, args + [pdf.path, "-"]))
  }

  /// A typed page with a link (PyMuPDF's `insert_link`, a URI) is tagged
  /// too: the annotation gets a `Link` element with an object reference to
  /// it, inside the paragraph whose words it covers (before: after the
  /// page's elements), its `/StructParent` and its URI as `/Contents` (a
  /// link on the scanned page, to page 1, `Page 1`); PDF/A-2a and
  /// PDF/UA-1 with no failed rule (before, the document was left untagged:
  /// marked, it failed PDFUA1-LINK-LINK-TAG-001 and LINK-CONTENTS-001).
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aTypedPageWithALinkIsTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.mixedPDF(in: folder, link: true)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "link")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let checked = try TaggedPDFTests.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    let elements = try Self.elements(pdf)
    #expect(elements.last == "Link 3" && elements.contains("Link 2"), "\(elements)")
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      tree = pdf.Root.StructTreeRoot.ParentTree.Nums
      keys = {int(tree[i]): tree[i + 1] for i in range(0, len(tree), 2)}
      for page in (pdf.pages[1].obj, pdf.pages[2].obj):
          link = page.Annots[0]
          element = keys[int(link.StructParent)]
          print(element.S, element.K.Type, element.K.Obj.objgen == link.objgen, link.Contents,
                page.Tabs, element.P.S)
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    // Each link inside the paragraph whose words it covers (the scanned
    // page's over its first lines).
    #expect(
      status == 0
        && output
          == "/Link /OBJR True Page 1 /S /P\n/Link /OBJR True https://example.com/ /S /P\n",
      "\(output)")
    #expect(
      try PDFOutputTests.run(ExternalCheckers.pdftotext, ["-f", "3", "-l", "3", input.path, "-"])
        == PDFOutputTests.run(ExternalCheckers.pdftotext, ["-f", "3", "-l", "3", pdf.path, "-"]))
  }

  /// The link PDF of ``mixedPDF(in:link:)`` with a text field on its typed
  /// page 3 (a PyMuPDF widget, `name` = `Ada`, its appearance in Helvetica,
  /// not embedded), its alternate name (`/TU`) `tooltip` when given.
  static func formPDF(in folder: URL, tooltip: String? = nil) throws -> URL {
    let linked = try mixedPDF(in: folder, link: true)
    let input = folder.appendingPathComponent("widget-in.pdf")
    let script = """
      import sys, pymupdf, pikepdf
      doc = pymupdf.open(sys.argv[1])
      w = pymupdf.Widget()
      w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
      w.rect = pymupdf.Rect(72, 200, 300, 220)
      w.field_name, w.field_value = "name", "Ada"
      doc[2].add_widget(w)
      doc.save(sys.argv[2])
      if sys.argv[3:]:
          with pikepdf.open(sys.argv[2], allow_overwriting_input=True) as pdf:
              pdf.Root.AcroForm.Fields[0].TU = sys.argv[3]
              pdf.save(sys.argv[2])
      """
    let (status, output) = try ExternalCheckers.run(
      python, ["-c", script, linked.path, input.path] + (tooltip.map { [$0] } ?? []))
    try #require(status == 0, "\(output)")
    return input
  }

  /// Each widget of the PDF: its element's type, the element's object
  /// reference is to it, its field's `/TU`, its page's `/Tabs`.
  static func widgets(_ pdf: URL) throws -> String {
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      tree = pdf.Root.StructTreeRoot.ParentTree.Nums
      keys = {int(tree[i]): tree[i + 1] for i in range(0, len(tree), 2)}
      for page in pdf.pages:
          for a in page.obj.get("/Annots", []):
              if a.Subtype != "/Widget": continue
              element = keys[int(a.StructParent)]
              field = a if "/T" in a else a.Parent
              print(element.S, element.K.Type, element.K.Obj.objgen == a.objgen,
                    field.get("/TU"), page.obj.Tabs)
      """
    let (status, output) = try ExternalCheckers.run(python, ["-c", script, pdf.path])
    try #require(status == 0, "\(output)")
    return output
  }

  /// A typed page with a form field (a PyMuPDF text widget) is tagged: the
  /// widget gets a `Form` element with an object reference to it and its
  /// `/StructParent`; its field, which has no alternate name, is given its
  /// name as one (`/TU`), and the user is told; the page `/Tabs /S`.
  /// PDF/A-2a and PDF/UA-1 with no failed rule (before: the document was
  /// left untagged, PDF/A-2u). The field's value, shown by its appearance,
  /// is the widget's: not in the tags as text of the page. The
  /// appearance's font is embedded like a page's.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aTypedPageWithAFormFieldIsTagged() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.formPDF(in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "widget")
    #expect(
      stderr
        == "Warning: \(pdf.path): form field 'name' had no alternate name (/TU): given its name as one\n"
    )
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let checked = try TaggedPDFTests.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    #expect(try Self.elements(pdf).contains("Form 3"))
    #expect(try Self.widgets(pdf) == "/Form /OBJR True name /S\n")
    #expect(checked.structText.contains("See the library's website."), "\(checked.structText)")
    #expect(!checked.structText.contains("Ada"), "\(checked.structText)")
    #expect(
      try PDFOutputTests.run(ExternalCheckers.pdftotext, ["-f", "3", "-l", "3", input.path, "-"])
        == PDFOutputTests.run(ExternalCheckers.pdftotext, ["-f", "3", "-l", "3", pdf.path, "-"]))
  }

  /// A field with an alternate name of its own keeps it, with no warning.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aFormFieldKeepsItsOwnAlternateName() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.formPDF(in: folder, tooltip: "Your first name")
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "tooltip")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    #expect(try Self.widgets(pdf) == "/Form /OBJR True Your first name /S\n")
  }

  /// `--no-tags` on the form: untagged, PDF/A-2u, no PDF/UA claim and no
  /// alternate name made up.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aFormFieldUntaggedWithNoTags() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.formPDF(in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr(
      [input.path], name: "untagged", extra: ["--no-tags"])
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2u", ua: false)
    let info = try PDFOutputTests.run(PDFOutputTests.pdfinfo, [pdf.path])
    #expect(info.contains("Tagged:          no"), "\(info)")
  }

  /// An input that is already tagged (ScanText's own tagged PDF of the
  /// mixed document, with a scanned page put between its two by
  /// `qpdf --pages`) keeps its tree: its elements stay, and the new page's
  /// join them in page order; PDF/A-2a and PDF/UA-1 with no failed rule.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func taggedInputKeepsItsTreeAndGainsTheScannedPage() throws {
    let folder = try Fixtures.temporaryFolder()
    let (tagged, _) = try PDFArchiveTests.ocr(
      [try Self.mixedPDF(in: folder).path], name: "tagged")
    let before = try Self.elements(tagged)
    let input = folder.appendingPathComponent("tagged-in.pdf")
    _ = try PDFOutputTests.run(
      ExternalCheckers.qpdf,
      [
        tagged.path, "--pages", tagged.path, "1", PDFArchiveTests.sample("scan.pdf"), "1",
        tagged.path, "2", "--", input.path,
      ])
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "merged")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let checked = try TaggedPDFTests.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    let elements = try Self.elements(pdf)
    let pages = elements.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
    #expect(pages == pages.sorted(), "\(elements)")
    #expect(pages.contains(2), "\(elements)")
    // The input's own elements, its page 2 now page 3.
    #expect(
      elements.filter { !$0.hasSuffix(" 2") }
        == before.map { $0.hasSuffix(" 2") ? $0.dropLast() + "3" : $0 }, "\(elements)")
    #expect(checked.structText.contains("Minutes of the Reading Room"))
  }

  /// Each text reader's text of a page (`pdftotext`, PyMuPDF, pdfminer.six),
  /// one after the other.
  static func readersText(_ pdf: URL, page: Int) throws -> String {
    let script = """
      import sys, subprocess, pymupdf
      from pdfminer.high_level import extract_text
      path, page = sys.argv[1], int(sys.argv[2])
      print(subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), path, "-"],
                           capture_output=True, text=True, check=True).stdout)
      print(pymupdf.open(path)[page - 1].get_text())
      print(extract_text(path, page_numbers=[page - 1]))
      """
    let (status, output) = try ExternalCheckers.run(python, ["-c", script, pdf.path, "\(page)"])
    try #require(status == 0, "\(output)")
    return output
  }

  /// `Scans/scan.pdf`: its typed page's font (Helvetica, not embedded) is
  /// embedded as a subset of its metric twin, Liberation Sans (TrueType,
  /// WinAnsiEncoding, widths from the twin), so the file is PDF/A-2a and
  /// PDF/UA-1 with no failed rule and no warning (before: plain PDF, the
  /// warning, and PDFUA1-FONT-EMBEDDING-001). The page's text is the same
  /// for the three readers, and the size promise holds.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func scanPDFsTypedPageGetsItsFontEmbedded() throws {
    let input = URL(fileURLWithPath: PDFArchiveTests.sample("scan.pdf"))
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "scan")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let checked = try TaggedPDFTests.check(pdf)
    #expect(checked.findings.isEmpty, "\(checked.findings)")
    let elements = try Self.elements(pdf)
    #expect(Array(elements.suffix(3)) == ["H1 3", "P 3", "P 3"], "\(elements)")
    #expect(
      checked.structText.contains(
        """
            "This page was typed, not scanned: its words are"
            "stored as text, so a reader can select and search"
        """), "\(checked.structText)")
    #expect(try Self.readersText(pdf, page: 3) == Self.readersText(input, page: 3))
    try PDFOutputTests.expectSizeBound(input: input, output: pdf)
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      font = pdf.pages[2].Resources.Font.F1
      program = font.FontDescriptor.FontFile2.read_bytes()
      name = str(font.BaseFont)
      print(font.Subtype, name[1:7].isupper(), name[7:], font.Encoding, len(program) < 8000)
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    #expect(
      status == 0 && output == "/TrueType True +LiberationSans-Regular /WinAnsiEncoding True\n",
      "\(output)")
  }

  /// Makes `Scans/scan.pdf`'s typed page's font (Helvetica, WinAnsi, not
  /// embedded) another: `macroman` (MacRomanEncoding, and a line with
  /// `é` and `ï`, 0x8E and 0x95), `differences` (an encoding dictionary
  /// over WinAnsiEncoding whose `/Differences` make 0x80 and 0x81 `é` and
  /// `ï`, on a line showing them, and `t` `t`), `standard` (no
  /// `/Encoding`: a Type 1 font's own StandardEncoding, on a line showing
  /// its quotes 0x60 and 0x27, `‘` and `’`), `unlisted` (an encoding
  /// dictionary without a base whose `/Differences` name 0x65 `/g42`, a
  /// name outside the Adobe Glyph List), `widths` (widths that are not
  /// Helvetica's),
  /// `type0` (a composite font, Identity-H, not embedded), `symbol` and
  /// `dingbats` (a line added in Symbol or ZapfDingbats, not embedded, in
  /// its own encoding: `• α + β = γ, π ≈ 3.14` and `✓ ✔ ■ ◆ ① ➞`), else
  /// the base font named so (under WinAnsiEncoding).
  static let fontScript = #"""
    import sys, pikepdf
    pdf = pikepdf.open(sys.argv[1])
    page = pdf.pages[2]
    font = page.Resources.Font.F1
    change = sys.argv[3]
    if change == "macroman":
        font.Encoding = pikepdf.Name.MacRomanEncoding
        page.Contents.write(page.Contents.read_bytes().replace(
            b"(until every drawer has been entered.)",
            b"(until every drawer has been entered: caf\x8e, na\x95ve.)"))
    elif change == "differences":
        font.Encoding = pikepdf.Dictionary(
            Type=pikepdf.Name.Encoding, BaseEncoding=pikepdf.Name.WinAnsiEncoding,
            Differences=pikepdf.Array([128, pikepdf.Name("/eacute"), pikepdf.Name("/idieresis"),
                                       0x74, pikepdf.Name("/t")]))
        page.Contents.write(page.Contents.read_bytes().replace(
            b"(until every drawer has been entered.)",
            b"(until every drawer has been entered: caf\x80, na\x81ve.)"))
    elif change == "standard":
        del font.Encoding
        page.Contents.write(page.Contents.read_bytes().replace(
            b"(until every drawer has been entered.)",
            b"(until every drawer has been `entered'.)"))
    elif change == "unlisted":
        font.Encoding = pikepdf.Dictionary(
            Type=pikepdf.Name.Encoding, Differences=pikepdf.Array([101, pikepdf.Name("/g42")]))
    elif change == "widths":
        font.FirstChar, font.LastChar, font.Widths = 32, 126, [500] * 95
    elif change == "type0":
        descriptor = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/ArialUnicodeMS"),
            Flags=32, FontBBox=[0, -200, 1000, 900], ItalicAngle=0, Ascent=900,
            Descent=-200, CapHeight=700, StemV=80))
        cid = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2,
            BaseFont=pikepdf.Name("/ArialUnicodeMS"), FontDescriptor=descriptor, DW=500,
            CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity",
                                             Supplement=0)))
        page.Resources.Font.F1 = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0,
            BaseFont=pikepdf.Name("/ArialUnicodeMS"), Encoding=pikepdf.Name("/Identity-H"),
            DescendantFonts=[cid]))
    elif change in ("symbol", "dingbats"):
        page.Resources.Font.F2 = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name("/Symbol" if change == "symbol" else "/ZapfDingbats")))
        line = b"(\xb7 a + b = g, p \xbb 3.14) Tj" if change == "symbol" else b"(3 4 n u \xac \xde) Tj"
        page.Contents.write(page.Contents.read_bytes().replace(
            b"(until every drawer has been entered.) Tj",
            b"(until every drawer has been entered.) Tj\n/F2 11 Tf\nT*\n" + line))
    else:
        font.BaseFont = pikepdf.Name("/" + change)
    pdf.save(sys.argv[2])
    """#

  /// `Scans/scan.pdf` with its typed page's font changed by ``fontScript``.
  static func scanPDF(withFont change: String, in folder: URL) throws -> URL {
    let input = folder.appendingPathComponent("\(change).pdf")
    let (status, output) = try ExternalCheckers.run(
      python, ["-c", fontScript, PDFArchiveTests.sample("scan.pdf"), input.path, change])
    try #require(status == 0, "\(output)")
    return input
  }

  /// A typed page in Helvetica with MacRomanEncoding (`é`, `ï` past
  /// ASCII) gets its twin embedded too, as a TrueType font over
  /// MacRomanEncoding (which PDF/A allows): PDF/A-2a and PDF/UA-1 with no
  /// failed rule and no warning (before: plain PDF, "its encoding is not
  /// WinAnsiEncoding"); the three readers read the page as from the input,
  /// `café, naïve.` included.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aMacRomanFontGetsItsTwinEmbedded() throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.scanPDF(withFont: "macroman", in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "macroman")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let text = try Self.readersText(pdf, page: 3)
    #expect(text == (try Self.readersText(input, page: 3)))
    #expect(text.components(separatedBy: "café, naïve.").count == 4, "\(text)")
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      font = pdf.pages[2].Resources.Font.F1
      print(font.Subtype, font.Encoding, "/FontFile2" in font.FontDescriptor)
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    #expect(status == 0 && output == "/TrueType /MacRomanEncoding True\n", "\(output)")
  }

  /// A typed page in Helvetica whose encoding has `/Differences` (codes
  /// 0x80 and 0x81, undefined or `Euro` in WinAnsi, made `é` and `ï`) gets
  /// its twin embedded as a symbolic TrueType font (its `cmap` maps the
  /// codes to the glyphs of their characters, no `/Encoding`, a
  /// `/ToUnicode` map): PDF/A-2a and PDF/UA-1 with no failed rule and no
  /// warning (before: plain PDF, "its encoding has /Differences"); the
  /// three readers read the page as from the input. So is a Type 1 font
  /// without `/Encoding` (StandardEncoding) showing its quotes, `‘` and
  /// `’`, which WinAnsi has elsewhere: before, it claimed PDF/A-2a and
  /// PDF/UA-1 under WinAnsi with `/Differences` and failed three rules of
  /// each (PDFA2A-TRUETYPE-GLYPH-PRESENCE-001: the validator finds the
  /// glyph by the base encoding).
  @Test(
    .enabled(if: present, Comment(rawValue: absentMessage)),
    arguments: [("differences", "café, naïve."), ("standard", "‘entered’.")])
  func aFontWithDifferencesGetsItsTwinEmbedded(change: String, shown: String) throws {
    let tounicode = change == "standard" ? "<27> <2019>" : "<80> <00E9>"
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.scanPDF(withFont: change, in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: change)
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let text = try Self.readersText(pdf, page: 3)
    #expect(text == (try Self.readersText(input, page: 3)))
    #expect(text.components(separatedBy: shown).count == 4, "\(text)")
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      font = pdf.pages[2].Resources.Font.F1
      print(font.Subtype, "/Encoding" in font, int(font.FontDescriptor.Flags) & 4,
            "/FontFile2" in font.FontDescriptor, sys.argv[2].encode() in font.ToUnicode.read_bytes())
      """
    let (status, output) = try ExternalCheckers.run(
      Self.python, ["-c", script, pdf.path, tounicode])
    #expect(status == 0 && output == "/TrueType False 4 True True\n", "\(output)")
  }

  /// Whether Symbol's and ZapfDingbats' twins are installed
  /// (`fonts-urw-base35`'s two files, ``SymbolTwin``).
  static var symbolTwinsPresent: Bool {
    ["Symbol", "ZapfDingbats"].allSatisfy { SymbolTwin.twin(of: $0)?.path != nil }
  }

  /// A typed page with a line in Symbol or ZapfDingbats, not embedded,
  /// gets the font's twin embedded (URW's Standard Symbols PS and
  /// D050000L, a CFF subset as `/FontFile3 /Type1C` with `/CharSet`, each
  /// code named by `/Differences`, a `/ToUnicode` map): PDF/A-2a and
  /// PDF/UA-1 with no failed rule and no warning (before: plain PDF, "no
  /// free font with its widths and glyphs is installed"). The three
  /// readers read the line as Poppler read the input (before, pdfminer.six
  /// read Symbol's codes as Latin letters, `a + b = g`, and PyMuPDF read
  /// no dingbat).
  @Test(
    .enabled(if: present, Comment(rawValue: absentMessage)),
    .enabled(
      if: symbolTwinsPresent,
      "fonts-urw-base35's StandardSymbolsPS.otf and D050000L.otf not installed (run Tools/install/install-dependencies.sh)"
    ),
    arguments: [
      ("symbol", "• α + β = γ, π ≈ 3.14", "StandardSymbolsPS"),
      ("dingbats", "✓ ✔ ■ ◆ ① ➞", "D050000L"),
    ])
  func aSymbolFontGetsItsTwinEmbedded(change: String, shown: String, twin: String) throws {
    let folder = try Fixtures.temporaryFolder()
    let input = try Self.scanPDF(withFont: change, in: folder)
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: change)
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let text = try Self.readersText(pdf, page: 3)
    // (Readers join or part the dingbats' spaces as the gaps say.)
    let squeezed = text.replacingOccurrences(of: " ", with: "")
    #expect(
      squeezed.components(separatedBy: shown.replacingOccurrences(of: " ", with: "")).count == 4,
      "\(text)")
    #expect(text.components(separatedBy: "until every drawer has been entered.").count == 4)
    try PDFOutputTests.expectSizeBound(input: input, output: pdf)
    let script = """
      import sys, pikepdf
      pdf = pikepdf.open(sys.argv[1])
      font = pdf.pages[2].Resources.Font.F2
      descriptor = font.FontDescriptor
      name = str(font.BaseFont)
      print(font.Subtype, name[7:], descriptor.FontFile3.Subtype, int(descriptor.Flags),
            "/CharSet" in descriptor, "/ToUnicode" in font, len(descriptor.FontFile3.read_bytes()) < 8000)
      """
    let (status, output) = try ExternalCheckers.run(Self.python, ["-c", script, pdf.path])
    #expect(status == 0 && output == "/Type1 +\(twin) /Type1C 4 True True True\n", "\(output)")
  }

  /// `Scans/scan.pdf` with its typed page's font made one ScanText cannot
  /// honestly replace: a font without a free twin (`Verdana`), Symbol
  /// under WinAnsiEncoding (whose Latin glyph names Symbol has not), Helvetica with widths that are not
  /// Helvetica's or with `/Differences` naming a glyph outside the Latin
  /// character set, a composite font not embedded:
  /// each stays as it is, and the file is plain PDF (no PDF/A or PDF/UA
  /// claim) with the warning naming the font and why.
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func aFontWithoutATwinKeepsTheWarning() throws {
    let folder = try Fixtures.temporaryFolder()
    for (change, reason) in [
      ("Verdana", "Verdana: no free font has its widths"),
      (
        "Symbol",
        "Symbol: its encoding /WinAnsiEncoding names glyphs StandardSymbolsPS does not have (a symbol font's is its own)"
      ),
      ("widths", "Helvetica: its widths differ from LiberationSans-Regular's"),
      (
        "unlisted",
        "Helvetica: its /Differences give code 101 the glyph /g42, which is not in the Latin character set"
      ),
      ("type0", "ArialUnicodeMS: a composite (Type0) font, which ScanText cannot embed"),
    ] {
      let input = try Self.scanPDF(withFont: change, in: folder)
      let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: change)
      #expect(
        stderr
          == "Warning: \(pdf.path): written as plain PDF, not PDF/A-2a: page 3 has a font that is not embedded (\(reason))\n"
      )
      try PDFArchiveTests.expectValid(pdf, level: "none", ua: false)
      // (Tagged all the same; the other fonts change what Poppler reads.)
      if ["Verdana", "widths"].contains(change) {
        #expect(try Self.elements(pdf).suffix(3) == ["H1 3", "P 3", "P 3"])
      }
    }
  }

  /// `Scans/scan.pdf` with a line added to its typed page by PyMuPDF in
  /// Liberation Serif, embedded as a composite font (Type0, `Identity-H`,
  /// a `CIDFontType2` without `/CIDToGIDMap`): `subset` as PyMuPDF writes
  /// it (a subset, with `/ToUnicode`); `whole` the whole font without
  /// `/ToUnicode`; `unmapped` the subset without `/ToUnicode` (its program
  /// has no `cmap`).
  static let compositeScript = """
    import io, sys, pikepdf, pymupdf
    source, out, font, change = sys.argv[1:5]
    doc = pymupdf.open(source)
    doc[2].insert_text((20, 385), "Read aloud: café, naïve.", fontfile=font, fontname="LS",
                       fontsize=9)
    if change != "whole":
        doc.subset_fonts()
    pdf = pikepdf.open(io.BytesIO(doc.tobytes(garbage=3, deflate=True)))
    if change != "subset":
        del pdf.pages[2].Resources.Font.LS.ToUnicode
    pdf.save(out)
    """

  /// An embedded composite font (``compositeScript``) gets what PDF/A-2
  /// and PDF/UA-1 ask of it and its program says: `/CIDToGIDMap
  /// /Identity` (what a missing one means), and a `/ToUnicode` from its
  /// program's `cmap` when it has none; the file is PDF/A-2a and PDF/UA-1
  /// with no failed rule and no warning, and the three readers read the
  /// line (before: claimed PDF/A-2a and PDF/UA-1, failed
  /// CIDTOGIDMAP-001, and without `/ToUnicode` UNICODE-MAPPING-001, the
  /// line unread). A font whose glyphs no `cmap` names (`unmapped`) keeps
  /// the file plain PDF, with the warning saying why (before: claimed and
  /// failed).
  @Test(.enabled(if: present, Comment(rawValue: absentMessage)))
  func anEmbeddedCompositeFontGetsItsMapAndCharacters() throws {
    let folder = try Fixtures.temporaryFolder()
    let serif = "/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf"
    for change in ["subset", "whole", "unmapped"] {
      let input = folder.appendingPathComponent("\(change).pdf")
      let (status, output) = try ExternalCheckers.run(
        Self.python,
        ["-c", Self.compositeScript, PDFArchiveTests.sample("scan.pdf"), input.path, serif, change])
      try #require(status == 0, "\(output)")
      let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "composite-\(change)")
      guard change != "unmapped" else {
        // (The subset's tag is PyMuPDF's.)
        #expect(
          stderr.hasPrefix(
            "Warning: \(pdf.path): written as plain PDF, not PDF/A-2a: page 3 has a font whose characters are unknown ("
          )
            && stderr.contains(
              "+Liberation Serif Regular: no /ToUnicode, and its program's cmap gives glyph "),
          "\(stderr)")
        try PDFArchiveTests.expectValid(pdf, level: "none", ua: false)
        continue
      }
      #expect(stderr.isEmpty, "\(change): \(stderr)")
      try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
      let text = try Self.readersText(pdf, page: 3)
      #expect(text.components(separatedBy: "Read aloud: café, naïve.").count == 4, "\(text)")
    }
  }

  /// `Scans/scan.pdf` with a line added to its typed page by PyMuPDF in a
  /// CFF font (Standard Symbols PS, ``SymbolTwin``'s file): a composite
  /// font, `CIDFontType0` under `Identity-H`, with `/ToUnicode`, its
  /// program a subset embedded as `/FontFile3 /OpenType` (`opentype`, as
  /// PyMuPDF writes it), or the same program's bare CFF table as
  /// `/FontFile3 /CIDFontType0C` (`bare`: name-keyed, not CID-keyed).
  static let compactScript = """
    import io, sys, pikepdf, pymupdf
    from fontTools.ttLib import TTFont
    source, out, font, change = sys.argv[1:5]
    doc = pymupdf.open(source)
    doc[2].insert_text((20, 385), "Read aloud: a + b = g.", fontfile=font, fontname="SY",
                       fontsize=9)
    doc.subset_fonts()
    pdf = pikepdf.open(io.BytesIO(doc.tobytes(garbage=3, deflate=True)))
    if change == "bare":
        descriptor = pdf.pages[2].Resources.Font.SY.DescendantFonts[0].FontDescriptor
        program = TTFont(io.BytesIO(descriptor.FontFile3.read_bytes())).reader["CFF "]
        descriptor.FontFile3 = pdf.make_stream(program, Subtype=pikepdf.Name.CIDFontType0C)
    pdf.save(out)
    """

  /// A composite font whose program is CFF (``compactScript``): embedded
  /// as OpenType, it is kept as it is, and the file is PDF/A-2a and
  /// PDF/UA-1 with no failed rule and no warning, the three readers
  /// reading the line (unchanged: this case was untested); a name-keyed
  /// program embedded bare as `CIDFontType0C` keeps the file plain PDF,
  /// with the warning saying why (before: claimed PDF/A-2a and PDF/UA-1,
  /// and failed GLYPH-PRESENCE-001 at each level: no glyph for CID 1).
  @Test(
    .enabled(if: present, Comment(rawValue: absentMessage)),
    .enabled(
      if: symbolTwinsPresent,
      "fonts-urw-base35's StandardSymbolsPS.otf not installed (run Tools/install/install-dependencies.sh)"
    ))
  func aCompositeFontInCFFIsKeptOrRefused() throws {
    let folder = try Fixtures.temporaryFolder()
    let font = try #require(SymbolTwin.twin(of: "Symbol")?.path)
    for change in ["opentype", "bare"] {
      let input = folder.appendingPathComponent("\(change).pdf")
      let (status, output) = try ExternalCheckers.run(
        Self.python,
        ["-c", Self.compactScript, PDFArchiveTests.sample("scan.pdf"), input.path, font, change])
      try #require(status == 0, "\(output)")
      let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "compact-\(change)")
      let text = try Self.readersText(pdf, page: 3)
      #expect(text.components(separatedBy: "Read aloud: a + b = g.").count == 4, "\(text)")
      guard change == "bare" else {
        #expect(stderr.isEmpty, "\(change): \(stderr)")
        try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
        continue
      }
      // (The subset's tag is PyMuPDF's.)
      #expect(
        stderr.hasPrefix(
          "Warning: \(pdf.path): written as plain PDF, not PDF/A-2a: page 3 has a font whose glyphs cannot be found ("
        )
          && stderr.hasSuffix(
            "+Standard Symbols PS Regular: its CIDFontType0C program is not CID-keyed, so its CIDs select no glyphs)\n"
          ), "\(stderr)")
      try PDFArchiveTests.expectValid(pdf, level: "none", ua: false)
    }
  }

  /// `Scans/scan.pdf` with a line `α + β = γ` added to its typed page and
  /// the file written again by cairo (Poppler's `pdftocairo -pdf`, cairo
  /// 1.16), which embeds the Greek glyphs as a real CID-keyed CFF font: a
  /// composite font, `CIDFontType0` under `Identity-H`, its program a
  /// subset as `/FontFile3 /CIDFontType0C` whose Top DICT names the
  /// `Adobe-Identity-0` character collection (`ROS`), with `/ToUnicode`;
  /// and the Latin ones (`+`, `=`, the space) as a Type 1 subset in bare
  /// CFF (`/Type1C`) without `/CharSet`. The line is drawn by PyMuPDF in
  /// Standard Symbols PS (``SymbolTwin``'s file), whose `a`, `b`, `g`
  /// are α, β, γ: its `/ToUnicode` is made from the glyphs' names, so
  /// that cairo takes them for Greek. Given with `describe PATH`, the
  /// script prints the facts of `PATH`'s composite font on page 3 instead.
  static let cidKeyedScript = """
    import io, subprocess, sys, pikepdf, pymupdf
    from fontTools.agl import toUnicode
    from fontTools.cffLib import CFFFontSet
    from fontTools.ttLib import TTFont
    def describe(path):
        with pikepdf.open(path) as pdf:
            for font in pdf.pages[2].Resources.Font.values():
                if font.Subtype == "/Type0":
                    cid = font.DescendantFonts[0]
                    program = cid.FontDescriptor.FontFile3
                    cff = CFFFontSet()
                    cff.decompile(io.BytesIO(program.read_bytes()), None)
                    ros = "-".join(map(str, cff.topDictIndex[0].ROS))
                    print(cid.Subtype, program.Subtype, ros, font.Encoding, "/ToUnicode" in font)
    if sys.argv[1] == "describe":
        describe(sys.argv[2])
        sys.exit(0)
    source, out, font = sys.argv[1:4]
    doc = pymupdf.open(source)
    doc[2].insert_text((20, 385), "a + b = g", fontfile=font, fontname="SY", fontsize=9)
    doc.subset_fonts()
    pdf = pikepdf.open(io.BytesIO(doc.tobytes(garbage=3, deflate=True)))
    sy = pdf.pages[2].Resources.Font.SY
    program = TTFont(io.BytesIO(sy.DescendantFonts[0].FontDescriptor.FontFile3.read_bytes()))
    pairs = [f"<{gid:04X}> <{ord(toUnicode(name)):04X}>"
             for gid, name in enumerate(program.getGlyphOrder())
             if gid and len(toUnicode(name)) == 1]
    sy.ToUnicode = pdf.make_stream((
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CIDSystemInfo "
        "<< /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def "
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def "
        "1 begincodespacerange <0000> <FFFF> endcodespacerange\\n"
        f"{len(pairs)} beginbfchar\\n" + "\\n".join(pairs) + "\\nendbfchar endcmap "
        "CMapName currentdict /CMap defineresource pop end end\\n").encode())
    pdf.save(out + ".greek.pdf")
    subprocess.run(["pdftocairo", "-pdf", out + ".greek.pdf", out], check=True)
    describe(out)
    """

  /// A CID-keyed CFF font an input embeds (``cidKeyedScript``) is kept as
  /// it is, and the file is PDF/A-2a and PDF/UA-1 with no failed rule and
  /// no warning, the three readers reading the typed page and the Greek
  /// line. Before, the file claimed PDF/A-2a and PDF/UA-1 and failed
  /// both, not for the CID-keyed font but for two things the same writer
  /// leaves: a compressed stream (a `/ToUnicode`) whose last byte is a
  /// carriage return, which PDF/A's end-of-line marker after it turns into
  /// a CR LF (STREAM-LENGTH-001), and a Type 1 subset without `/CharSet`
  /// (TYPE1-SUBSET-CHARSET-001).
  @Test(
    .enabled(if: present, Comment(rawValue: absentMessage)),
    .enabled(
      if: symbolTwinsPresent,
      "fonts-urw-base35's StandardSymbolsPS.otf not installed (run Tools/install/install-dependencies.sh)"
    ))
  func aCIDKeyedCFFFontIsKept() throws {
    let folder = try Fixtures.temporaryFolder()
    let font = try #require(SymbolTwin.twin(of: "Symbol")?.path)
    let input = folder.appendingPathComponent("cid-keyed.pdf")
    let sample = PDFArchiveTests.sample("scan.pdf")
    let (status, made) = try ExternalCheckers.run(
      Self.python, ["-c", Self.cidKeyedScript, sample, input.path, font])
    try #require(status == 0, "\(made)")
    let facts = "/CIDFontType0 /CIDFontType0C Adobe-Identity-0 /Identity-H True\n"
    try #require(made.hasSuffix(facts), "the input is not what the test is about: \(made)")
    let (pdf, stderr) = try PDFArchiveTests.ocr([input.path], name: "cid-keyed")
    #expect(stderr.isEmpty, "\(stderr)")
    try PDFArchiveTests.expectValid(pdf, level: "2a", ua: true)
    let (described, kept) = try ExternalCheckers.run(
      Self.python, ["-c", Self.cidKeyedScript, "describe", pdf.path])
    #expect(described == 0 && kept.hasSuffix(facts), "\(kept)")
    let text = try Self.readersText(pdf, page: 3).filter { !$0.isWhitespace }
    for line in ["MinutesoftheReadingRoom", "α+β=γ"] {
      #expect(text.components(separatedBy: line).count == 4, "\(line): \(text)")
    }
  }
}
