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

/// A free font with the glyphs and widths of Symbol or ZapfDingbats (two of
/// the standard 14, whose glyphs Liberation does not have): URW's Standard
/// Symbols PS and D050000L (Debian's `fonts-urw-base35`), CFF programs in
/// OpenType files whose `cmap` maps each code of the font's own encoding to
/// its glyph. Embedding a subset of it (``FontProgram/compactSubset(_:)``)
/// lets a typed page showing symbols or dingbats be PDF/A.
struct SymbolTwin: Equatable {
  /// The font's file name without `.otf` (`StandardSymbolsPS`), also the
  /// embedded font's name.
  let name: String
  /// The characters of the font's glyphs, by glyph name.
  let characters: [String: UInt32]

  /// The folders searched for the twins' files, in order: where Debian's
  /// and Fedora's packages put them, then ScanText's own folder, which
  /// fontconfig does not search (`Tools/install/install-dependencies.sh`
  /// puts the two files there rather than install the package, whose
  /// fontconfig rules make URW's fonts the match for Helvetica, Times and
  /// Courier, which changes how Poppler draws a PDF leaving those out).
  static let folders = [
    "/usr/share/fonts/opentype/urw-base35", "/usr/share/fonts/urw-base35",
    "/usr/local/share/scantext/fonts",
  ]

  /// The twin of a font named `baseFont` (a subset tag `ABCDEF+` aside):
  /// `Symbol` or `ZapfDingbats`; `nil` for another.
  /// - Complexity: O(1).
  static func twin(of baseFont: String) -> SymbolTwin? {
    var name = baseFont
    if let plus = name.firstIndex(of: "+"), name.distance(from: name.startIndex, to: plus) == 6 {
      name = String(name[name.index(after: plus)...])
    }
    switch name {
    case "Symbol": return SymbolTwin(name: "StandardSymbolsPS", characters: symbolCharacters)
    case "ZapfDingbats": return SymbolTwin(name: "D050000L", characters: dingbatsCharacters)
    default: return nil
    }
  }

  /// The twin's installed file, `nil` when `fonts-urw-base35`'s file is
  /// in none of ``folders``.
  var path: String? {
    Self.folders.map { "\($0)/\(name).otf" }.first { FileManager.default.fileExists(atPath: $0) }
  }

  /// `name:hex` pairs, whitespace apart, as a dictionary.
  private static func table(_ text: String) -> [String: UInt32] {
    Dictionary(
      text.split(whereSeparator: \.isWhitespace).compactMap { entry in
        let parts = entry.split(separator: ":")
        guard parts.count == 2, let scalar = UInt32(parts[1], radix: 16) else { return nil }
        return (String(parts[0]), scalar)
      }, uniquingKeysWith: { first, _ in first })
  }

