import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A parsed XML document as a plain tree, read with Foundation's
/// `XMLParser` (libxml2): the importers walk it and report errors with the
/// element path and line.
struct XMLTree {
  /// One element: its local name, namespace, attributes, children and the
  /// character data directly inside it.
  final class Element {
    let name: String
    let namespace: String
    let attributes: [String: String]
    let line: Int
    /// The element's path from the root, such as `alto/Layout/Page[1]/PrintSpace`.
    let path: String
    var children: [Element] = []
    /// Character data directly inside the element, in order.
    var ownText = ""

    init(name: String, namespace: String, attributes: [String: String], line: Int, path: String) {
      self.name = name
      self.namespace = namespace
      self.attributes = attributes
      self.line = line
      self.path = path
    }

    /// The children with a given local name.
    func children(named name: String) -> [Element] { children.filter { $0.name == name } }

    /// The first child with a given local name.
    func child(named name: String) -> Element? { children.first { $0.name == name } }

    /// All character data in the element and its descendants, in order.
    var allText: String {
      var out = ""
      collectText(into: &out)
      return out
    }

    private func collectText(into out: inout String) {
      // Text and children interleave; the parser records each text run at
      // the position it occurred by appending to the parent, so gather the
      // runs in order from the `segments` list.
      for segment in segments {
        switch segment {
        case .text(let t): out += t
        case .child(let i): children[i].collectText(into: &out)
        }
      }
    }

    enum Segment {
      case text(String)
      case child(Int)
    }
    var segments: [Segment] = []

    /// An error about this element.
    func error(_ reason: String) -> DocumentFormatError {
      DocumentFormatError(path: "line \(line): \(path)", reason: reason)
    }

    /// A required attribute.
    func attribute(_ name: String) throws(DocumentFormatError) -> String {
      guard let value = attributes[name] else { throw error("missing attribute '\(name)'") }
      return value
    }

    /// An optional number attribute; present but not a finite number is an error.
    func number(_ name: String) throws(DocumentFormatError) -> Double? {
      guard let raw = attributes[name] else { return nil }
      guard let value = Double(raw.trimmingCharacters(in: .whitespaces)), value.isFinite else {
        throw error("attribute '\(name)' is not a number: \"\(raw)\"")
      }
      return value
    }
  }

  /// The root element.
  let root: Element

  /// Parses `data` as XML.
  /// - Throws: ``DocumentFormatError`` with the line and libxml2's reason
  ///   for text that is not well-formed XML.
  init(data: Data) throws(DocumentFormatError) {
    // Foundation's XMLParser traps on an element name with bytes that are
    // not UTF-8 (found by Tools/check/fuzz.sh): check the bytes first, unless the
    // file is UTF-16 or declares another encoding.
    if let line = invalidUTF8Line(data) {
      throw DocumentFormatError(
        path: "line \(line)", reason: "not well-formed XML: the bytes are not valid UTF-8")
    }
    // libxml2 (through XMLParser) neither reports nor expands an entity a
    // document declares itself: a word written with one would vanish.
    if let line = entityDeclarationLine(data) {
      throw DocumentFormatError(
        path: "line \(line)",
        reason:
          "the document declares its own entities (<!ENTITY …>), which ScanText does not expand: a word written with one would be lost"
      )
    }
    // Fed as a stream, libxml2 gets the document in chunks: given in one
    // piece (`XMLParser(data:)`), a document of 10,000,000 bytes or more
    // passes libxml2's limit on one input chunk and fails ("error 1")
    // however well-formed it is. Nesting depth stays bounded below.
    let parser = XMLParser(stream: InputStream(data: data))
    let builder = TreeBuilder()
    parser.delegate = builder
    parser.shouldProcessNamespaces = true
    parser.shouldReportNamespacePrefixes = false
    parser.shouldResolveExternalEntities = false
    let ok = parser.parse()
    // corelibs' XMLParser can return true after libxml2 reported an error
    // (a mismatched or missing end tag): the delegate's first error counts.
    if let failure = builder.failure { throw failure }
    guard ok, let root = builder.root else {
      let reason = parser.parserError.map { Self.describe($0) } ?? "not well-formed XML"
      throw DocumentFormatError(
        path: "line \(parser.lineNumber), column \(parser.columnNumber)",
        reason: "not well-formed XML: \(reason)")
    }
    // corelibs' XMLParser can report success on a file that stops inside
    // an element: a truncated file must not read as a shorter document.
    if let open = builder.stack.last {
      throw DocumentFormatError(
        path: "line \(parser.lineNumber): \(open.path)",
        reason: "not well-formed XML: the file ends before </\(open.name)> (truncated?)")
    }
    // libxml2 may also close the open elements itself at the end of the
    // data (a file cut after "</Page>" then reads as a whole ALTO file):
    // the last markup must be the root's own end.
    guard Self.endsWithRootEnd(data, rootName: root.name, empty: root.children.isEmpty) else {
      throw DocumentFormatError(
        path: "line \(parser.lineNumber)",
        reason: "not well-formed XML: the file ends before </\(root.name)> (truncated?)")
    }
    self.root = root
  }

