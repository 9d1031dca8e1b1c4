import Foundation

extension SearchablePDF {
  /// The objects of Tesseract's glyphless font (`pdf.ttf`) in a PDF: a
  /// Type0 font with Identity-H encoding (the UTF-16 code units are the
  /// character codes) over a CIDFontType2 whose every code maps to glyph 1,
  /// the font's one empty glyph half an em wide, and a ToUnicode map that
  /// returns the codes. The one description of those objects, for the PDFs
  /// `SearchablePDF/data(pages:font:title:producer:)` writes and for a PDF
  /// input given a text layer (ScanOCR's `PDFEditor`).
  public enum GlyphlessFont {
    /// The Type0 font's dictionary.
    /// - Parameters:
    ///   - cidFont: A reference to the ``cidFont(descriptor:cidToGIDMap:)``
    ///     object (`5 0 R`).
    ///   - toUnicode: A reference to the ``toUnicodeCMap`` stream.
    public static func type0(cidFont: String, toUnicode: String) -> String {
      "<< /Type /Font /Subtype /Type0 /BaseFont /GlyphLessFont /Encoding /Identity-H /DescendantFonts [\(cidFont)] /ToUnicode \(toUnicode) >>"
    }

    /// The descendant CIDFontType2's dictionary.
    /// - Parameters:
    ///   - descriptor: A reference to the ``descriptor(fontFile:ascent:)`` object.
    ///   - cidToGIDMap: A reference to the ``cidToGIDMap`` stream.
    public static func cidFont(descriptor: String, cidToGIDMap: String) -> String {
      "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GlyphLessFont /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) /DW 500 /CIDToGIDMap \(cidToGIDMap) >>"
    }

    /// The font descriptor's dictionary.
    /// - Parameters:
    ///   - fontFile: A reference to the stream of `pdf.ttf`'s bytes
    ///     (`FontFile2`, with `/Length1` the file's size).
    ///   - ascent: The font's ascent in thousandths of the font size:
    ///     Poppler and MuPDF bound a glyph from its baseline up to the
    ///     ascent, so a word set in a larger size than its ink's height (a
    ///     paragraph's shared size, `SearchablePDF.AscentFonts`) is set in
    ///     a copy of the font whose ascent is the ink's share of that size.
    /// - Complexity: O(1).
    public static func descriptor(fontFile: String, ascent: Int = 1000) -> String {
      "<< /Type /FontDescriptor /FontName /GlyphLessFont /Flags 5 /FontBBox [0 0 500 1000] /ItalicAngle 0 /Ascent \(ascent) /Descent -1 /CapHeight 1000 /StemV 80 /FontFile2 \(fontFile) >>"
    }

    /// The CIDToGIDMap stream's bytes: every character code maps to glyph
    /// 1 (two bytes per code, 128 KB before compression). Made on each use
    /// (once per PDF, well under a millisecond), not kept in a global: a
    /// global `Data` keeps its storage behind an enum whose tag bits hide
    /// the pointer from LeakSanitizer, which reported it as leaked.
    public static var cidToGIDMap: Data {
      var map = [UInt8](repeating: 1, count: 131_072)
      for high in stride(from: 0, to: map.count, by: 2) { map[high] = 0 }
      return Data(map)
    }

    /// The ToUnicode CMap stream's bytes.
    public static var toUnicodeCMap: Data { Data(SearchablePDF.toUnicodeCMap.utf8) }
  }
}
