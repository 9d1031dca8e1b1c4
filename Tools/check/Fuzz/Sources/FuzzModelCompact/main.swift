import Foundation
import FuzzSupport
import ModelMutations
@_spi(Fuzzing) import ScanFormats
import ScanModel

// A valid compact model whose structured fields the input changes: the
// page's own values (written as they are, bypassing every check), then the
// file's counts and offsets (header, page table, trailer) with their
// checksums made to match, so the checks behind the checksums are reached.
// The reader must refuse what breaks a limit or a count the file cannot
// hold, with an error and no allocation the file does not pay for; what it
// accepts passes `checkAccepted`.
let generator = Generator(name: "fuzz", version: "0")

func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

func put(_ v: UInt64, size: Int, at offset: Int, in bytes: inout [UInt8]) {
  guard offset >= 0, offset + size <= bytes.count else { return }
  for i in 0..<size { bytes[offset + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
}

func get(_ size: Int, at offset: Int, in bytes: [UInt8]) -> UInt64 {
  guard offset >= 0, offset + size <= bytes.count else { return 0 }
  var v: UInt64 = 0
  for i in (0..<size).reversed() { v = v << 8 | UInt64(bytes[offset + i]) }
  return v
}

/// A coordinate far beyond the readers' limit (±10,000,000) but one
/// `Page`'s initialiser can index: it traps on NaN and on sums that
/// overflow, as misuse, and every reader checks coordinates before it
/// builds a page (the raw-byte fuzzer `FuzzCompact` feeds those checks
/// NaN and infinities).
func far(_ x: Double) -> Double {
  guard x.isFinite else { return x.isNaN ? 3e7 : (x < 0 ? -1e15 : 1e15) }
  return max(-1e15, min(1e15, x))
}

func far(_ n: Int) -> Int { max(-(1 << 40), min(1 << 40, n)) }

/// The page with its fields changed as the choices say (no check: the
/// model's initialisers take any value they can index).
func mutated(_ page: Page, _ choices: inout Choices) -> Page {
  var blocks = page.blocks
  var dpi = page.dpi
  var skew = page.skew
  var width = page.width
  var height = page.height
  var orientation = page.orientation
  var figures = page.figures
  var steps = 0
  while !choices.isEmpty, steps < 12 {
    steps += 1
    let b = choices.below(blocks.count)
    let p = choices.below(blocks[b].paragraphs.count)
    switch choices.byte() % 8 {
    case 0: dpi = choices.int()
    case 1: skew = choices.double()
    case 2:
      width = far(choices.int())
      height = far(choices.int())
    case 3: orientation = choices.int()
    case 4:
      // A table cell's place and spans.
      let cell = TableCellPosition(
        row: choices.int(), column: choices.int(), rowSpan: choices.int(),
        columnSpan: choices.int())
      blocks[b].paragraphs[p].role = .tableCell
      blocks[b].paragraphs[p].cell = cell
    case 5:
      // A word's quad or box at extreme coordinates.
      let x = far(choices.double())
      let y = far(choices.double())
      var line = blocks[b].paragraphs[p].lines[0]
      line.words[0].quad = Quad(
        topLeft: Point(x: x, y: y), topRight: Point(x: -x, y: y), bottomRight: Point(x: -x, y: -y),
        bottomLeft: Point(x: x, y: -y))
      line.words[0].bbox = PixelRect(
        minX: far(choices.int()), minY: far(choices.int()), maxX: far(choices.int()),
        maxY: far(choices.int()))
      blocks[b].paragraphs[p].lines[0] = line
    case 6:
      // A word's glyph count: one glyph repeated (up to 4,096 times).
      var line = blocks[b].paragraphs[p].lines[0]
      let glyph =
        line.words[0].glyphs.first
        ?? Glyph(text: "x", bbox: line.words[0].bbox, confidence: choices.double())
      line.words[0].glyphs = Array(repeating: glyph, count: choices.below(4097))
      blocks[b].paragraphs[p].lines[0] = line
    default:
      figures = Array(
        repeating: Figure(
          bbox: PixelRect(minX: far(choices.int()), minY: 0, maxX: far(choices.int()), maxY: 10)),
        count: choices.below(64))
    }
  }
  return Page(
    index: page.index, image: page.image, width: width, height: height, dpi: dpi,
    orientation: orientation, skew: skew, language: page.language, blocks: blocks,
    steps: page.steps, crop: page.crop, perspective: page.perspective, pdf: page.pdf,
    source: page.source, dpiSource: page.dpiSource, exifOrientation: page.exifOrientation,
    figures: figures)
}

/// The file's counts and offsets changed, checksums recomputed.
func damaged(_ data: Data, _ choices: inout Choices) -> [UInt8] {
  var bytes = [UInt8](data)
  let n = bytes.count
  var steps = 0
  while !choices.isEmpty, steps < 4 {
    steps += 1
    let tableOffset = Int(truncatingIfNeeded: get(8, at: n - 32, in: bytes))
    let pageCount = Int(truncatingIfNeeded: get(8, at: n - 24, in: bytes))
    let v = UInt64(bitPattern: Int64(choices.int()))
    switch choices.byte() % 5 {
    case 0: put(v, size: 8, at: n - 32, in: &bytes)  // the table's offset
    case 1: put(v, size: 8, at: n - 24, in: &bytes)  // the page count
    case 2: put(v, size: 4, at: 12, in: &bytes)  // the generator's length
    case 3:
      // An entry's offset or length.
      let entry = tableOffset + 24 * choices.below(max(1, pageCount))
      put(v, size: 8, at: entry + 8 * (choices.byte() % 2), in: &bytes)
    default:
      // Bytes inserted before the table (a longer page region).
      let extra = choices.below(512)
      if tableOffset > 0, tableOffset <= n {
        bytes.insert(contentsOf: repeatElement(0, count: extra), at: tableOffset)
        put(UInt64(tableOffset + extra), size: 8, at: n + extra - 32, in: &bytes)
      }
    }
    // The checksums made to match again.
    let m = bytes.count
    let table = Int(truncatingIfNeeded: get(8, at: m - 32, in: bytes))
    if table >= 0, table <= m - 32 {
      put(UInt64(crc32(bytes[table..<(m - 32)])), size: 4, at: m - 16, in: &bytes)
    }
    let generatorLength = Int(get(4, at: 12, in: bytes))
    if 20 + generatorLength <= m {
      put(UInt64(crc32(bytes[20..<(20 + generatorLength)])), size: 4, at: 16, in: &bytes)
    }
  }
  return bytes
}

runFuzzer { bytes in
  var choices = Choices(bytes)
  let page = mutated(ModelSeed.page(), &choices)
  let data = CompactModel.encode(Document(pages: [page]), generator: generator)
  let file = Data(damaged(data, &choices))
  let paged = try? PagedFuzzing.compactPages(file)
  let whole = try? CompactModel.decode(file)
  precondition(paged == whole, "the paged and the whole compact readers disagree")
  if let whole { checkAccepted(whole) }
}
