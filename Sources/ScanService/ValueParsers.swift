import ScanModel

/// Parsers for the values of `--range`, `--rect`, `--point`.
package enum ValueParsers {
  /// A value that does not parse, and what was expected.
  package struct Invalid: Error, CustomStringConvertible {
    package var description: String
  }

  /// `S:E` with 0 <= S <= E.
  @Sendable package static func range(_ s: String) throws -> Range<Int> {
    let parts = s.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
      throw Invalid(description: "expected START:END, such as 0:40")
    }
    guard a >= 0, b >= a else { throw Invalid(description: "expected 0 <= START <= END") }
    return a..<b
  }

  /// `X0,Y0,X1,Y1` with X0 <= X1 and Y0 <= Y1.
  @Sendable package static func rect(_ s: String) throws -> Rect {
    let n = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard n.count == 4, let x0 = n[0], let y0 = n[1], let x1 = n[2], let y1 = n[3],
      [x0, y0, x1, y1].allSatisfy(\.isFinite)
    else { throw Invalid(description: "expected X0,Y0,X1,Y1, such as 0,0,400,200") }
    guard x0 <= x1, y0 <= y1 else { throw Invalid(description: "expected X0 <= X1 and Y0 <= Y1") }
    return Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
  }

  /// `X,Y`.
  @Sendable package static func point(_ s: String) throws -> Point {
    let n = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
    guard n.count == 2, let x = n[0], let y = n[1], x.isFinite, y.isFinite else {
      throw Invalid(description: "expected X,Y, such as 120,40")
    }
    return Point(x: x, y: y)
  }
}
