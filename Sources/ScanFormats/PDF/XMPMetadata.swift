import Foundation

/// A PDF's XMP metadata packet (the catalog's `/Metadata` stream), updated
/// where that is safe: the searchable PDF of a PDF input keeps the input's
/// packet and records in it who changed the file and when.
public enum XMPMetadata {
  static let namespaces = (
    xmp: "http://ns.adobe.com/xap/1.0/", pdf: "http://ns.adobe.com/pdf/1.3/",
    rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
  )

  /// The packet with `xmp:ModifyDate` and `xmp:MetadataDate` set to `date`
  /// and `pdf:Producer` to `producer`; `nil` when that cannot be done
  /// safely, and then the packet is best left as it was.
  ///
  /// The packet must be well-formed UTF-8 XML with an `rdf:Description`.
  /// Each property is changed where it is (an element or an attribute of
  /// its description); a missing one is added as an attribute of the
  /// description that declares its namespace, or of the first description
  /// with the declaration. The result must parse again with the new values
  /// in place; everything else is kept byte for byte (the packet's
  /// `xpacket` wrapper and padding included).
  ///
  /// - Parameters:
  ///   - packet: The stream's bytes, decoded.
  ///   - producer: The program that wrote the file.
  ///   - date: When.
  ///   - pdfUA: Whether to add the PDF/UA-1 identification (`pdfuaid:part`
  ///     1; only to a packet with a `dc:title`).
  ///   - title: The title the document shows, given to a packet without a
  ///     `dc:title` when it is to claim PDF/UA (PDF/UA asks for the title
  ///     in the metadata): a `dc:title` element in the first description
  ///     that is not empty (`rdf:Description …/>`), the namespace declared
  ///     there when the packet does not declare it.
  /// - Returns: The new bytes, or `nil`.
  /// - Complexity: O(*n*) in the packet's length.
  public static func updated(
    _ packet: [UInt8], producer: String, date: Date, pdfUA: Bool = false, title: String? = nil
  ) -> [UInt8]? {
    guard var text = String(validating: packet, as: UTF8.self),
      (try? XMLTree(data: Data(packet))) != nil,
      let rdf = prefix(of: namespaces.rdf, in: text)
    else { return nil }
    let stamp = PDFDates.xmp(date)
    var changes = [
      (namespaces.xmp, "xmp", "ModifyDate", stamp), (namespaces.xmp, "xmp", "MetadataDate", stamp),
      (namespaces.pdf, "pdf", "Producer", producer),
    ]
    // A tagged file claims PDF/UA-1 only when its packet has the title
    // PDF/UA asks for (`dc:title`): one is given when the packet has none
    // (skew.pdf's, from tiff2pdf and Adobe XMP Core, has `dc:format` only).
    var addedTitle: String?
    if pdfUA, let title, !title.isEmpty, !hasTitle(text),
      let withTitle = addingTitle(title, rdf: rdf, in: text)
    {
      text = withTitle
      addedTitle = title
    }
    if pdfUA, hasTitle(text) {
      changes.append((pdfUANamespace, "pdfuaid", "part", "1"))
    }
    for (namespace, usual, name, value) in changes {
      guard
        let updated = set(
          name, namespace: namespace, usualPrefix: usual, rdf: rdf, to: value, in: text)
      else { return nil }
      text = updated
    }
    // The result must read back with the new values.
    guard let tree = try? XMLTree(data: Data(text.utf8)),
      changes.allSatisfy({ has(tree.root, $0.2, namespace: $0.0, value: $0.3) }),
      addedTitle.map({ hasTitle(tree.root, $0) }) ?? true
    else { return nil }
    return Array(text.utf8)
  }

  static let dcNamespace = "http://purl.org/dc/elements/1.1/"

  /// Whether the packet has a `dc:title` element.
  static func hasTitle(_ text: String) -> Bool {
    guard let dc = prefix(of: dcNamespace, in: text) else { return false }
    return text.contains("<\(dc):title>") || text.contains("<\(dc):title ")
  }

  /// Whether some `dc:title` holds `value` (in its `rdf:li`).
  static func hasTitle(_ element: XMLTree.Element, _ value: String) -> Bool {
    func text(_ e: XMLTree.Element) -> String { e.ownText + e.children.map(text).joined() }
    if element.name == "title", element.namespace == dcNamespace, text(element) == value {
      return true
    }
    return element.children.contains { hasTitle($0, value) }
  }