  /// Whether the data's last markup, after trailing whitespace, comments
  /// and processing instructions, is the end tag of the root (`</alto>`,
  /// `</pc:PcGts >`), or `/>` for a root without children.
  static func endsWithRootEnd(_ data: Data, rootName: String, empty: Bool) -> Bool {
    var bytes = data[...]
    func trimSpace() {
      while let last = bytes.last, [0x20, 0x09, 0x0A, 0x0D].contains(last) {
        bytes = bytes.dropLast()
      }
    }
    func hasSuffix(_ s: String) -> Bool { bytes.reversed().starts(with: Array(s.utf8).reversed()) }
    trimSpace()
    // Trailing comments and processing instructions are allowed after the root.
    while hasSuffix("-->") || hasSuffix("?>") {
      let opener = hasSuffix("-->") ? Array("<!--".utf8) : Array("<?".utf8)
      guard let start = bytes.indices.reversed().first(where: { bytes[$0...].starts(with: opener) })
      else { return false }
      bytes = bytes[..<start]
      trimSpace()
    }
    guard bytes.last == UInt8(ascii: ">") else { return false }
    if empty, hasSuffix("/>") { return true }
    bytes = bytes.dropLast()
    trimSpace()
    guard hasSuffix(rootName) else { return false }
    bytes = bytes.dropLast(rootName.utf8.count)
    if hasSuffix("</") { return true }
    // A prefixed name: "</prefix:root>".
    guard bytes.last == UInt8(ascii: ":") else { return false }
    bytes = bytes.dropLast()
    while let last = bytes.last, last != UInt8(ascii: "<"), last != UInt8(ascii: "/"),
      last != UInt8(ascii: ">")
    {
      bytes = bytes.dropLast()
    }
    return hasSuffix("</")
  }

  static func describe(_ error: any Error) -> String {
    let ns = error as NSError
    if let message = ns.userInfo[NSLocalizedDescriptionKey] as? String, !message.isEmpty {
      return message
    }
    // libxml2's xmlParserErrors (libxml/xmlerror.h) as sentences; the
    // number stays for a search.
    let known = [
      1: "libxml2 could not go on (an internal limit)", 2: "out of memory",
      3: "the document does not start with markup", 4: "the document is empty",
      5: "extra content or a missing end tag at the end",
      6: "a malformed hexadecimal character reference (&#x…;)",
      7: "a malformed decimal character reference (&#…;)",
      8: "a character reference to a character XML does not allow",
      9: "a character XML does not allow", 10: "a character reference cut off by the end",
      14: "an entity reference cut off by the end", 22: "an entity reference without a name",
      23: "an entity reference without its ';'", 26: "an undeclared entity",
      27: "an undeclared entity", 29: "an external entity, which is not read",
      31: "an unknown encoding", 32: "an encoding libxml2 does not support",
      33: "an attribute value without its opening quote",
      34: "an attribute value without its closing quote",
      35: "a malformed namespace declaration", 38: "a '<' inside an attribute value",
      39: "an attribute value without its opening quote",
      40: "an attribute value without its closing quote",
      41: "an attribute without a value", 42: "an attribute given twice",
      45: "a comment that is not closed", 47: "a processing instruction that is not closed",
      57: "a malformed XML declaration", 61: "a DOCTYPE that is not closed",
      62: "']]>' outside a CDATA section", 63: "a CDATA section that is not closed",
      64: "a reserved name (starting with 'xml')", 65: "a missing space",
      68: "a malformed name", 72: "a missing '<'", 73: "a missing '>'",
      74: "a missing '</'", 75: "a missing '=' after an attribute name",
      76: "an end tag that does not match its start tag",
      77: "an unclosed tag at the end of the file", 80: "'--' inside a comment",
      81: "bytes that are not in the declared encoding",
      85: "unbalanced markup (an end tag without its start)",
      86: "extra content after the root element", 89: "entities that refer to themselves",
      96: "an XML declaration without a version", 101: "a missing encoding",
      108: "an unknown XML version", 110: "a name longer than libxml2 reads",
      201: "a namespace prefix that is not declared",
    ]
    return known[ns.code].map { "\($0) (libxml2 error \(ns.code))" } ?? "libxml2 error \(ns.code)"
  }
}

/// Nesting deeper than this is refused: no layout format needs it, and it
/// bounds the recursion of the readers.
private let maximumDepth = 256

