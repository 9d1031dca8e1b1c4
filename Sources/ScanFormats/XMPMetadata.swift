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
      changes.append(("http://www.aiim.org/pdfua/ns/id/", "pdfuaid", "part", "1"))
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
  /// title a reader shows with `DisplayDocTitle`), producer and format, and
  /// for a tagged PDF the PDF/UA-1 identification (`pdfuaid:part` 1).
  ///
  /// - Parameters:
  ///   - title: The document's title, if it has one.
  ///   - producer: The program that wrote the file.
  ///   - pdfUA: Whether the file claims PDF/UA-1.
  /// - Returns: The packet, in its `xpacket` wrapper.
  /// - Complexity: O(*n*) in the lengths of the title and producer.
  public static func packet(title: String?, producer: String, pdfUA: Bool) -> String {
    var description =
      "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\""
      + " xmlns:pdf=\"\(namespaces.pdf)\""
    if pdfUA { description += " xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"" }
    description += ">\n<dc:format>application/pdf</dc:format>\n"
    if let title {
      description +=
        "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">\(escaped(title))</rdf:li></rdf:Alt></dc:title>\n"
    }
    description += "<pdf:Producer>\(escaped(producer))</pdf:Producer>\n"
    if pdfUA { description += "<pdfuaid:part>1</pdfuaid:part>\n" }
    description += "</rdf:Description>\n"
    return "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
      + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n<rdf:RDF xmlns:rdf=\"\(namespaces.rdf)\">\n"
      + description + "</rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"w\"?>"
  }

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

/// Dates as a PDF's metadata writes them, in UTC.
public enum PDFDates {
  /// An Info dictionary date: `D:20261203152400Z`.
  public static func info(_ date: Date) -> String { utc(date, "'D:'yyyyMMddHHmmss'Z'") }

  /// An XMP date (ISO 8601): `2026-12-03T15:24:00Z`.
  public static func xmp(_ date: Date) -> String { utc(date, "yyyy-MM-dd'T'HH:mm:ss'Z'") }

  static func utc(_ date: Date, _ format: String) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = format
    return formatter.string(from: date)
  }
}
