import Foundation
import ScanArguments
import ScanFormats
import ScanModel
import ScanOCR

/// `scantext ocr --no-preprocess --format tsv` on images: Tesseract's own
/// TSV, byte-identical to `tesseract IMAGE - tsv`. (TSV rebuilt from the
/// model, as `convert` writes it, has the same rows and ids, but the model
/// keeps word confidences to two decimals, leaves out words of only
/// spaces and grows line boxes to hold their words.)
enum ExactTSV {
  /// Whether the exact path applies: TSV of images only (no document, no
  /// PDF, whose pages are rendered or read from their text), recognised as
  /// they are.
  static func applies(format: DocumentFormat, paths: [String], options: RecognitionOptions)
    -> Bool
  {
    format == .tsv && options.preprocessing.isEmpty
      && !paths.contains { InputFiles.kind($0) != .image }
  }

  /// Recognises every image in order with one engine and returns the TSV;
  /// each failed input is reported on standard error and skipped.
  static func render(paths: [String], options: RecognitionOptions, io: CommandIO) throws -> (
    text: String, failed: Bool, pages: Int
  ) {
    let writer: TesseractTSVWriter
    do {
      writer = try TesseractTSVWriter(options: options)
    } catch {
      throw CLIError(error.description)
    }
    var text = ""
    var pages = 0
    var failed = false
    for path in paths {
      do {
        let data = try InputFiles.read(path)
        let result = try writer.tsv(
          imageData: data, path: path, firstPage: pages, header: text.isEmpty)
        text += result.text
        pages += result.pages
      } catch {
        io.printErrorMessage(CLIError.wrap(error).message)
        failed = true
      }
    }
    return (text, failed, pages)
  }
}
