import Foundation
import ScanModel
import ScanOCR

/// Pages of the real PDFs shared beside the project (`../shared/docling`,
/// `../shared/camelot`; never copied into the project), rasterised at
/// 300 dpi as a scan of them would be and recognised with the defaults,
/// once per test process: the suites that look at the same page (its
/// roles, its table, its reading order) share one reading of it.
public enum RealDocuments {
  /// `../shared`, beside the package.
  public static let shared = Fixtures.packageRoot.deletingLastPathComponent()
    .appendingPathComponent("shared")

  private static let readings = OncePerProcess<Result<Page, any Error>>()

  /// Page `number` (from 1) of the PDF at `pdf`, rasterised with pdftoppm
  /// at 300 dpi and recognised in `languages` with the default options.
  public static func page(_ pdf: URL, _ number: Int, languages: [LanguageCode] = ["eng"])
    throws -> Page
  {
    let key = "\(pdf.path) \(number) \(LanguageCode.joined(languages))"
    return try readings.value(for: key) {
      Result { try read(pdf, number, languages: languages) }
    }.get()
  }

  private static func read(_ pdf: URL, _ number: Int, languages: [LanguageCode]) throws -> Page {
    guard let pdftoppm = ExternalCheckers.pdftoppm else {
      throw FixtureError("pdftoppm not found")
    }
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let stem = folder.appendingPathComponent("p\(number)").path
    let (status, output) = try ExternalCheckers.run(
      pdftoppm,
      [
        "-r", "300", "-png", "-singlefile", "-f", "\(number)", "-l", "\(number)", pdf.path, stem,
      ])
    guard status == 0 else { throw FixtureError("pdftoppm \(pdf.path) page \(number): \(output)") }
    guard
      let page = try OCREngine(options: RecognitionOptions(languages: languages))
        .recognize(contentsOf: stem + ".png").first
    else { throw FixtureError("\(pdf.path) page \(number): no page recognised") }
    return page
  }
}
