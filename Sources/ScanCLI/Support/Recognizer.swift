import Dispatch
import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import Synchronization

/// The result of reading one input: its pages, or why it failed.
struct InputResult: Sendable {
  var path: String
  var pages: Result<[Page], CLIError>
  /// Pages that could not be read while the others were (a corrupt page of
  /// a multi-page TIFF), one message each.
  var pageErrors: [CLIError] = []
}

/// Reads inputs (ScanText JSON documents or images) into pages, OCRing
/// images on up to `jobs` threads with one engine per thread, and returns
/// the results in input order.
struct Recognizer: Sendable {
  var options: RecognitionOptions
  var jobs: Int = 1
  /// Where recognised pages are kept between runs; `nil` for none.
  var cache: RecognitionCache?

  /// Called after each input with (inputs done, total inputs).
  typealias Progress = @Sendable (Int, Int) -> Void

  func read(_ paths: [String], progress: Progress? = nil) -> [InputResult] {
    let results = Mutex<[InputResult?]>(Array(repeating: nil, count: paths.count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let workers = max(1, min(jobs, paths.count))
    let options = self.options
    let cache = self.cache
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      // One engine per worker, created on first need and reused.
      var engine: Result<OCREngine, OCRError>?
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < paths.count else { break }
        let result = Self.readOne(paths[i], options: options, cache: cache, engine: &engine)
        results.withLock { $0[i] = result }
        let finished = done.add(1, ordering: .relaxed).newValue
        progress?(finished, paths.count)
      }
    }
    return results.withLock { $0.compactMap { $0 } }
  }

  private static func readOne(
    _ path: String, options: RecognitionOptions, cache: RecognitionCache?,
    engine: inout Result<OCREngine, OCRError>?
  ) -> InputResult {
    if DocumentFormat.isDocument(fileName: path) {
      return InputResult(
        path: path, pages: Result { try DocumentFiles.read(path).pages }.mapError(CLIError.wrap))
    }
    let data: Data
    do {
      data = try OCREngine.readImageFile(path)
    } catch {
      return InputResult(path: path, pages: .failure(CLIError(error.description)))
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let key = cache.map { _ in RecognitionCache.key(imageData: data, options: options) }
    if let cache, let key, let pages = cache.pages(for: key, image: name) {
      return InputResult(path: path, pages: .success(pages))
    }
    let loaded = engine ?? Result { () throws(OCRError) in try OCREngine(options: options) }
    engine = loaded
    switch loaded {
    case .failure(let error):
      return InputResult(path: path, pages: .failure(CLIError(error.description)))
    case .success(let e):
      do {
        let result = try e.recognizePages(imageData: data, path: path)
        // An incomplete file is not cached: its errors must show every time.
        if let cache, let key, result.pageErrors.isEmpty { cache.store(result.pages, key: key) }
        return InputResult(
          path: path, pages: .success(result.pages),
          pageErrors: result.pageErrors.map { CLIError($0.description) })
      } catch {
        var message = error.description
        switch error {
        case .imageTooLarge, .pageTooLarge, .upscaledImageTooLarge:
          message += " (raise the limit with --max-pixels)"
        default: break
        }
        return InputResult(path: path, pages: .failure(CLIError(message)))
      }
    }
  }
}

extension CLIError {
  static func wrap(_ error: any Error) -> CLIError {
    if let e = error as? CLIError { return e }
    return CLIError(String(describing: error))
  }
}

/// Decodes ScanText JSON documents with errors that name the file.
enum ModelFile {
  /// Decodes the bytes of `path`, already read and checked by
  /// ``DocumentFiles/read(_:)``.
  static func decode(_ data: Data, path: String) throws -> Document {
    let value: JSONValue
    do {
      value = try data.withUnsafeBytes { raw throws(JSONParseError) in
        try JSONValue(parsing: raw.bindMemory(to: UInt8.self))
      }
    } catch {
      throw CLIError("\(path): not a ScanText document: \(error)")
    }
    do {
      return try DocumentJSON.decode(value)
    } catch {
      throw CLIError("\(path): not a ScanText document: \(error)")
    }
  }
}

/// Loads the one model a query command works on.
enum ModelLoader {
  /// The document in `path` (a ScanText JSON document, or an image to OCR).
  static func document(_ path: String, ocr: OCROptions) throws -> Document {
    let result = Recognizer(options: ocr.recognition, cache: ocr.cache).read([path])[0]
    // Queries number pages as the file does: a missing page would shift them.
    if let error = result.pageErrors.first { throw error }
    return Document(pages: try result.pages.get())
  }

  /// One page of the document in `path`.
  static func page(_ path: String, index: Int, ocr: OCROptions) throws -> Page {
    let document = try document(path, ocr: ocr)
    guard document.pages.indices.contains(index) else {
      let count = document.pages.count
      throw CLIError(
        "\(path): there is no page \(index) (the document has \(count) page\(count == 1 ? "" : "s"), numbered from 0)"
      )
    }
    return document.pages[index]
  }
}
