import Foundation
import ScanModel
import ScanOCR

/// Where recognised pages are kept between runs, so that an image read
/// again with the same options is not recognised again.
///
/// A page is found again by the SHA-256 of its image's bytes and every
/// setting that decides its recognition (the options, the Tesseract
/// version and its traineddata, ScanText's version and the running
/// program's file). Entries are written to a temporary file and renamed,
/// checked before they are served, readable by their owner only, and the
/// folder is kept under a size limit by removing the entries used least
/// recently.
public struct PageCache: Sendable {
  /// The size limit of a cache made without one: 256 MiB.
  public static let defaultLimitBytes = RecognitionCache.defaultLimitBytes

  /// The cache that does the work.
  package let storage: RecognitionCache

  /// The folder holding the entries (made when the first entry is stored).
  public var folder: URL { storage.folder }

  /// The most bytes the folder's entries may take.
  public var limitBytes: Int { storage.limitBytes }

  /// A cache in `folder`, made when the first page is stored.
  /// - Parameters:
  ///   - folder: The folder of the entries.
  ///   - limitBytes: The most bytes its entries may take (256 MiB by
  ///     default); the entries used least recently are removed past it.
  /// - Complexity: O(1): nothing is read or made before the first page.
  public init(folder: URL, limitBytes: Int = PageCache.defaultLimitBytes) {
    storage = RecognitionCache(folder: folder, limitBytes: limitBytes)
  }

  /// The cache `scantext` uses: `$XDG_CACHE_HOME/scantext`, else
  /// `~/.cache/scantext`; `nil` when neither variable is set.
  /// - Complexity: O(1).
  public static var standard: PageCache? {
    RecognitionCache.standard().map { PageCache(storage: $0) }
  }

  /// The pages of the image `input` recognised with `options`, when the
  /// cache holds them (a reading of the whole image, as a ``Pipeline``
  /// stores it); `nil` otherwise.
  /// - Parameters:
  ///   - input: An image input.
  ///   - options: The options it was recognised with.
  /// - Complexity: O(*n*) in the entry's bytes (read, checked, decoded).
  public func pages(of input: Input, options: RecognitionOptions) -> [Page]? {
    storage.pages(
      for: RecognitionCache.key(imageDigest: input.digestBytes, options: options),
      image: URL(fileURLWithPath: input.path).lastPathComponent)
  }

  /// The cache `storage` is.
  package init(storage: RecognitionCache) { self.storage = storage }
}
