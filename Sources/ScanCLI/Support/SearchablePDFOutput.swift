import Foundation
import ScanFormats
import ScanModel
import ScanOCR

/// Writes recognised pages and their images as a searchable PDF
/// (``SearchablePDF``): `scantext ocr IMG… -o out.pdf`.
enum SearchablePDFOutput {
  /// Writes the PDF atomically; nothing is written when any page's image
  /// cannot be put in it.
  /// - Parameters:
  ///   - pages: The pages in output order.
  ///   - sources: For each page, the image file and the page of it.
  static func write(
    pages: [Page], sources: [(path: String, page: Int)], to outputPath: String, maxPixels: Int,
    dataPath: String?
  ) throws {
    var inputs: [SearchablePDF.PageInput] = []
    // Each input PDF is read and opened once, for all its pages.
    var openPDFs: [String: PDFDocument] = [:]
    for (page, source) in zip(pages, sources) {
      guard !InputFiles.isDocument(source.path) else {
        throw CLIError(
          "\(source.path): a searchable PDF needs the page images; give the images, not a model")
      }
      let stream: PDFImageStream
      do {
        if let pdf = page.pdf {
          // The page rendered again as it was for recognition.
          let document: PDFDocument
          if let open = openPDFs[source.path] {
            document = open
          } else {
            document = try PDFDocument(data: InputFiles.read(source.path), path: source.path)
            openPDFs[source.path] = document
          }
          stream = try PDFImages.stream(
            pdfPage: pdf.page - 1, of: document, width: page.width, height: page.height,
            dpi: page.dpi ?? 300, nativeImage: pdf.nativeImage)
        } else {
          stream = try InputFiles.withFile(source.path) {
            try PDFImages.stream(page: source.page, ofFile: $0, maxPixels: maxPixels)
          }
        }
      } catch {
        throw CLIError.wrap(error)
      }
      inputs.append(
        SearchablePDF.PageInput(
          page: page,
          image: PDFPageImage(
            data: stream.data, filter: stream.filter, width: stream.width, height: stream.height,
            bitsPerComponent: stream.bitsPerComponent, colorSpace: stream.colorSpace,
            decodeParms: stream.decodeParms, decode: stream.decode)))
    }
    let font: Data
    do {
      font = try PDFImages.glyphlessFont(dataPath: dataPath)
    } catch {
      throw CLIError(error.description)
    }
    let title = sources.first.map { URL(fileURLWithPath: $0.path).lastPathComponent }
    let bytes: Data
    do {
      bytes = try SearchablePDF.data(
        pages: inputs, font: font, title: title,
        producer: "ScanText \(ScanText.version) (Tesseract \(OCREngine.tesseractVersion))")
    } catch {
      throw CLIError("\(outputPath): \(error.description)")
    }
    try OutputFile.write(bytes: Array(bytes), to: outputPath)
  }
}
