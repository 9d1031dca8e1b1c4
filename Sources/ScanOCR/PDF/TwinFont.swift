import CHarfBuzz
import Foundation

/// A free font with the same advance widths as a font a PDF names but does
/// not embed (one of the standard 14, or a common alias of one: `Arial`,
/// `TimesNewRomanPSMT`, `CourierNew,Bold`): Liberation Sans, Serif and Mono
/// (Debian's `fonts-liberation2`), metric-compatible with Helvetica/Arial,
/// Times and Courier. Embedding a subset of it (``FontProgram/subset(_:)``)
/// lets a typed page be PDF/A without changing where any glyph stands.
struct TwinFont: Equatable {
  /// The font's file name without `.ttf` (`LiberationSans-Bold`), also the
  /// embedded font's name.
  let name: String
  /// Whether every glyph has one width (Courier's twin).
  let fixedPitch: Bool
  /// Whether the glyphs have serifs (Times' twin).
  let serif: Bool
  /// Whether the style is italic or oblique.
  let italic: Bool

  /// The folders searched for the twins' files, in order.
  static let folders = [
    "/usr/share/fonts/truetype/liberation2", "/usr/share/fonts/truetype/liberation",
  ]

  /// The families a base font name may start with (spaces removed), each
  /// with its twin's family.
  private static let families: [(prefix: String, family: String)] = [
    ("Helvetica", "Sans"), ("ArialMT", "Sans"), ("Arial", "Sans"),
    ("Times", "Serif"), ("TimesNewRomanPSMT", "Serif"), ("TimesNewRomanPS", "Serif"),
    ("TimesNewRoman", "Serif"), ("Courier", "Mono"), ("CourierNewPSMT", "Mono"),
    ("CourierNewPS", "Mono"), ("CourierNew", "Mono"),
  ]

  /// The styles after the family (and a `-` or `,`), each as bold and
  /// italic.
  private static let styles: [String: (bold: Bool, italic: Bool)] = [
    "": (false, false), "Roman": (false, false), "Regular": (false, false),
    "MT": (false, false), "Bold": (true, false), "BoldMT": (true, false),
    "Italic": (false, true), "ItalicMT": (false, true), "Oblique": (false, true),
    "BoldItalic": (true, true), "BoldItalicMT": (true, true), "BoldOblique": (true, true),
  ]

  /// The twin of a font named `baseFont` (a subset tag `ABCDEF+` aside);
  /// `nil` when it has none (another family, or a narrow, black or light
  /// cut whose widths differ).
  /// - Complexity: O(1).
  static func twin(of baseFont: String) -> TwinFont? {
    var name = baseFont.replacingOccurrences(of: " ", with: "")
    if let plus = name.firstIndex(of: "+"), name.distance(from: name.startIndex, to: plus) == 6 {
      name = String(name[name.index(after: plus)...])
    }
    for (prefix, family) in families where name.hasPrefix(prefix) {
      var rest = name.dropFirst(prefix.count)
      if rest.first == "-" || rest.first == "," { rest = rest.dropFirst() }
      guard let style = styles[String(rest)] else { continue }
      let cut =
        switch (style.bold, style.italic) {
        case (false, false): "Regular"
        case (true, false): "Bold"
        case (false, true): "Italic"
        case (true, true): "BoldItalic"
        }
      return TwinFont(
        name: "Liberation\(family)-\(cut)", fixedPitch: family == "Mono", serif: family == "Serif",
        italic: style.italic)
    }
    return nil
  }

  /// The twin's installed file, `nil` when `fonts-liberation2` is not
  /// installed.
  var path: String? {
    Self.folders.map { "\($0)/\(name).ttf" }.first { FileManager.default.fileExists(atPath: $0) }
  }
}

