import CScanOCR
import Foundation
import ScanModel

/// When a page is turned: only on evidence that the turned reading is
/// better. One orientation score is not evidence enough: Tesseract's OSD
/// said 180° with confidence 2.77 for an upright business form, and the
/// page read turned had 0 of 198 words right.
enum OrientationPolicy {
  /// A turned reading this good is kept without reading the page upright as
  /// well: at least three words, mean word confidence ≥ 75, and its text
  /// laid out across the page. Upside-down text reads at a mean confidence
  /// of 31–40 on the real and sample pages, and sideways text is laid out
  /// down the page, so a reading turned the wrong way does not pass.
  static func turnedReadingIsStrong(_ turned: ResultReader.Signals) -> Bool {
    !turned.suggestTurnedPage
  }

  /// Whether a turned reading beats the upright one clearly: more confident
  /// words (confidence ≥ 60) by at least 10 % (and 2 words) at no lower
  /// mean confidence; or, when Tesseract read the upright page down the
  /// page (sideways blocks or standing words), at least as many confident
  /// words, since the turned reading has the same words laid out upright.
  static func turnedIsClearlyBetter(
    _ t: ReadingQuality, than u: ReadingQuality, uprightSignals s: ResultReader.Signals
  ) -> Bool {
    if t.confidentWords >= u.confidentWords + max(2, u.confidentWords / 10),
      t.meanConfidence >= u.meanConfidence
    {
      return true
    }
    return readsSideways(s) && t.confidentWords >= u.confidentWords && t.confidentWords > 0
  }

  /// Whether Tesseract laid the reading out down the page: most words in
  /// blocks it found turned, or most words of three or more characters
  /// taller than wide.
  static func readsSideways(_ s: ResultReader.Signals) -> Bool {
    s.wordsNotUpright * 2 > s.words || s.longWordsStanding * 2 > s.longWords
  }
}
