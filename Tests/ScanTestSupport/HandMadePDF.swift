import Foundation

/// PDFs written by hand for tests: numbered objects in order and a correct
/// cross-reference table, the one place the tests serialise a PDF.
public enum HandMadePDF {
  /// A PDF file of `bodies`, numbered from 1 (object 1 is the catalog).
  /// - Parameters:
  ///   - bodies: Each object's body between `N 0 obj` and `endobj`: a
  ///     dictionary, or a dictionary followed by its stream.
  ///   - header: The file's first bytes (`%PDF-1.4` and a line end; a
  ///     binary comment after it when the file holds binary streams).
  ///   - info: The number of the document information dictionary, if any.
  /// - Complexity: O(*n*) in the bodies' bytes.
  public static func file(_ bodies: [Data], header: String = "%PDF-1.4\n", info: Int? = nil)
    -> Data
  {
    var out = Data(header.utf8)
    var offsets: [Int] = []
    for (i, body) in bodies.enumerated() {
      offsets.append(out.count)
      out += Data("\(i + 1) 0 obj\n".utf8)
      out += body
      out += Data("\nendobj\n".utf8)
    }
    let xref = out.count
    var table = "xref\n0 \(bodies.count + 1)\n0000000000 65535 f \n"
    for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
    let infoEntry = info.map { " /Info \($0) 0 R" } ?? ""
    table +=
      "trailer\n<< /Size \(bodies.count + 1) /Root 1 0 R\(infoEntry) >>\nstartxref\n\(xref)\n%%EOF\n"
    out += Data(table.utf8)
    return out
  }

  /// A PDF file of objects written as text, as the other `file` writes them.
  public static func file(_ bodies: [String], header: String = "%PDF-1.4\n", info: Int? = nil)
    -> Data
  {
    file(bodies.map { Data($0.utf8) }, header: header, info: info)
  }
}