/// The characters a simple font's one-byte codes stand for, under the
/// encodings a twin can be embedded with as a TrueType font that PDF/A
/// accepts (ISO 19005-2 §6.2.11.6: WinAnsiEncoding, with differences only
/// through glyph names of the Adobe Glyph List).
enum SimpleFontEncoding: Equatable {
  /// `WinAnsiEncoding` (PDF 1.7 Annex D).
  case winAnsi
  /// `StandardEncoding` (a Type 1 font's own, when the font names none):
  /// only its printable ASCII codes, where it is WinAnsi but for 0x27
  /// (`quoteright`) and 0x60 (`quoteleft`).
  case standard
  /// `MacRomanEncoding` (PDF 1.7 Annex D: Mac OS Roman without the 15
  /// mathematical symbols and the Apple logo it leaves undefined, and with
  /// `currency` at 0xDB and `space` at 0xCA).
  case macRoman

  /// WinAnsi's characters for 0x80–0x9F (0 where the code is undefined).
  private static let winAnsiHigh: [UInt32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
  ]

  /// MacRomanEncoding's characters for 0x80–0xFF (0 where PDF leaves the
  /// code undefined).
  private static let macRomanHigh: [UInt32] = [
    0xC4, 0xC5, 0xC7, 0xC9, 0xD1, 0xD6, 0xDC, 0xE1, 0xE0, 0xE2, 0xE4, 0xE3, 0xE5, 0xE7, 0xE9, 0xE8,
    0xEA, 0xEB, 0xED, 0xEC, 0xEE, 0xEF, 0xF1, 0xF3, 0xF2, 0xF4, 0xF6, 0xF5, 0xFA, 0xF9, 0xFB, 0xFC,
    0x2020, 0xB0, 0xA2, 0xA3, 0xA7, 0x2022, 0xB6, 0xDF, 0xAE, 0xA9, 0x2122, 0xB4, 0xA8, 0, 0xC6,
    0xD8,
    0, 0xB1, 0, 0, 0xA5, 0xB5, 0, 0, 0, 0, 0, 0xAA, 0xBA, 0, 0xE6, 0xF8,
    0xBF, 0xA1, 0xAC, 0, 0x192, 0, 0, 0xAB, 0xBB, 0x2026, 0x20, 0xC0, 0xC3, 0xD5, 0x152, 0x153,
    0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0xF7, 0, 0xFF, 0x178, 0x2044, 0xA4, 0x2039,
    0x203A, 0xFB01, 0xFB02,
    0x2021, 0xB7, 0x201A, 0x201E, 0x2030, 0xC2, 0xCA, 0xC1, 0xCB, 0xC8, 0xCD, 0xCE, 0xCF, 0xCC,
    0xD3, 0xD4,
    0, 0xD2, 0xDA, 0xDB, 0xD9, 0x131, 0x2C6, 0x2DC, 0xAF, 0x2D8, 0x2D9, 0x2DA, 0xB8, 0x2DD, 0x2DB,
    0x2C7,
  ]

  /// The character code `code` stands for; `nil` for a code the encoding
  /// leaves undefined (a control code, or past ASCII in `standard`).
  func scalar(_ code: UInt8) -> UInt32? {
    switch (self, code) {
    case (_, 0..<0x20), (_, 0x7F): return nil
    case (.standard, 0x27): return 0x2019
    case (.standard, 0x60): return 0x2018
    case (.standard, 0x80...): return nil
    case (.winAnsi, 0x80...0x9F):
      let value = Self.winAnsiHigh[Int(code) - 0x80]
      return value == 0 ? nil : value
    case (.macRoman, 0x80...):
      let value = Self.macRomanHigh[Int(code) - 0x80]
      return value == 0 ? nil : value
    default: return UInt32(code)
    }
  }

  /// The `/Encoding` the embedded TrueType font names (PDF/A allows
  /// WinAnsiEncoding and MacRomanEncoding for a non-symbolic one).
  var baseName: String { self == .macRoman ? "/MacRomanEncoding" : "/WinAnsiEncoding" }

}

/// A simple font's encoding as its dictionary gives it: a base encoding
/// and the `/Differences` that name other glyphs for some codes.
struct FontEncoding: Equatable {
  /// The encoding the codes not in ``differences`` follow.
  var base: SimpleFontEncoding
  /// Glyph names (without the slash) by code, from `/Differences`.
  var differences: [UInt8: String] = [:]

