import Foundation
import ScanOCR
import ScanTestSupport
import Testing

/// Editing a PDF (a searchable copy of a PDF) in bounded memory (issue 45,
/// point 4): content that decodes to far more than any page holds is
/// refused before it is decoded.
@Suite("PDF editing limits")
struct PDFEditingLimitsTests {
  /// A one-page PDF whose content stream is `megabytes` MB of spaces,
  /// Flate-compressed (about 1,000 to 1): a compression bomb when large.
  static func bomb(megabytes: Int, in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("bomb.pdf").path
    let script = """
      import sys, zlib
      z = zlib.compressobj(9)
      chunk = b" " * (1 << 20)
      data = b"".join(z.compress(chunk) for _ in range(int(sys.argv[2]))) + z.flush()
      objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
                 b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                 b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
                 b"<< /Length %d /Filter /FlateDecode >>\\nstream\\n" % len(data) + data + b"\\nendstream"]
      out = bytearray(b"%PDF-1.4\\n")
      offsets = []
      for i, body in enumerate(objects):
          offsets.append(len(out))
          out += b"%d 0 obj\\n" % (i + 1) + body + b"\\nendobj\\n"
      xref = len(out)
      out += b"xref\\n0 %d\\n0000000000 65535 f \\n" % (len(objects) + 1)
      out += b"".join(b"%010d 00000 n \\n" % o for o in offsets)
      out += b"trailer\\n<< /Size %d /Root 1 0 R >>\\nstartxref\\n%d\\n%%%%EOF\\n" % (len(objects) + 1, xref)
      open(sys.argv[1], "wb").write(out)
      """
    let (code, output) = try ExternalCheckers.run(
      "/usr/bin/env", ["python3", "-c", script, path, String(megabytes)])
    try #require(code == 0, "\(output)")
    return path
  }

  /// A page whose content decodes to 300 MB (from 300 kB) is refused with
  /// the file, the page and the reason, and no PDF is written (before, the
  /// editing held the decoded content two or three times: 6.4 GB for a
  /// page of gigabytes).
  @Test func aFlateBombIsRefusedNamingTheFileAndPage() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pdf = try Self.bomb(megabytes: 300, in: folder)
    #expect(try FileManager.default.attributesOfItem(atPath: pdf)[.size] as? Int ?? 0 < 1 << 20)
    let out = folder.appendingPathComponent("out.pdf").path
    let run = try ScanTextRun.run(["ocr", pdf, "-o", out, "-q"])
    #expect(run.code == 1)
    #expect(
      run.stderr.contains(
        "\(pdf): cannot write a searchable copy of the PDF: page 1's content decodes to more than 256 MB"
      ), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  /// Content below the limit is edited as before.
  @Test func contentBelowTheLimitIsEdited() throws {
    let folder = try Fixtures.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pdf = try Self.bomb(megabytes: 2, in: folder)
    let out = folder.appendingPathComponent("out.pdf").path
    let run = try ScanTextRun.run(["ocr", pdf, "-o", out, "-q"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: out))
  }
}