  /// The characters of Symbol's 190 glyphs: the Adobe Glyph List's, but
  /// Greek letters for `Delta`, `Omega` and `mu` (the list's increment,
  /// ohm and micro signs), the characters themselves for the serif and
  /// sans-serif copyright, registered and trademark signs, and Unicode's
  /// own characters (Miscellaneous Technical) for the pieces of large
  /// brackets and the extenders the list puts in the private use area.
  static let symbolCharacters = table(
    """
    space:20 exclam:21 universal:2200 numbersign:23 existential:2203 percent:25 ampersand:26
    suchthat:220B parenleft:28 parenright:29 asteriskmath:2217 plus:2B comma:2C minus:2212
    period:2E slash:2F zero:30 one:31 two:32 three:33 four:34 five:35 six:36 seven:37 eight:38
    nine:39 colon:3A semicolon:3B less:3C equal:3D greater:3E question:3F congruent:2245
    Alpha:391 Beta:392 Chi:3A7 Delta:394 Epsilon:395 Phi:3A6 Gamma:393 Eta:397 Iota:399
    theta1:3D1 Kappa:39A Lambda:39B Mu:39C Nu:39D Omicron:39F Pi:3A0 Theta:398 Rho:3A1
    Sigma:3A3 Tau:3A4 Upsilon:3A5 sigma1:3C2 Omega:3A9 Xi:39E Psi:3A8 Zeta:396 bracketleft:5B
    therefore:2234 bracketright:5D perpendicular:22A5 underscore:5F radicalex:203E alpha:3B1
    beta:3B2 chi:3C7 delta:3B4 epsilon:3B5 phi:3C6 gamma:3B3 eta:3B7 iota:3B9 phi1:3D5
    kappa:3BA lambda:3BB mu:3BC nu:3BD omicron:3BF pi:3C0 theta:3B8 rho:3C1 sigma:3C3 tau:3C4
    upsilon:3C5 omega1:3D6 omega:3C9 xi:3BE psi:3C8 zeta:3B6 braceleft:7B bar:7C braceright:7D
    similar:223C apple:F8FF Euro:20AC Upsilon1:3D2 minute:2032 lessequal:2264 fraction:2044
    infinity:221E florin:192 club:2663 diamond:2666 heart:2665 spade:2660 arrowboth:2194
    arrowleft:2190 arrowup:2191 arrowright:2192 arrowdown:2193 degree:B0 plusminus:B1
    second:2033 greaterequal:2265 multiply:D7 proportional:221D partialdiff:2202 bullet:2022
    divide:F7 notequal:2260 equivalence:2261 approxequal:2248 ellipsis:2026 arrowvertex:23D0
    arrowhorizex:23AF carriagereturn:21B5 aleph:2135 Ifraktur:2111 Rfraktur:211C
    weierstrass:2118 circlemultiply:2297 circleplus:2295 emptyset:2205 intersection:2229
    union:222A propersuperset:2283 reflexsuperset:2287 notsubset:2284 propersubset:2282
    reflexsubset:2286 element:2208 notelement:2209 angle:2220 gradient:2207 registerserif:AE
    copyrightserif:A9 trademarkserif:2122 product:220F radical:221A dotmath:22C5 logicalnot:AC
    logicaland:2227 logicalor:2228 arrowdblboth:21D4 arrowdblleft:21D0 arrowdblup:21D1
    arrowdblright:21D2 arrowdbldown:21D3 lozenge:25CA angleleft:2329 registersans:AE
    copyrightsans:A9 trademarksans:2122 summation:2211 parenlefttp:239B parenleftex:239C
    parenleftbt:239D bracketlefttp:23A1 bracketleftex:23A2 bracketleftbt:23A3 bracelefttp:23A7
    braceleftmid:23A8 braceleftbt:23A9 braceex:23AA angleright:232A integral:222B
    integraltp:2320 integralex:23AE integralbt:2321 parenrighttp:239E parenrightex:239F
    parenrightbt:23A0 bracketrighttp:23A4 bracketrightex:23A5 bracketrightbt:23A6
    bracerighttp:23AB bracerightmid:23AC bracerightbt:23AD
    """)