  /// The glyph names of the Latin character set (PDF 1.7 Annex D.2: every
  /// name StandardEncoding, MacRomanEncoding and WinAnsiEncoding use), each
  /// with the character the Adobe Glyph List gives it. Each is in the Adobe
  /// Glyph List, which PDF/A asks of a TrueType font's `/Differences` (ISO
  /// 19005-2 §6.2.11.6). Written `name:hex`.
  static let latinNames: [(name: String, scalar: UInt32)] = """
    space:20 exclam:21 quotedbl:22 numbersign:23 dollar:24 percent:25 ampersand:26
    quotesingle:27 parenleft:28 parenright:29 asterisk:2A plus:2B comma:2C hyphen:2D period:2E
    slash:2F zero:30 one:31 two:32 three:33 four:34 five:35 six:36 seven:37 eight:38 nine:39
    colon:3A semicolon:3B less:3C equal:3D greater:3E question:3F at:40 A:41 B:42 C:43 D:44 E:45
    F:46 G:47 H:48 I:49 J:4A K:4B L:4C M:4D N:4E O:4F P:50 Q:51 R:52 S:53 T:54 U:55 V:56 W:57
    X:58 Y:59 Z:5A bracketleft:5B backslash:5C bracketright:5D asciicircum:5E underscore:5F
    grave:60 a:61 b:62 c:63 d:64 e:65 f:66 g:67 h:68 i:69 j:6A k:6B l:6C m:6D n:6E o:6F p:70
    q:71 r:72 s:73 t:74 u:75 v:76 w:77 x:78 y:79 z:7A braceleft:7B bar:7C braceright:7D
    asciitilde:7E nbspace:A0 exclamdown:A1 cent:A2 sterling:A3 currency:A4 yen:A5 brokenbar:A6
    section:A7 dieresis:A8 copyright:A9 ordfeminine:AA guillemotleft:AB logicalnot:AC
    registered:AE macron:AF degree:B0 plusminus:B1 twosuperior:B2 threesuperior:B3 acute:B4
    mu:B5 paragraph:B6 periodcentered:B7 cedilla:B8 onesuperior:B9 ordmasculine:BA
    guillemotright:BB onequarter:BC onehalf:BD threequarters:BE questiondown:BF Agrave:C0
    Aacute:C1 Acircumflex:C2 Atilde:C3 Adieresis:C4 Aring:C5 AE:C6 Ccedilla:C7 Egrave:C8
    Eacute:C9 Ecircumflex:CA Edieresis:CB Igrave:CC Iacute:CD Icircumflex:CE Idieresis:CF Eth:D0
    Ntilde:D1 Ograve:D2 Oacute:D3 Ocircumflex:D4 Otilde:D5 Odieresis:D6 multiply:D7 Oslash:D8
    Ugrave:D9 Uacute:DA Ucircumflex:DB Udieresis:DC Yacute:DD Thorn:DE germandbls:DF agrave:E0
    aacute:E1 acircumflex:E2 atilde:E3 adieresis:E4 aring:E5 ae:E6 ccedilla:E7 egrave:E8
    eacute:E9 ecircumflex:EA edieresis:EB igrave:EC iacute:ED icircumflex:EE idieresis:EF eth:F0
    ntilde:F1 ograve:F2 oacute:F3 ocircumflex:F4 otilde:F5 odieresis:F6 divide:F7 oslash:F8
    ugrave:F9 uacute:FA ucircumflex:FB udieresis:FC yacute:FD thorn:FE ydieresis:FF
    dotlessi:0131 Lslash:0141 lslash:0142 OE:0152 oe:0153 Scaron:0160 scaron:0161 Ydieresis:0178
    Zcaron:017D zcaron:017E florin:0192 circumflex:02C6 caron:02C7 breve:02D8 dotaccent:02D9
    ring:02DA ogonek:02DB tilde:02DC hungarumlaut:02DD pi:03C0 endash:2013 emdash:2014
    quoteleft:2018 quoteright:2019 quotesinglbase:201A quotedblleft:201C quotedblright:201D
    quotedblbase:201E dagger:2020 daggerdbl:2021 bullet:2022 ellipsis:2026 perthousand:2030
    guilsinglleft:2039 guilsinglright:203A fraction:2044 Euro:20AC trademark:2122 Omega:2126
    partialdiff:2202 Delta:2206 product:220F summation:2211 minus:2212 radical:221A
    infinity:221E integral:222B approxequal:2248 notequal:2260 lessequal:2264 greaterequal:2265
    lozenge:25CA fi:FB01 fl:FB02
    """.split(whereSeparator: \.isWhitespace).compactMap { entry in
      let parts = entry.split(separator: ":")
      guard parts.count == 2, let scalar = UInt32(parts[1], radix: 16) else { return nil }
      return (String(parts[0]), scalar)
    }

