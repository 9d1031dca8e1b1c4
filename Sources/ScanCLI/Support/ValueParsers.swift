import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR
import ScanService

extension TextGranularity: ArgumentValue {}

extension PageLayoutOrder: ArgumentValue {}

extension PDFOutputType: ArgumentValue {}

/// A direction as typed on the command line.
enum DirectionName: String, CaseIterable, ArgumentValue {
  case forward, backward, left, right, up, down

  var direction: TextDirection { TextDirection(name: rawValue) ?? .forward }
}

extension PageSelection: ArgumentValue {
  package init?(argument: String) {
    guard let selection = try? Self.parse(argument) else { return nil }
    self = selection
  }

  package var defaultValueDescription: String {
    items.map { "\($0.first)-\($0.last.map(String.init) ?? "")" }.joined(separator: ",")
  }
}
