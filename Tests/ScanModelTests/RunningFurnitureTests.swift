import Testing

@testable import ScanModel

/// Running heads and feet told by repetition across a document's pages
/// (issue 44 point 1): the same line, or the same line around a changing
/// number, at the same height on neighbouring pages.
struct RunningFurnitureTests {
  typealias R = RoleDetectionTests

  /// A page of running text with a copyright line and a folio foot set in
  /// the running text's type, close to the text (so no per-page rule makes
  /// them furniture), and `extra` paragraphs.
  static func page(_ number: Int, foot: String, shift: Int = 0, extra: [Paragraph] = [])
    -> Page
  {
    let paragraphs =
      [
        R.paragraph(R.body, x: 200, y: 250 + shift, size: 20),
        R.paragraph(R.body, x: 200, y: 600 + shift, size: 20),
        R.paragraph(R.body, x: 200, y: 1080 + shift, size: 20),
        R.paragraph([foot], x: 200, y: 1220 + shift, size: 20),
        R.paragraph(["\(number) Row and Column Access Control"], x: 200, y: 1250 + shift, size: 20),
      ] + extra
    let blocks = paragraphs.map { Block(bbox: $0.bbox, paragraphs: [$0]) }
    return Page(
      index: number, width: 1000, height: 1400,
      blocks: RoleDetection.assigningRoles(to: blocks, pageWidth: 1000, pageHeight: 1400))
  }

  static func role(_ prefix: String, _ page: Page) -> ParagraphRole? {
    page.blocks.flatMap(\.paragraphs).first { text($0).hasPrefix(prefix) }?.role
  }

  static func text(_ paragraph: Paragraph) -> String {
    paragraph.lines.map(\.text).joined(separator: " ")
  }

  @Test func aLineRepeatedAtTheSameHeightIsARunningFoot() {
    let pages = (1...3).map { Self.page($0, foot: "© Copyright IBM Corp. 2014.") }
    // Alone, the page reads its foot lines as text (a list item whose
    // bullet was read as "©", running text).
    #expect(Self.role("© Copyright", pages[1]) == .listItem)
    #expect(Self.role("2 Row and Column", pages[1]) == .body)
    let marked = RunningFurniture.marking(pages[1], neighbours: [pages[0], pages[2]])
    #expect(Self.role("© Copyright", marked) == .footer)
    // The same line around a changing number.
    #expect(Self.role("2 Row and Column", marked) == .footer)
    #expect(Self.role("The ferry left", marked) == .body)
    // Read last, after the running text.
    let last = marked.blocks.flatMap(\.paragraphs).suffix(2).map(Self.text)
    #expect(last.allSatisfy { $0.hasPrefix("©") || $0.hasPrefix("2 Row") }, "\(last)")
    #expect(marked.text.hasSuffix("2 Row and Column Access Control\n"), "\(marked.text)")
  }

  @Test func aScanShiftedByAFewMillimetresStillRepeats() {
    let pages = [
      Self.page(1, foot: "Annual Report 2019"), Self.page(2, foot: "Annual Report 2019", shift: 20),
    ]
    let marked = RunningFurniture.marking(pages[1], neighbours: [pages[0]])
    #expect(Self.role("Annual Report", marked) == .footer)
  }

  @Test func differentTextOrAnotherHeightIsNoRepetition() {
    let a = Self.page(1, foot: "The ship reached the northern coast.")
    let b = Self.page(2, foot: "Its crew stayed there for the winter.")
    let marked = RunningFurniture.marking(b, neighbours: [a])
    #expect(Self.role("Its crew", marked) == .body)
    // Much higher on the other page: the same line, but not the same place.
    let c = Self.page(3, foot: "The ship reached the northern coast.", shift: -60)
    #expect(Self.role("The ship", RunningFurniture.marking(c, neighbours: [a])) == .body)
    // A page alone keeps its roles.
    #expect(RunningFurniture.marking(a, neighbours: []).blocks == a.blocks)
  }

  @Test func repeatedTextInTheMiddleOfThePageIsNotFurniture() {
    // A form's label repeated at the same height: not in a band.
    let label = R.paragraph(["Name of the applicant"], x: 200, y: 900, size: 20)
    let a = Self.page(1, foot: "x", extra: [label])
    let b = Self.page(2, foot: "y", extra: [label])
    #expect(Self.role("Name of", RunningFurniture.marking(b, neighbours: [a])) == .body)
  }

  @Test func oneCharacterInTenMayBeMisread() {
    #expect(
      RunningFurniture.matches(
        RunningFurniture.key("Global Study on Legal Aid"),
        RunningFurniture.key("Global Studv on Legal Aid")))
    #expect(
      !RunningFurniture.matches(
        RunningFurniture.key("Chapter 2. Roles and duties"),
        RunningFurniture.key("Chapter 3. Row and Column")))
    #expect(RunningFurniture.key("xi") == ["#"])
    #expect(RunningFurniture.key("1of5") == RunningFurniture.key("20f5"))
    #expect(
      RunningFurniture.key("Chapter 3. Access — 19") == Array("chapter # access #"))
  }

  @Test func theWindowHandsPagesOnInOrderHoldingAFew() {
    var window = RunningFurniture.Window<Int>()
    var out: [(page: Page, payload: Int, changed: Bool)] = []
    var held: [Int] = []
    for n in 1...6 {
      out += window.append(Self.page(n, foot: "© Copyright IBM Corp. 2014."), n)
      held.append(n - out.count)
    }
    out += window.finish()
    #expect(out.map(\.payload) == [1, 2, 3, 4, 5, 6])
    #expect(held.max() == RunningFurniture.reach)
    #expect(out.allSatisfy { $0.changed })
    #expect(out.allSatisfy { Self.role("© Copyright", $0.page) == .footer })
    // A document of one page: nothing to repeat.
    var alone = RunningFurniture.Window<Int>()
    #expect(alone.append(Self.page(1, foot: "© Copyright"), 1).isEmpty)
    let single = alone.finish()
    #expect(single.map(\.changed) == [false])
  }
}
