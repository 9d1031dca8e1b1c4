import ScanModel

extension ModelLimits {
  /// `page` when it is within every limit (``ModelLimits/check(_:)``),
  /// as every reader returns a page it decoded; the error names the page
  /// as the reader does, then the element and the field.
  /// - Parameters:
  ///   - page: A page just decoded.
  ///   - name: The page as the reader's errors name it (`pages[0]` in
  ///     JSON, `page 1` elsewhere).
  /// - Throws: ``DocumentFormatError`` naming the page, the element and
  ///   the field beyond a limit.
  /// - Complexity: O(*n*) in the page's elements.
  static func checked(_ page: Page, name: String) throws(DocumentFormatError) -> Page {
    do {
      try check(page)
    } catch {
      let separator = name.hasSuffix("]") ? "." : ", "
      throw DocumentFormatError(
        path: error.element.isEmpty ? name : name + separator + error.element,
        reason: error.reason)
    }
    return page
  }
}
