import Foundation
import ScanFormats
import ScanModel
import ScanOCR

/// One input of a reading, resolved once: what it is, its format, its
/// number of pages and the digest of its bytes, from one look at the file.
///
/// An input is a document ScanText reads (JSON, a compact model, hOCR,
/// ALTO, PAGE XML, TSV), a PDF, or an image (every page of a multi-page
/// TIFF). What it is comes from its content (`%PDF-` in its first 1024
/// bytes is a PDF), as `file` would tell; `-` is standard input, read
/// whole once.
public struct Input: Sendable, Hashable {
  /// What an input is, and so how it is read.
  public enum Kind: Sendable, Hashable {
    /// A document in a format ScanText reads: its pages are decoded, not
    /// recognised.
    case document
    /// A PDF: a page with text is read from it, any other is rendered and
    /// recognised.
    case pdf
    /// An image file (every page of a multi-page TIFF), recognised.
    case image
  }

  /// The file as given (`-` for standard input).
  public let path: String
  /// What the input is.
  public let kind: Kind
  /// The format by its content: `pdf`, `tiff`, a document format's name
  /// (`json`, `stm`, `hocr`, `alto`, `page`, `tsv`); `nil` for another
  /// image, whose format the image reader tells from its magic number.
  public let format: String?
  /// The number of pages in the input (1 for an image but a multi-page
  /// TIFF).
  public let pageCount: Int
  /// The SHA-256 of the input's bytes, in lowercase hexadecimal: what a
  /// ``PageCache`` finds its pages by.
  public let digest: String
  /// The SHA-256 of the input's bytes.
  package let digestBytes: [UInt8]

  /// Resolves the input at `path`: reads its bytes once, tells what it is
  /// and counts its pages (without decoding an image's pixels).
  /// - Parameters:
  ///   - path: The file, or `-` for standard input.
  ///   - maxPixels: The most pixels an image's page may have
  ///     (``ScanOCR/RecognitionOptions/maxPixels``).
  /// - Throws: ``ServiceError`` naming the file and the reason: missing,
  ///   unreadable, empty, a PDF or image that does not open, a document
  ///   that does not decode, an image over the pixel limit.
  /// - Complexity: O(*n*) in the file's bytes (read and hashed once); a
  ///   document's pages are found without decoding them where its format
  ///   allows (JSON, compact model).
  public init(path: String, maxPixels: Int = RecognitionOptions.defaultMaxPixels)
    throws(ServiceError)
  {
    let data: Data
    do {
      data = try InputFiles.read(path)
    } catch {
      throw ServiceError.wrap(error)
    }
    let sniffed = InputFiles.sniff(
      head: data.prefix(InputFiles.sniffedBytes), path: path,
      isStream: InputFiles.isStream(path))
    let kind = sniffed.kind
    let count: Int
    switch kind {
    case .document:
      do {
        count = try DocumentFiles.open(path, maxPagesInMemory: 1).pageCount
      } catch {
        throw ServiceError.wrap(error)
      }
    case .pdf, .image:
      count = try Self.pageCount(of: data, kind: kind, path: path, maxPixels: maxPixels)
    }
    self.path = path
    self.kind = kind
    format = sniffed.format
    pageCount = count
    digestBytes = Self.digest(of: data)
    digest = SHA256.hex(digest: digestBytes)
  }

  /// The inputs in `folder` and the folders under it: its images and
  /// PDFs (by their endings: `.png`, `.jpg`, `.tif`, `.pdf`, …), in the
  /// order of their paths, each resolved as ``init(path:maxPixels:)``
  /// does. Hidden files are passed over, and so are symbolic links to
  /// folders.
  /// - Parameters:
  ///   - folder: The folder.
  ///   - maxPixels: The most pixels an image's page may have.
  /// - Returns: The inputs, in the order their paths sort.
  /// - Throws: ``ServiceError`` naming the folder, or the first input
  ///   that cannot be resolved.
  /// - Complexity: O(*n*) in the bytes of the files found.
  public static func files(
    inFolder folder: String, maxPixels: Int = RecognitionOptions.defaultMaxPixels
  ) throws(ServiceError) -> [Input] {
    var inputs: [Input] = []
    for input in try BatchPlan.inputs(arguments: [folder], manifest: nil).inputs {
      inputs.append(try Input(path: input.path, maxPixels: maxPixels))
    }
    return inputs
  }

  /// The SHA-256 of an input's bytes: the digest cache keys are made from
  /// (``RecognitionCache/key(imageDigest:options:extra:program:)``).
  /// - Complexity: O(*n*) in the bytes.
  package static func digest(of data: Data) -> [UInt8] {
    var hash = SHA256()
    data.withUnsafeBytes { hash.update($0) }
    return hash.finalize()
  }

  /// The number of pages of a PDF's or an image's bytes: the PDF's page
  /// tree, a TIFF's directories (1 for another image).
  /// - Throws: ``ServiceError`` when the PDF does not open or the image's
  ///   header is refused.
  package static func pageCount(of data: Data, kind: Kind, path: String, maxPixels: Int)
    throws(ServiceError) -> Int
  {
    do {
      return kind == .pdf
        ? try PDFDocument(data: data, path: path).pageCount
        : try OCREngine.imagePageCount(data, path: path, maxPixels: maxPixels)
    } catch {
      throw ServiceError.recognitionFailed(error)
    }
  }
}
