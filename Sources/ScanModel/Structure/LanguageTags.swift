/// The one map from Tesseract's language codes (`eng`, `deu`, `chi_sim`,
/// `deu_latf`) to BCP-47 language tags (`en`, `de`, `zh-Hans`, `de-Latf`),
/// the tags `accessibilityLanguage` and speech synthesizers take.
///
/// Tesseract names its trained data after ISO 639-2 codes, sometimes with a
/// script or variant suffix. BCP-47 wants the ISO 639-1 code where there is
/// one, and a script subtag (ISO 15924) for the script. A code without a
/// two-letter equivalent (`ceb`, `enm`, `grc`) is already a valid BCP-47
/// primary subtag and is kept. Data that names no language (`osd`, `equ`,
/// the script models such as `script/Latin`) has no tag.
///
/// ```swift
/// LanguageTags.bcp47(forTesseractCode: "deu")      // "de"
/// LanguageTags.bcp47Tags(forLanguages: "eng+deu")  // ["en", "de"]
/// ```
public enum LanguageTags {
  /// The BCP-47 tag for one Tesseract language code.
  ///
  /// ISO 639-2 bibliographic codes (`ger`, `fre`) are understood as well as
  /// Tesseract's terminological ones (`deu`, `fra`); a two-letter code
  /// (`en`) is taken as already BCP-47.
  ///
  /// - Parameter code: A Tesseract language code such as `eng` or
  ///   `chi_sim`; case is ignored.
  /// - Returns: The tag, or `nil` for data that names no language or a
  ///   code that is not a language code at all.
  /// - Complexity: O(1).
  public static func bcp47(forTesseractCode code: String) -> String? {
    let code = code.lowercased()
    if let tag = tags[code] { return tag }
    if notLanguages.contains(code) { return nil }
    let letters = code.allSatisfy { $0.isASCII && $0.isLetter }
    guard letters, code.count == 2 || code.count == 3 else { return nil }
    return code
  }

  /// The BCP-47 tags of a page's recognition languages, in their order,
  /// each once.
  ///
  /// - Parameter languages: Tesseract codes joined by `+`, such as
  ///   `eng+deu` (``Page/language``).
  /// - Returns: The tags of the codes that name a language (`eng+osd` →
  ///   `["en"]`); empty when none does.
  /// - Complexity: O(*n*) in the length of `languages`.
  public static func bcp47Tags(forLanguages languages: String) -> [String] {
    bcp47Tags(of: LanguageCode.codes(in: languages))
  }

  /// The BCP-47 tags of `codes`, in their order, each once; the codes that
  /// name no language are passed over.
  /// - Complexity: O(*n*²) in the number of codes (a handful).
  public static func bcp47Tags(of codes: [LanguageCode]) -> [String] {
    var out: [String] = []
    for code in codes {
      guard let tag = code.bcp47Tag, !out.contains(tag) else { continue }
      out.append(tag)
    }
    return out
  }

  /// Trained data that recognises no language of its own.
  private static let notLanguages: Set<String> = ["osd", "equ"]

  /// Tesseract's codes (and ISO 639-2/B aliases) whose tag is not the code
  /// itself.
  private static let tags: [String: String] = [
    "afr": "af", "amh": "am", "ara": "ar", "asm": "as", "aze": "az", "aze_cyrl": "az-Cyrl",
    "bel": "be", "ben": "bn", "bod": "bo", "bos": "bs", "bre": "br", "bul": "bg", "cat": "ca",
    "ces": "cs", "chi_sim": "zh-Hans", "chi_sim_vert": "zh-Hans", "chi_tra": "zh-Hant",
    "chi_tra_vert": "zh-Hant", "cos": "co", "cym": "cy", "dan": "da", "dan_frak": "da-Latf",
    "deu": "de", "deu_frak": "de-Latf", "deu_latf": "de-Latf", "div": "dv", "dzo": "dz",
    "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "fao": "fo", "fas": "fa",
    "fin": "fi", "fra": "fr", "frk": "de-Latf", "fry": "fy", "gla": "gd", "gle": "ga",
    "glg": "gl", "guj": "gu", "hat": "ht", "heb": "he", "hin": "hi", "hrv": "hr", "hun": "hu",
    "hye": "hy", "iku": "iu", "ind": "id", "isl": "is", "ita": "it", "ita_old": "it",
    "jav": "jv", "jpn": "ja", "jpn_vert": "ja", "kan": "kn", "kat": "ka", "kat_old": "ka",
    "kaz": "kk", "khm": "km", "kir": "ky", "kor": "ko", "kor_vert": "ko", "lao": "lo",
    "lat": "la", "lav": "lv", "lit": "lt", "ltz": "lb", "mal": "ml", "mar": "mr", "mkd": "mk",
    "mlt": "mt", "mon": "mn", "mri": "mi", "msa": "ms", "mya": "my", "nep": "ne", "nld": "nl",
    "nor": "no", "oci": "oc", "ori": "or", "pan": "pa", "pol": "pl", "por": "pt", "pus": "ps",
    "que": "qu", "ron": "ro", "rus": "ru", "san": "sa", "sin": "si", "slk": "sk",
    "slk_frak": "sk-Latf", "slv": "sl", "snd": "sd", "spa": "es", "spa_old": "es", "sqi": "sq",
    "srp": "sr-Cyrl", "srp_latn": "sr-Latn", "sun": "su", "swa": "sw", "swe": "sv", "tam": "ta",
    "tat": "tt", "tel": "te", "tgk": "tg", "tgl": "tl", "tha": "th", "tir": "ti", "ton": "to",
    "tur": "tr", "uig": "ug", "ukr": "uk", "urd": "ur", "uzb": "uz", "uzb_cyrl": "uz-Cyrl",
    "vie": "vi", "yid": "yi", "yor": "yo",
    // ISO 639-2/B, as some other OCR engines and formats write them.
    "alb": "sq", "arm": "hy", "baq": "eu", "bur": "my", "chi": "zh", "cze": "cs", "dut": "nl",
    "fre": "fr", "geo": "ka", "ger": "de", "gre": "el", "ice": "is", "mac": "mk", "mao": "mi",
    "may": "ms", "per": "fa", "rum": "ro", "slo": "sk", "tib": "bo", "wel": "cy",
  ]
}

extension Page {
  /// The page's recognition languages as BCP-47 tags, in the order
  /// ``language`` names them (`eng+deu` → `["en", "de"]`); empty when the
  /// language is unknown. See ``LanguageTags``.
  /// - Complexity: O(*n*) in the length of ``language``.
  public var languageTags: [String] { LanguageTags.bcp47Tags(of: languages) }

  /// The BCP-47 tag of the page's first (primary) recognition language,
  /// as `accessibilityLanguage` takes it, or `nil` when it is unknown.
  ///
  /// The OCR does not say which word is in which of several languages, so
  /// the first one stands for the page.
  /// - Complexity: O(*n*) in the length of ``language``.
  public var accessibilityLanguage: String? { languageTags.first }
}