  /// The characters of ZapfDingbats' 202 glyphs (Adobe's ITC Zapf
  /// Dingbats Glyph List, as Poppler reads them; Poppler reads none for
  /// 0x80–0x8D, the ornamental brackets, given here as in the list).
  static let dingbatsCharacters = table(
    """
    space:20 a1:2701 a2:2702 a202:2703 a3:2704 a4:260E a5:2706 a119:2707 a118:2708 a117:2709
    a11:261B a12:261E a13:270C a14:270D a15:270E a16:270F a105:2710 a17:2711 a18:2712 a19:2713
    a20:2714 a21:2715 a22:2716 a23:2717 a24:2718 a25:2719 a26:271A a27:271B a28:271C a6:271D
    a7:271E a8:271F a9:2720 a10:2721 a29:2722 a30:2723 a31:2724 a32:2725 a33:2726 a34:2727
    a35:2605 a36:2729 a37:272A a38:272B a39:272C a40:272D a41:272E a42:272F a43:2730 a44:2731
    a45:2732 a46:2733 a47:2734 a48:2735 a49:2736 a50:2737 a51:2738 a52:2739 a53:273A a54:273B
    a55:273C a56:273D a57:273E a58:273F a59:2740 a60:2741 a61:2742 a62:2743 a63:2744 a64:2745
    a65:2746 a66:2747 a67:2748 a68:2749 a69:274A a70:274B a71:25CF a72:274D a73:25A0 a74:274F
    a203:2750 a75:2751 a204:2752 a76:25B2 a77:25BC a78:25C6 a79:2756 a81:25D7 a82:2758 a83:2759
    a84:275A a97:275B a98:275C a99:275D a100:275E a89:2768 a90:2769 a93:276A a94:276B a91:276C
    a92:276D a205:276E a85:276F a206:2770 a86:2771 a87:2772 a88:2773 a95:2774 a96:2775
    a101:2761 a102:2762 a103:2763 a104:2764 a106:2765 a107:2766 a108:2767 a112:2663 a111:2666
    a110:2665 a109:2660 a120:2460 a121:2461 a122:2462 a123:2463 a124:2464 a125:2465 a126:2466
    a127:2467 a128:2468 a129:2469 a130:2776 a131:2777 a132:2778 a133:2779 a134:277A a135:277B
    a136:277C a137:277D a138:277E a139:277F a140:2780 a141:2781 a142:2782 a143:2783 a144:2784
    a145:2785 a146:2786 a147:2787 a148:2788 a149:2789 a150:278A a151:278B a152:278C a153:278D
    a154:278E a155:278F a156:2790 a157:2791 a158:2792 a159:2793 a160:2794 a161:2192 a163:2194
    a164:2195 a196:2798 a165:2799 a192:279A a166:279B a167:279C a168:279D a169:279E a170:279F
    a171:27A0 a172:27A1 a173:27A2 a162:27A3 a174:27A4 a175:27A5 a176:27A6 a177:27A7 a178:27A8
    a179:27A9 a193:27AA a180:27AB a199:27AC a181:27AD a200:27AE a182:27AF a201:27B1 a183:27B2
    a184:27B3 a197:27B4 a185:27B5 a194:27B6 a198:27B7 a186:27B8 a195:27B9 a187:27BA a188:27BB
    a189:27BC a190:27BD a191:27BE
    """)
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