  /// The text with a `dc:title` (a language alternative, `x-default`)
  /// added as the first child of the first description that has children
  /// (not `<rdf:Description …/>`), declaring the namespace there when the
  /// packet does not; `nil` when there is no such description or the
  /// prefix `dc` is bound to another namespace.
  static func addingTitle(_ title: String, rdf: String, in text: String) -> String? {
    var declaration = ""
    let p: String
    if let bound = prefix(of: dcNamespace, in: text) {
      p = bound
    } else {
      guard !text.contains("xmlns:dc=") else { return nil }
      p = "dc"
      declaration = " xmlns:dc=\"\(dcNamespace)\""
    }
    let tag = NSRegularExpression.escapedPattern(for: "\(rdf):Description")
    guard let regex = try? NSRegularExpression(pattern: "<\(tag)(\\s[^>]*?)?(/?)>") else {
      return nil
    }
    let open = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).first {
      $0.range(at: 2).length == 0
    }
    guard let open, let end = Range(open.range(at: 2), in: text) else { return nil }
    let element =
      ">\n<\(p):title><\(rdf):Alt><\(rdf):li xml:lang=\"x-default\">\(escaped(title))</\(rdf):li></\(rdf):Alt></\(p):title>"
    // `end` is empty, just before the tag's `>`.
    return text.replacingCharacters(
      in: end.lowerBound..<text.index(after: end.lowerBound), with: declaration + element)
  }

  /// A new packet for a PDF ScanText writes: its title (`dc:title`, the
  /// title a reader shows with `DisplayDocTitle`), producer and format, for
  /// a tagged PDF the PDF/UA-1 identification (`pdfuaid:part` 1), and for
  /// a PDF/A file its identification (`pdfaid:part`, `pdfaid:conformance`)
  /// and, with PDF/UA, the extension schema PDF/A asks for `pdfuaid`.
  ///
  /// - Parameters:
  ///   - title: The document's title, if it has one.
  ///   - producer: The program that wrote the file.
  ///   - pdfUA: Whether the file claims PDF/UA-1.
  ///   - archive: The PDF/A level the file claims, if any.
  /// - Returns: The packet, in its `xpacket` wrapper.
  /// - Complexity: O(*n*) in the lengths of the title and producer.
  public static func packet(
    title: String?, producer: String, pdfUA: Bool, archive: PDFArchive.Level? = nil
  ) -> String {
    packet(info: PDFDocumentInfo(title: title, producer: producer), pdfUA: pdfUA, archive: archive)
  }

  /// A new packet that repeats a document's information (the Info
  /// dictionary's entries, as PDF/A asks: `dc:title`, `dc:creator`,
  /// `dc:description`, `pdf:Keywords`, `xmp:CreatorTool`, `pdf:Producer`,
  /// `xmp:CreateDate`, `xmp:ModifyDate` and `xmp:MetadataDate`), with the
  /// PDF/UA and PDF/A identifications as
  /// ``packet(title:producer:pdfUA:archive:)`` writes them.
  ///
  /// - Parameters:
  ///   - info: The document's information; its dates must read as PDF dates
  ///     (``PDFDates/xmp(pdfDate:)``), others are left out.
  ///   - pdfUA: Whether the file claims PDF/UA-1.
  ///   - archive: The PDF/A level the file claims, if any.
  /// - Returns: The packet, in its `xpacket` wrapper.
  /// - Complexity: O(*n*) in the lengths of the values.
  public static func packet(info: PDFDocumentInfo, pdfUA: Bool, archive: PDFArchive.Level?)
    -> String
  {
    var description =
      "<rdf:Description rdf:about=\"\" xmlns:dc=\"\(dcNamespace)\""
      + " xmlns:pdf=\"\(namespaces.pdf)\""
    let dated = info.creationDate != nil || info.modificationDate != nil
    if info.creator != nil || dated { description += " xmlns:xmp=\"\(namespaces.xmp)\"" }
    if pdfUA { description += " xmlns:pdfuaid=\"\(pdfUANamespace)\"" }
    if archive != nil {
      description += " xmlns:pdfaid=\"\(PDFArchive.identificationNamespace)\""
    }
    description += ">\n<dc:format>application/pdf</dc:format>\n"
    func alternative(_ value: String) -> String {
      "<rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(value))</rdf:li></rdf:Alt>"
    }
    if let title = info.title { description += "<dc:title>\(alternative(title))</dc:title>\n" }
    if let author = info.author {
      description +=
        "<dc:creator><rdf:Seq><rdf:li>\(escaped(author))</rdf:li></rdf:Seq></dc:creator>\n"
    }
    if let subject = info.subject {
      description += "<dc:description>\(alternative(subject))</dc:description>\n"
    }
    if let keywords = info.keywords {
      description += "<pdf:Keywords>\(escaped(keywords))</pdf:Keywords>\n"
    }
    if let creator = info.creator {
      description += "<xmp:CreatorTool>\(escaped(creator))</xmp:CreatorTool>\n"
    }
    if let producer = info.producer {
      description += "<pdf:Producer>\(escaped(producer))</pdf:Producer>\n"
    }
    if let date = info.creationDate.flatMap(PDFDates.xmp(pdfDate:)) {
      description += "<xmp:CreateDate>\(date)</xmp:CreateDate>\n"
    }
    if let date = info.modificationDate.flatMap(PDFDates.xmp(pdfDate:)) {
      description += "<xmp:ModifyDate>\(date)</xmp:ModifyDate>\n"
      description += "<xmp:MetadataDate>\(date)</xmp:MetadataDate>\n"
    }
    if pdfUA { description += "<pdfuaid:part>1</pdfuaid:part>\n" }
    if let archive { description += PDFArchive.identification(archive) }
    description += "</rdf:Description>\n"
    if archive != nil && pdfUA { description += PDFArchive.pdfUAExtensionSchema }
    return "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
      + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"\(namespaces.rdf)\">\n"
      + description + "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
  }

  /// The document information a packet holds (the properties
  /// ``packet(info:pdfUA:archive:)`` writes, its dates as PDF dates), for
  /// a document whose Info dictionary lacks them; empty when the packet
  /// does not parse.
  /// - Complexity: O(*n*) in the packet's length.
  public static func documentInfo(of packet: [UInt8]) -> PDFDocumentInfo {
    guard let tree = try? XMLTree(data: Data(packet)) else { return PDFDocumentInfo() }
    let text = String(decoding: packet, as: UTF8.self)
    func first(_ name: String, _ namespace: String, in element: XMLTree.Element) -> String? {
      if element.name == name, element.namespace == namespace {
        let value = element.allText.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
      }
      // A simple property may be an attribute of its description.
      if element.name == "Description", element.namespace == namespaces.rdf,
        let p = prefix(of: namespace, in: text),
        let value = element.attributes["\(p):\(name)"] ?? element.attributes[name]
      {
        return value
      }
      for child in element.children {
        if let found = first(name, namespace, in: child) { return found }
      }
      return nil
    }
    let root = tree.root
    var info = PDFDocumentInfo()
    info.title = first("title", dcNamespace, in: root)
    info.author = first("creator", dcNamespace, in: root)
    info.subject = first("description", dcNamespace, in: root)
    info.keywords = first("Keywords", namespaces.pdf, in: root)
    info.creator = first("CreatorTool", namespaces.xmp, in: root)
    info.producer = first("Producer", namespaces.pdf, in: root)
    info.creationDate = first("CreateDate", namespaces.xmp, in: root).flatMap(
      PDFDates.pdf(xmpDate:))
    info.modificationDate = first("ModifyDate", namespaces.xmp, in: root).flatMap(
      PDFDates.pdf(xmpDate:))
    return info
  }

  static let pdfUANamespace = "http://www.aiim.org/pdfua/ns/id/"

  static func escaped(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// The prefix the packet binds to a namespace (the first declaration).
  static func prefix(of namespace: String, in text: String) -> String? {
    let pattern =
      #"xmlns:([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*["']"#
      + NSRegularExpression.escapedPattern(for: namespace) + #"["']"#
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
      let range = Range(match.range(at: 1), in: text)
    else { return nil }
    return String(text[range])
  }

  /// The text with one property set: its element's text or its attribute's
  /// value replaced, else an attribute added; `nil` when it is there in a
  /// form this does not change (more than once, or with markup inside).
  static func set(
    _ name: String, namespace: String, usualPrefix: String, rdf: String, to value: String,
    in text: String
  ) -> String? {
    let escapedValue = escaped(value)
    let whole = NSRange(text.startIndex..., in: text)
    if let p = prefix(of: namespace, in: text) {
      let qualified = NSRegularExpression.escapedPattern(for: "\(p):\(name)")
      let element = try? NSRegularExpression(pattern: "<\(qualified)>([^<]*)</\(qualified)>")
      let attribute = try? NSRegularExpression(
        pattern: #"(?<=\s)"# + qualified + #"\s*=\s*(?:"([^"]*)"|'([^']*)')"#)
      let elements = element?.matches(in: text, range: whole) ?? []
      let attributes = attribute?.matches(in: text, range: whole) ?? []
      let any = try? NSRegularExpression(pattern: "<\(qualified)[\\s>/]")
      let elementStarts = any?.numberOfMatches(in: text, range: whole) ?? 0
      switch (elements.count, attributes.count) {
      case (1, 0) where elementStarts == 1:
        guard let range = Range(elements[0].range(at: 1), in: text) else { return nil }
        return text.replacingCharacters(in: range, with: escapedValue)
      case (0, 1) where elementStarts == 0:
        guard let range = Range(attributes[0].range, in: text) else { return nil }
        return text.replacingCharacters(in: range, with: "\(p):\(name)=\"\(escapedValue)\"")
      case (0, 0) where elementStarts == 0:
        // Added to the description that declares the prefix.
        return addAttribute(
          "\(p):\(name)=\"\(escapedValue)\"", rdf: rdf, declaring: "xmlns:\(p)", in: text)
      default:
        return nil
      }
    }
    // The namespace is not declared: declare it on the first description.
    return addAttribute(
      "xmlns:\(usualPrefix)=\"\(namespace)\" \(usualPrefix):\(name)=\"\(escapedValue)\"", rdf: rdf,
      declaring: nil, in: text)
  }

  /// Adds an attribute to a description's start tag: the one that holds
  /// `declaring` (or the first, for `nil`).
  static func addAttribute(_ attribute: String, rdf: String, declaring: String?, in text: String)
    -> String?
  {
    let tag = NSRegularExpression.escapedPattern(for: "\(rdf):Description")
    guard let regex = try? NSRegularExpression(pattern: "<\(tag)(\\s[^>]*?)?(/?)>") else {
      return nil
    }
    let matches = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
    let chosen = matches.first { match in
      guard let declaring, let range = Range(match.range, in: text) else { return declaring == nil }
      return text[range].contains(declaring + "=")
    }
    guard let chosen, let close = Range(chosen.range(at: 2), in: text) else { return nil }
    return text.replacingCharacters(in: close.lowerBound..<close.lowerBound, with: " " + attribute)
  }

  /// Whether some description holds the property with this value.
  static func has(_ element: XMLTree.Element, _ name: String, namespace: String, value: String)
    -> Bool
  {
    if element.name == name, element.namespace == namespace, element.ownText == value {
      return true
    }
    if element.name == "Description", element.namespace == namespaces.rdf,
      element.attributes.contains(where: {
        ($0.key == name || $0.key.hasSuffix(":" + name)) && $0.value == value
      })
    {
      return true
    }
    return element.children.contains { has($0, name, namespace: namespace, value: value) }
  }
}

/// The entries of a PDF's Info dictionary that PDF/A asks the XMP packet to
/// repeat (ISO 19005-2 §6.6.2.3.1): text, and dates as PDF dates
/// (`D:20261206104500Z`).
public struct PDFDocumentInfo: Sendable, Equatable {
  public var title: String?
  public var author: String?
  public var subject: String?
  public var keywords: String?
  /// The program that made the original document (`/Creator`).
  public var creator: String?
  public var producer: String?
  public var creationDate: String?
  public var modificationDate: String?

  /// Creates document information.
  public init(
    title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
    creator: String? = nil, producer: String? = nil, creationDate: String? = nil,
    modificationDate: String? = nil
  ) {
    self.title = title
    self.author = author
    self.subject = subject
    self.keywords = keywords
    self.creator = creator
    self.producer = producer
    self.creationDate = creationDate
    self.modificationDate = modificationDate
  }

  /// This information, each missing entry taken from `other`.
  public func filling(from other: PDFDocumentInfo) -> PDFDocumentInfo {
    PDFDocumentInfo(
      title: title ?? other.title, author: author ?? other.author,
      subject: subject ?? other.subject, keywords: keywords ?? other.keywords,
      creator: creator ?? other.creator, producer: producer ?? other.producer,
      creationDate: creationDate ?? other.creationDate,
      modificationDate: modificationDate ?? other.modificationDate)
  }
}

/// Dates as a PDF's metadata writes them, in UTC.
public enum PDFDates {
  /// An Info dictionary date: `D:20261203152400Z`.
  public static func info(_ date: Date) -> String { utc(date, "'D:'yyyyMMddHHmmss'Z'") }

  /// An XMP date (ISO 8601): `2026-12-03T15:24:00Z`.
  public static func xmp(_ date: Date) -> String { utc(date, "yyyy-MM-dd'T'HH:mm:ss'Z'") }

  /// A PDF date (`D:YYYYMMDDHHmmSSOHH'mm'`, its parts after the year
  /// optional) as an XMP date with the same parts and offset
  /// (`2026-12-06T10:45:00+01:00`); `nil` when it is not one.
  /// - Complexity: O(*n*) in the string's length.
  public static func xmp(pdfDate: String) -> String? {
    var text = Substring(pdfDate.trimmingCharacters(in: .whitespaces))
    if text.hasPrefix("D:") { text = text.dropFirst(2) }
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    guard digits.count >= 4, digits.count <= 14, digits.count % 2 == 0 else { return nil }
    let d = Array(digits)
    func part(_ i: Int, _ fallback: String) -> String {
      d.count >= i + 2 ? String(d[i..<(i + 2)]) : fallback
    }
    let year = String(d[0..<4])
    let (month, day) = (part(4, "01"), part(6, "01"))
    let (hour, minute, second) = (part(8, "00"), part(10, "00"), part(12, "00"))
    guard let m = Int(month), (1...12).contains(m), let dd = Int(day), (1...31).contains(dd),
      let h = Int(hour), h < 24, let mi = Int(minute), mi < 60, let s = Int(second), s < 60
    else { return nil }
    var zone = text.dropFirst(digits.count)
    var offset = ""
    if let sign = zone.first {
      zone = zone.dropFirst()
      if sign == "Z" {
        offset = "Z"
      } else if sign == "+" || sign == "-" {
        let numbers = zone.split(whereSeparator: { $0 == "'" }).map(String.init)
        guard let hh = numbers.first, hh.count == 2, Int(hh) != nil else { return nil }
        let mm = numbers.count > 1 && numbers[1].count == 2 ? numbers[1] : "00"
        offset = "\(sign)\(hh):\(mm)"
      } else {
        return nil
      }
    }
    return "\(year)-\(month)-\(day)T\(hour):\(minute):\(second)\(offset)"
  }

  /// An XMP date (ISO 8601, `2026-12-06T10:45:00+01:00`, seconds and
  /// fractions optional) as a PDF date with the same parts and offset
  /// (`D:20261206104500+01'00'`); `nil` when it is not one.
  /// - Complexity: O(*n*) in the string's length.
  public static func pdf(xmpDate: String) -> String? {
    let pattern =
      #"^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$"#
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(
        in: xmpDate, range: NSRange(xmpDate.startIndex..., in: xmpDate))
    else { return nil }
    func group(_ i: Int) -> String? {
      Range(match.range(at: i), in: xmpDate).map { String(xmpDate[$0]) }
    }
    var out = "D:" + (group(1) ?? "")
    for i in 2...6 { out += group(i) ?? (i <= 3 ? "01" : "00") }
    if let zone = group(7) {
      out += zone == "Z" ? "Z" : zone.replacingOccurrences(of: ":", with: "'") + "'"
    }
    return out
  }

  static func utc(_ date: Date, _ format: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = format
    return formatter.string(from: date)
  }
}