private final class TreeBuilder: NSObject, XMLParserDelegate {
  var root: XMLTree.Element?
  var stack: [XMLTree.Element] = []
  /// Per open element: how many children of each name it has so far.
  var counts: [[String: Int]] = []
  var failure: DocumentFormatError?

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    let name = localName(elementName)
    var path = name
    if let parent = stack.last, !counts.isEmpty {
      let n = counts[counts.count - 1][name, default: 0]
      counts[counts.count - 1][name] = n + 1
      path = "\(parent.path)/\(name)[\(n + 1)]"
    }
    guard stack.count < maximumDepth else {
      failure = DocumentFormatError(
        path: "line \(parser.lineNumber): \(path)",
        reason: "elements nested deeper than \(maximumDepth)")
      parser.abortParsing()
      return
    }
    var attributes: [String: String] = [:]
    for (k, v) in attributeDict { attributes[localName(k)] = v }
    let element = XMLTree.Element(
      name: name, namespace: namespaceURI ?? "", attributes: attributes,
      line: parser.lineNumber, path: path)
    if let parent = stack.last {
      parent.segments.append(.child(parent.children.count))
      parent.children.append(element)
    } else if root == nil {
      root = element
    }
    stack.append(element)
    counts.append([:])
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    stack.removeLast()
    counts.removeLast()
  }

  func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
    guard failure == nil else { return }
    failure = DocumentFormatError(
      path: "line \(parser.lineNumber), column \(parser.columnNumber)",
      reason: "not well-formed XML: \(XMLTree.describe(parseError))")
  }

  func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
    self.parser(parser, parseErrorOccurred: validationError)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard let current = stack.last else { return }
    current.ownText += string
    if case .text(let t)? = current.segments.last {
      current.segments[current.segments.count - 1] = .text(t + string)
    } else {
      current.segments.append(.text(string))
    }
  }

  func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
    self.parser(parser, foundCharacters: String(decoding: CDATABlock, as: UTF8.self))
  }

  private func localName(_ name: String) -> String {
    guard let colon = name.lastIndex(of: ":") else { return name }
    return String(name[name.index(after: colon)...])
  }
}

/// The line of an `<!ENTITY` declaration in the document's prolog (its
/// DOCTYPE's internal subset), or `nil` when there is none. Comments and
/// processing instructions are skipped; the search ends at the root element.
func entityDeclarationLine(_ data: Data) -> Int? {
  let bytes = [UInt8](data.prefix(1 << 20))
  let lt = UInt8(ascii: "<")
  var i = 0
  var line = 1
  func starts(_ s: String, at k: Int) -> Bool {
    let t = Array(s.utf8)
    return k + t.count <= bytes.count && Array(bytes[k..<(k + t.count)]) == t
  }
  func skip(to end: String) {
    while i < bytes.count && !starts(end, at: i) {
      if bytes[i] == 0x0A { line += 1 }
      i += 1
    }
    i += end.utf8.count
  }
  while i < bytes.count {
    if bytes[i] == 0x0A { line += 1 }
    guard bytes[i] == lt else {
      i += 1
      continue
    }
    if starts("<!--", at: i) {
      skip(to: "-->")
    } else if starts("<?", at: i) {
      skip(to: "?>")
    } else if starts("<!ENTITY", at: i) {
      return line
    } else if starts("<!", at: i) || starts("<![", at: i) {
      i += 2  // <!DOCTYPE …[ : its declarations are read one by one.
    } else {
      return nil  // The root element: the prolog is over.
    }
  }
  return nil
}

/// The line of the first byte that is not UTF-8, or `nil` when the data
/// is valid UTF-8, UTF-16 (a byte-order mark) or declares another
/// encoding in its XML declaration.
/// The encoding an XML declaration names, in lower case (`<?xml version="1.0"
/// encoding="ISO-8859-1"?>` → `iso-8859-1`); `nil` without one.
private func declaredEncoding(_ bytes: [UInt8]) -> String? {
  let head = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
  guard head.hasPrefix("<?xml"), let end = head.range(of: "?>"),
    let key = head[..<end.lowerBound].range(of: "encoding")
  else { return nil }
  let rest = head[key.upperBound..<end.lowerBound].drop { $0 == " " || $0 == "=" }
  guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
  return String(rest.dropFirst().prefix { $0 != quote })
}

private func invalidUTF8Line(_ data: Data) -> Int? {
  let bytes = [UInt8](data)
  if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return nil }
  // A declared encoding libxml2 converts from (to UTF-8, for the parser)
  // is left to it; any other declaration, a misspelt "UT+F-8" included
  // (libxml2 then passes the bytes on as they are: found by the fuzzer),
  // is read as UTF-8.
  if let encoding = declaredEncoding(bytes),
    ["utf-16", "utf16", "ucs-2", "ucs2", "ucs-4", "iso-8859-", "latin", "windows-125", "cp125"]
      .contains(where: { encoding.hasPrefix($0) })
  {
    return nil
  }
  var iterator = bytes.makeIterator()
  var decoder = UTF8()
  var line = 1
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
    case .emptyInput: return nil
    case .error: return line
    }
  }
}
