/// The base writing direction of a paragraph from its text, by the first
/// strong character (Unicode Bidirectional Algorithm, UAX #9, rules P2 and
/// P3), as `NSWritingDirection.natural` resolves for a paragraph.
///
/// The strong classes are approximated from scripts and general categories
/// (the standard library has no `Bidi_Class`): a letter (or spacing mark) of
/// a right-to-left script (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
/// Mandaic and the right-to-left blocks of the supplementary planes) and the
/// marks RLM and ALM are right-to-left; any other letter or spacing mark,
/// and LRM, is left-to-right. Digits, punctuation, spaces and combining
/// marks are weak or neutral and skipped. Isolates and embeddings are not
/// interpreted (OCR text holds none).
enum BaseDirection {
  /// The direction of the first strong character of `text`, or `nil` when
  /// it has none.
  /// - Complexity: O(*k*) in the scalars before the first strong one.
  static func firstStrong<S: StringProtocol>(in text: S) -> WritingDirection? {
    for scalar in text.unicodeScalars {
      if let d = strongDirection(of: scalar) { return d }
    }
    return nil
  }

  /// The scalar's strong direction, or `nil` for a weak or neutral one.
  static func strongDirection(of scalar: Unicode.Scalar) -> WritingDirection? {
    switch scalar.value {
    case 0x200E: return .leftToRight  // LEFT-TO-RIGHT MARK
    case 0x200F, 0x061C: return .rightToLeft  // RIGHT-TO-LEFT MARK, ARABIC LETTER MARK
    default: break
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .spacingMark:
      return isRightToLeftScript(scalar.value) ? .rightToLeft : .leftToRight
    default:
      return nil
    }
  }

  /// Whether the code point lies in a block of a right-to-left script.
  static func isRightToLeftScript(_ v: UInt32) -> Bool {
    switch v {
    case 0x0590...0x08FF,  // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, Arabic ext.
      0xFB1D...0xFDFF,  // Hebrew and Arabic presentation forms A
      0xFE70...0xFEFF,  // Arabic presentation forms B
      0x10800...0x10FFF,  // Cypriot … Old Uyghur and other right-to-left scripts
      0x1E800...0x1EFFF:  // Mende Kikakui, Adlam, Arabic mathematical symbols
      return true
    default:
      return false
    }
  }
}