  /// ``latinNames`` by name.
  private static let scalarsByName = Dictionary(
    latinNames.map { ($0.name, $0.scalar) }, uniquingKeysWith: { first, _ in first })

  /// The character `code` stands for; `nil` when the encoding leaves it
  /// undefined or names a glyph outside the Latin character set.
  func scalar(_ code: UInt8) -> UInt32? {
    if let name = differences[code] { return Self.scalarsByName[name] }
    return base.scalar(code)
  }

  /// The encoding the embedded TrueType font is given (PDF/A allows
  /// WinAnsiEncoding and MacRomanEncoding for a non-symbolic one).
  var target: SimpleFontEncoding { base == .macRoman ? .macRoman : .winAnsi }

  /// Whether ``target`` gives each of `codes` the character this encoding
  /// does, so that the embedded font can name it as its `/Encoding`.
  /// Otherwise the font is embedded as a symbolic one (its codes mapped
  /// to glyphs by its own `cmap`, ``FontProgram/symbolicSubset(_:)``)
  /// with a `/ToUnicode` map: a non-symbolic TrueType font's
  /// `/Differences` are allowed by PDF/A (glyph names of the Adobe Glyph
  /// List), but the validator (`page` 0.11) looks its glyphs up by the
  /// base encoding alone.
  func isTarget(for codes: Set<UInt8>) -> Bool {
    codes.allSatisfy { target.scalar($0) == scalar($0) }
  }
}

/// A TrueType font file read with HarfBuzz: its metrics for the font
/// descriptor, each character's width, and subsets of it. Owns its
/// HarfBuzz objects (freed in `deinit`).
final class FontProgram {
  private let blob: OpaquePointer
  private let face: OpaquePointer
  private let font: OpaquePointer
  /// Design units per em.
  let unitsPerEm: Int

  /// Reads the font file at `path`; `nil` when it cannot be read or holds
  /// no font.
  convenience init?(path: String) {
    guard let blob = hb_blob_create_from_file_or_fail(path) else { return nil }
    self.init(blob: blob)
  }

  /// Reads a font file held in memory (copied); `nil` when it holds no
  /// font.
  convenience init?(data: [UInt8]) {
    let made = data.withUnsafeBufferPointer { raw in
      raw.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: raw.count) {
          hb_blob_create_or_fail($0, UInt32(raw.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
        }
      }
    }
    guard let blob = made else { return nil }
    self.init(blob: blob)
  }

  /// Takes `blob` (destroyed with the font, or now when it holds none).
  private init?(blob: OpaquePointer) {
    guard let face = hb_face_create(blob, 0) else {
      hb_blob_destroy(blob)
      return nil
    }
    guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else {
      hb_face_destroy(face)
      hb_blob_destroy(blob)
      return nil
    }
    self.blob = blob
    self.face = face
    self.font = font
    unitsPerEm = Int(max(1, hb_face_get_upem(face)))
  }

  deinit {
    hb_font_destroy(font)
    hb_face_destroy(face)
    hb_blob_destroy(blob)
  }

  /// A length in design units in thousandths of an em, as PDF gives widths.
  private func thousandths(_ units: Int32) -> Int {
    Int((Double(units) * 1000 / Double(unitsPerEm)).rounded())
  }

