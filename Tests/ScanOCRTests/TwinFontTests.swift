import Foundation
import Testing

@testable import ScanOCR

/// The free metric twins of fonts a PDF names but does not embed (issue 46
/// point 1): which names have one, and that a twin's widths are the
/// standard font's (Helvetica's AFM: `a` 556, `W` 944, space 278).
@Suite("Twin fonts")
struct TwinFontTests {
  @Test func standardNamesAndAliasesHaveTheirTwin() {
    let cases: [(String, String?)] = [
      ("Helvetica", "LiberationSans-Regular"),
      ("Helvetica-BoldOblique", "LiberationSans-BoldItalic"),
      ("ArialMT", "LiberationSans-Regular"), ("Arial,Bold", "LiberationSans-Bold"),
      ("Arial-ItalicMT", "LiberationSans-Italic"), ("ABCDEF+Arial-BoldMT", "LiberationSans-Bold"),
      ("Times-Roman", "LiberationSerif-Regular"),
      ("TimesNewRomanPS-BoldItalicMT", "LiberationSerif-BoldItalic"),
      ("Times New Roman", "LiberationSerif-Regular"), ("Courier-Oblique", "LiberationMono-Italic"),
      ("CourierNewPSMT", "LiberationMono-Regular"),
      ("Symbol", nil), ("ZapfDingbats", nil), ("Helvetica-Narrow", nil), ("ArialNarrow", nil),
      ("Arial-Black", nil), ("Verdana", nil),
    ]
    for (name, twin) in cases {
      #expect(TwinFont.twin(of: name)?.name == twin, "\(name)")
    }
  }

