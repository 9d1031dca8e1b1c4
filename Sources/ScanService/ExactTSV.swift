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
package enum ExactTSV {
  /// Whether the exact path applies: TSV of images only (no document, no
  /// PDF, whose pages are rendered or read from their text), recognised as
  /// they are.
  package static func applies(format: DocumentFormat, paths: [String], options: RecognitionOptions)
    -> Bool
  {
    format == .tsv && options.preprocessing.isEmpty
      && !paths.contains { InputFiles.kind($0) != .image }
  }

  /// Recognises every image in order with one engine and writes the TSV to
  /// `outputPath` image by image; each failed input is reported on
  /// standard error and skipped (exit 1 through ``BatchFailure``).
  package static func write(
    paths: [String], options: RecognitionOptions, to outputPath: String, io: CommandIO
  ) throws {
    let writer: TesseractTSVWriter
    do {
      writer = try TesseractTSVWriter(options: options)
    } catch {
      throw ServiceError.recognitionFailed(error)
    }
    // Each image's rows are written as they are read; nothing is written
    // when every image fails.
    let output = OutputFile.Stream(outputPath, io: io)
    var pages = 0
    var failed = false
    do {
      for path in paths {
        let result: (text: String, pages: Int)
        do {
          let data = try InputFiles.read(path)
          let read = try writer.tsv(
            imageData: data, path: path, firstPage: pages, header: pages == 0)
          result = (read.text, read.pages)
        } catch {
          io.printErrorMessage(ServiceError.wrap(error).message)
          failed = true
          continue
        }
        try output.write(result.text)
        pages += result.pages
      }
      if failed && pages == 0 { throw BatchFailure() }
      try output.commit()
    } catch {
      output.abandon()
      throw error
    }
    if failed { throw BatchFailure() }
  }

  /// Tesseract's own TSV of `paths` into `sink`'s outputs: its file, or
  /// each input's file in its folder (every input tried; exit 1 through
  /// ``BatchFailure`` when one failed).
  package static func write(
    paths: [String], options: RecognitionOptions, into sink: DocumentSink
  ) throws {
    guard case .folder = sink.destination else {
      try write(paths: paths, options: options, to: sink.outputPath(forInput: ""), io: sink.io)
      return
    }
    var failed = false
    for input in paths {
      do {
        try write(
          paths: [input], options: options, to: sink.outputPath(forInput: input), io: sink.io)
      } catch is BatchFailure {
        failed = true
      }
    }
    if failed { throw BatchFailure() }
  }
}