  /// The glyph's PostScript name (a CFF program's charset, else the
  /// `post` table); `nil` when the font names none.
  func name(ofGlyph glyph: UInt32) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    guard hb_font_get_glyph_name(font, glyph, &buffer, UInt32(buffer.count)) != 0 else {
      return nil
    }
    let name = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
  }

  /// The glyph named `name`; `nil` when the font has none so named.
  func glyph(named name: String) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    let found = name.withCString { hb_font_get_glyph_from_name(font, $0, -1, &glyph) }
    return found != 0 ? glyph : nil
  }

  /// The advance width of `glyph`, in thousandths of an em.
  func width(ofGlyph glyph: UInt32) -> Int {
    thousandths(hb_font_get_glyph_h_advance(font, glyph))
  }

  /// Whether the font's outlines are a CFF program (an OpenType file
  /// with a `CFF ` table).
  var isCompact: Bool { table("CFF ", count: 4) != nil }

  /// A CFF font (``isCompact``) cut down to `glyphs` (and `.notdef`),
  /// without hints: the subset's bare CFF program, what PDF embeds as
  /// `/FontFile3 /Subtype /Type1C` (ISO 32000-1 §9.9), and the names of
  /// its glyphs but `.notdef` (a Type 1 subset's `/CharSet`); `nil` when
  /// HarfBuzz fails.
  /// - Complexity: O(*n*) in the font's size.
  func compactSubset(_ glyphs: Set<UInt32>) -> (program: [UInt8], names: [String])? {
    guard isCompact, let input = hb_subset_input_create_or_fail() else { return nil }
    defer { hb_subset_input_destroy(input) }
    let kept = hb_subset_input_glyph_set(input)
    for glyph in glyphs.sorted() { hb_set_add(kept, glyph) }
    hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_NO_HINTING.rawValue)
    guard let subset = hb_subset_or_fail(face, input) else { return nil }
    defer { hb_face_destroy(subset) }
    guard let table = hb_face_reference_table(subset, Self.tag("CFF ")) else { return nil }
    defer { hb_blob_destroy(table) }
    var length: UInt32 = 0
    guard let data = hb_blob_get_data(table, &length), length > 0 else { return nil }
    let program = data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
      Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
    guard let cut = hb_font_create(subset) else { return nil }
    defer { hb_font_destroy(cut) }
    var names: [String] = []
    for glyph in 1..<max(1, hb_face_get_glyph_count(subset)) {
      var buffer = [CChar](repeating: 0, count: 64)
      guard hb_font_get_glyph_name(cut, glyph, &buffer, UInt32(buffer.count)) != 0 else {
        return nil
      }
      names.append(
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return (program, names)
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

/// The facts ScanText reads from a bare CFF program (ISO 32000-1's
/// `/FontFile3 /Subtype /CIDFontType0C` or `/Type1C`): whether it is
/// CID-keyed, and a name-keyed one's glyph names.
enum CompactFontFormat {
  /// Whether the CFF program `bytes` is CID-keyed: its first font's Top
  /// DICT begins with the `ROS` operator (12 30), as Adobe's Technical
  /// Note #5176 (§18) asks of a CIDFont. A name-keyed program's charset
  /// names glyphs, not CIDs, so a Type 0 CIDFont's CIDs select none of
  /// them. `false` when the bytes are not a CFF program.
  /// - Complexity: O(*n*) in the Top DICT's size.
  static func isCIDKeyed(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 4 else { return false }
    // The header, then the Name INDEX, then the Top DICT INDEX (§8, §5).
    guard let names = index(bytes, at: Int(bytes[2])),
      let top = index(bytes, at: names.end), let first = top.items.first
    else { return false }
    // The first operator after its operands (§4): ROS comes first.
    var i = first.lowerBound
    while i < first.upperBound {
      let b0 = bytes[i]
      switch b0 {
      case 12: return i + 1 < first.upperBound && bytes[i + 1] == 30
      case 0...21: return false
      case 28: i += 3
      case 29: i += 5
      case 30:  // a real number: nibbles up to one that is 0xF
        i += 1
        while i < first.upperBound, bytes[i] & 0x0F != 0x0F, bytes[i] >> 4 != 0x0F { i += 1 }
        i += 1
      case 32...246: i += 1
      case 247...254: i += 2
      default: return false
      }
    }
    return false
  }

  /// The names of the glyphs of a name-keyed CFF program `bytes` (its
  /// first font's charset, §13, names from the standard strings or its
  /// String INDEX, §10), `.notdef` first; `nil` when the bytes are not a
  /// name-keyed CFF program or its charset is one of the predefined
  /// expert ones. What a Type 1 subset's `/CharSet` lists (but
  /// `.notdef`).
  /// - Complexity: O(*n*) in the program's glyphs and strings.
  static func glyphNames(_ bytes: [UInt8]) -> [String]? {
    guard bytes.count >= 4, !isCIDKeyed(bytes), let names = index(bytes, at: Int(bytes[2])),
      let top = index(bytes, at: names.end), let first = top.items.first,
      let strings = index(bytes, at: top.end), let dictionary = operands(bytes, first),
      let charStringsOffset = dictionary[17]?.last,
      let charStrings = index(bytes, at: charStringsOffset)
    else { return nil }
    let count = charStrings.items.count
    guard count > 0 else { return nil }
    func name(_ sid: Int) -> String? {
      if sid < CFFStandardStrings.names.count { return CFFStandardStrings.names[sid] }
      let k = sid - CFFStandardStrings.names.count
      guard k < strings.items.count else { return nil }
      return String(decoding: bytes[strings.items[k]], as: UTF8.self)
    }
    var sids: [Int] = [0]
    let charset = dictionary[15]?.last ?? 0
    switch charset {
    case 0:  // ISOAdobe: glyph i is SID i.
      sids = Array(0..<count)
    case 1, 2:
      return nil
    default:
      guard charset < bytes.count else { return nil }
      let format = bytes[charset]
      var i = charset + 1
      func u16(_ at: Int) -> Int? {
        at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil
      }
      while sids.count < count {
        switch format {
        case 0:
          guard let sid = u16(i) else { return nil }
          sids.append(sid)
          i += 2
        case 1, 2:
          guard let start = u16(i) else { return nil }
          let left = format == 1 ? (i + 2 < bytes.count ? Int(bytes[i + 2]) : nil) : u16(i + 2)
          guard let left else { return nil }
          sids += (start...(start + left)).prefix(count - sids.count)
          i += format == 1 ? 3 : 4
        default:
          return nil
        }
      }
    }
    var result: [String] = []
    for sid in sids {
      guard let glyph = name(sid) else { return nil }
      result.append(glyph)
    }
    return result
  }

  /// A DICT's integer operands by operator (§4; a two-byte operator 12 *x*
  /// is 1200 + *x*, a real number's operand 0); `nil` when it is cut off.
  private static func operands(_ bytes: [UInt8], _ range: Range<Int>) -> [Int: [Int]]? {
    var result: [Int: [Int]] = [:]
    var stack: [Int] = []
    var i = range.lowerBound
    while i < range.upperBound {
      let b0 = Int(bytes[i])
      func need(_ n: Int) -> Bool { i + n <= range.upperBound }
      switch b0 {
      case 0...11, 13...21:
        result[b0] = stack
        stack = []
        i += 1
      case 12:
        guard need(2) else { return nil }
        result[1200 + Int(bytes[i + 1])] = stack
        stack = []
        i += 2
      case 28:
        guard need(3) else { return nil }
        stack.append(Int(Int16(bitPattern: UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i + 2]))))
        i += 3
      case 29:
        guard need(5) else { return nil }
        let value = (1...4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[i + $1]) }
        stack.append(Int(Int32(bitPattern: value)))
        i += 5
      case 30:  // a real number: nibbles up to one that is 0xF
        i += 1
        while i < range.upperBound, bytes[i] & 0x0F != 0x0F, bytes[i] >> 4 != 0x0F { i += 1 }
        i += 1
        stack.append(0)
      case 32...246:
        stack.append(b0 - 139)
        i += 1
      case 247...250:
        guard need(2) else { return nil }
        stack.append((b0 - 247) * 256 + Int(bytes[i + 1]) + 108)
        i += 2
      case 251...254:
        guard need(2) else { return nil }
        stack.append(-(b0 - 251) * 256 - Int(bytes[i + 1]) - 108)
        i += 2
      default:
        return nil
      }
    }
    return result
  }

  /// The byte ranges of an INDEX's items and where it ends (CFF §5);
  /// `nil` when it runs past the end.
  private static func index(_ bytes: [UInt8], at start: Int) -> (items: [Range<Int>], end: Int)? {
    guard start >= 0, start + 2 <= bytes.count else { return nil }
    let count = Int(bytes[start]) << 8 | Int(bytes[start + 1])
    if count == 0 { return ([], start + 2) }
    guard start + 3 <= bytes.count else { return nil }
    let size = Int(bytes[start + 2])
    let offsets = start + 3
    guard (1...4).contains(size), offsets + (count + 1) * size <= bytes.count else { return nil }
    func offset(_ k: Int) -> Int {
      (0..<size).reduce(0) { $0 << 8 | Int(bytes[offsets + k * size + $1]) }
    }
    // (Offsets count from the byte before the data, from 1.)
    let data = offsets + (count + 1) * size - 1
    var items: [Range<Int>] = []
    for k in 0..<count {
      let low = data + offset(k)
      let high = data + offset(k + 1)
      guard low <= high, high <= bytes.count else { return nil }
      items.append(low..<high)
    }
    return (items, data + offset(count))
  }
}
