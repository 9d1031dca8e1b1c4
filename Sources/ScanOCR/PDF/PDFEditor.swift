import CScanOCR
import Foundation
import ScanFormats
import ScanModel

/// A PDF opened for editing with qpdf's C API (`libqpdf29`, loaded at run
/// time; `Sources/CScanOCR/pdfwrite.c`): the searchable PDF of a PDF input
/// is the input document itself, edited, so nothing the input holds is
/// lost (images, fonts, vectors, annotations, outline, metadata).
///
/// Every edit adds objects or replaces a page's own entries; no stream the
/// input holds is rewritten (but the content streams and forms an earlier
/// invisible text layer is taken out of, with
/// `addTextLayer(page:model:removingInvisibleText:)`), and the document is
/// written with every stream's stored bytes kept (``data(deterministicID:)``): images stay
/// byte for byte whatever their filter. The streams added are
/// Flate-compressed. A resource dictionary is never changed in place: a
/// page given new resources gets its own copy first, so a dictionary other
/// pages share stays as it was.
///
/// Not thread-safe: one thread at a time (qpdf's documents are not shared
/// across threads).
public final class PDFEditor {
  /// The file, for errors.
  public let path: String
  private let q: OpaquePointer
  /// The file's bytes, which qpdf reads in place; freed in `deinit`.
  private let bytes: UnsafeMutableRawBufferPointer
  private let byteCount: Int
  /// Whether `bytes` is the editor's own copy (freed with it).
  private let ownsBytes: Bool
  /// Tesseract's glyphless font file, for the text layers.
  private let fontFile: Data
  /// The glyphless font's Type0 object, once added.
  private var font: qpdf_oh?
  /// Whether every page carries its inherited attributes.
  private var pushed = false
  /// The stream `q` that opens every layered page's content (one object,
  /// shared by the pages).
  private var opening: qpdf_oh?
  /// The same for a tagged page: the page's own content opens as an
  /// artifact.
  private var taggedOpening: qpdf_oh?
  /// Whether the file is written with object streams made (a tagged file,
  /// ``addStructure(_:language:title:producer:)``): its structure is
  /// hundreds of small objects (on `cardinal.pdf`'s four pages 20 kB
  /// written one by one, 5 kB packed).
  private var packsObjects = false
  /// The PDF/A part the file is written for, once made archival
  /// (``makeArchival(_:pdfUA:)``): end-of-line markers before every
  /// `endstream`, and for PDF/A-1 no object streams.
  private var archivalPart: Int?
  /// Why each font left out that ``embedTwinFonts()`` could not embed
  /// stays out (by its object number): named in the PDF/A warning.
  private var fontsLeftOut: [Int: String] = [:]
  /// Why each embedded composite font whose characters
  /// ``completeCompositeFonts()`` could not give stays without them (by
  /// its object number): named in the PDF/A warning.
  private var fontsWithoutCharacters: [Int: String] = [:]
  /// Why each embedded composite font whose glyphs a reader cannot find
  /// by its CIDs is so (by its object number; ``completeCompositeFonts()``):
  /// named in the PDF/A warning, at every level.
  private var fontsWithoutGlyphs: [Int: String] = [:]

  /// Whether PDF editing is available: qpdf's library (libqpdf29) and
  /// zlib are installed.
  public static var isAvailable: Bool { scantext_qpdf_edit_load() == 0 }

  /// Opens a PDF held in memory.
  /// - Parameters:
  ///   - data: The file's bytes.
  ///   - path: The file, for errors.
  ///   - font: Tesseract's glyphless font (``PDFImages/glyphlessFont(dataPath:)``),
  ///     needed to add text layers.
  /// - Throws: ``OCRError/pdfEditingUnavailable(path:)`` when qpdf is not
  ///   installed; ``OCRError/uneditablePDF(path:reason:)`` when qpdf cannot
  ///   read the file or it is encrypted (a searchable copy would have to be
  ///   encrypted again, which ScanText does not do).
  public convenience init(data: Data, path: String, font: Data = Data()) throws(OCRError) {
    try self.init(data: data, path: path, font: font, countingPages: true)
  }

  /// Opens a PDF held in memory; without `countingPages`, a file whose
  /// page tree is empty opens too, and opening reads no page (qpdf's count
  /// reads every page's dictionary: 5 kB a page, which
  /// ``largestImage(page:)``, finding its page by itself, does not need).
  /// With `borrowed`, qpdf reads those bytes in place (no copy; `data` is
  /// not read): they must outlive the editor.
  init(
    data: Data, path: String, font: Data, countingPages: Bool,
    borrowed: UnsafeRawBufferPointer? = nil
  ) throws(OCRError) {
    guard Self.isAvailable, let q = scantext_qpdf_init() else {
      throw .pdfEditingUnavailable(path: path)
    }
    let bytes: UnsafeMutableRawBufferPointer
    if let borrowed {
      bytes = UnsafeMutableRawBufferPointer(mutating: borrowed)
    } else {
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
      data.withUnsafeBytes { source in
        if let base = source.baseAddress, let target = bytes.baseAddress {
          target.copyMemory(from: base, byteCount: source.count)
        }
      }
    }
    self.q = q
    self.bytes = bytes
    self.ownsBytes = borrowed == nil
    self.byteCount = borrowed?.count ?? data.count
    self.path = path
    self.fontFile = font
    // From here a throw runs deinit, which frees both.
    scantext_qpdf_silence_errors(q)
    scantext_qpdf_set_suppress_warnings(q, 1)
    let status = scantext_qpdf_read_memory(
      q, path, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(byteCount), nil)
    if status & SCANTEXT_QPDF_ERRORS != 0 {
      throw .uneditablePDF(path: path, reason: takeError() ?? "qpdf cannot read it")
    }
    if scantext_qpdf_is_encrypted(q) != 0 {
      throw .uneditablePDF(
        path: path,
        reason: "it is encrypted (decrypt it first: qpdf --decrypt in.pdf out.pdf)")
    }
    guard !countingPages || scantext_qpdf_get_num_pages(q) > 0 else {
      throw .uneditablePDF(path: path, reason: takeError() ?? "qpdf finds no pages")
    }
  }

  deinit {
    var handle: OpaquePointer? = q
    scantext_qpdf_cleanup(&handle)
    if ownsBytes { bytes.deallocate() }
  }

  /// The number of pages.
  public var pageCount: Int { max(0, Int(scantext_qpdf_get_num_pages(q))) }

  // MARK: - Pages

