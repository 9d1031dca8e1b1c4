/// One language of recognition as Tesseract names its trained data (`eng`,
/// `deu`, `chi_sim`, `deu_latf`): the one form `--lang`, the recognition
/// options, the model and every format read.
///
/// A page stores its languages joined by `+` (``Page/language``,
/// `eng+deu`, as Tesseract takes them); ``Page/languages`` reads that form
/// back. What each output writes comes from here: the BCP-47 tag of the
/// accessible HTML and the searchable PDF (``bcp47Tag``), ALTO's
/// `xsd:language` (``xsdLanguage``) and PAGE XML's English name
/// (``englishName``); hOCR writes the stored form.
///
/// ```swift
/// let codes = LanguageCode.list(parsing: "eng+deu")  // [eng, deu]
/// codes?.map(\.bcp47Tag)                             // ["en", "de"]
/// LanguageCode.joined(codes ?? [])                   // "eng+deu"
/// ```
public struct LanguageCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The code as given (`eng`).
  public let rawValue: String

  /// The code `rawValue`, as given (no check: a model may store any text).
  /// - Complexity: O(1).
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The code `value` (`"eng"`).
  /// - Complexity: O(1).
  public init(stringLiteral value: String) { rawValue = value }

  public var description: String { rawValue }

  /// The codes of a list as `--lang` takes it (`eng+deu`), in order.
  /// - Parameter text: Codes joined by `+`.
  /// - Returns: The codes; `nil` when one is empty (`eng+`, `+deu`, ``).
  /// - Complexity: O(*n*) in the length of `text`.
  public static func list(parsing text: String) -> [LanguageCode]? {
    let codes = text.split(separator: "+", omittingEmptySubsequences: false)
    guard !codes.contains(where: \.isEmpty) else { return nil }
    return codes.map { LanguageCode(rawValue: String($0)) }
  }

  /// The codes a stored language names (``Page/language``: `eng+deu`), in
  /// order, empty parts passed over.
  /// - Complexity: O(*n*) in the length of `language`.
  public static func codes(in language: String) -> [LanguageCode] {
    language.split(separator: "+").map { LanguageCode(rawValue: String($0)) }
  }

  /// The codes joined as Tesseract takes them and a page stores them
  /// (`eng+deu`).
  /// - Complexity: O(*n*) in the codes' lengths.
  public static func joined(_ codes: [LanguageCode]) -> String {
    codes.map(\.rawValue).joined(separator: "+")
  }

  /// The BCP-47 tag (`en`, `zh-Hans`), spaces around the code aside; `nil`
  /// for data that names no language (`osd`) or a code that is not one
  /// (``LanguageTags/bcp47(forTesseractCode:)``).
  /// - Complexity: O(*n*) in the code's length.
  public var bcp47Tag: String? {
    LanguageTags.bcp47(
      forTesseractCode: String(rawValue.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    )
  }

  /// The code as an `xsd:language` value (ALTO's `LANG`): the code when it
  /// is 1 to 8 ASCII letters, else `nil` (`chi_sim` is not one).
  /// - Complexity: O(*n*) in the code's length.
  public var xsdLanguage: String? {
    let ok =
      !rawValue.isEmpty && rawValue.count <= 8
      && rawValue.allSatisfy { $0.isASCII && $0.isLetter }
    return ok ? rawValue : nil
  }

  /// The language's English name as PAGE XML names languages (`German`),
  /// for the common languages PAGE names; `nil` for others.
  /// - Complexity: O(1).
  public var englishName: String? {
    Self.englishNames.first { $0.value == self }?.key
  }

  /// The language PAGE XML names `name` in English (`German` → `deu`);
  /// `nil` for a name not among the common ones.
  /// - Complexity: O(1).
  public init?(englishName name: String) {
    guard let code = Self.englishNames[name] else { return nil }
    self = code
  }

  /// The common languages by their English names.
  private static let englishNames: [String: LanguageCode] = [
    "English": "eng", "German": "deu", "French": "fra", "Italian": "ita", "Spanish": "spa",
    "Dutch": "nld", "Latin": "lat", "Portuguese": "por", "Danish": "dan", "Swedish": "swe",
  ]
}

extension Page {
  /// The page's recognition languages, in the order ``language`` names
  /// them (`eng+deu`); empty when it is unknown.
  /// - Complexity: O(*n*) in the length of ``language``.
  public var languages: [LanguageCode] {
    language.map(LanguageCode.codes(in:)) ?? []
  }
}
