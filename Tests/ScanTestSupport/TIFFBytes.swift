/// Builds little-endian TIFF files byte by byte, for tests of hostile and
/// unusual files: looping page lists, pages that lie about their size,
/// pages whose data is missing, tiled pages.
public struct TIFFBytes {
  /// One page: 8-bit gray pixels, row by row, or only a claimed size.
  public struct Page {
    public var width: Int
    public var height: Int
    /// `width × height` gray values; empty for a page whose data is left
    /// out (its header claims data past the end of the file).
    public var pixels: [UInt8]
    /// Tiles of this size instead of one strip; `nil` for a strip.
    public var tileSize: Int?
    /// The resolution tag in dots per inch; `nil` for none.
    public var dpi: Int?

    public init(
      width: Int, height: Int, pixels: [UInt8], tileSize: Int? = nil, dpi: Int? = nil
    ) {
      self.width = width
      self.height = height
      self.pixels = pixels
      self.tileSize = tileSize
      self.dpi = dpi
    }

    /// A white page with a black square in the middle.
    public static func square(width: Int = 64, height: Int = 64, dpi: Int? = nil) -> Page {
      var pixels = [UInt8](repeating: 255, count: width * height)
      for y in height / 4..<height * 3 / 4 {
        for x in width / 4..<width * 3 / 4 { pixels[y * width + x] = 0 }
      }
      return Page(width: width, height: height, pixels: pixels, dpi: dpi)
    }

    /// A page that claims `width × height` pixels and has no data.
    public static func claiming(width: Int, height: Int) -> Page {
      Page(width: width, height: height, pixels: [])
    }
  }

  public var pages: [Page]
  /// The page whose next-page offset points back, and to which page; `nil`
  /// for a list that ends.
  public var loop: (from: Int, to: Int)?

  public init(pages: [Page], loop: (from: Int, to: Int)? = nil) {
    self.pages = pages
    self.loop = loop
  }

  /// The file.
  public var bytes: [UInt8] {
    var out: [UInt8] = [0x49, 0x49, 42, 0, 0, 0, 0, 0]
    func put16(_ v: Int, at i: Int) {
      out[i] = UInt8(v & 0xFF)
      out[i + 1] = UInt8(v >> 8 & 0xFF)
    }
    func put32(_ v: Int, at i: Int) {
      for k in 0..<4 { out[i + k] = UInt8(v >> (8 * k) & 0xFF) }
    }
    func align() { if out.count % 2 == 1 { out.append(0) } }
    var ifdOffsets: [Int] = []
    var nextFields: [Int] = []
    for page in pages {
      // The image data first: one strip, or tiles in rows.
      var dataOffsets: [Int] = []
      var dataCounts: [Int] = []
      align()
      if page.pixels.isEmpty {
        dataOffsets = [0x7FFF_0000]
        dataCounts = [page.width * page.height]
      } else if let tile = page.tileSize {
        for ty in stride(from: 0, to: page.height, by: tile) {
          for tx in stride(from: 0, to: page.width, by: tile) {
            dataOffsets.append(out.count)
            for y in ty..<ty + tile {
              for x in tx..<tx + tile {
                out.append(
                  x < page.width && y < page.height ? page.pixels[y * page.width + x] : 255)
              }
            }
            dataCounts.append(tile * tile)
          }
        }
      } else {
        dataOffsets = [out.count]
        out += page.pixels
        dataCounts = [page.pixels.count]
      }
      // Arrays of offsets and counts that do not fit in an entry.
      align()
      let offsetsArray = out.count
      for v in dataOffsets { out += [0, 0, 0, 0]; put32(v, at: out.count - 4) }
      let countsArray = out.count
      for v in dataCounts { out += [0, 0, 0, 0]; put32(v, at: out.count - 4) }
      let resolution = out.count
      out += [0, 0, 0, 0, 1, 0, 0, 0]
      put32(page.dpi ?? 0, at: resolution)

      var entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
        (256, 4, 1, page.width), (257, 4, 1, page.height), (258, 3, 1, 8), (259, 3, 1, 1),
        (262, 3, 1, 1),
      ]
      let many = dataOffsets.count > 1
      if let tile = page.tileSize {
        entries += [
          (277, 3, 1, 1), (322, 3, 1, tile), (323, 3, 1, tile),
          (324, 4, dataOffsets.count, many ? offsetsArray : dataOffsets[0]),
          (325, 4, dataCounts.count, many ? countsArray : dataCounts[0]),
        ]
      } else {
        entries += [
          (273, 4, 1, dataOffsets[0]), (277, 3, 1, 1), (278, 4, 1, page.height),
          (279, 4, 1, dataCounts[0]),
        ]
      }
      if page.dpi != nil {
        entries += [(282, 5, 1, resolution), (283, 5, 1, resolution), (296, 3, 1, 2)]
      }
      entries.sort { $0.tag < $1.tag }
      align()
      ifdOffsets.append(out.count)
      out += [0, 0]
      put16(entries.count, at: out.count - 2)
      for e in entries {
        out += [UInt8](repeating: 0, count: 12)
        let at = out.count - 12
        put16(e.tag, at: at)
        put16(e.type, at: at + 2)
        put32(e.count, at: at + 4)
        if e.type == 3 && e.count == 1 {
          put16(e.value, at: at + 8)
        } else {
          put32(e.value, at: at + 8)
        }
      }
      nextFields.append(out.count)
      out += [0, 0, 0, 0]
    }
    put32(ifdOffsets.first ?? 0, at: 4)
    for k in 0..<pages.count {
      var next = k + 1 < pages.count ? ifdOffsets[k + 1] : 0
      if let loop, loop.from == k { next = ifdOffsets[loop.to] }
      put32(next, at: nextFields[k])
    }
    return out
  }
}
