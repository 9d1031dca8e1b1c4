import Foundation
import ScanModel
import ScanOCR
import ScanTestSupport
import Testing

@testable import ScanService

/// The service's failures are cases a caller can tell apart, each with the
/// message the commands print (`Error: <message>`).
@Suite("Service errors")
struct ServiceErrorTests {
  func failure(_ body: () throws -> Void) -> ServiceError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ServiceError
    }
  }

  @Test func aMissingDocumentIsAnUnreadableInput() throws {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("missing.json").path
    let error = failure { _ = try DocumentFiles.read(path) }
    #expect(error == .inputUnreadable(path: path, reason: "no such file"))
    #expect(error?.message == "\(path): no such file")
  }

  @Test func aFileOfAnotherKindIsNotADocument() throws {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("notes.xml").path
    try Data("<notes/>".utf8).write(to: URL(fileURLWithPath: path))
    let error = try #require(failure { _ = try DocumentFiles.read(path) })
    guard case .notADocument(let named, _) = error else {
      Issue.record("expected notADocument, got \(error)")
      return
    }
    #expect(named == path)
    #expect(error.message.hasPrefix("\(path): not a"))
  }

  @Test func aPagePastTheEndIsOutOfRange() throws {
    let selection = try PageSelection.parse("2-4")
    let error = failure { _ = try selection.pages(of: 3, path: "scan.pdf") }
    #expect(error == .pageOutOfRange(path: "scan.pdf", page: 4, count: 3))
    #expect(
      error?.message == "scan.pdf: --pages asks for page 4, but the document has 3 pages")
  }

  @Test func anImageThatDoesNotDecodeIsARecognitionFailure() throws {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("broken.png").path
    try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: path))
    let result = Recognizer(options: RecognitionOptions()).read([path])[0]
    guard case .failure(let error) = result.pages, case .recognitionFailed(let cause) = error
    else {
      Issue.record("expected a recognition failure, got \(result.pages)")
      return
    }
    #expect(error.message == cause.description)
    #expect(error.message.hasPrefix("\(path): "))
  }

  /// What to do about a size limit is said with every limit error.
  @Test func aLimitSaysHowToRaiseIt() {
    let error = ServiceError.recognitionFailed(
      .imageTooLarge(path: "big.png", width: 20000, height: 20000, limit: 100_000_000))
    #expect(error.message.hasPrefix("big.png: "))
    #expect(error.message.hasSuffix(" (raise the limit with --max-pixels)"))
  }

  @Test func anUnwritableOutputNamesItAndTheReason() throws {
    let folder = try Fixtures.temporaryFolder()
    let error = failure {
      let output = OutputFile.Stream(folder.path, io: .standard)
      defer { output.abandon() }
      try output.write("x")
    }
    guard case .outputNotWritable(let path, _) = error else {
      Issue.record("expected outputNotWritable, got \(String(describing: error))")
      return
    }
    #expect(path == folder.path)
    #expect(
      error?.message.hasPrefix("\(folder.path): cannot write the output: it is a directory") == true
    )
  }
}