  @Test(
    .enabled(
      if: TwinFont.twin(of: "Helvetica")?.path != nil,
      "fonts-liberation2 not installed (run Tools/install/install-dependencies.sh)"))
  func aTwinsWidthsAreTheStandardFonts() throws {
    let path = try #require(TwinFont.twin(of: "Helvetica")?.path)
    let program = try #require(FontProgram(path: path))
    #expect(program.width(0x61) == 556)
    #expect(program.width(0x57) == 944)
    #expect(program.width(0x20) == 278)
    let subset = try #require(program.subset([0x61, 0x57]))
    let whole = try Data(contentsOf: URL(fileURLWithPath: path)).count
    #expect(subset.count < whole / 20, "\(subset.count) of \(whole)")
    // The subset has the two characters, and nothing else but .notdef.
    let cut = try #require(
      FontProgram(data: subset))
    #expect(cut.width(0x61) == 556 && cut.glyph(0x62) == nil)
  }

  /// MacRomanEncoding as PDF 1.7 Annex D has it: Mac OS Roman's letters
  /// and punctuation past ASCII, `space` at 0xCA and `currency` at 0xDB,
  /// and none of the mathematical symbols or the Apple logo; its
  /// embedded font names MacRomanEncoding itself.
  @Test func macRomanCodesStandForAnnexDsCharacters() {
    let encoding = SimpleFontEncoding.macRoman
    let cases: [(UInt8, UInt32?)] = [
      (0x41, 0x41), (0x27, 0x27), (0x80, 0xC4), (0x8E, 0xE9), (0x95, 0xEF), (0xA5, 0x2022),
      (0xCA, 0x20), (0xD2, 0x201C), (0xDB, 0xA4), (0xDE, 0xFB01), (0xF5, 0x131), (0xFF, 0x2C7),
      (0xAD, nil), (0xB0, nil), (0xB9, nil), (0xC3, nil), (0xD7, nil), (0xF0, nil), (0x1F, nil),
    ]
    for (code, scalar) in cases { #expect(encoding.scalar(code) == scalar, "\(code)") }
    #expect(encoding.baseName == "/MacRomanEncoding")
    #expect(FontEncoding(base: encoding).isTarget(for: [0x27, 0x60, 0x8E]))
    #expect(SimpleFontEncoding.winAnsi.baseName == "/WinAnsiEncoding")
  }

  /// An encoding's `/Differences` name glyphs of the Latin character set
  /// by their Adobe Glyph List names; a name outside the set stands for no
  /// character. WinAnsi names the codes of a font under StandardEncoding
  /// but its two quotes, and none the `/Differences` change.
  @Test func differencesNameLatinGlyphs() {
    let standard = FontEncoding(base: .standard)
    #expect(standard.isTarget(for: [0x41, 0x7E]))
    #expect(!standard.isTarget(for: [0x27, 0x41]))
    let differences = FontEncoding(
      base: .winAnsi, differences: [0x80: "eacute", 0x81: "fi", 0x41: "A", 0x42: "g42"])
    #expect(differences.scalar(0x80) == 0xE9)
    #expect(differences.scalar(0x81) == 0xFB01)
    #expect(differences.scalar(0x42) == nil)
    #expect(differences.scalar(0x43) == 0x43)
    #expect(differences.isTarget(for: [0x41, 0x43]))
    #expect(!differences.isTarget(for: [0x41, 0x80]))
    #expect(FontEncoding.latinNames.count == 244)
  }

  /// A symbolic subset maps each code, as 0xF000 + code, to its
  /// character's glyph, and has no other `cmap` table.
  @Test(
    .enabled(
      if: TwinFont.twin(of: "Helvetica")?.path != nil,
      "fonts-liberation2 not installed (run Tools/install/install-dependencies.sh)"))
  func aSymbolicSubsetMapsCodesToGlyphs() throws {
    let path = try #require(TwinFont.twin(of: "Helvetica")?.path)
    let program = try #require(FontProgram(path: path))
    let bytes = try #require(program.symbolicSubset([0x80: 0xE9, 0x41: 0x57]))
    let cut = try #require(FontProgram(data: bytes))
    #expect(cut.glyph(0xE9) == nil && cut.glyph(0x57) == nil)
    #expect(cut.width(0xF080) == program.width(0xE9))
    #expect(cut.width(0xF041) == 944)
  }

  /// Symbol and ZapfDingbats (a subset tag aside) have URW's twins, and
  /// each of their glyphs a character: Symbol's 190, ZapfDingbats' 202.
  @Test func symbolFontsHaveTheirTwin() {
    let cases: [(String, String?)] = [
      ("Symbol", "StandardSymbolsPS"), ("ABCDEF+Symbol", "StandardSymbolsPS"),
      ("ZapfDingbats", "D050000L"), ("Symbol,Bold", nil), ("SymbolMT", nil),
      ("Helvetica", nil),
    ]
    for (name, twin) in cases {
      #expect(SymbolTwin.twin(of: name)?.name == twin, "\(name)")
    }
    #expect(SymbolTwin.symbolCharacters.count == 190)
    #expect(SymbolTwin.dingbatsCharacters.count == 202)
    #expect(SymbolTwin.symbolCharacters["alpha"] == 0x3B1)
    #expect(SymbolTwin.symbolCharacters["Delta"] == 0x394)
    #expect(SymbolTwin.dingbatsCharacters["a20"] == 0x2714)
  }

  /// Standard Symbols PS has Symbol's widths (Adobe's AFM: `alpha` 631,
  /// `Omega` 768, `bullet` 460) and its codes (0x61 `alpha`, 0xB7
  /// `bullet`); its CFF subset keeps the glyphs asked for, with their
  /// names, and is a small part of the file.
  @Test(
    .enabled(
      if: SymbolTwin.twin(of: "Symbol")?.path != nil,
      "fonts-urw-base35's StandardSymbolsPS.otf not installed (run Tools/install/install-dependencies.sh)"
    ))
  func aSymbolTwinsSubsetKeepsItsGlyphsNames() throws {
    let path = try #require(SymbolTwin.twin(of: "Symbol")?.path)
    let program = try #require(FontProgram(path: path))
    #expect(program.isCompact)
    let alpha = try #require(program.glyph(0x61))
    let bullet = try #require(program.glyph(0xB7))
    #expect(program.name(ofGlyph: alpha) == "alpha")
    #expect(program.name(ofGlyph: bullet) == "bullet")
    #expect(program.glyph(named: "Omega").map { program.width(ofGlyph: $0) } == 768)
    #expect(program.width(ofGlyph: alpha) == 631 && program.width(ofGlyph: bullet) == 460)
    let subset = try #require(program.compactSubset([alpha, bullet]))
    #expect(subset.names == ["alpha", "bullet"] || subset.names == ["bullet", "alpha"])
    let whole = try Data(contentsOf: URL(fileURLWithPath: path)).count
    #expect(subset.program.count < whole / 5, "\(subset.program.count) of \(whole)")
    // A bare CFF program: header major version 1.
    #expect(subset.program.first == 1)
  }

  /// A CFF program is CID-keyed when its Top DICT begins with `ROS`
  /// (12 30): one made by hand is; Standard Symbols PS's subset (name-keyed)
  /// and bytes that are no CFF are not.
  @Test func aCIDKeyedProgramBeginsWithROS() throws {
    // Header (4 bytes), a Name INDEX holding "A", a Top DICT INDEX holding
    // `391 392 0 ROS` (two SIDs as 28 hi lo, 0 as 139).
    let top: [UInt8] = [28, 1, 135, 28, 1, 136, 139, 12, 30]
    let cid: [UInt8] =
      [1, 0, 4, 1] + [0, 1, 1, 1, 2, 65] + [0, 1, 1, 1, UInt8(top.count + 1)] + top
    #expect(CompactFontFormat.isCIDKeyed(cid))
    var named = cid
    named[named.count - 1] = 31  // 12 31: CIDFontVersion, not ROS first
    #expect(!CompactFontFormat.isCIDKeyed(named))
    #expect(!CompactFontFormat.isCIDKeyed([1, 0, 4]))
    #expect(!CompactFontFormat.isCIDKeyed(Array(cid.prefix(12))))
    if let path = SymbolTwin.twin(of: "Symbol")?.path, let program = FontProgram(path: path),
      let alpha = program.glyph(0x61), let subset = program.compactSubset([alpha])
    {
      #expect(!CompactFontFormat.isCIDKeyed(subset.program))
    }
  }

  /// A name-keyed CFF program's glyph names come from its charset: Standard
  /// Symbols PS's subset (charset format 0, its names standard strings
  /// and its own) gives the names HarfBuzz gives its glyphs, `.notdef`
  /// first; a CID-keyed program and bytes that are no CFF give none.
  @Test func aNameKeyedProgramNamesItsGlyphs() throws {
    #expect(CompactFontFormat.glyphNames([1, 0, 4]) == nil)
    let top: [UInt8] = [28, 1, 135, 28, 1, 136, 139, 12, 30]
    let cid: [UInt8] =
      [1, 0, 4, 1] + [0, 1, 1, 1, 2, 65] + [0, 1, 1, 1, UInt8(top.count + 1)] + top
    #expect(CompactFontFormat.glyphNames(cid) == nil)
    let path = try #require(
      SymbolTwin.twin(of: "Symbol")?.path, "fonts-urw-base35's StandardSymbolsPS.otf")
    let program = try #require(FontProgram(path: path))
    let codes: [UInt32] = [0x61, 0x2B, 0xA5, 0xD6]
    let glyphs = try codes.map { try #require(program.glyph($0)) }
    let subset = try #require(program.compactSubset(Set(glyphs)))
    #expect(CompactFontFormat.glyphNames(subset.program) == [".notdef"] + subset.names)
    #expect(subset.names.contains("alpha") && subset.names.contains("infinity"))
  }
}
