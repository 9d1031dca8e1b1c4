import Foundation

/// What a searchable PDF claims to be (`--output-type`, OCRmyPDF's option
/// of the same name): plain PDF, or a part of PDF/A (ISO 19005), whose
/// conformance level follows from whether the file is tagged.
public enum PDFOutputType: String, CaseIterable, Sendable {
  /// A PDF that claims no PDF/A conformance.
  case pdf
  /// PDF/A-2 (the default): ``pdfA2``.
  case pdfA = "pdfa"
  /// PDF/A-1 (ISO 19005-1, on PDF 1.4): level A when tagged, B otherwise.
  case pdfA1 = "pdfa-1"
  /// PDF/A-2 (ISO 19005-2, on PDF 1.7): level A when tagged, U otherwise.
  case pdfA2 = "pdfa-2"
  /// PDF/A-3 (ISO 19005-3): as PDF/A-2, and embedded files of any kind
  /// are allowed (ScanText adds none).
  case pdfA3 = "pdfa-3"

  /// The PDF/A part claimed, `nil` for ``pdf``.
  public var part: Int? {
    switch self {
    case .pdf: return nil
    case .pdfA1: return 1
    case .pdfA, .pdfA2: return 2
    case .pdfA3: return 3
    }
  }

  /// The level claimed for a file tagged or not; `nil` for ``pdf``.
  /// - Parameter tagged: Whether the file has a structure tree that tags
  ///   every page (PDF/UA-1).
  /// - Returns: The part and conformance level: `a` when tagged, else `u`
  ///   (Unicode text: the layer's ToUnicode map), `b` for PDF/A-1, which
  ///   has no `u`.
  public func level(tagged: Bool) -> PDFArchive.Level? {
    guard let part else { return nil }
    if tagged { return PDFArchive.Level(part: part, conformance: "A") }
    return PDFArchive.Level(part: part, conformance: part == 1 ? "B" : "U")
  }
}

/// The pieces of a PDF/A file that ScanText adds, in one place for the PDF
/// it writes (``SearchablePDF``) and the PDF it edits (ScanOCR's
/// `PDFEditor`): the output intent and its ICC profile, the XMP
/// identification and the extension schema PDF/A asks for the PDF/UA
/// identification, and what PDF/A forbids in an image.
public enum PDFArchive {
  /// A PDF/A part and conformance level: `2A` is PDF/A-2a.
  public struct Level: Hashable, Sendable, CustomStringConvertible {
    /// 1, 2 or 3.
    public var part: Int
    /// `A`, `B` or `U`.
    public var conformance: String
    /// Creates a level.
    public init(part: Int, conformance: String) {
      self.part = part
      self.conformance = conformance
    }
    /// `PDF/A-2a`.
    public var description: String { "PDF/A-\(part)\(conformance.lowercased())" }
  }

  /// The archive settings of one PDF: the level and the output intent's
  /// ICC profile.
  public struct Settings: Sendable {
    /// The level the file claims.
    public var level: Level
    /// The output intent's ICC profile (sRGB: the device space of gray and
    /// RGB images and of the invisible text).
    public var outputProfile: Data
    /// Creates settings.
    public init(level: Level, outputProfile: Data) {
      self.level = level
      self.outputProfile = outputProfile
    }
  }

  /// Where Debian's packages put an sRGB ICC profile, in the order they are
  /// tried: `icc-profiles-free` (installed by `Tools/install/install-dependencies.sh`),
  /// Ghostscript's, colord's.
  public static let profilePaths = [
    "/usr/share/color/icc/sRGB.icc", "/usr/share/color/icc/ghostscript/srgb.icc",
    "/usr/share/color/icc/colord/sRGB.icc",
  ]

  /// The first sRGB profile of ``profilePaths`` that reads as an RGB ICC
  /// profile, `nil` when none does.
  /// - Complexity: O(*n*) in the profile's size.
  public static func standardProfile() -> Data? {
    for path in profilePaths {
      if let data = FileManager.default.contents(atPath: path),
        ICCProfile.components(data) == 3
      {
        return data
      }
    }
    return nil
  }

  /// Why a file cannot claim PDF/A when the profile is missing.
  public static let missingProfileReason =
    "no sRGB ICC profile for its output intent (install Debian's icc-profiles-free: \(profilePaths[0]))"

  /// The catalog's `/OutputIntents` value, with `profile` a reference to
  /// the ICC profile's stream.
  public static func outputIntents(profile: String) -> String {
    "[<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) /DestOutputProfile \(profile) >>]"
  }

  /// The ICC profile stream's dictionary entries (before `/Length`).
  public static let profileDictionary = "/N 3"

  /// Why an image cannot be in a file of `level`, `nil` when it can: a
  /// CMYK image (the output intent is RGB), and for PDF/A-1 a JPEG 2000
  /// image or 16-bit samples (PDF 1.4 has neither).
  /// - Parameters:
  ///   - filter: The image's filter without the slash.
  ///   - colorSpace: Its colour space in PDF syntax.
  ///   - bitsPerComponent: Its bits per sample.
  ///   - hasProfile: Whether it carries an ICC profile of its own
  ///     (`ICCBased`: device independent, allowed in every part).
  ///   - level: The level claimed.
  public static func imageBlocker(
    filter: String, colorSpace: String, bitsPerComponent: Int, hasProfile: Bool, level: Level
  ) -> String? {
    if colorSpace.contains("DeviceCMYK") && !hasProfile {
      return "a CMYK image without a colour profile"
    }
    if level.part == 1 && filter == "JPXDecode" { return "a JPEG 2000 image (PDF/A-1)" }
    if level.part == 1 && bitsPerComponent > 8 { return "an image of 16-bit samples (PDF/A-1)" }
    return nil
  }

  /// The XMP properties that identify a file's PDF/A level, as elements of
  /// an `rdf:Description` that declares `pdfaid`.
  static func identification(_ level: Level) -> String {
    "<pdfaid:part>\(level.part)</pdfaid:part>\n<pdfaid:conformance>\(level.conformance)</pdfaid:conformance>\n"
  }

  static let identificationNamespace = "http://www.aiim.org/pdfa/ns/id/"

  /// The description PDF/A asks for before a property outside its
  /// predefined schemas may be used: the PDF/UA identification schema
  /// (`pdfuaid:part`, an Integer), declared with PDF/A's extension schema
  /// container (ISO 19005-2 §6.6.2.3.2; ISO 14289-1 §5 gives the schema).
  static let pdfUAExtensionSchema = """
    <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
    <pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
    <pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
    <pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/</pdfaSchema:namespaceURI>
    <pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
    <pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
    <pdfaProperty:name>part</pdfaProperty:name>
    <pdfaProperty:valueType>Integer</pdfaProperty:valueType>
    <pdfaProperty:category>internal</pdfaProperty:category>
    <pdfaProperty:description>Indicates which part of ISO 14289 the file conforms to</pdfaProperty:description>
    </rdf:li></rdf:Seq></pdfaSchema:property>
    </rdf:li></rdf:Bag></pdfaExtension:schemas>
    </rdf:Description>

    """
}
