import Dispatch
import Foundation
import ScanFormats
import ScanModel
import ScanOCR
import Synchronization

/// The package's folders, found from this file's path.
public enum Fixtures {
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  public static let scans = packageRoot.appendingPathComponent("Scans")

  /// Every sample scan's image file name, sorted.
  public static let scanImages: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: scans.path)) ?? []
    return names.filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
  }()

  /// The name without extension: `clean` for `clean.png`.
  public static func stem(_ image: String) -> String {
    URL(fileURLWithPath: image).deletingPathExtension().lastPathComponent
  }

  /// The ground truth of a sample scan.
  public static func truth(_ image: String) throws -> Page {
    let url = scans.appendingPathComponent(stem(image) + ".truth.json")
    let text = try String(contentsOf: url, encoding: .utf8)
    let document = try DocumentJSON.decode(text)
    guard let page = document.pages.first else { throw FixtureError("\(url.path) has no page") }
    return page
  }

  /// The recognition language of a sample scan, from its truth.
  public static func language(_ image: String) -> String {
    (try? truth(image).language) ?? "eng"
  }

  /// A fresh temporary folder, inside one folder per test process that is
  /// removed when the process exits (so runs do not pile up folders in
  /// `/tmp`; a crashed run leaves its folder behind, to look at).
  public static func temporaryFolder() throws -> URL {
    let url = processFolder.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// `scantext-tests-PID` in the temporary folder, removed at exit.
  private static let processFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "scantext-tests-\(ProcessInfo.processInfo.processIdentifier)")
    atexit {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "scantext-tests-\(ProcessInfo.processInfo.processIdentifier)")
      try? FileManager.default.removeItem(at: folder)
    }
    return url
  }()

  /// The built `scantext` executable next to the test bundle.
  public static var executable: URL {
    var folder = Bundle.main.bundleURL
    for _ in 0..<3 {
      let candidate = folder.appendingPathComponent("scantext")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/scantext")
  }
}

public struct FixtureError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// Every sample scan recognised once per test process (two at a time), with
/// the given preprocessing, so that the many tests over them share the OCR.
public enum RecognizedScans {
  private static let cache = Mutex<[String: [String: Result<Page, OCRError>]]>([:])

  /// Pages for every sample scan, keyed by image file name.
  public static func all(preprocessing: Preprocessing = .default) -> [String: Result<
    Page, OCRError
  >] {
    let key = preprocessing.sortedNames.joined(separator: ",")
    if let hit = cache.withLock({ $0[key] }) { return hit }
    let images = Fixtures.scanImages
    let results = Mutex<[String: Result<Page, OCRError>]>([:])
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      var engines: [String: OCREngine] = [:]
      while true {
        let i = next.add(1, ordering: .relaxed).oldValue
        guard i < images.count else { break }
        let image = images[i]
        let language = Fixtures.language(image)
        let result: Result<Page, OCRError> = Result { () throws(OCRError) -> Page in
          let engine: OCREngine
          if let e = engines[language] {
            engine = e
          } else {
            engine = try OCREngine(
              options: RecognitionOptions(
                languages: LanguageCode.codes(in: language),
                preprocessing: preprocessing, layout: .default(for: preprocessing)))
            engines[language] = engine
          }
          let pages = try engine.recognize(
            contentsOf: Fixtures.scans.appendingPathComponent(image).path)
          guard let page = pages.first else {
            throw OCRError.recognitionFailed(path: image, page: 0)
          }
          return page
        }
        results.withLock { $0[image] = result }
      }
    }
    let all = results.withLock { $0 }
    cache.withLock { $0[key] = all }
    return all
  }

  /// One recognised sample scan.
  public static func page(_ image: String, preprocessing: Preprocessing = .default) throws -> Page {
    guard let result = all(preprocessing: preprocessing)[image] else {
      throw FixtureError("no sample scan \(image)")
    }
    return try result.get()
  }
}

/// The real scans and photos shared beside the project (`../shared/scans`,
/// or `$SCANTEXT_REAL_SCANS`); never copied into the project.
public enum RealScans {
  /// The folder, or `nil` when it is absent (a user's fresh clone).
  public static let folder: URL? = {
    let environment = ProcessInfo.processInfo.environment["SCANTEXT_REAL_SCANS"]
    let url =
      environment.map { URL(fileURLWithPath: $0) }
      ?? Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/scans")
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
      isFolder.boolValue
    else { return nil }
    return url
  }()

  /// Why real-scan tests skip, for their messages.
  public static let absentMessage =
    "real scans not found at ../shared/scans (set SCANTEXT_REAL_SCANS): real-scan tests skipped"

  /// Whether the folder is there.
  public static var isAvailable: Bool { folder != nil }

  /// Every PNG, JPEG and TIFF image under the folder, as paths relative to
  /// it (`ocrd/kant-0017.tif`), sorted; empty when the folder is absent.
  public static let images: [String] = {
    guard let folder else { return [] }
    let extensions: Set<String> = ["png", "jpg", "jpeg", "tif", "tiff"]
    var out: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let path = enumerator?.nextObject() as? String {
      if extensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased()) {
        out.append(path)
      }
    }
    return out.sorted()
  }()

  /// The full path of an image given relative to the folder.
  public static func path(_ image: String) -> String {
    (folder ?? Fixtures.packageRoot).appendingPathComponent(image).path
  }

  private static let recognitions = OncePerProcess<Result<[Page], OCRError>>()

  /// The pages of a real scan recognised with `preprocessing` (English),
  /// once per test process, so tests over the same page share the OCR.
  public static func pages(_ image: String, preprocessing: Preprocessing = .default) throws
    -> [Page]
  {
    let key = "\(preprocessing.sortedNames.joined(separator: ",")) \(image)"
    let result = recognitions.value(for: key) {
      Result { () throws(OCRError) -> [Page] in
        let engine = try OCREngine(
          options: RecognitionOptions(
            preprocessing: preprocessing, layout: .default(for: preprocessing)))
        return try engine.recognize(contentsOf: path(image))
      }
    }
    return try result.get()
  }
}
