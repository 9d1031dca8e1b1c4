/// What a paragraph is on its page, for a reader that navigates by structure
/// (a screen reader's headings rotor, an outline, an archive's region types).
///
/// Recognised pages get roles from the page's geometry and typography (see
/// ``RoleDetection``); imported documents carry the roles their format
/// states, and ``body`` otherwise.
public enum ParagraphRole: String, Sendable, Hashable, CaseIterable, Codable {
  /// A title or section heading; ``Paragraph/headingLevel`` says how deep.
  case heading
  /// Running text.
  case body
  /// The text that describes a figure or table.
  case caption
  /// A running head at the top of the page.
  case header
  /// A running foot at the bottom of the page.
  case footer
  /// The page's number, alone at its top or bottom.
  case pageNumber
  /// A note at the foot of the page, in smaller type than the text.
  case footnote
  /// One item of a bulleted or numbered list.
  case listItem
  /// A note in the margin beside the text.
  case marginalia
  /// The text of one cell of a table.
  case tableCell

  /// Whether a reader expects this text outside the page's main flow:
  /// running heads and feet, page numbers, footnotes.
  public var isPageFurniture: Bool {
    switch self {
    case .header, .footer, .pageNumber, .footnote: true
    default: false
    }
  }
}
