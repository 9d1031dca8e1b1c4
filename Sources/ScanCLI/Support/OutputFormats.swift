import Foundation
import ScanArguments
import ScanFormats
import ScanService

/// `--format` of `ocr` and `convert`: any format of the registry, those
/// no ending chooses included (`accessible-html`, which `html` writes too).
extension FileFormat: ArgumentValue {
  public init?(argument: String) {
    guard let format = Self.named(argument) else { return nil }
    self = format
  }

  public static var allValueStrings: [String] { all.map(\.name) }

  public var defaultValueDescription: String { name }
}

extension FileFormat {
  /// `--format`'s help: the formats' usual endings, then `more`, then what
  /// `markdown` and `accessible-html` (which no ending chooses) are.
  static func help(_ more: String) -> String {
    let endings = chosenByFileName.compactMap(\.fileNameSuffixes.first).joined(separator: ", ")
    return
      "Output format (default: from the output file's extension: \(endings); json for standard output or a name without one). \(more) markdown is the text as a reader reads it (headings, lists, tables; running heads and feet left out). accessible-html is what 'scantext html' writes, with its defaults."
  }
}
