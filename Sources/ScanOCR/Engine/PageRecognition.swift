import CScanOCR
import Foundation
import ScanModel

/// The pages of a file that were recognised, and why the others were not.
public struct PageRecognition: Sendable, Equatable {
  /// The recognised pages, in file order, each with its index in the file.
  public var pages: [Page] = []
  /// One error per page that could not be decoded, in file order.
  public var pageErrors: [OCRError] = []
}

/// How good a reading is, from its words' confidences.
struct ReadingQuality: Equatable {
  /// Words read.
  var words = 0
  /// Words read with confidence ≥ ``ScanConventions/lowConfidenceThreshold``.
  var confidentWords = 0
  /// The mean word confidence (0 when there are no words).
  var meanConfidence = 0.0

  init(_ blocks: [Block]) {
    var sum = 0.0
    for block in blocks {
      for paragraph in block.paragraphs {
        for line in paragraph.lines {
          for word in line.words {
            let confidence = word.confidence ?? 0
            words += 1
            sum += confidence
            if confidence >= ScanConventions.lowConfidenceThreshold { confidentWords += 1 }
          }
        }
      }
    }
    meanConfidence = words > 0 ? sum / Double(words) : 0
  }

  init(words: Int, confidentWords: Int, meanConfidence: Double) {
    self.words = words
    self.confidentWords = confidentWords
    self.meanConfidence = meanConfidence
  }
}