  /// Makes the document's pages `pages`, in order: pages of this document
  /// (by their number from 0 before the call) and of others, copied in with
  /// what they use. A page listed twice is copied. The catalog (outline,
  /// names, metadata) is this document's.
  /// - Parameter pages: Each output page: the document it comes from (this
  ///   one or another, which must stay open until ``data(deterministicID:)``) and its
  ///   number there, from 0.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  public func arrangePages(_ pages: [(document: PDFEditor, page: Int)]) throws(OCRError) {
    try pushInheritedAttributes()
    let own = (0..<pageCount).map { scantext_qpdf_get_page_n(q, $0) }
    if pages.count == own.count,
      pages.enumerated().allSatisfy({ $1.document === self && $1.page == $0 })
    {
      return
    }
    var handles: [(document: PDFEditor, page: qpdf_oh)] = []
    for (document, page) in pages {
      guard page >= 0, page < document.pageCount else {
        throw .uneditablePDF(path: document.path, reason: "there is no page \(page + 1)")
      }
      try document.pushInheritedAttributes()
      handles.append(
        (document, document === self ? own[page] : scantext_qpdf_get_page_n(document.q, page)))
    }
    for page in own where scantext_qpdf_remove_page(q, page) & SCANTEXT_QPDF_ERRORS != 0 {
      try check("removing a page")
    }
    for (document, page) in handles
    where scantext_qpdf_add_page(q, document.q, page, 0) & SCANTEXT_QPDF_ERRORS != 0 {
      try check("adding a page of \(document.path)")
    }
    try check("arranging the pages")
  }

  /// Gives every page its inherited attributes (`/Resources`, `/MediaBox`,
  /// `/CropBox`, `/Rotate`), so a page's own entries can be replaced.
  private func pushInheritedAttributes() throws(OCRError) {
    guard !pushed else { return }
    pushed = true
    _ = scantext_qpdf_push_inherited_attributes_to_page(q)
    try check("reading the page tree")
  }

  /// What text page `index` (from 0) shows: its content streams and the
  /// form XObjects they draw, nested (up to 12 deep), with the text render
  /// mode each starts in.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)`` when the page's
  ///   content cannot be read.
  public func textKind(page index: Int) throws(OCRError) -> PDFContentStream.TextKind {
    let page = try pageHandle(index)
    let content = try contentBytes(page, index: index)
    let resources = get(page, "/Resources")
    var seen = Set<[Int]>()
    return textKind(
      of: PDFContentStream(content), resources: resources, renderMode: 0, depth: 0, seen: &seen)
  }

  private func textKind(
    of stream: PDFContentStream, resources: qpdf_oh, renderMode: Int, depth: Int,
    seen: inout Set<[Int]>
  ) -> PDFContentStream.TextKind {
    var kind = stream.textKind(startingIn: renderMode)
    guard depth < 12 else { return kind }
    for drawn in stream.text(startingIn: renderMode).drawn {
      let form = get(get(resources, "/XObject"), "/" + drawn.name)
      guard isForm(form),
        seen.insert([objectID(form), drawn.renderMode]).inserted,
        let content = decodedBytes(form)
      else { continue }
      let own = get(dictionary(of: form), "/Resources")
      kind = kind.combined(
        with: textKind(
          of: PDFContentStream(content), resources: isDictionary(own) ? own : resources,
          renderMode: drawn.renderMode, depth: depth + 1, seen: &seen))
    }
    return kind
  }

  /// An image a page draws, by the size it claims.
  public struct ClaimedImage: Sendable, Equatable {
    /// The pixels across and down its dictionary claims (`/Width` and
    /// `/Height`, or an inline image's `/W` and `/H`).
    public var width: Double
    public var height: Double
    /// Whether it is an inline image (`BI … ID … EI` in the content).
    public var isInline: Bool
    /// Whether it is a name the page draws (`Do`) whose XObject qpdf
    /// cannot read as a stream (missing, or a dictionary too damaged to
    /// parse): its size is unknown, so it claims more than any other
    /// (`pixels` is infinite). Poppler, which reads damaged objects
    /// differently, may find an image there, of any size.
    public var isUnreadable = false
    /// The pixels claimed.
    public var pixels: Double { isUnreadable ? .infinity : width * height }
  }

  /// The image page `index` (from 0) draws that claims the most pixels:
  /// the inline images of its content and the image XObjects it draws
  /// (`Do`), in its content and in the form XObjects it draws, nested up
  /// to 12 deep. Nothing but the content and the forms is decoded (no
  /// image data): what Poppler would decode can be refused before it is.
  ///
  /// The page is found from the catalog down by the page tree's counts
  /// (`pageObject(_:)`), not through qpdf's list of every page, which
  /// reads every page's dictionary first (5 kB a page); its resources are
  /// found through its parents without changing the page tree. The object
  /// handles the search makes are released after it, unless the editor
  /// holds some of its own (an editor used for nothing else keeps no
  /// memory per page asked for but what qpdf keeps of the objects read).
  /// - Parameter index: The page, from 0.
  /// - Returns: The image (one ``ClaimedImage/isUnreadable`` when a name
  ///   the page draws has no XObject qpdf can read), or `nil` when the
  ///   page draws none, or when its
  ///   content cannot be decoded or decodes to more than
  ///   `maxDecodedContentBytes` (256 MiB), or the page cannot be found (nothing is
  ///   claimed that can be checked).
  /// - Complexity: O(*n*) in the decoded bytes of the content and forms,
  ///   plus the page's ancestors and their kids.
  public func largestImage(page index: Int) -> ClaimedImage? {
    defer {
      _ = takeError()
      if font == nil, opening == nil, taggedOpening == nil { scantext_qpdf_oh_release_all(q) }
    }
    guard let page = pageObject(index) else { return nil }
    let streams = contentStreams(of: page)
    // Content qpdf cannot decode, or too big to: nothing to check here
    // (the reading or editing reports it).
    guard !streams.isEmpty, (try? checkDecodedSize(of: streams, index: index)) != nil,
      let content = try? contentBytes(page, index: index)
    else { return nil }
    var seen = Set<Int>()
    return largestImage(
      in: PDFContentStream(content), resources: inheritedResources(of: page), depth: 0,
      seen: &seen)
  }

  /// An incremental update to append to the file (the file's bytes, then
  /// these) that makes pages `range` (from 0) the document's only pages,
  /// in order: a copy of the catalog whose page tree holds them, each
  /// under a node of its own that carries what it inherits (`/Resources`,
  /// `/MediaBox`, `/CropBox`, `/Rotate`, as its ancestors give them), and
  /// a cross-reference section whose `/Prev` is the file's last. The pages
  /// themselves, their content and everything they use are the file's
  /// objects, unchanged: Poppler reads page *n* of the file as page
  /// *n* − `range.lowerBound` of the update, while holding only the
  /// pages of `range` (it caches every page before the one asked for:
  /// about 1.5 kB a page, for as long as the document is open).
  ///
  /// - Parameter range: The pages, from 0.
  /// - Returns: The update's bytes, or `nil` when it cannot be made: the
  ///   file is encrypted, its end has no `startxref`, its trailer no
  ///   `/Size`, or a page is not found (`pageObject(_:)`).
  /// - Complexity: O(*p* × *d*) in the pages and the depth of the tree.
  package func viewUpdate(pages range: Range<Int>) -> [UInt8]? {
    defer {
      _ = takeError()
      if font == nil, opening == nil, taggedOpening == nil { scantext_qpdf_oh_release_all(q) }
    }
    guard !range.isEmpty, scantext_qpdf_is_encrypted(q) == 0, let previous = lastCrossReference(),
      let size = integer(get(scantext_qpdf_get_trailer(q), "/Size")), size > 0
    else { return nil }
    let root = scantext_qpdf_get_root(q)
    guard isDictionary(root) else { return nil }
    func text(_ object: qpdf_oh) -> String? {
      scantext_qpdf_oh_unparse(q, object).map { String(cString: $0) }
    }
    let pagesNumber = size + 1
    // The catalog's entries as the page list read them, parsed by qpdf:
    // qpdf's own catalog would read `/Pages` (to skip a null entry), and
    // so the root's kids.
    let written = pageList?.catalogEntries.map { scantext_qpdf_oh_parse(q, "<< \($0) >>") }
    let entries = written.flatMap { isDictionary($0) ? $0 : nil } ?? root
    var catalog = "<<"
    for key in keys(of: entries) where key != "/Pages" {
      guard let value = text(get(entries, key)) else { return nil }
      catalog += " \(key) \(value)"
    }
    catalog += " /Pages \(pagesNumber) 0 R >>"
    var nodes: [String] = []
    for index in range {
      guard let page = pageObject(index), scantext_qpdf_oh_is_indirect(q, page) != 0,
        let reference = text(page)
      else { return nil }
      var inherited = ""
      for key in PDFPageList.inheritedKeys where scantext_qpdf_oh_has_key(q, page, key) == 0 {
        var node = flatRoot(parentOf: page) ?? get(page, "/Parent")
        for _ in 0..<64 where isDictionary(node) {
          if scantext_qpdf_oh_has_key(q, node, key) != 0 {
            guard let value = text(get(node, key)) else { return nil }
            inherited += " \(key) \(value)"
            break
          }
          node = get(node, "/Parent")
        }
      }
      nodes.append(
        "<< /Type /Pages /Parent \(pagesNumber) 0 R /Kids [\(reference)] /Count 1\(inherited) >>")
    }
    let kids = nodes.indices.map { "\(pagesNumber + 1 + $0) 0 R" }.joined(separator: " ")
    let objects =
      [catalog, "<< /Type /Pages /Kids [\(kids)] /Count \(range.count) >>"] + nodes
    // A new line first: the file may end without one.
    var out = Array("\n".utf8)
    var offsets: [Int] = []
    for (i, body) in objects.enumerated() {
      offsets.append(byteCount + out.count)
      out += Array("\(size + i) 0 obj\n\(body)\nendobj\n".utf8)
    }
    let crossReference = byteCount + out.count
    out += Array("xref\n0 1\n0000000000 65535 f \n\(size) \(objects.count)\n".utf8)
    for offset in offsets {
      let digits = String(offset)
      out += Array((String(repeating: "0", count: max(0, 10 - digits.count)) + digits).utf8)
      out += Array(" 00000 n \n".utf8)
    }
    out += Array(
      "trailer\n<< /Size \(size + objects.count) /Root \(size) 0 R /Prev \(previous) >>\nstartxref\n\(crossReference)\n%%EOF\n"
        .utf8)
    return out
  }

  /// The offset the file's last `startxref` gives (within its last 2 kB).
  private func lastCrossReference() -> Int? {
    PDFPageList.lastCrossReference(
      in: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<byteCount]))
  }

  /// A non-negative whole number's value, `nil` for anything else.
  private func integer(_ object: qpdf_oh) -> Int? {
    guard scantext_qpdf_oh_is_number(q, object) != 0 else { return nil }
    let value = scantext_qpdf_oh_get_numeric_value(q, object)
    guard value.isFinite, value >= 0, value < 1e12, value == value.rounded() else { return nil }
    return Int(value)
  }

  /// The page count the catalog's page tree gives (its root's `/Count`).
  /// With a page list (``usePageList(_:)``), its count: the root's
  /// `/Count`, read without qpdf reading the root (it would make a
  /// placeholder object for each of its kids).
  package var rootPageCount: Int? {
    if let pageList { return pageList.kids.count }
    defer { _ = takeError() }
    return integer(get(get(scantext_qpdf_get_root(q), "/Pages"), "/Count"))
  }

  /// The root of a flat tree as far as its pages inherit from it: a
  /// dictionary qpdf makes of the root's inherited entries as the file
  /// writes them (``PDFPageList/inherited``), so qpdf never reads the
  /// root itself (it would make a placeholder object for each of its
  /// kids: 6.4 MB at 20,000 pages). `nil` without a page list, when the
  /// page's `/Parent` is not the list's root, or when the entries are not
  /// known: the tree is then walked through qpdf.
  private func flatRoot(parentOf page: qpdf_oh) -> qpdf_oh? {
    guard let list = pageList, let inherited = list.inherited else { return nil }
    let parent = get(page, "/Parent")
    // Neither asks qpdf to read the parent.
    guard scantext_qpdf_oh_is_indirect(q, parent) != 0, objectID(parent) == Int(list.root.number),
      Int(scantext_qpdf_oh_get_generation(q, parent)) == Int(list.root.generation)
    else { return nil }
    let entries = inherited.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    let root = scantext_qpdf_oh_parse(q, "<< " + entries.joined(separator: " ") + " >>")
    return isDictionary(root) ? root : nil
  }

  /// The file's flat page tree read from its bytes, once qpdf is found
  /// to read the same catalog and tree (``usePageList(_:)``): pages are
  /// then found without qpdf reading the root's `/Kids`.
  private var pageList: PDFPageList?

  /// Finds pages through `list` (``PDFPageList``, read from this
  /// editor's file) from now on, when qpdf read the file without a
  /// warning (no repair: its objects are those the cross-reference tables
  /// give) and its trailer's `/Root` and its catalog's `/Pages` are the
  /// list's catalog and root; otherwise pages are found through qpdf.
  /// Touches neither the root's `/Kids` nor any page.
  /// - Returns: Whether the list is used.
  @discardableResult
  func usePageList(_ list: PDFPageList) -> Bool {
    defer {
      _ = takeError()
      if font == nil, opening == nil, taggedOpening == nil { scantext_qpdf_oh_release_all(q) }
    }
    func matches(_ object: qpdf_oh, _ reference: PDFPageList.Reference) -> Bool {
      scantext_qpdf_oh_is_indirect(q, object) != 0
        && objectID(object) == Int(reference.number)
        && Int(scantext_qpdf_oh_get_generation(q, object)) == Int(reference.generation)
    }
    guard scantext_qpdf_more_warnings(q) == 0,
      matches(get(scantext_qpdf_get_trailer(q), "/Root"), list.catalog),
      matches(get(scantext_qpdf_get_root(q), "/Pages"), list.root)
    else { return false }
    pageList = list
    return true
  }

  /// Page `index`'s dictionary, found from the catalog's page tree down by
  /// each node's `/Count`: a node whose kids are as many as its count is
  /// taken to hold pages only (the flat tree most writers make) and its
  /// kid is taken by its place; otherwise the kids before the page are
  /// counted. `nil` when the tree does not lead to it (a wrong count, a
  /// loop, deeper than 64 levels). With a page list (``usePageList(_:)``),
  /// the flat root's kid is asked of qpdf by its reference: the root's
  /// `/Kids`, which qpdf would make a placeholder object of each kid of
  /// (6.4 MB at 20,000 pages), is not read.
  /// - Complexity: O(*d* × *k*) in the depth of the tree and the kids of a
  ///   node counted; O(*d*) for a flat or balanced tree whose counts
  ///   match.
  func pageObject(_ index: Int) -> qpdf_oh? {
    guard index >= 0 else { return nil }
    func isLeaf(_ object: qpdf_oh) -> Bool {
      isDictionary(object) && scantext_qpdf_oh_is_array(q, get(object, "/Kids")) == 0
    }
    // The flat tree's kid by its place, as below, without qpdf reading
    // the root's kids.
    if let kids = pageList?.kids, index < kids.count {
      let kid = scantext_qpdf_get_object_by_id(
        q, Int32(clamping: kids[index].number), Int32(kids[index].generation))
      if isLeaf(kid) { return kid }
    }
    var node = get(scantext_qpdf_get_root(q), "/Pages")
    var remaining = index
    func count(_ object: qpdf_oh) -> Int {
      if isLeaf(object) { return 1 }
      let value = get(object, "/Count")
      guard scantext_qpdf_oh_is_number(q, value) != 0 else { return 0 }
      let number = scantext_qpdf_oh_get_numeric_value(q, value)
      return number.isFinite && number > 0 ? Int(min(number, 1e9)) : 0
    }
    descending: for _ in 0..<64 {
      if isLeaf(node) { return remaining == 0 ? node : nil }
      let kids = get(node, "/Kids")
      let n = Int(scantext_qpdf_oh_get_array_n_items(q, kids))
      if n == count(node), remaining < n {
        let kid = scantext_qpdf_oh_get_array_item(q, kids, Int32(remaining))
        if isLeaf(kid) { return kid }
      }
      for i in 0..<n {
        let kid = scantext_qpdf_oh_get_array_item(q, kids, Int32(i))
        let pages = count(kid)
        if remaining < pages {
          node = kid
          continue descending
        }
        remaining -= pages
      }
      return nil
    }
    return nil
  }

  private func largestImage(
    in stream: PDFContentStream, resources: qpdf_oh, depth: Int, seen: inout Set<Int>
  ) -> ClaimedImage? {
    var largest: ClaimedImage?
    func consider(_ image: ClaimedImage) {
      if image.pixels > largest?.pixels ?? -1 { largest = image }
    }
    for size in stream.inlineImageSizes {
      consider(ClaimedImage(width: size.width, height: size.height, isInline: true))
    }
    let objects = get(resources, "/XObject")
    for drawn in stream.text().drawn {
      let object = get(objects, "/" + drawn.name)
      guard scantext_qpdf_oh_is_stream(q, object) != 0 else {
        consider(ClaimedImage(width: 0, height: 0, isInline: false, isUnreadable: true))
        continue
      }
      let entries = dictionary(of: object)
      if scantext_qpdf_oh_is_name_and_equals(q, get(entries, "/Subtype"), "/Image") != 0 {
        func number(_ key: String) -> Double {
          let value = get(entries, key)
          guard scantext_qpdf_oh_is_number(q, value) != 0 else { return 0 }
          let number = scantext_qpdf_oh_get_numeric_value(q, value)
          return number.isFinite ? max(0, number) : 0
        }
        consider(ClaimedImage(width: number("/Width"), height: number("/Height"), isInline: false))
      } else if depth < 12, isForm(object), seen.insert(objectID(object)).inserted,
        let content = decodedBytes(object)
      {
        let own = get(entries, "/Resources")
        if let inner = largestImage(
          in: PDFContentStream(content), resources: isDictionary(own) ? own : resources,
          depth: depth + 1, seen: &seen)
        {
          consider(inner)
        }
      }
    }
    return largest
  }

  /// A page's resources: its own, else its nearest parent's (up to 32
  /// levels up).
  private func inheritedResources(of page: qpdf_oh) -> qpdf_oh {
    var node = page
    for level in 0..<32 {
      let resources = get(node, "/Resources")
      if isDictionary(resources) { return resources }
      let parent = (level == 0 ? flatRoot(parentOf: page) : nil) ?? get(node, "/Parent")
      guard isDictionary(parent) else { break }
      node = parent
    }
    return scantext_qpdf_oh_new_null(q)
  }

  /// Adds the invisible text layer of a recognised page to page `index`
  /// (from 0), keeping its content: the content is wrapped in `q … Q` by a
  /// stream added before it and one added after it (as many `Q` as it
  /// leaves open, plus one), the layer follows in the second, and the
  /// glyphless font joins the page's own copy of its resources under a name
  /// none of its fonts has. A page without words is left as it is.
  ///
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - model: The recognised page; ``ScanModel/Page/pdf`` maps its pixels
  ///     to the displayed page, which the page's `/Rotate` and its crop box
  ///     map to its user space.
  ///   - removingInvisibleText: Whether to take an earlier invisible text
  ///     layer out first (`--redo-ocr`): the page's content streams become
  ///     one stream without it, and each form XObject with invisible text
  ///     becomes a copy without it (the form itself is left for the pages
  ///     that share it).
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  ///   - tags: For a tagged PDF, the page's marks (``ScanFormats/PDFTags``)
  ///     and its key in the parent tree: its own content becomes an
  ///     artifact, its layer's words marked content.
  ///   - figures: For a tagged PDF, the page's figures
  ///     (``ScanFormats/PDFTags/PagePlan/figures``, planned with
  ///     ``figureSpace(page:model:removingInvisibleText:)``): each one's
  ///     content is the page's own content drawn again, clipped to its
  ///     outline, in its marked content.
  package func addTextLayer(
    page index: Int, model: Page, removingInvisibleText: Bool,
    tags: (marks: [PDFTags.Mark], key: Int)? = nil,
    figures: [(mcid: Int, outline: [Point])] = []
  ) throws(OCRError) {
    let page = try pageHandle(index)
    guard let source = model.pdf, source.pixelToPoint.count == 6 else {
      throw .uneditablePDF(path: path, reason: "page \(index + 1) was not read from a PDF")
    }
    let words = model.words.contains { !$0.text.isEmpty }
    // (A tagged page without words still has its content made an
    // artifact.)
    guard words || removingInvisibleText || tags != nil else { return }
    let resources = ownResources(of: page)
    var (content, contents) = (PDFContentStream([]), contentStreams(of: page))
    if removingInvisibleText {
      (content, contents) = try withoutInvisibleText(page, index: index, resources: resources)
    } else if let bytes = try contentBytesUnlessUnknown(page, index: index) {
      // Content qpdf cannot decode (a filter it does not know) is still
      // wrapped, as if it closed what it opened.
      content = PDFContentStream(bytes)
    }
    var after = "\n" + String(repeating: "Q\n", count: content.unclosedSaves + 1)
    if tags != nil {
      after += "EMC\n"
      // Each figure: the page as it was, drawn again inside the figure's
      // outline (the same pixels on the same pixels), as the image path
      // draws its image again. The page's content is kept byte for byte
      // (an artifact); its copy is a form XObject the figures share.
      if !figures.isEmpty, !content.bytes.isEmpty {
        // (Closed as the page's content is: a form's saves balance.)
        let closed =
          content.bytes + Array(String(repeating: "\nQ", count: content.unclosedSaves).utf8)
        let name = formName(drawing: closed, of: page, addingTo: resources)
        for figure in figures {
          after += PDFTags.figureContent(figure, drawing: "q /\(name) Do Q\n")
        }
      }
    }
    if words {
      let name = fontName(addingTo: resources)
      after += SearchablePDF.textLayer(
        model, pixelToUser: pixelToUser(page, source), font: name, marks: tags?.marks ?? [])
    }
    let first: qpdf_oh
    if let tags {
      // The page as it was is the picture behind the text the tags carry.
      first = taggedOpening ?? newStream(Array("/Artifact BMC\nq\n".utf8))
      taggedOpening = first
      setStructParents(of: page, key: tags.key)
    } else {
      first = opening ?? newStream(Array("q\n".utf8))
      opening = first
    }
    setContents(of: page, to: [first] + contents + [newStream(Array(after.utf8))])
    try check("adding the text layer to page \(index + 1)")
  }

  /// The map from the model's pixels to page `index`'s user space, when
  /// the page's figures can be tagged: when its content can be drawn again
  /// as their content (``addTextLayer(page:model:removingInvisibleText:tags:figures:)``),
  /// that is when it can be read and shows no text once its invisible text
  /// is taken out (`removingInvisibleText`); drawn twice, text would be
  /// read twice. `nil` otherwise (the figures are then left out of the
  /// tags, as before; the page is still tagged).
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - model: The recognised page (``ScanModel/Page/pdf``).
  ///   - removingInvisibleText: Whether the page's invisible text will be
  ///     taken out.
  package func figureSpace(page index: Int, model: Page, removingInvisibleText: Bool)
    -> ScanModel.AffineTransform?
  {
    guard let page = try? pageHandle(index), let kind = try? textKind(page: index),
      kind == .noText || (removingInvisibleText && kind == .invisibleOnly),
      let bytes = try? contentBytes(page, index: index)
    else { return nil }
    // (What is left once the invisible text is out must draw something.)
    let kept = removingInvisibleText ? PDFContentStream(bytes).removingInvisibleText() : nil
    guard !(kept ?? bytes).isEmpty else { return nil }
    return renderedSpace(page: index, model: model)
  }

  /// The page's map from model pixels to user space (also
  /// ``figureSpace(page:model:removingInvisibleText:)``'s), for a page
  /// replaced by its rendering (``replaceContent(page:model:image:tags:figures:)``,
  /// whose figures are drawn from the rendering).
  package func renderedSpace(page index: Int, model: Page) -> ScanModel.AffineTransform? {
    guard let source = model.pdf, source.pixelToPoint.count == 6,
      let page = try? pageHandle(index)
    else { return nil }
    return pixelToUser(page, source)
  }

  /// Adds to the page's (own) resources a form XObject that draws
  /// `content` (the page's content, in its user space) with the page's
  /// resources as they are now, under a name none of its XObjects has;
  /// returns the name, without its slash. The form's resources are their
  /// own indirect copy (the page's would hold the form: a loop).
  private func formName(drawing content: [UInt8], of page: qpdf_oh, addingTo resources: qpdf_oh)
    -> String
  {
    let form = newStream(content)
    let entries = dictionary(of: form)
    for (key, value) in [("/Type", "/XObject"), ("/Subtype", "/Form")] {
      scantext_qpdf_oh_replace_key(q, entries, key, scantext_qpdf_oh_parse(q, value))
    }
    // The form's box is the page's (its content's space is the page's).
    let media = get(page, "/MediaBox")
    scantext_qpdf_oh_replace_key(
      q, entries, "/BBox", box(media) == nil ? scantext_qpdf_oh_parse(q, "[0 0 612 792]") : media)
    scantext_qpdf_oh_replace_key(
      q, entries, "/Resources", scantext_qpdf_make_indirect_object(q, shallowCopy(resources)))
    let xobjects = shallowCopy(get(resources, "/XObject"))
    let name = unusedName("ScanTextPage", in: xobjects)
    scantext_qpdf_oh_replace_key(q, xobjects, "/" + name, form)
    scantext_qpdf_oh_replace_key(q, resources, "/XObject", xobjects)
    return name
  }

  /// Takes page `index`'s invisible text out (render mode 3 or 7: an
  /// earlier OCR layer), as `addTextLayer(page:model:removingInvisibleText:)`
  /// does, without adding a layer.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  public func removeInvisibleText(page index: Int) throws(OCRError) {
    let page = try pageHandle(index)
    let (_, contents) = try withoutInvisibleText(
      page, index: index, resources: ownResources(of: page))
    setContents(of: page, to: contents)
    try check("taking the invisible text out of page \(index + 1)")
  }

  /// Page `index` alone, without its invisible text, as a PDF file: what
  /// the page shows of its own text (for telling recognised words from
  /// visible text under `--redo-ocr`).
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  public func visibleTextPage(_ index: Int) throws(OCRError) -> Data {
    let copy = try PDFEditor(
      data: Data(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<byteCount])),
      path: path)
    try copy.arrangePages([(copy, index)])
    try copy.removeInvisibleText(page: 0)
    return try copy.data()
  }

  /// The page's content without its invisible text, and the streams that
  /// hold it (one new stream when there was invisible text, else the
  /// page's own); forms drawn are replaced in `resources` (the page's own
  /// copy) by copies without theirs.
  private func withoutInvisibleText(_ page: qpdf_oh, index: Int, resources: qpdf_oh)
    throws(OCRError) -> (PDFContentStream, [qpdf_oh])
  {
    var content = PDFContentStream(try contentBytes(page, index: index))
    var contents = contentStreams(of: page)
    if let cleaned = content.removingInvisibleText() {
      content = PDFContentStream(cleaned)
      contents = [newStream(cleaned)]
    }
    removeInvisibleText(drawnBy: content, renderMode: 0, resources: resources, depth: 0)
    return (content, contents)
  }

  private func setContents(of page: qpdf_oh, to streams: [qpdf_oh]) {
    let array = scantext_qpdf_oh_new_array(q)
    for stream in streams { scantext_qpdf_oh_append_item(q, array, stream) }
    scantext_qpdf_oh_replace_key(q, page, "/Contents", array)
  }

  /// The map from a model's pixels to page `index`'s user space, as its
  /// text layer or marks are made (before the page is turned upright).
  /// - Returns: `nil` for a page not read from a PDF.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)`` for a page that is not there.
  package func pixelToUser(page index: Int, model: Page) throws(OCRError)
    -> ScanModel.AffineTransform?
  {
    guard let source = model.pdf, source.pixelToPoint.count == 6 else { return nil }
    return pixelToUser(try pageHandle(index), source)
  }

  /// The map from a model's pixels to the page's user space:
  /// `pixelToPoint`, then the displayed page to user space.
  private func pixelToUser(_ page: qpdf_oh, _ source: PDFPageSource) -> ScanModel.AffineTransform {
    let m = source.pixelToPoint
    return displayToUser(page).concatenating(
      ScanModel.AffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5]))
  }

  /// Replaces page `index`'s content with an image of it and the text
  /// layer (`--force-ocr`): the page's resources become the image and the
  /// font; its boxes, `/Rotate` and annotations stay.
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - model: The recognised page (its pixels are the image's).
  ///   - image: The page rendered as it was read (``PDFImages/stream(pdfPage:of:width:height:dpi:nativeImage:)``), in one piece.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  ///   - tags: For a tagged PDF, the page's marks and its key in the parent
  ///     tree (the image an artifact, the layer's words marked content).
  ///   - figures: For a tagged PDF, the page's figures (planned with
  ///     ``renderedSpace(page:model:)``): each one's content is the image
  ///     drawn again, clipped to its outline, in its marked content.
  package func replaceContent(
    page index: Int, model: Page, image: PDFPageImage,
    tags: (marks: [PDFTags.Mark], key: Int)? = nil,
    figures: [(mcid: Int, outline: [Point])] = []
  ) throws(OCRError) {
    precondition(image.pieces.isEmpty, "a rendered page is an image in one piece")
    let page = try pageHandle(index)
    guard let source = model.pdf, source.pixelToPoint.count == 6 else {
      throw .uneditablePDF(path: path, reason: "page \(index + 1) was not read from a PDF")
    }
    let map = pixelToUser(page, source)
    // The image's unit square onto its pixels (its first row at the top),
    // then onto the page.
    let placed = map.concatenating(
      ScanModel.AffineTransform(
        a: Double(image.width), b: 0, c: 0, d: -Double(image.height), tx: 0,
        ty: Double(image.height)))
    let xobject = scantext_qpdf_oh_new_stream(q)
    let imageDictionary = dictionary(of: xobject)
    var entries = [
      ("/Type", "/XObject"), ("/Subtype", "/Image"), ("/Width", "\(image.width)"),
      ("/Height", "\(image.height)"), ("/BitsPerComponent", "\(image.bitsPerComponent)"),
      ("/ColorSpace", image.colorSpace),
    ]
    if let decode = image.decode { entries.append(("/Decode", decode)) }
    for (key, value) in entries {
      scantext_qpdf_oh_replace_key(q, imageDictionary, key, scantext_qpdf_oh_parse(q, value))
    }
    image.data.withUnsafeBytes { raw in
      scantext_qpdf_oh_replace_stream_data(
        q, xobject, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count,
        scantext_qpdf_oh_parse(q, "/" + image.filter),
        image.decodeParms.map { scantext_qpdf_oh_parse(q, $0) } ?? scantext_qpdf_oh_new_null(q))
    }
    let resources = scantext_qpdf_oh_new_dictionary(q)
    let xobjects = scantext_qpdf_oh_new_dictionary(q)
    scantext_qpdf_oh_replace_key(q, xobjects, "/Im0", xobject)
    scantext_qpdf_oh_replace_key(q, resources, "/XObject", xobjects)
    scantext_qpdf_oh_replace_key(q, page, "/Resources", resources)
    let name = fontName(addingTo: resources)
    let drawing = "q \(Self.matrix(placed)) cm /Im0 Do Q\n"
    var picture = drawing
    if let tags {
      picture = "/Artifact BMC\n" + picture + "EMC\n"
      for figure in figures { picture += PDFTags.figureContent(figure, drawing: drawing) }
      setStructParents(of: page, key: tags.key)
    }
    let content =
      picture
      + SearchablePDF.textLayer(model, pixelToUser: map, font: name, marks: tags?.marks ?? [])
    scantext_qpdf_oh_replace_key(q, page, "/Contents", newStream(Array(content.utf8)))
    try check("replacing the content of page \(index + 1)")
  }

  /// Page `index`'s own content marked for the structure tree
  /// (``ScanFormats/PDFContentMarking``), for a page kept as it is whose
  /// words came from its text: each text-showing operation belongs to the
  /// model's word nearest to where it starts, and takes that word's mark;
  /// everything else it paints becomes an artifact. Nothing is changed yet
  /// (``setMarkedContent(page:_:key:)`` does it).
  /// - Parameters:
  ///   - index: The page, from 0.
  ///   - model: The page read from its text (``ScanModel/Page/pdf`` maps
  ///     its pixels to the displayed page).
  ///   - marks: Each word's mark, in the order of `blocks` → `paragraphs`
  ///     → `lines` → `words` (``ScanFormats/PDFTags/PagePlan/marks``).
  /// - Returns: The marked content, or `nil` when the page cannot be
  ///   marked without rewriting what it draws: its content cannot be read,
  ///   it draws a form that shows text (or one that cannot be read), it has
  ///   annotations other than links, form fields' widgets
  ///   (``addStructure(_:language:title:producer:pdfUA:keyOffset:)``
  ///   gives each a `Link` or `Form` element) and pop-ups, or the model has
  ///   no words to tie its text to. A widget's appearance is the widget's:
  ///   words read from it match no operation of the page's content, and an
  ///   element left with no content is left out (``ScanFormats/PDFTags/PagePlan/remapped(owners:)``),
  ///   so its text is not in the tags twice.
  /// - Complexity: O(*n* + *w*) in the content's operations and the page's
  ///   words for text shown on or near its words (``ScanFormats/NearestBox``).
  package func markedContent(page index: Int, model: Page, marks: [PDFTags.Mark])
    throws(OCRError) -> PDFContentMarking.Result?
  {
    let page = try pageHandle(index)
    let words = model.blocks.flatMap { $0.paragraphs.flatMap { $0.lines.flatMap(\.words) } }
    guard let source = model.pdf, source.pixelToPoint.count == 6, !words.isEmpty,
      words.count == marks.count,
      let bytes = try contentBytesUnlessUnknown(page, index: index),
      let toPixels = pixelToUser(page, source).inverted,
      // Another annotation (a note, a stamp, …) would need a structure
      // element of its own, which is not written: such a page is not
      // marked. Links and form fields' widgets get theirs (addStructure).
      items(of: get(page, "/Annots")).allSatisfy({
        ["/Popup", "/Link", "/Widget"].contains(name(get($0, "/Subtype")))
      })
    else { return nil }
    let content = PDFContentStream(bytes)
    let resources = get(page, "/Resources")
    var textForms = Set<String>()
    for drawn in content.text().drawn {
      let form = get(get(resources, "/XObject"), "/" + drawn.name)
      guard isForm(form) else { continue }
      guard let formBytes = decodedBytes(form) else {
        textForms.insert(drawn.name)
        continue
      }
      let own = get(dictionary(of: form), "/Resources")
      var seen = Set<[Int]>()
      let kind = textKind(
        of: PDFContentStream(formBytes), resources: isDictionary(own) ? own : resources,
        renderMode: drawn.renderMode, depth: 1, seen: &seen)
      if kind != .noText { textForms.insert(drawn.name) }
    }
    let nearest = NearestBox(words.map(\.bbox))
    return PDFContentMarking.marked(content, textForms: textForms) { point in
      marks[nearest.nearest(to: toPixels.apply(to: point)) ?? 0]
    }
  }

  /// Makes page `index`'s content `bytes` (its content marked:
  /// ``markedContent(page:model:marks:)``), one stream, and gives the page
  /// its key in the parent tree.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  package func setMarkedContent(page index: Int, _ bytes: [UInt8], key: Int) throws(OCRError) {
    let page = try pageHandle(index)
    setContents(of: page, to: [newStream(bytes)])
    setStructParents(of: page, key: key)
    try check("marking the content of page \(index + 1)")
  }

  /// Whether the document has a logical structure of its own (a
  /// `/StructTreeRoot`): ScanText then adds none.
  public var hasStructure: Bool {
    scantext_qpdf_oh_is_dictionary(q, get(scantext_qpdf_get_root(q), "/StructTreeRoot")) != 0
  }

  /// Whether page `index` has content tied to a structure tree (a
  /// `/StructParents` key).
  package func hasStructParents(page index: Int) throws(OCRError) -> Bool {
    scantext_qpdf_oh_is_number(q, get(try pageHandle(index), "/StructParents")) != 0
  }

  /// The first key of the parent tree free for new pages' entries: 0
  /// without a structure tree, else past the tree's `/ParentTreeNextKey`
  /// and every key it holds.
  package var firstFreeStructParentsKey: Int {
    let tree = get(scantext_qpdf_get_root(q), "/StructTreeRoot")
    guard isDictionary(tree) else { return 0 }
    var next = 0
    let stated = get(tree, "/ParentTreeNextKey")
    if scantext_qpdf_oh_is_number(q, stated) != 0 {
      next = max(0, Int(scantext_qpdf_oh_get_int_value_as_int(q, stated)))
    }
    for (key, _) in numberTreeEntries(get(tree, "/ParentTree"), depth: 0) {
      next = max(next, key + 1)
    }
    return next
  }

  /// A number tree's entries (its `/Nums` and its kids', up to 32 deep), in
  /// the tree's order.
  private func numberTreeEntries(_ node: qpdf_oh, depth: Int) -> [(Int, qpdf_oh)] {
    guard isDictionary(node), depth < 32 else { return [] }
    var entries: [(Int, qpdf_oh)] = []
    let nums = items(of: get(node, "/Nums"))
    var k = 0
    while k + 1 < nums.count {
      if scantext_qpdf_oh_is_number(q, nums[k]) != 0 {
        entries.append((Int(scantext_qpdf_oh_get_int_value_as_int(q, nums[k])), nums[k + 1]))
      }
      k += 2
    }
    for kid in items(of: get(node, "/Kids")) {
      entries += numberTreeEntries(kid, depth: depth + 1)
    }
    return entries
  }

  /// Adds the structure ScanText wrote (`ours`, a tree root whose one
  /// `Document` holds the new pages' elements, its parent tree keyed from
  /// ``firstFreeStructParentsKey``) to the document's own tree: the
  /// elements join the tree's top element (its one element, else the root)
  /// in page order, before the first element of a later page; the parent
  /// trees become one (its entries sorted by key, in one node).
  private func merge(_ ours: qpdf_oh, into tree: qpdf_oh, keyOffset: Int) {
    var pageIndex: [Int: Int] = [:]
    for i in 0..<pageCount {
      if let page = try? pageHandle(i) { pageIndex[objectID(page)] = i }
    }
    // The page an element is on: its own `/Pg`, else its first kid's.
    func page(of element: qpdf_oh, depth: Int) -> Int? {
      guard isDictionary(element), depth < 16 else { return nil }
      let pg = get(element, "/Pg")
      if scantext_qpdf_oh_is_dictionary(q, pg) != 0, let index = pageIndex[objectID(pg)] {
        return index
      }
      let kids = get(element, "/K")
      for kid in scantext_qpdf_oh_is_array(q, kids) != 0 ? items(of: kids) : [kids] {
        if let index = page(of: kid, depth: depth + 1) { return index }
      }
      return nil
    }
    func kids(of element: qpdf_oh) -> [qpdf_oh] {
      let k = get(element, "/K")
      if scantext_qpdf_oh_is_array(q, k) != 0 { return items(of: k) }
      return isDictionary(k) || scantext_qpdf_oh_is_number(q, k) != 0 ? [k] : []
    }
    let top = get(tree, "/K")
    let parent =
      isDictionary(top) && scantext_qpdf_oh_is_name(q, get(top, "/S")) != 0 ? top : tree
    let added = kids(of: get(ours, "/K")).map { (element: $0, page: page(of: $0, depth: 0) ?? 0) }
    var merged: [qpdf_oh] = []
    var next = 0
    var lastPage = 0
    for kid in kids(of: parent) {
      let onPage = page(of: kid, depth: 0) ?? lastPage
      lastPage = onPage
      while next < added.count, added[next].page < onPage {
        merged.append(added[next].element)
        next += 1
      }
      merged.append(kid)
    }
    merged += added[next...].map(\.element)
    for element in added { scantext_qpdf_oh_replace_key(q, element.element, "/P", parent) }
    let array = scantext_qpdf_oh_new_array(q)
    for kid in merged { scantext_qpdf_oh_append_item(q, array, kid) }
    scantext_qpdf_oh_replace_key(q, parent, "/K", array)

    let entries =
      (numberTreeEntries(get(tree, "/ParentTree"), depth: 0)
      // (A page of the document's own kept as it is has an empty part.)
      + numberTreeEntries(get(ours, "/ParentTree"), depth: 0).filter {
        scantext_qpdf_oh_is_array(q, $0.1) == 0 || scantext_qpdf_oh_get_array_n_items(q, $0.1) > 0
      }.map { ($0.0 + keyOffset, $0.1) })
      .sorted { $0.0 < $1.0 }
    let nums = scantext_qpdf_oh_new_array(q)
    var lastKey: Int?
    for (key, value) in entries where key != lastKey {
      scantext_qpdf_oh_append_item(q, nums, scantext_qpdf_oh_new_integer(q, Int64(key)))
      scantext_qpdf_oh_append_item(q, nums, value)
      lastKey = key
    }
    let parentTree = scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_new_dictionary(q))
    scantext_qpdf_oh_replace_key(q, parentTree, "/Nums", nums)
    scantext_qpdf_oh_replace_key(q, tree, "/ParentTree", parentTree)
    scantext_qpdf_oh_replace_key(
      q, tree, "/ParentTreeNextKey", scantext_qpdf_oh_new_integer(q, Int64((lastKey ?? -1) + 1)))
  }

  private func setStructParents(of page: qpdf_oh, key: Int) {
    scantext_qpdf_oh_replace_key(
      q, page, "/StructParents", scantext_qpdf_oh_new_integer(q, Int64(key)))
    scantext_qpdf_oh_replace_key(q, page, "/Tabs", scantext_qpdf_oh_parse(q, "/S"))
  }

  /// Makes the document tagged: the structure tree of the pages' parts
  /// (``ScanFormats/PDFTags/objects(pages:pageReferences:count:allocate:)``,
  /// as a new searchable PDF writes it; a document with a tree of its own
  /// keeps it, and the parts' elements join it in page order; each link
  /// and form field widget of a page with a part that no tree holds yet
  /// becomes a `Link` or `Form` element inside the element whose words it
  /// covers, else after the page's elements, the annotation given its
  /// `/StructParent` and its page `/Tabs /S`; a link a `/Contents` when it
  /// has none (its URI, the page it goes to, or its destination's name), a
  /// widget's field a `/TU` when it has none (its name)), `/MarkInfo`,
  /// the language when the
  /// catalog has none, the title shown (`DisplayDocTitle`; `/Title` set
  /// when the document has none), and XMP metadata with the title and the
  /// PDF/UA identification when the document has no packet (a packet of its
  /// own is kept: ``updateMetadata(producer:date:)`` updates it).
  /// - Parameters:
  ///   - parts: Each page's part, in page order; the page's key in the parent
  ///     tree is its index.
  ///   - language: The document's language (BCP 47).
  ///   - title: The title to give a document that has none.
  ///   - producer: The program (for a new XMP packet).
  ///   - pdfUA: Whether a new packet claims PDF/UA-1 (not when a font is
  ///     not embedded: ``unembeddedFont()``).
  ///   - keyOffset: For a document with a structure tree of its own, which
  ///     the pages' parts join, the parent tree key of page 0's part
  ///     (``firstFreeStructParentsKey``; page *i*'s is `keyOffset + i`).
  /// - Returns: The alternate names given to form fields that had none
  ///   (their fully qualified names), in page order.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n* + *a* · *w*) in the elements, the annotations and
  ///   the words.
  @discardableResult
  package func addStructure(
    _ parts: [PDFTags.PagePart], language: String?, title: String, producer: String,
    pdfUA: Bool = true, keyOffset: Int = 0
  ) throws(OCRError) -> [String] {
    var pages: [String] = []
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      pages.append(
        "\(objectID(page)) \(scantext_qpdf_oh_get_generation(q, page)) R")
    }
    var handles: [String: qpdf_oh] = [:]
    var parts = parts
    // Each link and widget annotation not yet in a structure tree, in
    // page order (the k-th one's parent tree key is `pages.count + k`).
    var annotations: [(annotation: qpdf_oh, page: qpdf_oh)] = []
    var namedFields: [String] = []
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      handles["\(objectID(page)) \(scantext_qpdf_oh_get_generation(q, page)) R"] = page
      guard i < parts.count else { continue }
      for annotation in items(of: get(page, "/Annots")) where objectID(annotation) != 0 {
        let subtype = name(get(annotation, "/Subtype"))
        guard subtype == "/Link" || subtype == "/Widget",
          scantext_qpdf_oh_has_key(q, annotation, "/StructParent") == 0
        else { continue }
        let reference =
          "\(objectID(annotation)) \(scantext_qpdf_oh_get_generation(q, annotation)) R"
        handles[reference] = annotation
        // (qpdf asked for a number of anything else records an error.)
        let rect = items(of: get(annotation, "/Rect")).map {
          scantext_qpdf_oh_is_number(q, $0) != 0 ? scantext_qpdf_oh_get_numeric_value(q, $0) : .nan
        }
        parts[i].annotations.append(
          PDFTags.Annotation(
            reference, type: subtype == "/Link" ? "Link" : "Form",
            rect: rect.count == 4 && rect.allSatisfy(\.isFinite)
              ? [
                min(rect[0], rect[2]), min(rect[1], rect[3]), max(rect[0], rect[2]),
                max(rect[1], rect[3]),
              ] : nil))
        annotations.append((annotation, page))
      }
    }
    for (k, entry) in annotations.enumerated() {
      let annotation = entry.annotation
      scantext_qpdf_oh_replace_key(
        q, annotation, "/StructParent",
        scantext_qpdf_oh_new_integer(q, Int64(keyOffset + pages.count + k)))
      if name(get(annotation, "/Subtype")) == "/Widget" {
        if let named = giveAlternateName(toFieldOf: annotation) { namedFields.append(named) }
      } else if (string(get(annotation, "/Contents")) ?? "").isEmpty {
        scantext_qpdf_oh_replace_key(
          q, annotation, "/Contents",
          scantext_qpdf_oh_new_unicode_string(q, linkDescription(annotation)))
      }
      // Annotations in the structure's order (PDF/UA-1 §7.18.3).
      scantext_qpdf_oh_replace_key(q, entry.page, "/Tabs", scantext_qpdf_oh_parse(q, "/S"))
    }
    let written = PDFTags.objects(pages: parts, pageReferences: pages, count: pages.count) {
      count in
      (0..<count).map { _ in
        let object = scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_new_dictionary(q))
        let reference = "\(objectID(object)) \(scantext_qpdf_oh_get_generation(q, object)) R"
        handles[reference] = object
        return reference
      }
    }
    // Each value made a handle: a reference the object it names (qpdf
    // parses no reference without a file's context).
    func handle(_ value: PDFTags.Value) -> qpdf_oh {
      switch value {
      case .raw(let text): return scantext_qpdf_oh_parse(q, text)
      case .reference(let reference): return handles[reference] ?? scantext_qpdf_oh_new_null(q)
      case .array(let items):
        let array = scantext_qpdf_oh_new_array(q)
        for item in items { scantext_qpdf_oh_append_item(q, array, handle(item)) }
        return array
      case .dictionary(let entries):
        let dictionary = scantext_qpdf_oh_new_dictionary(q)
        for (key, item) in entries {
          scantext_qpdf_oh_replace_key(q, dictionary, key, handle(item))
        }
        return dictionary
      }
    }
    for (reference, value) in written.objects {
      guard let object = handles[reference], case .dictionary(let entries) = value else {
        continue
      }
      for (key, item) in entries { scantext_qpdf_oh_replace_key(q, object, key, handle(item)) }
    }
    let root = scantext_qpdf_get_root(q)
    if let tree = handles[written.root] {
      let existing = get(root, "/StructTreeRoot")
      if isDictionary(existing) {
        merge(tree, into: existing, keyOffset: keyOffset)
      } else {
        scantext_qpdf_oh_replace_key(q, root, "/StructTreeRoot", tree)
      }
    }
    scantext_qpdf_oh_replace_key(
      q, root, "/MarkInfo", scantext_qpdf_oh_parse(q, "<< /Marked true >>"))
    if let language, scantext_qpdf_oh_is_string(q, get(root, "/Lang")) == 0 {
      scantext_qpdf_oh_replace_key(
        q, root, "/Lang", scantext_qpdf_oh_new_unicode_string(q, language))
    }
    var preferences = get(root, "/ViewerPreferences")
    if !isDictionary(preferences) {
      preferences = scantext_qpdf_oh_new_dictionary(q)
      scantext_qpdf_oh_replace_key(q, root, "/ViewerPreferences", preferences)
    }
    scantext_qpdf_oh_replace_key(
      q, preferences, "/DisplayDocTitle", scantext_qpdf_oh_parse(q, "true"))
    let trailer = scantext_qpdf_get_trailer(q)
    var info = get(trailer, "/Info")
    if !isDictionary(info) {
      info = scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_new_dictionary(q))
      scantext_qpdf_oh_replace_key(q, trailer, "/Info", info)
    }
    var shownTitle = title
    if scantext_qpdf_oh_is_string(q, get(info, "/Title")) != 0,
      let own = scantext_qpdf_oh_get_utf8_value(q, get(info, "/Title")).map({ String(cString: $0) }
      ),
      !own.isEmpty
    {
      shownTitle = own
    } else {
      scantext_qpdf_oh_replace_key(q, info, "/Title", scantext_qpdf_oh_new_unicode_string(q, title))
    }
    if scantext_qpdf_oh_is_stream(q, get(root, "/Metadata")) == 0 {
      let packet = Array(
        XMPMetadata.packet(title: shownTitle, producer: producer, pdfUA: pdfUA).utf8)
      let metadata = scantext_qpdf_oh_new_stream(q)
      let dictionary = dictionary(of: metadata)
      scantext_qpdf_oh_replace_key(q, dictionary, "/Type", scantext_qpdf_oh_parse(q, "/Metadata"))
      scantext_qpdf_oh_replace_key(q, dictionary, "/Subtype", scantext_qpdf_oh_parse(q, "/XML"))
      // Unfiltered, as readers that scan a file for its XMP expect.
      packet.withUnsafeBufferPointer { raw in
        scantext_qpdf_oh_replace_stream_data(
          q, metadata, raw.baseAddress, raw.count, scantext_qpdf_oh_new_null(q),
          scantext_qpdf_oh_new_null(q))
      }
      scantext_qpdf_oh_replace_key(q, root, "/Metadata", metadata)
    }
    packsObjects = true
    try check("adding the structure tree")
    return namedFields
  }

  /// Gives the form field a widget belongs to (the widget itself when it
  /// has a name, `/T`, else its `/Parent`) an alternate name, `/TU`, the
  /// name PDF/UA-1 asks of every field (§7.18.1): its fully qualified
  /// name (`/T`s from the top field down, joined by `.`), or `Form field`
  /// without one, when it has none.
  /// - Returns: The name given, `nil` when the field had one.
  private func giveAlternateName(toFieldOf widget: qpdf_oh) -> String? {
    var field = widget
    if scantext_qpdf_oh_has_key(q, widget, "/T") == 0, isDictionary(get(widget, "/Parent")) {
      field = get(widget, "/Parent")
    }
    guard (string(get(field, "/TU")) ?? "").isEmpty else { return nil }
    var names: [String] = []
    var node = field
    var seen = Set<Int>()
    // (A field's ancestors, up to 32, each once: a loop ends the walk.)
    while isDictionary(node), names.count < 32, seen.insert(objectID(node)).inserted {
      if let own = string(get(node, "/T")), !own.isEmpty { names.insert(own, at: 0) }
      node = get(node, "/Parent")
    }
    let given = names.isEmpty ? "Form field" : names.joined(separator: ".")
    scantext_qpdf_oh_replace_key(q, field, "/TU", scantext_qpdf_oh_new_unicode_string(q, given))
    return given
  }

  /// A string object's text (UTF-8); `nil` for anything else.
  private func string(_ object: qpdf_oh) -> String? {
    guard scantext_qpdf_oh_is_string(q, object) != 0 else { return nil }
    return scantext_qpdf_oh_get_utf8_value(q, object).map { String(cString: $0) }
  }

  /// A link annotation's alternate description (its `/Contents`, which
  /// PDF/UA-1 requires): its URI, else the page it goes to (`Page 3`),
  /// else its named destination, else `Link`.
  private func linkDescription(_ annotation: qpdf_oh) -> String {
    let action = get(annotation, "/A")
    let uri = get(action, "/URI")
    if scantext_qpdf_oh_is_string(q, uri) != 0,
      let text = scantext_qpdf_oh_get_utf8_value(q, uri).map({ String(cString: $0) }), !text.isEmpty
    {
      return text
    }
    var destination = get(annotation, "/Dest")
    if scantext_qpdf_oh_is_name_and_equals(q, get(action, "/S"), "/GoTo") != 0 {
      destination = get(action, "/D")
    }
    if let target = items(of: destination).first, isDictionary(target) {
      for i in 0..<pageCount where (try? pageHandle(i)).map(objectID) == objectID(target) {
        return "Page \(i + 1)"
      }
    }
    if scantext_qpdf_oh_is_string(q, destination) != 0,
      let text = scantext_qpdf_oh_get_utf8_value(q, destination).map({ String(cString: $0) }),
      !text.isEmpty
    {
      return text
    }
    if let named = name(destination) { return String(named.dropFirst()) }
    return "Link"
  }

  /// Makes the glyphless font of page `index` the document's one copy: a
  /// page copied in from a PDF ``ScanFormats/SearchablePDF`` wrote carries
  /// its own (the font is then in the file once, whatever the pages).
  public func shareGlyphlessFont(page index: Int) throws(OCRError) {
    let page = try pageHandle(index)
    let fonts = get(get(page, "/Resources"), "/Font")
    let names = keys(of: fonts).filter {
      scantext_qpdf_oh_is_name_and_equals(q, get(get(fonts, $0), "/BaseFont"), "/GlyphLessFont")
        != 0
    }
    guard !names.isEmpty else { return }
    let resources = ownResources(of: page)
    let copy = shallowCopy(get(resources, "/Font"))
    for name in names { scantext_qpdf_oh_replace_key(q, copy, name, glyphlessFont()) }
    scantext_qpdf_oh_replace_key(q, resources, "/Font", copy)
    try check("sharing the font of page \(index + 1)")
  }

  /// The page's `/Rotate`, in degrees clockwise: 0, 90, 180 or 270.
  public func rotation(page index: Int) throws(OCRError) -> Int {
    let page = try pageHandle(index)
    return Self.quarterTurns(get(page, "/Rotate"), q) * 90
  }

  /// Sets the page's `/Rotate` (degrees clockwise, a multiple of 90): how a
  /// viewer turns the page to show it; its content is untouched.
  public func setRotation(page index: Int, degrees: Int) throws(OCRError) {
    let page = try pageHandle(index)
    let value = ((degrees % 360) + 360) % 360
    scantext_qpdf_oh_replace_key(q, page, "/Rotate", scantext_qpdf_oh_new_integer(q, Int64(value)))
    try check("turning page \(index + 1)")
  }

  // MARK: - Metadata and writing

  /// What `updateMetadata(producer:date:)` did with the XMP packet.
  public enum MetadataUpdate: Sendable, Equatable {
    /// The document has no XMP packet.
    case noPacket
    /// The packet's producer and dates were updated.
    case updated
    /// The packet could not be changed safely and was kept as it was.
    case keptAsItWas
  }

  /// Records the change in the document's metadata: the Info dictionary's
  /// `/Producer` and `/ModDate` (the dictionary is made when there is
  /// none; its other entries stay), and in the catalog's XMP packet
  /// `pdf:Producer`, `xmp:ModifyDate` and `xmp:MetadataDate` when that can
  /// be done safely (``ScanFormats/XMPMetadata/updated(_:producer:date:)``),
  /// else the packet stays as it was.
  /// - Returns: What became of the XMP packet.
  @discardableResult
  public func updateMetadata(producer: String, date: Date, pdfUA: Bool = false) throws(OCRError)
    -> MetadataUpdate
  {
    let trailer = scantext_qpdf_get_trailer(q)
    var info = get(trailer, "/Info")
    if !isDictionary(info) {
      info = scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_new_dictionary(q))
      scantext_qpdf_oh_replace_key(q, trailer, "/Info", info)
    }
    scantext_qpdf_oh_replace_key(
      q, info, "/Producer", scantext_qpdf_oh_new_unicode_string(q, producer))
    scantext_qpdf_oh_replace_key(
      q, info, "/ModDate", scantext_qpdf_oh_new_unicode_string(q, PDFDates.info(date)))
    try check("updating the document information")
    let metadata = get(scantext_qpdf_get_root(q), "/Metadata")
    guard scantext_qpdf_oh_is_stream(q, metadata) != 0 else { return .noPacket }
    // The title shown (the Info dictionary's: a tagged file always has
    // one, ``addStructure(_:language:title:producer:)``), for a packet
    // without one that is to claim PDF/UA.
    let infoTitle = get(info, "/Title")
    let title =
      scantext_qpdf_oh_is_string(q, infoTitle) != 0
      ? scantext_qpdf_oh_get_utf8_value(q, infoTitle).map { String(cString: $0) } : nil
    guard let packet = decodedBytes(metadata),
      let updated = XMPMetadata.updated(
        packet, producer: producer, date: date, pdfUA: pdfUA, title: title)
    else { return .keptAsItWas }
    // XMP is stored unfiltered, as readers that scan for the packet expect.
    updated.withUnsafeBufferPointer { raw in
      scantext_qpdf_oh_replace_stream_data(
        q, metadata, raw.baseAddress, raw.count, scantext_qpdf_oh_new_null(q),
        scantext_qpdf_oh_new_null(q))
    }
    try check("updating the XMP metadata")
    return .updated
  }

  /// The document as a PDF file: every stream's stored bytes as they are,
  /// object streams kept, objects nothing refers to any more left out.
  /// - Parameter deterministicID: Make the file's `/ID` from its bytes
  ///   instead of the time (not for an encrypted file, which keeps its
  ///   way), so that the same document is the same bytes.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  public func data(deterministicID: Bool = false) throws(OCRError) -> Data {
    var length = 0
    guard
      let bytes = scantext_qpdf_write_memory(
        q, deterministicID ? 1 : 0, Int32(objectStreamMode.rawValue), archivalPart == nil ? 0 : 1,
        &length)
    else {
      throw .uneditablePDF(path: path, reason: takeError() ?? "qpdf could not write it")
    }
    return Data(bytes: bytes, count: length)
  }

  /// How object streams are written: made for a tagged file, none for
  /// PDF/A-1 (PDF 1.4 has none), else as they are.
  private var objectStreamMode: qpdf_object_stream_e {
    if archivalPart == 1 { return qpdf_o_disable }
    return packsObjects ? qpdf_o_generate : qpdf_o_preserve
  }

  // MARK: - PDF/A

  /// Makes the edited document a PDF/A file of `settings`' level, after
  /// the pages' edits and ``updateMetadata(producer:date:pdfUA:)``; or
  /// leaves it as it is and returns why it cannot be
  /// (``archivalBlocker(part:needsCharacters:)``).
  ///
  /// The catalog gets the output intent (sRGB) unless it has one; the
  /// Info dictionary and the XMP packet are made to say the same: a new
  /// packet (``ScanFormats/XMPMetadata/packet(info:pdfUA:archive:)``)
  /// holds the Info dictionary's title, author, subject, keywords,
  /// creator, producer and dates, each missing one taken from the input's
  /// packet (and then written to the Info dictionary too), with the PDF/A
  /// and PDF/UA identifications; the input's other XMP properties are not
  /// kept (PDF/A allows only declared ones). The file is then written with
  /// an end-of-line marker before every `endstream` and, for PDF/A-1,
  /// without object streams.
  /// - Parameters:
  ///   - settings: The level and the output intent's profile.
  ///   - pdfUA: Whether the file is tagged and claims PDF/UA-1.
  /// - Returns: `nil` when the file is now PDF/A, else the reason it is not.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  package func makeArchival(_ settings: PDFArchive.Settings, pdfUA: Bool) throws(OCRError)
    -> String?
  {
    // A link with no flags (as PyMuPDF writes one) is given the print
    // flag PDF/A asks of every annotation (ISO 19005-2 §6.3.2): a link
    // draws nothing, printed or shown, so nothing changes.
    for i in 0..<pageCount {
      for annotation in items(of: get(try pageHandle(i), "/Annots"))
      where name(get(annotation, "/Subtype")) == "/Link"
        && (integer(get(annotation, "/F")) ?? 0) == 0
      {
        scantext_qpdf_oh_replace_key(q, annotation, "/F", scantext_qpdf_oh_new_integer(q, 4))
      }
    }
    if let reason = try archivalBlocker(
      part: settings.level.part, needsCharacters: settings.level.conformance != "B")
    {
      return reason
    }
    // Interpolation is a hint PDF/A forbids (§6.2.8.3): images are drawn
    // without it, as most viewers draw scans anyway.
    var seen = Set<Int>()
    for i in 0..<pageCount {
      removeInterpolation(get(try pageHandle(i), "/Resources"), seen: &seen, depth: 0)
    }
    storeAgainStreamsEndingInCarriageReturn()
    let root = scantext_qpdf_get_root(q)
    if scantext_qpdf_oh_is_array(q, get(root, "/OutputIntents")) == 0 {
      let profile = newStream(Array(settings.outputProfile), isContent: false)
      scantext_qpdf_oh_replace_key(
        q, dictionary(of: profile), "/N", scantext_qpdf_oh_new_integer(q, 3))
      let intents = scantext_qpdf_oh_parse(q, PDFArchive.outputIntents(profile: "null"))
      // The profile goes in place of the placeholder.
      let intent = scantext_qpdf_oh_get_array_item(q, intents, 0)
      scantext_qpdf_oh_replace_key(q, intent, "/DestOutputProfile", profile)
      scantext_qpdf_oh_replace_key(q, root, "/OutputIntents", intents)
    }
    let trailer = scantext_qpdf_get_trailer(q)
    var infoObject = get(trailer, "/Info")
    if !isDictionary(infoObject) {
      infoObject = scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_new_dictionary(q))
      scantext_qpdf_oh_replace_key(q, trailer, "/Info", infoObject)
    }
    func text(_ key: String) -> String? {
      let value = get(infoObject, key)
      guard scantext_qpdf_oh_is_string(q, value) != 0,
        let string = scantext_qpdf_oh_get_utf8_value(q, value).map({ String(cString: $0) }),
        !string.isEmpty
      else { return nil }
      return string
    }
    var info = PDFDocumentInfo(
      title: text("/Title"), author: text("/Author"), subject: text("/Subject"),
      keywords: text("/Keywords"), creator: text("/Creator"), producer: text("/Producer"),
      creationDate: text("/CreationDate"), modificationDate: text("/ModDate"))
    // A date that does not read as one cannot be repeated in the XMP.
    if info.creationDate.flatMap(PDFDates.xmp(pdfDate:)) == nil { info.creationDate = nil }
    if info.modificationDate.flatMap(PDFDates.xmp(pdfDate:)) == nil {
      info.modificationDate = nil
    }
    let metadata = get(root, "/Metadata")
    if scantext_qpdf_oh_is_stream(q, metadata) != 0, let packet = decodedBytes(metadata) {
      info = info.filling(from: XMPMetadata.documentInfo(of: packet))
    }
    let entries: [(String, String?)] = [
      ("/Title", info.title), ("/Author", info.author), ("/Subject", info.subject),
      ("/Keywords", info.keywords), ("/Creator", info.creator), ("/Producer", info.producer),
      ("/CreationDate", info.creationDate), ("/ModDate", info.modificationDate),
    ]
    for (key, value) in entries {
      if let value {
        scantext_qpdf_oh_replace_key(
          q, infoObject, key, scantext_qpdf_oh_new_unicode_string(q, value))
      } else {
        scantext_qpdf_oh_remove_key(q, infoObject, key)
      }
    }
    let packet = Array(
      XMPMetadata.packet(info: info, pdfUA: pdfUA, archive: settings.level).utf8)
    let stream = scantext_qpdf_oh_new_stream(q)
    let streamDictionary = dictionary(of: stream)
    scantext_qpdf_oh_replace_key(
      q, streamDictionary, "/Type", scantext_qpdf_oh_parse(q, "/Metadata"))
    scantext_qpdf_oh_replace_key(q, streamDictionary, "/Subtype", scantext_qpdf_oh_parse(q, "/XML"))
    // Unfiltered, as readers that scan a file for its XMP expect.
    packet.withUnsafeBufferPointer { raw in
      scantext_qpdf_oh_replace_stream_data(
        q, stream, raw.baseAddress, raw.count, scantext_qpdf_oh_new_null(q),
        scantext_qpdf_oh_new_null(q))
    }
    scantext_qpdf_oh_replace_key(q, root, "/Metadata", stream)
    try check("making the file PDF/A")
    archivalPart = settings.level.part
    return nil
  }

  /// Why the document cannot be made PDF/A without losing content, `nil`
  /// when it can: what PDF/A forbids and ScanText would have to remove or
  /// rewrite. Checked: a font drawn on a page (or in a form it draws, or in
  /// an annotation's appearance) whose program is not embedded; JavaScript
  /// (a document-level script or an open action); embedded files (PDF/A-1 and -2 allow none but PDF/A
  /// files, which cannot be told here); an LZW-compressed page stream or
  /// image; an annotation other than a link or pop-up without an
  /// appearance, or one hidden or not printed; and for PDF/A-1 transparency
  /// (a page's transparency group, an image's soft mask); for levels `u`
  /// and `a`, an embedded composite font whose characters are unknown
  /// (``completeCompositeFonts()``).
  /// - Parameters:
  ///   - part: The PDF/A part (1, 2 or 3).
  ///   - needsCharacters: Whether the level asks every glyph's character
  ///     (`u` and `a`, not `b`).
  /// - Returns: The first reason found, naming the page.
  package func archivalBlocker(part: Int, needsCharacters: Bool = true) throws(OCRError)
    -> String?
  {
    let root = scantext_qpdf_get_root(q)
    let names = get(root, "/Names")
    if scantext_qpdf_oh_has_key(q, names, "/JavaScript") != 0
      || isJavaScript(get(root, "/OpenAction"))
    {
      return "the document holds JavaScript"
    }
    if part < 3, scantext_qpdf_oh_has_key(q, names, "/EmbeddedFiles") != 0 {
      return "the document has embedded files (PDF/A-\(part) allows only PDF/A files, PDF/A-3 any)"
    }
    var seen = Set<Int>()
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      if part == 1, isDictionary(get(page, "/Group")) {
        return "page \(i + 1) has a transparency group (PDF/A-1 forbids transparency)"
      }
      for stream in contentStreams(of: page) where usesLZW(stream) {
        return "page \(i + 1) has LZW-compressed content"
      }
      if let reason = resourcesBlocker(
        get(page, "/Resources"), part: part, seen: &seen, depth: 0,
        needsCharacters: needsCharacters)
      {
        return "page \(i + 1) has \(reason)"
      }
      for form in appearances(of: page) {
        if let reason = resourcesBlocker(
          get(dictionary(of: form), "/Resources"), part: part, seen: &seen, depth: 1,
          needsCharacters: needsCharacters)
        {
          return "page \(i + 1) has \(reason) in an annotation"
        }
      }
      for annotation in items(of: get(page, "/Annots")) where isDictionary(annotation) {
        let subtype = name(get(annotation, "/Subtype"))
        if subtype == "/Popup" { continue }
        let flag = get(annotation, "/F")
        let flags =
          scantext_qpdf_oh_is_number(q, flag) != 0
          ? Int(scantext_qpdf_oh_get_int_value_as_int(q, flag)) : 0
        // Print (4) set; Invisible (1), Hidden (2), NoView (32) clear.
        if flags & 4 == 0 || flags & 35 != 0 {
          return "page \(i + 1) has an annotation (\(subtype ?? "?")) that is hidden or not printed"
        }
        if subtype != "/Link", !isDictionary(get(annotation, "/AP")) {
          return "page \(i + 1) has an annotation (\(subtype ?? "?")) without an appearance"
        }
      }
    }
    return nil
  }

  /// Stores again, Flate-compressed or as they are, the input's streams
  /// whose stored bytes end in a carriage return.
  ///
  /// Before `endstream` PDF/A wants an end-of-line marker outside the
  /// stream's `/Length` (ISO 19005-2 §6.1.7.1), and data that ends in CR
  /// followed by that LF reads as a CR LF marker: the stream is counted
  /// one byte short (the validator's `STREAM-LENGTH` rule; one compressed
  /// stream in 256 ends so, as a `/ToUnicode` of a file cairo wrote did).
  /// ScanText's own streams never end so
  /// (``ScanFormats/Deflate/streamBytes(_:level:padding:)``); an input's
  /// are decoded and stored again the same way. A stream whose filters
  /// are not general-purpose (an image's DCT, CCITT or JBIG2 data) is left
  /// as it is. The objects visited are those the trailer reaches, what
  /// the file will hold.
  /// - Complexity: O(*n*) in the objects the trailer reaches and their
  ///   streams' sizes.
  private func storeAgainStreamsEndingInCarriageReturn() {
    // The objects the file will hold: those the trailer reaches (the
    // writer drops the others), each indirect one visited once.
    var seen = Set<Int>()
    var pending = [scantext_qpdf_get_trailer(q)]
    while let object = pending.popLast() {
      if scantext_qpdf_oh_is_indirect(q, object) != 0 {
        guard seen.insert(objectID(object)).inserted else { continue }
      }
      if scantext_qpdf_oh_is_array(q, object) != 0 {
        pending += items(of: object)
        continue
      }
      let stream = scantext_qpdf_oh_is_stream(q, object) != 0
      let entries = stream ? dictionary(of: object) : object
      for key in keys(of: entries) { pending.append(get(entries, key)) }
      if stream { storeAgainIfEndingInCarriageReturn(object) }
    }
  }

  /// Stores `stream` again (``storeAgainStreamsEndingInCarriageReturn()``)
  /// when its stored bytes end in a carriage return and its filters can
  /// be undone.
  private func storeAgainIfEndingInCarriageReturn(_ stream: qpdf_oh) {
    var length = 0
    guard let raw = scantext_qpdf_stream_bytes(q, stream, 0, &length) else {
      _ = takeError()
      return
    }
    let last = length > 0 ? raw[length - 1] : 0
    free(raw)
    guard last == 0x0D else { return }
    guard let decoded = scantext_qpdf_stream_bytes(q, stream, 1, &length) else {
      _ = takeError()
      return
    }
    let data = Data(UnsafeBufferPointer(start: decoded, count: length))
    free(decoded)
    let (stored, compressed) = Deflate.streamBytes(data, level: -1, padding: false)
    guard stored.last != 0x0D else { return }
    stored.withUnsafeBytes { bytes in
      scantext_qpdf_oh_replace_stream_data(
        q, stream, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
        compressed ? scantext_qpdf_oh_parse(q, "/FlateDecode") : scantext_qpdf_oh_new_null(q),
        scantext_qpdf_oh_new_null(q))
    }
  }

  /// Takes `/Interpolate` out of the images of a resource dictionary and
  /// of the forms it draws (their resources up to 12 deep).
  private func removeInterpolation(_ resources: qpdf_oh, seen: inout Set<Int>, depth: Int) {
    guard isDictionary(resources), depth < 12 else { return }
    let xobjects = get(resources, "/XObject")
    for key in keys(of: xobjects) {
      let object = get(xobjects, key)
      guard scantext_qpdf_oh_is_stream(q, object) != 0, seen.insert(objectID(object)).inserted
      else { continue }
      let entries = dictionary(of: object)
      if scantext_qpdf_oh_has_key(q, entries, "/Interpolate") != 0 {
        scantext_qpdf_oh_remove_key(q, entries, "/Interpolate")
      }
      if isForm(object) {
        removeInterpolation(get(entries, "/Resources"), seen: &seen, depth: depth + 1)
      }
    }
  }

  /// An array's items; none for anything else.
  private func items(of array: qpdf_oh) -> [qpdf_oh] {
    guard scantext_qpdf_oh_is_array(q, array) != 0 else { return [] }
    return (0..<scantext_qpdf_oh_get_array_n_items(q, array)).map {
      scantext_qpdf_oh_get_array_item(q, array, $0)
    }
  }

  /// A name object's name with its slash; `nil` for anything else.
  private func name(_ object: qpdf_oh) -> String? {
    guard scantext_qpdf_oh_is_name(q, object) != 0 else { return nil }
    return scantext_qpdf_oh_get_name(q, object).map { String(cString: $0) }
  }

  private func isJavaScript(_ action: qpdf_oh) -> Bool {
    isDictionary(action)
      && scantext_qpdf_oh_is_name_and_equals(q, get(action, "/S"), "/JavaScript") != 0
  }

  private func usesLZW(_ stream: qpdf_oh) -> Bool {
    let filter = get(dictionary(of: stream), "/Filter")
    if scantext_qpdf_oh_is_name(q, filter) != 0 {
      return scantext_qpdf_oh_is_name_and_equals(q, filter, "/LZWDecode") != 0
    }
    return items(of: filter).contains { name($0) == "/LZWDecode" }
  }

  /// A font drawn on a page (or in a form it draws) whose program is not
  /// in the file, as ``archivalBlocker(part:needsCharacters:)`` names it (`page 3 has a
  /// font that is not embedded (Helvetica)`); `nil` when every font is
  /// embedded; or an embedded composite font whose characters are
  /// unknown (``completeCompositeFonts()``). PDF/UA-1 requires embedded
  /// fonts as PDF/A does (ISO 14289-1 §7.21.4.1), and every glyph's
  /// character (§7.21.7): a file with such a font is not claimed PDF/UA.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n*) in the fonts and XObjects of the pages' resources.
  package func unembeddedFont() throws(OCRError) -> String? {
    var seen = Set<Int>()
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      if let reason = resourcesBlocker(
        get(page, "/Resources"), part: 2, seen: &seen, depth: 0, fontsOnly: true)
      {
        return "page \(i + 1) has \(reason)"
      }
      for form in appearances(of: page) {
        if let reason = resourcesBlocker(
          get(dictionary(of: form), "/Resources"), part: 2, seen: &seen, depth: 1, fontsOnly: true)
        {
          return "page \(i + 1) has \(reason) in an annotation"
        }
      }
    }
    return nil
  }

  /// The appearance streams of a page's annotations (`/AP`'s `/N`, `/R`
  /// and `/D`: each a form, or a form for each of the annotation's states).
  private func appearances(of page: qpdf_oh) -> [qpdf_oh] {
    var forms: [qpdf_oh] = []
    for annotation in items(of: get(page, "/Annots")) {
      let appearance = get(annotation, "/AP")
      for key in ["/N", "/R", "/D"] {
        let entry = get(appearance, key)
        if isForm(entry) {
          forms.append(entry)
        } else {
          forms += keys(of: entry).map { get(entry, $0) }.filter(isForm)
        }
      }
    }
    return forms
  }

  /// What in a resource dictionary PDF/A forbids (its fonts, images and
  /// forms, forms' own resources up to 12 deep; only fonts not embedded
  /// when `fontsOnly`; fonts whose characters are unknown when
  /// `needsCharacters`), `nil` for nothing.
  private func resourcesBlocker(
    _ resources: qpdf_oh, part: Int, seen: inout Set<Int>, depth: Int, fontsOnly: Bool = false,
    needsCharacters: Bool = true
  ) -> String? {
    guard isDictionary(resources), depth < 12 else { return nil }
    let fonts = get(resources, "/Font")
    for key in keys(of: fonts) {
      let font = get(fonts, key)
      let id = objectID(font)
      if id != 0 { if seen.contains(id) { continue } else { seen.insert(id) } }
      if !isEmbedded(font) {
        let base = name(get(font, "/BaseFont")).map { String($0.dropFirst()) }
        let why = fontsLeftOut[id].map { ": \($0)" } ?? ""
        return "a font that is not embedded (\(base ?? String(key.dropFirst()))\(why))"
      }
      if let why = fontsWithoutGlyphs[id] {
        let base = name(get(font, "/BaseFont")).map { String($0.dropFirst()) }
        return "a font whose glyphs cannot be found (\(base ?? String(key.dropFirst())): \(why))"
      }
      if needsCharacters, let why = fontsWithoutCharacters[id] {
        let base = name(get(font, "/BaseFont")).map { String($0.dropFirst()) }
        return "a font whose characters are unknown (\(base ?? String(key.dropFirst())): \(why))"
      }
    }
    let xobjects = get(resources, "/XObject")
    for key in keys(of: xobjects) {
      let object = get(xobjects, key)
      let id = objectID(object)
      if id != 0 { if seen.contains(id) { continue } else { seen.insert(id) } }
      guard scantext_qpdf_oh_is_stream(q, object) != 0 else { continue }
      if usesLZW(object), !fontsOnly { return "an LZW-compressed image or form" }
      let entries = dictionary(of: object)
      if part == 1, !fontsOnly,
        isDictionary(get(entries, "/Group")) || scantext_qpdf_oh_has_key(q, entries, "/SMask") != 0
      {
        return "transparency (PDF/A-1 forbids it)"
      }
      if isForm(object),
        let reason = resourcesBlocker(
          get(entries, "/Resources"), part: part, seen: &seen, depth: depth + 1,
          fontsOnly: fontsOnly, needsCharacters: needsCharacters)
      {
        return reason
      }
    }
    return nil
  }

  /// Whether a font's program is in the file: a Type 3 font's glyphs are
  /// its own; a composite font's descendant, else the font itself, must
  /// have a descriptor with `FontFile`, `FontFile2` or `FontFile3`.
  private func isEmbedded(_ font: qpdf_oh) -> Bool {
    if scantext_qpdf_oh_is_name_and_equals(q, get(font, "/Subtype"), "/Type3") != 0 { return true }
    var described = font
    if scantext_qpdf_oh_is_name_and_equals(q, get(font, "/Subtype"), "/Type0") != 0 {
      guard let descendant = items(of: get(font, "/DescendantFonts")).first else { return false }
      described = descendant
    }
    let descriptor = get(described, "/FontDescriptor")
    return ["/FontFile", "/FontFile2", "/FontFile3"].contains {
      scantext_qpdf_oh_is_stream(q, get(descriptor, $0)) != 0
    }
  }

  // MARK: - Fonts left out

  /// Embeds each font the pages draw text in (or hold in their resources,
  /// forms' resources up to 12 deep, and their annotations' appearances)
  /// whose program is not in the file,
  /// when a free font with its widths is installed (``TwinFont``: the
  /// standard 14 but Symbol and ZapfDingbats, and common aliases): the font
  /// becomes a TrueType font whose program is a subset of the twin holding
  /// the glyphs of the codes it shows (HarfBuzz), under WinAnsiEncoding or
  /// MacRomanEncoding with `/Differences` for the codes the font's own
  /// encoding (``FontEncoding``: one of those or StandardEncoding, with its
  /// own `/Differences` naming glyphs of the Latin character set) gives
  /// other characters, with `/Widths` from the twin
  /// when it had none. Where the glyphs stand does not change, nor the
  /// characters a reader takes from the codes. A font is left as it is
  /// (PDF/A is then refused, naming the reason: ``unembeddedFont()``) when
  /// it has no twin, its twin is not installed, it is not a simple font,
  /// its encoding is another, a code it shows has no glyph in the twin, or
  /// its `/Widths` differ from the twin's by more than a thousandth of an
  /// em (PDF/A's tolerance, ISO 19005-2 §6.2.11.5) for a code it shows.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n*) in the pages' content and the fonts' sizes.
  package func embedTwinFonts() throws(OCRError) {
    var fonts: [Int: qpdf_oh] = [:]
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      collectFonts(get(page, "/Resources"), into: &fonts, depth: 0)
      for form in appearances(of: page) {
        collectFonts(get(dictionary(of: form), "/Resources"), into: &fonts, depth: 1)
      }
    }
    // (A scanned document's pages are not read at all.)
    guard !fonts.isEmpty else { return }
    // A page whose content cannot be read may show any code: no subset
    // is safe.
    let codes = try shownCodes()
    if let unknown = codes.unknown {
      for id in fonts.keys { fontsLeftOut[id] = unknown }
      return
    }
    var programs: [String: FontProgram] = [:]
    for (id, font) in fonts.sorted(by: { $0.key < $1.key }) {
      if let reason = embedTwin(font, codes: codes.bytes[id] ?? [], programs: &programs) {
        fontsLeftOut[id] = reason
      }
    }
    try check("embedding fonts")
  }

  /// The fonts of a resource dictionary and of its forms (up to 12 deep)
  /// that are indirect objects without their program (with it when
  /// `embedded`).
  private func collectFonts(
    _ resources: qpdf_oh, into fonts: inout [Int: qpdf_oh], depth: Int, embedded: Bool = false
  ) {
    guard isDictionary(resources), depth < 12 else { return }
    let dictionary = get(resources, "/Font")
    for key in keys(of: dictionary) {
      let font = get(dictionary, key)
      let id = objectID(font)
      if id != 0, fonts[id] == nil, isDictionary(font), isEmbedded(font) == embedded {
        fonts[id] = font
      }
    }
    let xobjects = get(resources, "/XObject")
    for key in keys(of: xobjects) {
      let form = get(xobjects, key)
      if isForm(form) {
        collectFonts(
          get(self.dictionary(of: form), "/Resources"), into: &fonts, depth: depth + 1,
          embedded: embedded)
      }
    }
  }

  /// The codes each font (by object number) shows on the pages and in
  /// their annotations' appearances: its one-byte codes, and its strings'
  /// bytes taken two by two (a composite font's codes under `Identity-H`
  /// or `Identity-V`).
  private struct ShownCodes {
    var bytes: [Int: Set<UInt8>] = [:]
    var pairs: [Int: Set<UInt16>] = [:]
    /// Why the codes are not all known: a page whose content cannot be
    /// read may show any code.
    var unknown: String?
  }

  /// The codes every font shows (``ShownCodes``); collecting stops at the
  /// first page whose content cannot be read.
  private func shownCodes() throws(OCRError) -> ShownCodes {
    var codes = ShownCodes()
    var seenForms = Set<Int>()
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      guard let content = (try? contentBytesUnlessUnknown(page, index: i)) ?? nil else {
        codes.unknown = "the content of page \(i + 1) cannot be read"
        return codes
      }
      collectCodes(
        content, resources: get(page, "/Resources"), into: &codes, forms: &seenForms, depth: 0)
      for form in appearances(of: page) where seenForms.insert(objectID(form)).inserted {
        guard let bytes = decodedBytes(form) else { continue }
        collectCodes(
          bytes, resources: get(dictionary(of: form), "/Resources"), into: &codes,
          forms: &seenForms, depth: 1)
      }
    }
    return codes
  }

  /// The codes each font (by object number) shows in `content` and the
  /// forms it draws (up to 12 deep; each form read once).
  private func collectCodes(
    _ content: [UInt8], resources: qpdf_oh, into codes: inout ShownCodes,
    forms: inout Set<Int>, depth: Int
  ) {
    var current: Int?
    var saved: [Int?] = []
    for operation in PDFContentStream(content).operations {
      switch operation.operator {
      case "q": saved.append(current)
      case "Q": if let restored = saved.popLast() { current = restored }
      case "Tf":
        if case .name(let name)? = operation.operands.first {
          let id = objectID(get(get(resources, "/Font"), "/" + name))
          current = id == 0 ? nil : id
        }
      case "Tj", "TJ", "'", "\"":
        guard let current else { continue }
        var strings: [[UInt8]] = []
        switch operation.operands.last {
        case .string(let bytes)?: strings = [bytes]
        case .array(let items)?:
          for case .string(let bytes) in items { strings.append(bytes) }
        default: break
        }
        for shown in strings {
          codes.bytes[current, default: []].formUnion(shown)
          for i in stride(from: 0, to: shown.count - 1, by: 2) {
            codes.pairs[current, default: []].insert(UInt16(shown[i]) << 8 | UInt16(shown[i + 1]))
          }
        }
      case "Do":
        guard depth < 12, case .name(let name)? = operation.operands.last else { continue }
        let form = get(get(resources, "/XObject"), "/" + name)
        guard isForm(form), forms.insert(objectID(form)).inserted,
          let bytes = decodedBytes(form)
        else { continue }
        let own = get(dictionary(of: form), "/Resources")
        collectCodes(
          bytes, resources: isDictionary(own) ? own : resources, into: &codes, forms: &forms,
          depth: depth + 1)
      default: break
      }
    }
  }

  /// Gives each embedded composite font the pages draw text in (or hold
  /// in their resources, forms' and annotations' appearances) what PDF/A
  /// and PDF/UA ask of it and an input may leave out, where its program
  /// says it:
  ///
  /// - a TrueType descendant (`CIDFontType2`) without `/CIDToGIDMap`
  ///   gets `/CIDToGIDMap /Identity`, what a missing one means (ISO
  ///   32000-1 Table 117's default), which PDF/A-2 and PDF/UA-1 ask to be
  ///   written (ISO 19005-2 §6.2.11.3.2);
  /// - a font under `Identity-H` or `Identity-V` without `/ToUnicode`
  ///   whose descendant is TrueType, its glyphs its CIDs (an identity
  ///   map), gets a `/ToUnicode` CMap giving each CID it shows the character its
  ///   program's Unicode `cmap` gives that glyph (the least, when several
  ///   share it: `space` before `nbspace`), as PDF/A-2's levels `u` and
  ///   `a` and PDF/UA-1 ask (§6.2.11.7.2). A font showing a glyph no
  ///   character maps to, or another such font without `/ToUnicode` (a
  ///   CFF program, an embedded CMap, another glyph map), is left as it
  ///   is, and the file is not claimed PDF/A (but PDF/A-1b) or PDF/UA
  ///   (``unembeddedFont()``, ``archivalBlocker(part:needsCharacters:)``),
  ///   naming why.
  ///
  /// A CFF descendant (`CIDFontType0`) embedded bare (`/FontFile3
  /// /CIDFontType0C`) whose program is name-keyed, not CID-keyed
  /// (``CompactFontFormat/isCIDKeyed(_:)``), has no glyph a CID selects
  /// by PDF's rules (viewers take its CIDs as glyph indices): the file is
  /// not claimed PDF/A at any level or PDF/UA, naming why. (Embedded as
  /// OpenType, `/FontFile3 /OpenType`, as PyMuPDF writes it, such a
  /// program's CIDs are its glyph indices, and it is kept as it is.)
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n*) in the pages' content and the fonts' sizes.
  /// The embedded fonts the pages and their forms' appearances use, by
  /// object number (each once).
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n*) in the pages' resources.
  private func embeddedFonts() throws(OCRError) -> [Int: qpdf_oh] {
    var fonts: [Int: qpdf_oh] = [:]
    for i in 0..<pageCount {
      let page = try pageHandle(i)
      collectFonts(get(page, "/Resources"), into: &fonts, depth: 0, embedded: true)
      for form in appearances(of: page) {
        collectFonts(
          get(dictionary(of: form), "/Resources"), into: &fonts, depth: 1, embedded: true)
      }
    }
    return fonts
  }

  package func completeCompositeFonts() throws(OCRError) {
    let fonts = try embeddedFonts()
    let composite = fonts.filter { name(get($0.value, "/Subtype")) == "/Type0" }
    guard !composite.isEmpty else { return }
    var shown: ShownCodes?
    for (id, font) in composite.sorted(by: { $0.key < $1.key }) {
      guard let descendant = items(of: get(font, "/DescendantFonts")).first else { continue }
      let trueType = name(get(descendant, "/Subtype")) == "/CIDFontType2"
      // A CFF program embedded bare must be CID-keyed (ISO 32000-1
      // §9.7.4.2): a name-keyed one's charset names glyphs, which no CID
      // selects (PDF/A's glyph presence, ISO 19005-2 §6.2.11.4.1).
      let compact = get(get(descendant, "/FontDescriptor"), "/FontFile3")
      if name(get(descendant, "/Subtype")) == "/CIDFontType0",
        name(get(dictionary(of: compact), "/Subtype")) == "/CIDFontType0C",
        let bytes = decodedBytes(compact), !CompactFontFormat.isCIDKeyed(bytes)
      {
        fontsWithoutGlyphs[id] =
          "its CIDFontType0C program is not CID-keyed, so its CIDs select no glyphs"
        continue
      }
      if trueType, scantext_qpdf_oh_has_key(q, descendant, "/CIDToGIDMap") == 0 {
        scantext_qpdf_oh_replace_key(
          q, descendant, "/CIDToGIDMap", scantext_qpdf_oh_parse(q, "/Identity"))
      }
      // A predefined CMap but Identity's names its characters (ISO
      // 19005-2 §6.2.11.7.2); Identity's codes and an embedded CMap's
      // are glyphs of the font's own.
      let encoding = name(get(font, "/Encoding"))
      guard scantext_qpdf_oh_has_key(q, font, "/ToUnicode") == 0,
        encoding == nil || encoding == "/Identity-H" || encoding == "/Identity-V"
      else { continue }
      guard trueType, encoding != nil, name(get(descendant, "/CIDToGIDMap")) == "/Identity" else {
        fontsWithoutCharacters[id] =
          "no /ToUnicode, and its glyphs are not a TrueType program's under Identity-H"
        continue
      }
      if shown == nil { shown = try shownCodes() }
      guard let codes = shown else { continue }
      if let unknown = codes.unknown {
        fontsWithoutCharacters[id] = unknown
        continue
      }
      let file = get(get(descendant, "/FontDescriptor"), "/FontFile2")
      guard let bytes = decodedBytes(file), let program = FontProgram(data: bytes) else {
        fontsWithoutCharacters[id] = "its program cannot be read"
        continue
      }
      let characters = program.characters
      var scalars: [UInt16: UInt32] = [:]
      for cid in (codes.pairs[id] ?? []).sorted() {
        guard let scalar = characters[UInt32(cid)] else {
          fontsWithoutCharacters[id] =
            "no /ToUnicode, and its program's cmap gives glyph \(cid) no character"
          break
        }
        scalars[cid] = scalar
      }
      guard fontsWithoutCharacters[id] == nil else { continue }
      scantext_qpdf_oh_replace_key(
        q, font, "/ToUnicode", newStream(Self.toUnicode(twoByte: scalars), isContent: false))
    }
    try check("completing composite fonts")
  }

  /// Gives each embedded Type 1 font subset whose program is bare CFF
  /// (`/FontFile3 /Type1C`, as cairo writes a Latin subset) and whose
  /// descriptor has no `/CharSet` the names of its program's glyphs, as
  /// the validator asks of a Type 1 subset at PDF/A-2's levels
  /// (`TYPE1-SUBSET-CHARSET`; ISO 19005-2 §6.2.11.4.2: a `/CharSet` lists
  /// every glyph the program holds). A subset is a font whose `/BaseFont`
  /// has a six-letter tag (ISO 32000-1 §9.6.4); a program whose names
  /// cannot be read (a Type 1 `/FontFile`, a predefined expert charset)
  /// is left as it is.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)``.
  /// - Complexity: O(*n*) in the pages' resources and the fonts' sizes.
  package func completeSubsetCharSets() throws(OCRError) {
    let fonts = try embeddedFonts()
    for (_, font) in fonts.sorted(by: { $0.key < $1.key }) {
      guard name(get(font, "/Subtype")) == "/Type1",
        let base = name(get(font, "/BaseFont")), Self.isSubsetName(base)
      else { continue }
      let descriptor = get(font, "/FontDescriptor")
      let program = get(descriptor, "/FontFile3")
      guard scantext_qpdf_oh_has_key(q, descriptor, "/CharSet") == 0,
        name(get(dictionary(of: program), "/Subtype")) == "/Type1C",
        let bytes = decodedBytes(program), let glyphs = CompactFontFormat.glyphNames(bytes),
        !glyphs.contains(where: { $0.contains(where: { "()\\/ ".contains($0) }) })
      else { continue }
      let charSet = glyphs.dropFirst().map { "/\($0)" }.joined()
      scantext_qpdf_oh_replace_key(
        q, descriptor, "/CharSet", scantext_qpdf_oh_parse(q, "(\(charSet))"))
    }
    try check("completing font subsets")
  }

  /// Whether a font's `/BaseFont` (with its slash) names a subset: six
  /// capital letters and a plus sign before the font's name (ISO 32000-1
  /// §9.6.4).
  static func isSubsetName(_ base: String) -> Bool {
    let letters = Array(base.utf8.dropFirst())
    return letters.count > 7 && letters[6] == UInt8(ascii: "+")
      && letters.prefix(6).allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
  }

  /// Embeds `font`'s twin (``embedTwinFonts()``); returns why it cannot,
  /// `nil` when done.
  private func embedTwin(_ font: qpdf_oh, codes: Set<UInt8>, programs: inout [String: FontProgram])
    -> String?
  {
    let subtype = name(get(font, "/Subtype"))
    guard subtype == "/Type1" || subtype == "/TrueType" else {
      return subtype == "/Type0"
        ? "a composite (Type0) font, which ScanText cannot embed"
        : "ScanText embeds only simple fonts"
    }
    let base = name(get(font, "/BaseFont")).map { String($0.dropFirst()) } ?? ""
    if let twin = SymbolTwin.twin(of: base) {
      return embedSymbolTwin(font, twin, codes: codes, programs: &programs)
    }
    guard let twin = TwinFont.twin(of: base) else { return "no free font has its widths" }
    guard let path = twin.path,
      let program = programs[twin.name] ?? FontProgram(path: path)
    else { return "its twin \(twin.name) is not installed (fonts-liberation2)" }
    programs[twin.name] = program
    guard let encoding = fontEncoding(font, subtype: subtype) else {
      return "its encoding is not WinAnsiEncoding, MacRomanEncoding or StandardEncoding"
    }
    let shown = codes.isEmpty ? [0x20] : codes
    var scalars: [UInt8: UInt32] = [:]
    for code in shown.sorted() {
      if let glyph = encoding.differences[code], encoding.scalar(code) == nil {
        return
          "its /Differences give code \(code) the glyph /\(glyph), which is not in the Latin character set"
      }
      guard let scalar = encoding.scalar(code), program.glyph(scalar) != nil else {
        return "code \(code) has no glyph in \(twin.name)"
      }
      scalars[code] = scalar
    }
    let widths = items(of: get(font, "/Widths"))
    guard
      statedWidthsMatch(
        of: font, widths: widths, codes: scalars.keys,
        width: { code in
          scalars[code].flatMap { program.width($0) }.map(Double.init)
        })
    else { return "its widths differ from \(twin.name)'s" }
    // Codes its encoding names as WinAnsi or MacRoman does: a non-symbolic
    // font under that encoding; else a symbolic one, its codes looked up
    // by its own `cmap`, its characters given by `/ToUnicode`.
    let symbolic = !encoding.isTarget(for: shown)
    guard
      let subset = symbolic
        ? program.symbolicSubset(scalars) : program.subset(Set(scalars.values))
    else {
      return "HarfBuzz could not subset \(twin.name)"
    }
    // A subset's name starts with six capitals (ISO 32000-1 §9.6.4), here
    // from its codes, so the same input gives the same file.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in Array(twin.name.utf8) + shown.sorted() {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let tag = String(
      (0..<6).map { i in Character(Unicode.Scalar(UInt8(65 + (hash >> (UInt64(i) * 5)) % 26))) })
    let fontName = "\(tag)+\(twin.name)"
    let flags =
      (symbolic ? 4 : 32) + (twin.fixedPitch ? 1 : 0) + (twin.serif ? 2 : 0)
      + (twin.italic ? 64 : 0)
    let box = program.boundingBox.map(String.init).joined(separator: " ")
    let file = newStream(subset, isContent: false)
    scantext_qpdf_oh_replace_key(
      q, dictionary(of: file), "/Length1", scantext_qpdf_oh_new_integer(q, Int64(subset.count)))
    let descriptor = indirect(
      """
      << /Type /FontDescriptor /FontName /\(fontName) /Flags \(flags) /FontBBox [\(box)] \
      /ItalicAngle \(Self.number(program.italicAngle)) /Ascent \(program.ascent) \
      /Descent \(program.descent) /CapHeight \(program.capHeight) /StemV 80 >>
      """)
    scantext_qpdf_oh_replace_key(q, descriptor, "/FontFile2", file)
    scantext_qpdf_oh_replace_key(q, font, "/Subtype", scantext_qpdf_oh_parse(q, "/TrueType"))
    scantext_qpdf_oh_replace_key(q, font, "/BaseFont", scantext_qpdf_oh_parse(q, "/" + fontName))
    scantext_qpdf_oh_replace_key(q, font, "/FontDescriptor", descriptor)
    if symbolic {
      scantext_qpdf_oh_remove_key(q, font, "/Encoding")
      scantext_qpdf_oh_replace_key(
        q, font, "/ToUnicode", newStream(Self.toUnicode(scalars), isContent: false))
    } else {
      scantext_qpdf_oh_replace_key(
        q, font, "/Encoding", scantext_qpdf_oh_parse(q, encoding.target.baseName))
    }
    if widths.isEmpty, let low = shown.min(), let high = shown.max() {
      let list = (low...high).map { code in
        String(encoding.scalar(code).flatMap { program.width($0) } ?? 0)
      }
      scantext_qpdf_oh_replace_key(
        q, font, "/FirstChar", scantext_qpdf_oh_new_integer(q, Int64(low)))
      scantext_qpdf_oh_replace_key(
        q, font, "/LastChar", scantext_qpdf_oh_new_integer(q, Int64(high)))
      scantext_qpdf_oh_replace_key(
        q, font, "/Widths", scantext_qpdf_oh_parse(q, "[" + list.joined(separator: " ") + "]"))
    }
    return nil
  }

  /// Embeds a Symbol or ZapfDingbats font's twin (``embedTwinFonts()``):
  /// the font becomes a symbolic Type 1 font whose program is a CFF subset
  /// of the twin (`/FontFile3 /Type1C`, with the `/CharSet` PDF/A asks of
  /// a subset), each code it shows named by `/Differences` (the glyph its
  /// own encoding gives it: the font's built-in one, which the twin's
  /// `cmap` keeps, or its `/Differences`), a `/ToUnicode` map giving each
  /// its character (``SymbolTwin/characters``), and the twin's widths
  /// when it had none. Returns why it cannot, `nil` when done: a font
  /// under a named encoding (WinAnsiEncoding names Latin glyphs such a
  /// font does not have), a code without a glyph in the twin, or widths
  /// that are not the twin's.
  private func embedSymbolTwin(
    _ font: qpdf_oh, _ twin: SymbolTwin, codes: Set<UInt8>, programs: inout [String: FontProgram]
  ) -> String? {
    // Its own encoding: the built-in one, changed by `/Differences` alone.
    var differences: [UInt8: String] = [:]
    let own = get(font, "/Encoding")
    if scantext_qpdf_oh_has_key(q, font, "/Encoding") != 0 {
      guard isDictionary(own), scantext_qpdf_oh_has_key(q, own, "/BaseEncoding") == 0 else {
        let named = isDictionary(own) ? name(get(own, "/BaseEncoding")) : name(own)
        return
          "its encoding \(named ?? "") names glyphs \(twin.name) does not have (a symbol font's is its own)"
      }
      var code: Int?
      for item in items(of: get(own, "/Differences")) {
        if let number = integer(item) {
          code = number
        } else if let glyph = name(item), let at = code {
          if at <= 255 { differences[UInt8(at)] = String(glyph.dropFirst()) }
          code = at + 1
        } else {
          return "its encoding's /Differences cannot be read"
        }
      }
    }
    guard let path = twin.path,
      let program = programs[twin.name] ?? FontProgram(path: path), program.isCompact
    else { return "its twin \(twin.name) is not installed (fonts-urw-base35)" }
    programs[twin.name] = program
    let shown = codes.isEmpty ? [0x20] : codes
    var glyphs: [UInt8: (glyph: UInt32, name: String, scalar: UInt32)] = [:]
    for code in shown.sorted() {
      let builtIn = program.glyph(UInt32(code)).flatMap { program.name(ofGlyph: $0) }
      guard let glyphName = differences[code] ?? builtIn, glyphName != ".notdef",
        let glyph = program.glyph(named: glyphName), let scalar = twin.characters[glyphName]
      else { return "code \(code) has no glyph in \(twin.name)" }
      glyphs[code] = (glyph, glyphName, scalar)
    }
    let widths = items(of: get(font, "/Widths"))
    guard
      statedWidthsMatch(
        of: font, widths: widths, codes: glyphs.keys,
        width: { code in
          glyphs[code].map { Double(program.width(ofGlyph: $0.glyph)) }
        })
    else { return "its widths differ from \(twin.name)'s" }
    guard let subset = program.compactSubset(Set(glyphs.values.map(\.glyph))) else {
      return "HarfBuzz could not subset \(twin.name)"
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in Array(twin.name.utf8) + shown.sorted() {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let tag = String(
      (0..<6).map { i in Character(Unicode.Scalar(UInt8(65 + (hash >> (UInt64(i) * 5)) % 26))) })
    let fontName = "\(tag)+\(twin.name)"
    let box = program.boundingBox.map(String.init).joined(separator: " ")
    let file = newStream(subset.program, isContent: false)
    scantext_qpdf_oh_replace_key(
      q, dictionary(of: file), "/Subtype", scantext_qpdf_oh_parse(q, "/Type1C"))
    let charSet = subset.names.map { "/" + $0 }.joined()
    let descriptor = indirect(
      """
      << /Type /FontDescriptor /FontName /\(fontName) /Flags 4 /FontBBox [\(box)] \
      /ItalicAngle 0 /Ascent \(program.ascent) /Descent \(program.descent) \
      /CapHeight \(program.capHeight) /StemV 80 /CharSet (\(charSet)) >>
      """)
    scantext_qpdf_oh_replace_key(q, descriptor, "/FontFile3", file)
    scantext_qpdf_oh_replace_key(q, font, "/Subtype", scantext_qpdf_oh_parse(q, "/Type1"))
    scantext_qpdf_oh_replace_key(q, font, "/BaseFont", scantext_qpdf_oh_parse(q, "/" + fontName))
    scantext_qpdf_oh_replace_key(q, font, "/FontDescriptor", descriptor)
    // Every code shown named, so no reader needs the program's own
    // encoding (a subset's may have none).
    let named = glyphs.sorted { $0.key < $1.key }.map { "\($0.key) /\($0.value.name)" }
    scantext_qpdf_oh_replace_key(
      q, font, "/Encoding",
      scantext_qpdf_oh_parse(
        q, "<< /Type /Encoding /Differences [" + named.joined(separator: " ") + "] >>"))
    scantext_qpdf_oh_replace_key(
      q, font, "/ToUnicode",
      newStream(Self.toUnicode(glyphs.mapValues(\.scalar)), isContent: false))
    if widths.isEmpty, let low = shown.min(), let high = shown.max() {
      let list = (low...high).map { code in
        String(glyphs[code].map { program.width(ofGlyph: $0.glyph) } ?? 0)
      }
      scantext_qpdf_oh_replace_key(
        q, font, "/FirstChar", scantext_qpdf_oh_new_integer(q, Int64(low)))
      scantext_qpdf_oh_replace_key(
        q, font, "/LastChar", scantext_qpdf_oh_new_integer(q, Int64(high)))
      scantext_qpdf_oh_replace_key(
        q, font, "/Widths", scantext_qpdf_oh_parse(q, "[" + list.joined(separator: " ") + "]"))
    }
    return nil
  }

  /// A simple font's encoding (``FontEncoding``): WinAnsiEncoding or
  /// MacRomanEncoding, by name or as an encoding dictionary's
  /// `/BaseEncoding`, or StandardEncoding (a Type 1 font naming none, or a
  /// dictionary without a base: ISO 32000-1 §9.6.6.1 for a non-symbolic
  /// font), with the dictionary's `/Differences`; `nil` for another.
  /// Whether the widths a simple font states for `codes` (`widths`, its
  /// `/Widths` array, from `/FirstChar`, past them its descriptor's `/MissingWidth`) lie
  /// within a unit of its twin's, `width(code)` (`nil`: no glyph, no
  /// match). A font that states no widths matches.
  /// - Complexity: O(*c*) in the codes.
  private func statedWidthsMatch<S: Sequence<UInt8>>(
    of font: qpdf_oh, widths: [qpdf_oh], codes: S, width: (UInt8) -> Double?
  ) -> Bool {
    guard !widths.isEmpty else { return true }
    let first = integer(get(font, "/FirstChar")) ?? 0
    // (qpdf asked for a number of anything else records an error.)
    func number(_ object: qpdf_oh) -> Double {
      scantext_qpdf_oh_is_number(q, object) != 0
        ? scantext_qpdf_oh_get_numeric_value(q, object) : 0
    }
    let missing = number(get(get(font, "/FontDescriptor"), "/MissingWidth"))
    return codes.allSatisfy { code in
      let index = Int(code) - first
      let stated = widths.indices.contains(index) ? number(widths[index]) : missing
      guard let width = width(code) else { return false }
      return abs(stated - width) <= 1
    }
  }

  private func fontEncoding(_ font: qpdf_oh, subtype: String?) -> FontEncoding? {
    let own = get(font, "/Encoding")
    let named = isDictionary(own) ? name(get(own, "/BaseEncoding")) : name(own)
    var encoding: FontEncoding
    switch named {
    case "/WinAnsiEncoding": encoding = FontEncoding(base: .winAnsi)
    case "/MacRomanEncoding": encoding = FontEncoding(base: .macRoman)
    case "/StandardEncoding": encoding = FontEncoding(base: .standard)
    case nil where isDictionary(own) || subtype == "/Type1":
      encoding = FontEncoding(base: .standard)
    default: return nil
    }
    guard isDictionary(own) else { return encoding }
    // `[code /name /name … code /name …]`: each name for the code after
    // the last.
    var code: Int?
    for item in items(of: get(own, "/Differences")) {
      if let number = integer(item) {
        code = number
      } else if let glyph = name(item), let at = code {
        if at <= 255 { encoding.differences[UInt8(at)] = String(glyph.dropFirst()) }
        code = at + 1
      } else {
        return nil
      }
    }
    return encoding
  }

  /// A `/ToUnicode` CMap giving each one-byte code its character (ISO
  /// 32000-1 §9.10.3).
  static func toUnicode(_ scalars: [UInt8: UInt32]) -> [UInt8] {
    let codes = scalars.map { (UInt16($0.key), $0.value) }
    return toUnicode(Dictionary(uniqueKeysWithValues: codes), digits: 2)
  }

  /// A `/ToUnicode` CMap giving each two-byte code (a composite font's
  /// under `Identity-H`) its character.
  static func toUnicode(twoByte scalars: [UInt16: UInt32]) -> [UInt8] {
    toUnicode(scalars, digits: 4)
  }

  /// A `/ToUnicode` CMap for codes of `digits` hexadecimal digits.
  private static func toUnicode(_ scalars: [UInt16: UInt32], digits codeDigits: Int) -> [UInt8] {
    func hex(_ value: UInt32, digits: Int) -> String {
      let text = String(value, radix: 16, uppercase: true)
      return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
    var lines = [
      "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
      "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def", "1 begincodespacerange",
      codeDigits == 2 ? "<00> <FF>" : "<0000> <FFFF>", "endcodespacerange",
    ]
    let entries = scalars.sorted { $0.key < $1.key }
    // At most 100 entries a block (§9.7.5.4).
    for start in stride(from: 0, to: entries.count, by: 100) {
      let block = entries[start..<min(entries.count, start + 100)]
      lines.append("\(block.count) beginbfchar")
      for (code, scalar) in block {
        let units = Array(String(Unicode.Scalar(scalar).map(Character.init) ?? " ").utf16)
        let text = units.map { hex(UInt32($0), digits: 4) }.joined()
        lines.append("<\(hex(UInt32(code), digits: codeDigits))> <\(text)>")
      }
      lines.append("endbfchar")
    }
    lines += [
      "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end",
    ]
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  /// A number as PDF writes it (at most two decimals).
  private static func number(_ value: Double) -> String {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  // MARK: - Object helpers

  private func pageHandle(_ index: Int) throws(OCRError) -> qpdf_oh {
    try pushInheritedAttributes()
    guard index >= 0, index < pageCount else {
      throw .uneditablePDF(path: path, reason: "there is no page \(index + 1)")
    }
    return scantext_qpdf_get_page_n(q, index)
  }

  /// The error qpdf recorded, cleared; `nil` when there is none.
  private func takeError() -> String? {
    guard scantext_qpdf_has_error(q) != 0, let error = scantext_qpdf_get_error(q) else {
      return nil
    }
    let detail = scantext_qpdf_get_error_message_detail(q, error).map { String(cString: $0) }
    let full = scantext_qpdf_get_error_full_text(q, error).map { String(cString: $0) }
    return detail.flatMap { $0.isEmpty ? nil : $0 } ?? full
  }

  /// Throws the error qpdf recorded during `what`, if any.
  private func check(_ what: String) throws(OCRError) {
    if let error = takeError() {
      throw .uneditablePDF(path: path, reason: "\(what): \(error)")
    }
  }

  /// A dictionary's entry (null when absent). Anything but a dictionary
  /// gives null without asking qpdf: asked for a key, an object qpdf made
  /// for ScanText (not read from the file) that is not a dictionary sets
  /// qpdf's error, which would fail the whole edit.
  private func get(_ object: qpdf_oh, _ key: String) -> qpdf_oh {
    guard isDictionary(object) else { return scantext_qpdf_oh_new_null(q) }
    return scantext_qpdf_oh_get_key(q, object, key)
  }

  private func isDictionary(_ object: qpdf_oh) -> Bool {
    scantext_qpdf_oh_is_dictionary(q, object) != 0
  }

  private func dictionary(of stream: qpdf_oh) -> qpdf_oh { scantext_qpdf_oh_get_dict(q, stream) }

  private func objectID(_ object: qpdf_oh) -> Int { Int(scantext_qpdf_oh_get_object_id(q, object)) }

  private func isForm(_ object: qpdf_oh) -> Bool {
    scantext_qpdf_oh_is_stream(q, object) != 0
      && scantext_qpdf_oh_is_name_and_equals(q, get(dictionary(of: object), "/Subtype"), "/Form")
        != 0
  }

  /// A dictionary's keys, with their slash.
  private func keys(of object: qpdf_oh) -> [String] {
    guard isDictionary(object) else { return [] }
    var keys: [String] = []
    scantext_qpdf_oh_begin_dict_key_iter(q, object)
    while scantext_qpdf_oh_dict_more_keys(q) != 0 {
      if let key = scantext_qpdf_oh_dict_next_key(q) { keys.append(String(cString: key)) }
    }
    return keys
  }

  /// A new direct dictionary with the same entries (an empty one for
  /// anything else).
  private func shallowCopy(_ object: qpdf_oh) -> qpdf_oh {
    let copy = scantext_qpdf_oh_new_dictionary(q)
    for key in keys(of: object) {
      scantext_qpdf_oh_replace_key(q, copy, key, get(object, key))
    }
    return copy
  }

  /// Gives the page its own copy of its resource dictionary and returns it.
  private func ownResources(of page: qpdf_oh) -> qpdf_oh {
    let copy = shallowCopy(get(page, "/Resources"))
    scantext_qpdf_oh_replace_key(q, page, "/Resources", copy)
    return copy
  }

  /// The page's content streams, in order.
  private func contentStreams(of page: qpdf_oh) -> [qpdf_oh] {
    let contents = get(page, "/Contents")
    if scantext_qpdf_oh_is_stream(q, contents) != 0 { return [contents] }
    guard scantext_qpdf_oh_is_array(q, contents) != 0 else { return [] }
    return (0..<scantext_qpdf_oh_get_array_n_items(q, contents)).map {
      scantext_qpdf_oh_get_array_item(q, contents, $0)
    }.filter { scantext_qpdf_oh_is_stream(q, $0) != 0 }
  }

  /// The most bytes a page's content streams may decode to, together:
  /// 256 MiB. Real pages hold kilobytes to a few megabytes (a detailed
  /// map, tens); a Flate stream of a few hundred kilobytes can decode to
  /// gigabytes, which the editing would hold decoded (issue 45: 6.4 GB).
  package static let maxDecodedContentBytes = 1 << 28

  /// Page `index`'s content (the handle `page`), its streams decoded and
  /// joined.
  /// - Throws: ``OCRError/uneditablePDF(path:reason:)`` when it cannot be
  ///   decoded or decodes to more than ``maxDecodedContentBytes`` (checked
  ///   before it is decoded).
  private func contentBytes(_ page: qpdf_oh, index: Int) throws(OCRError) -> [UInt8] {
    let streams = contentStreams(of: page)
    guard !streams.isEmpty else { return [] }
    try checkDecodedSize(of: streams, index: index)
    var buffer: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = scantext_qpdf_oh_get_page_content_data(q, page, &buffer, &length)
    defer { free(buffer) }
    guard status & SCANTEXT_QPDF_ERRORS == 0, let buffer else {
      throw .uneditablePDF(
        path: path, reason: "the page's content cannot be read: \(takeError() ?? "unknown filter")")
    }
    return Array(UnsafeBufferPointer(start: buffer, count: length))
  }

  /// Page `index`'s content as ``contentBytes(_:index:)`` gives it, `nil`
  /// when qpdf cannot decode it (a filter it does not know); content too
  /// big to decode is refused all the same.
  private func contentBytesUnlessUnknown(_ page: qpdf_oh, index: Int) throws(OCRError)
    -> [UInt8]?
  {
    try checkDecodedSize(of: contentStreams(of: page), index: index)
    return try? contentBytes(page, index: index)
  }

  /// Refuses content whose streams decode to more than
  /// ``maxDecodedContentBytes`` together, counting their decoded bytes
  /// through every filter qpdf undoes (Flate, LZW, ASCII85, ASCIIHex,
  /// RunLength, in any order) without keeping them.
  private func checkDecodedSize(of streams: [qpdf_oh], index: Int) throws(OCRError) {
    var total = 0
    for stream in streams {
      guard let size = decodedSize(of: stream, limit: Self.maxDecodedContentBytes - total) else {
        throw .uneditablePDF(
          path: path,
          reason:
            "page \(index + 1)'s content decodes to more than \(Self.maxDecodedContentBytes >> 20) MB (a compression bomb?); it is not edited"
        )
      }
      total += size
    }
  }

  /// The number of bytes `stream`'s filters give, counted without keeping
  /// them (``ScanFormats/PDFStreamFilter/decodedSize(of:through:limit:)``);
  /// 0 for a stream without filters or with one qpdf does not undo (its
  /// data is never decoded), `nil` when more than `limit` (or when any
  /// filter on the way gives more).
  private func decodedSize(of stream: qpdf_oh, limit: Int) -> Int? {
    guard let filters = filters(of: stream), !filters.isEmpty else { return 0 }
    var length = 0
    guard let raw = scantext_qpdf_stream_bytes(q, stream, 0, &length) else {
      _ = takeError()
      return 0
    }
    defer { free(raw) }
    return PDFStreamFilter.decodedSize(
      of: UnsafeRawBufferPointer(start: raw, count: length), through: filters, limit: limit)
  }

  /// `stream`'s filters in order, with their `/DecodeParms`; `nil` when one
  /// of them is not one qpdf undoes when it decodes content (or the entry
  /// is not a name or an array of names), so that the data is never
  /// decoded.
  private func filters(of stream: qpdf_oh) -> [PDFStreamFilter]? {
    let entries = dictionary(of: stream)
    let filter = get(entries, "/Filter")
    let parameters = get(entries, "/DecodeParms")
    let names: [qpdf_oh]
    let parameterList: [qpdf_oh]
    if scantext_qpdf_oh_is_array(q, filter) != 0 {
      names = items(of: filter)
      parameterList = scantext_qpdf_oh_is_array(q, parameters) != 0 ? items(of: parameters) : []
    } else if scantext_qpdf_oh_is_name(q, filter) != 0 {
      names = [filter]
      parameterList = [parameters]
    } else {
      return []
    }
    var filters: [PDFStreamFilter] = []
    for (i, object) in names.enumerated() {
      guard let name = name(object) else { return nil }
      let given = i < parameterList.count ? parameterList[i] : scantext_qpdf_oh_new_null(q)
      func number(_ key: String, _ absent: Int) -> Int {
        let value = get(given, key)
        guard scantext_qpdf_oh_is_number(q, value) != 0 else { return absent }
        return Int(scantext_qpdf_oh_get_int_value_as_int(q, value))
      }
      let predictor = PDFPredictor(
        predictor: number("/Predictor", 1), colors: number("/Colors", 1),
        bitsPerComponent: number("/BitsPerComponent", 8), columns: number("/Columns", 1))
      guard
        let decoded = PDFStreamFilter(
          name: name, predictor: predictor, earlyChange: number("/EarlyChange", 1) != 0)
      else { return nil }
      filters.append(decoded)
    }
    return filters
  }

  /// A stream's bytes with its general-purpose filters undone; `nil` when
  /// they cannot be (the error is cleared) or would be more than
  /// ``maxDecodedContentBytes``.
  private func decodedBytes(_ stream: qpdf_oh) -> [UInt8]? {
    // A form or metadata stream that decodes to more than a page's content
    // may is treated as one that cannot be decoded (it is skipped).
    guard decodedSize(of: stream, limit: Self.maxDecodedContentBytes) != nil else { return nil }
    var length = 0
    guard let bytes = scantext_qpdf_stream_bytes(q, stream, 1, &length) else {
      _ = takeError()
      return nil
    }
    defer { free(bytes) }
    return Array(UnsafeBufferPointer(start: bytes, count: length))
  }

  /// A new stream holding `bytes`, Flate-compressed (stored as they are
  /// when compression does not make them smaller), never ending in a
  /// carriage return (``ScanFormats/Deflate/streamBytes(_:level:padding:)``:
  /// content gets a newline, other data is stored as it is).
  /// - Parameters:
  ///   - bytes: The stream's data.
  ///   - entries: A dictionary whose entries the stream's takes (but its
  ///     length and filters).
  ///   - isContent: Whether the data is content, where white space may be
  ///     added at the end (not a font or a profile).
  private func newStream(_ bytes: [UInt8], copying entries: qpdf_oh? = nil, isContent: Bool = true)
    -> qpdf_oh
  {
    let stream = scantext_qpdf_oh_new_stream(q)
    if let entries {
      let target = dictionary(of: stream)
      for key in keys(of: entries) where !["/Length", "/Filter", "/DecodeParms"].contains(key) {
        scantext_qpdf_oh_replace_key(q, target, key, get(entries, key))
      }
    }
    // zlib's default level, as qpdf compresses.
    let (stored, compressed) = Deflate.streamBytes(Data(bytes), level: -1, padding: isContent)
    stored.withUnsafeBytes { raw in
      scantext_qpdf_oh_replace_stream_data(
        q, stream, raw.bindMemory(to: UInt8.self).baseAddress, raw.count,
        compressed ? scantext_qpdf_oh_parse(q, "/FlateDecode") : scantext_qpdf_oh_new_null(q),
        scantext_qpdf_oh_new_null(q))
    }
    return stream
  }

  /// The glyphless font's Type0 object, added to the document on first use.
  private func glyphlessFont() -> qpdf_oh {
    if let font { return font }
    precondition(!fontFile.isEmpty, "PDFEditor: a text layer needs the glyphless font")
    typealias Font = SearchablePDF.GlyphlessFont
    let file = newStream(Array(fontFile), isContent: false)
    scantext_qpdf_oh_replace_key(
      q, dictionary(of: file), "/Length1", scantext_qpdf_oh_new_integer(q, Int64(fontFile.count)))
    let map = newStream(Array(Font.cidToGIDMap), isContent: false)
    let toUnicode = newStream(Array(Font.toUnicodeCMap))
    // qpdf parses no indirect reference (its C API gives the parser no
    // document): the dictionaries are parsed with null in their place, and
    // the objects put in after.
    let descriptor = indirect(Font.descriptor(fontFile: "null"))
    scantext_qpdf_oh_replace_key(q, descriptor, "/FontFile2", file)
    let cidFont = indirect(Font.cidFont(descriptor: "null", cidToGIDMap: "null"))
    scantext_qpdf_oh_replace_key(q, cidFont, "/FontDescriptor", descriptor)
    scantext_qpdf_oh_replace_key(q, cidFont, "/CIDToGIDMap", map)
    let type0 = indirect(Font.type0(cidFont: "null", toUnicode: "null"))
    let descendants = scantext_qpdf_oh_new_array(q)
    scantext_qpdf_oh_append_item(q, descendants, cidFont)
    scantext_qpdf_oh_replace_key(q, type0, "/DescendantFonts", descendants)
    scantext_qpdf_oh_replace_key(q, type0, "/ToUnicode", toUnicode)
    font = type0
    return type0
  }

  private func indirect(_ text: String) -> qpdf_oh {
    scantext_qpdf_make_indirect_object(q, scantext_qpdf_oh_parse(q, text))
  }

  /// Adds the glyphless font to a page's (own) resources under a name none
  /// of its fonts has; returns the name, without its slash.
  private func fontName(addingTo resources: qpdf_oh) -> String {
    let fonts = shallowCopy(get(resources, "/Font"))
    let name = unusedName("GlyphLessFont", in: fonts)
    scantext_qpdf_oh_replace_key(q, fonts, "/" + name, glyphlessFont())
    scantext_qpdf_oh_replace_key(q, resources, "/Font", fonts)
    return name
  }

  /// `base`, or `base` with the first number after it that makes it a
  /// name none of `dictionary`'s keys has (without its slash).
  private func unusedName(_ base: String, in dictionary: qpdf_oh) -> String {
    let taken = Set(keys(of: dictionary))
    var name = base
    var n = 1
    while taken.contains("/" + name) {
      name = "\(base)\(n)"
      n += 1
    }
    return name
  }

  /// Replaces, in `resources` (a page's own copy), each form XObject the
  /// stream draws that shows invisible text by a copy without it (forms
  /// drawn by forms too, up to 12 deep); returns whether any was.
  @discardableResult
  private func removeInvisibleText(
    drawnBy stream: PDFContentStream, renderMode: Int, resources: qpdf_oh, depth: Int
  ) -> Bool {
    guard depth < 12 else { return false }
    var xobjects: qpdf_oh?
    for drawn in stream.text(startingIn: renderMode).drawn {
      let source = xobjects ?? get(resources, "/XObject")
      let form = get(source, "/" + drawn.name)
      guard isForm(form),
        let cleaned = formWithoutInvisibleText(form, drawn.renderMode, resources, depth)
      else { continue }
      if xobjects == nil {
        let copy = shallowCopy(source)
        scantext_qpdf_oh_replace_key(q, resources, "/XObject", copy)
        xobjects = copy
      }
      if let xobjects { scantext_qpdf_oh_replace_key(q, xobjects, "/" + drawn.name, cleaned) }
    }
    return xobjects != nil
  }

  /// A copy of the form without its invisible text (and its forms'), or
  /// `nil` when it has none.
  private func formWithoutInvisibleText(
    _ form: qpdf_oh, _ renderMode: Int, _ inherited: qpdf_oh, _ depth: Int
  ) -> qpdf_oh? {
    guard let bytes = decodedBytes(form) else { return nil }
    let stream = PDFContentStream(bytes)
    let entries = dictionary(of: form)
    let own = get(entries, "/Resources")
    let resources = shallowCopy(isDictionary(own) ? own : inherited)
    let nested = removeInvisibleText(
      drawnBy: stream, renderMode: renderMode, resources: resources, depth: depth + 1)
    let cleaned = stream.removingInvisibleText(startingIn: renderMode)
    guard cleaned != nil || nested else { return nil }
    let copy = newStream(cleaned ?? bytes, copying: entries)
    scantext_qpdf_oh_replace_key(q, dictionary(of: copy), "/Resources", resources)
    return copy
  }

  // MARK: - Geometry

  /// How many quarter turns a `/Rotate` value makes (0–3); a value that is
  /// not a multiple of 90 counts as 0, as in Poppler.
  private static func quarterTurns(_ object: qpdf_oh, _ q: OpaquePointer) -> Int {
    guard scantext_qpdf_oh_is_number(q, object) != 0 else { return 0 }
    let value = scantext_qpdf_oh_get_numeric_value(q, object)
    guard value.isFinite, value == value.rounded(), Int(value) % 90 == 0, abs(value) < 1e9 else {
      return 0
    }
    return ((Int(value) / 90) % 4 + 4) % 4
  }

  /// A box array as `[minX, minY, maxX, maxY]`, or `nil`.
  private func box(_ object: qpdf_oh) -> [Double]? {
    guard scantext_qpdf_oh_is_array(q, object) != 0,
      scantext_qpdf_oh_get_array_n_items(q, object) == 4
    else { return nil }
    let values = (0..<4).map { scantext_qpdf_oh_get_array_item(q, object, Int32($0)) }
    guard values.allSatisfy({ scantext_qpdf_oh_is_number(q, $0) != 0 }) else { return nil }
    let v = values.map { scantext_qpdf_oh_get_numeric_value(q, $0) }
    guard v.allSatisfy(\.isFinite) else { return nil }
    return [min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])]
  }

  /// The map from the displayed page (points, origin at its top-left
  /// corner, y down: the space of ``ScanModel/PDFPageSource/pixelToPoint``
  /// and of `pdftotext -bbox`) to the page's user space. The displayed page
  /// is the crop box within the media box (as Poppler shows it), turned
  /// clockwise by `/Rotate`.
  private func displayToUser(_ page: qpdf_oh) -> ScanModel.AffineTransform {
    let media = box(get(page, "/MediaBox")) ?? [0, 0, 612, 792]
    var visible = media
    if let crop = box(get(page, "/CropBox")) {
      let clipped = [
        max(crop[0], media[0]), max(crop[1], media[1]), min(crop[2], media[2]),
        min(crop[3], media[3]),
      ]
      if clipped[0] < clipped[2], clipped[1] < clipped[3] { visible = clipped }
    }
    let (x0, y0, x1, y1) = (visible[0], visible[1], visible[2], visible[3])
    switch Self.quarterTurns(get(page, "/Rotate"), q) {
    case 1: return ScanModel.AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: x0, ty: y0)
    case 2: return ScanModel.AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: x1, ty: y0)
    case 3: return ScanModel.AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: x1, ty: y1)
    default: return ScanModel.AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: x0, ty: y1)
    }
  }

  /// A matrix as the six numbers of `cm`.
  static func matrix(_ m: ScanModel.AffineTransform) -> String {
    [m.a, m.b, m.c, m.d, m.tx, m.ty].map { v in
      let rounded = (v * 10_000).rounded() / 10_000
      return rounded == rounded.rounded() && abs(rounded) < 1e15
        ? String(Int(rounded)) : String(format: "%.4f", rounded)
    }.joined(separator: " ")
  }
}

extension ScanModel.AffineTransform {
  /// The transform that applies `first`, then this one.
  func concatenating(_ first: ScanModel.AffineTransform) -> ScanModel.AffineTransform {
    ScanModel.AffineTransform(
      a: a * first.a + c * first.b, b: b * first.a + d * first.b,
      c: a * first.c + c * first.d, d: b * first.c + d * first.d,
      tx: a * first.tx + c * first.ty + tx, ty: b * first.tx + d * first.ty + ty)
  }
}