  /// The glyph the font's Unicode `cmap` gives `scalar`; `nil` for none.
  func glyph(_ scalar: UInt32) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
  }

  /// The character the font's Unicode `cmap` gives each glyph it maps
  /// (the least scalar, when several share a glyph: `space` before
  /// `nbspace`, a letter before its compatibility twin).
  /// - Complexity: O(*n*) in the characters the `cmap` maps.
  var characters: [UInt32: UInt32] {
    guard let set = hb_set_create() else { return [:] }
    defer { hb_set_destroy(set) }
    hb_face_collect_unicodes(face, set)
    var characters: [UInt32: UInt32] = [:]
    var scalar = hb_codepoint_t.max  // (HB_SET_VALUE_INVALID: before the first)
    while hb_set_next(set, &scalar) != 0 {
      // (The set is walked in increasing order: the first scalar stays.)
      if let glyph = glyph(scalar), characters[glyph] == nil { characters[glyph] = scalar }
    }
    return characters
  }

  /// The advance width of `scalar`'s glyph, in thousandths of an em;
  /// `nil` when the font has no glyph for it.
  func width(_ scalar: UInt32) -> Int? {
    guard let glyph = glyph(scalar) else { return nil }
    return thousandths(hb_font_get_glyph_h_advance(font, glyph))
  }

  /// A metric from the font's tables (`hasc`, `hdsc`, `cpht`), in
  /// thousandths of an em; 0 when absent.
  private func metric(_ tag: String) -> Int {
    var position: hb_position_t = 0
    _ = hb_ot_metrics_get_position(font, hb_ot_metrics_tag_t(Self.tag(tag)), &position)
    return thousandths(position)
  }

  var ascent: Int { metric("hasc") }
  var descent: Int { metric("hdsc") }
  var capHeight: Int { metric("cpht") }

  /// The italic angle, in degrees counter-clockwise from the vertical
  /// (`post` table's `italicAngle`, a 16.16 fixed-point number).
  var italicAngle: Double {
    guard let bytes = table("post", count: 8) else { return 0 }
    let value = bytes[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    return Double(Int32(bitPattern: value)) / 65536
  }

  /// The first `count` bytes of the table `tag`; `nil` when it is absent
  /// or shorter.
  private func table(_ tag: String, count: Int) -> [UInt8]? {
    guard let table = hb_face_reference_table(face, Self.tag(tag)) else { return nil }
    defer { hb_blob_destroy(table) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(table, &length), Int(length) >= count else { return nil }
    return (0..<count).map { UInt8(bitPattern: data[$0]) }
  }

  /// The bounding box of all glyphs (`head` table's `xMin`, `yMin`,
  /// `xMax`, `yMax`), in thousandths of an em.
  var boundingBox: [Int] {
    guard let head = table("head", count: 44) else { return [0, 0, 0, 0] }
    return (0..<4).map { i in
      let value = UInt16(head[36 + 2 * i]) << 8 | UInt16(head[37 + 2 * i])
      return thousandths(Int32(Int16(bitPattern: value)))
    }
  }

  /// The font cut down to the glyphs of `scalars` (and `.notdef`), without
  /// hinting instructions or tables a PDF viewer does not read (layout,
  /// kerning, device metrics), as a TrueType file; `nil` when HarfBuzz
  /// fails.
  /// - Complexity: O(*n*) in the font's size.
  func subset(_ scalars: Set<UInt32>) -> [UInt8]? {
    guard let input = hb_subset_input_create_or_fail() else { return nil }
    defer { hb_subset_input_destroy(input) }
    let unicodes = hb_subset_input_unicode_set(input)
    for scalar in scalars.sorted() { hb_set_add(unicodes, scalar) }
    hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_NO_HINTING.rawValue)
    let dropped = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG)
    for table in [
      "GSUB", "GPOS", "GDEF", "kern", "gasp", "hdmx", "LTSH", "VDMX", "DSIG", "FFTM", "name",
      "meta", "JSTF", "BASE", "MATH", "vhea", "vmtx",
    ] {
      hb_set_add(dropped, Self.tag(table))
    }
    guard let subset = hb_subset_or_fail(face, input) else { return nil }
    defer { hb_face_destroy(subset) }
    guard let result = hb_face_reference_blob(subset) else { return nil }
    defer { hb_blob_destroy(result) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(result, &length), length > 0 else { return nil }
    return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
      Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
  }

  /// The font cut down to the glyphs of `glyphs`' characters (as
  /// ``subset(_:)``), its `cmap` replaced by one (3,0) (Microsoft Symbol)
  /// table that maps each one-byte code, as 0xF000 + code, to its
  /// character's glyph: the program of a symbolic TrueType font, whose
  /// codes a reader looks up so without any `/Encoding` (ISO 32000-1
  /// §9.6.6.4; ISO 19005-2 §6.2.11.6 asks for the (3,0) table). `nil`
  /// when HarfBuzz fails or a character has no glyph.
  /// - Parameter glyphs: Each code's character.
  /// - Complexity: O(*n*) in the font's size.
  func symbolicSubset(_ glyphs: [UInt8: UInt32]) -> [UInt8]? {
    guard let bytes = subset(Set(glyphs.values)), let cut = FontProgram(data: bytes) else {
      return nil
    }
    var mapped: [(code: UInt16, glyph: UInt16)] = []
    for (code, scalar) in glyphs.sorted(by: { $0.key < $1.key }) {
      guard let glyph = cut.glyph(scalar) else { return nil }
      mapped.append((0xF000 + UInt16(code), UInt16(glyph)))
    }
    return cut.replacingTable("cmap", with: Self.symbolCmap(mapped))
  }

  /// A `cmap` table of one (3,0) format 4 subtable: a segment for each
  /// code, and the closing 0xFFFF one.
  private static func symbolCmap(_ mapped: [(code: UInt16, glyph: UInt16)]) -> [UInt8] {
    let segments: [(start: UInt16, delta: UInt16)] =
      mapped.map { (start: $0.code, delta: $0.glyph &- $0.code) } + [(start: 0xFFFF, delta: 1)]
    let count = segments.count
    var power = 1
    while power * 2 <= count { power *= 2 }
    var entrySelector = 0
    while 1 << (entrySelector + 1) <= power { entrySelector += 1 }
    var sub: [UInt16] = [
      4, UInt16(16 + 8 * count), 0, UInt16(2 * count), UInt16(2 * power), UInt16(entrySelector),
      UInt16(2 * count - 2 * power),
    ]
    sub += segments.map(\.start)
    sub.append(0)
    sub += segments.map(\.start)
    sub += segments.map(\.delta)
    sub += Array(repeating: 0, count: count)
    let header: [UInt16] = [0, 1, 3, 0, 0, 12]
    return (header + sub).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
  }

  /// The font file with the table `tag` replaced by `table` (HarfBuzz's
  /// face builder writes the table directory and checksums); `nil` when
  /// it fails.
  private func replacingTable(_ tag: String, with table: [UInt8]) -> [UInt8]? {
    guard let builder = hb_face_builder_create() else { return nil }
    defer { hb_face_destroy(builder) }
    var count: UInt32 = 64
    var tags = [hb_tag_t](repeating: 0, count: 64)
    _ = hb_face_get_table_tags(face, 0, &count, &tags)
    for existing in tags.prefix(Int(count)) where existing != Self.tag(tag) {
      guard let blob = hb_face_reference_table(face, existing) else { return nil }
      _ = hb_face_builder_add_table(builder, existing, blob)
      hb_blob_destroy(blob)
    }
    let added = table.withUnsafeBufferPointer { raw in
      raw.baseAddress.flatMap { base in
        base.withMemoryRebound(to: CChar.self, capacity: raw.count) {
          hb_blob_create_or_fail($0, UInt32(raw.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
        }
      }
    }
    guard let added else { return nil }
    defer { hb_blob_destroy(added) }
    guard hb_face_builder_add_table(builder, Self.tag(tag), added) != 0,
      let result = hb_face_reference_blob(builder)
    else { return nil }
    defer { hb_blob_destroy(result) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(result, &length), length > 0 else { return nil }
    return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
      Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
  }

  /// An OpenType tag of four ASCII letters, as `HB_TAG` makes it.
  static func tag(_ text: String) -> UInt32 {
    text.utf8.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
  }
}
