import Testing

@testable import ScanModel

/// Tables found from aligned whitespace (no grid of rules), and the pages
/// they must not be found on.
struct AlignedTableTests {
  /// A line of words 30 px high on baseline `y`: each word 16 px a
  /// character, single spaces (8 px) between words.
  static func line(_ words: [String], x: Int, y: Int) -> TextLine {
    var left = x
    var out: [Word] = []
    for text in words {
      let box = PixelRect(minX: left, minY: y - 24, maxX: left + 16 * text.count, maxY: y + 6)
      out.append(Word(text: text, bbox: box, confidence: 90))
      left = box.maxX + 8
    }
    let box = PixelRect.union(out.map(\.bbox)) ?? PixelRect(minX: x, minY: y, maxX: x, maxY: y)
    return TextLine(
      bbox: box,
      baseline: Baseline(
        start: Point(x: Double(box.minX), y: Double(y)),
        end: Point(x: Double(box.maxX), y: Double(y))),
      words: out)
  }

  static func paragraph(_ lines: [TextLine], role: ParagraphRole = .body) -> Paragraph {
    Paragraph(bbox: PixelRect.union(lines.map(\.bbox)) ?? lines[0].bbox, lines: lines, role: role)
  }

  static func block(_ paragraphs: [Paragraph]) -> Block {
    Block(
      bbox: PixelRect.union(paragraphs.map(\.bbox)) ?? paragraphs[0].bbox, paragraphs: paragraphs)
  }

  /// Columns of the table at these x, rows 80 px apart from y = 400.
  static let columnX = [200, 600, 1000]
  static let cells = [
    ["Species", "Weight", "Status"],
    ["Barley", "12.5", "done"],
    ["Dry sedge", "-0.75", "sent"],
    ["Lupin", "+130.168", "new"],
  ]

  /// An unruled table as Tesseract reads it: one block a column (its
  /// cells one paragraph), under a paragraph of running text.
  static var tablePage: [Block] {
    let above = paragraph([
      line(
        [
          "The", "table", "lists", "the", "figures", "recorded", "by", "the", "station", "this",
          "year.",
        ],
        x: 200, y: 300)
    ])
    var blocks = [block([above])]
    for (j, x) in columnX.enumerated() {
      let lines = cells.enumerated().map { i, row in
        line(row[j].split(separator: " ").map(String.init), x: x, y: 400 + 80 * i)
      }
      blocks.append(block([paragraph(lines)]))
    }
    return blocks
  }

  /// A line in a fixed-pitch face (a receipt's): every character takes 14
  /// px, its ink 8 px of them, words 16 px high, a space between words;
  /// so the ink of two words is 18 px apart, more than their height.
  static func typed(_ words: [String], column: Int, y: Int) -> TextLine {
    var x = 20 + 14 * column
    var out: [Word] = []
    for text in words {
      let glyphs = text.enumerated().map { k, c in
        Glyph(
          text: String(c),
          bbox: PixelRect(minX: x + 14 * k + 3, minY: y - 16, maxX: x + 14 * k + 11, maxY: y))
      }
      let box = PixelRect.union(glyphs.map(\.bbox)) ?? PixelRect(minX: x, minY: y, maxX: x, maxY: y)
      out.append(Word(text: text, bbox: box, confidence: 90, glyphs: glyphs))
      x += 14 * (text.count + 1)
    }
    let box = PixelRect.union(out.map(\.bbox)) ?? PixelRect(minX: x, minY: y, maxX: x, maxY: y)
    return TextLine(
      bbox: box,
      baseline: Baseline(
        start: Point(x: Double(box.minX), y: Double(y)),
        end: Point(x: Double(box.maxX), y: Double(y))),
      words: out)
  }

  /// `receipts-9101` (a check seed of the gate, not tuned on): a receipt in
  /// a fixed-pitch face, whose address lines Tesseract read a word a line
  /// ("202" "Mill" "Road" over "TEL" "701" "2326", their letters in the
  /// same places). A space between words of that face is wider than the
  /// words are high, so each word was a segment, the address made three
  /// columns, and the items and prices below became four columns whose
  /// rows ran together (reading-order CER 0.38 against Tesseract's
  /// 0.003). On a page set at a fixed pitch, one space parts no columns.
  @Test func oneSpaceOfAFixedPitchFacePartsNoColumns() throws {
    var lines: [TextLine] = []
    for (k, word) in ["202", "Mill", "Road"].enumerated() {
      lines.append(Self.typed([word], column: 14 + [0, 4, 9][k], y: 114))
    }
    for (k, word) in ["TEL", "701", "2326"].enumerated() {
      lines.append(Self.typed([word], column: 14 + [0, 4, 9][k], y: 146))
    }
    let items = [
      ("HONEY 340G", "8.33"), ("SPINACH 200G", "9.08"), ("BUTTER UNSALTED", "2.50"),
      ("MILK 4L", "5.36"), ("CHICKEN BREAST", "1.45"), ("ORANGE JUICE", "16.76"),
    ]
    for (i, item) in items.enumerated() {
      let y = 235 + 33 * i
      lines.append(Self.typed(item.0.split(separator: " ").map(String.init), column: 0, y: y))
      lines.append(Self.typed([item.1], column: 37 - item.1.count, y: y))
    }
    let blocks = lines.map { Self.block([Self.paragraph([$0])]) }
    let tables = AlignedTables.tables(in: blocks)
    let table = try #require(tables.first)
    #expect(tables.count == 1)
    #expect(table.columns == 2, "\(table.columns) columns")
    #expect(table.rows >= items.count)
  }

  /// A line of a page as Tesseract read it: its words' text and boxes
  /// (`[x0, y0, x1, y1]`), confidence 90.
  static func readLine(_ words: [(String, [Int])]) -> TextLine {
    let out = words.map { text, b in
      Word(
        text: text, bbox: PixelRect(minX: b[0], minY: b[1], maxX: b[2], maxY: b[3]),
        confidence: 90)
    }
    return TextLine(bbox: PixelRect.union(out.map(\.bbox)) ?? out[0].bbox, words: out)
  }

  /// A form printed from HTML (labels beside their filled-in values,
  /// under a title as wide as both columns; then headings, ticked boxes
  /// and a paragraph whose first line runs far past the values' column),
  /// as Tesseract reads it at 300 dpi: its blocks, paragraphs, lines and
  /// words (text and box).
  static let formPage: [[[[(String, [Int])]]]] = [
    [
      [
        [
          ("Application", [226, 225, 641, 301]), ("for", [663, 224, 767, 284]),
          ("a", [791, 244, 829, 284]), ("Reader's", [852, 225, 1163, 284]),
          ("Ticket", [1186, 225, 1410, 284]),
        ]
      ]
    ],
    [
      [
        [("Surname", [259, 375, 432, 409]), ("Fletcher", [910, 373, 1072, 409])]
      ],
      [
        [
          ("Given", [258, 471, 378, 505]), ("names", [392, 480, 517, 505]),
          ("Anna", [909, 471, 1015, 505]), ("Maria", [1030, 471, 1147, 505]),
        ]
      ],
      [
        [
          ("Date", [258, 566, 349, 600]), ("of", [365, 564, 405, 600]),
          ("birth", [417, 564, 511, 600]), ("14/07/1986", [912, 566, 1134, 600]),
        ]
      ],
      [
        [
          ("Address", [257, 655, 419, 706]), ("27", [910, 661, 957, 694]),
          ("Harbour", [972, 659, 1137, 695]), ("Road,", [1151, 659, 1265, 701]),
          ("Portsmouth", [1282, 659, 1510, 695]),
        ],
        [
          ("Postcode", [258, 754, 435, 790]), ("PO1", [910, 756, 994, 790]),
          ("3QT", [1012, 756, 1100, 797]),
        ],
      ],
      [
        [("Email", [258, 846, 375, 900]), ("anna.fletcher@example.org", [910, 850, 1460, 896])],
        [
          ("Occupation", [258, 942, 486, 995]), ("Local", [910, 945, 1021, 981]),
          ("historian", [1035, 945, 1208, 981]),
        ],
      ],
    ],
    [
      [
        [
          ("Purpose", [226, 1066, 413, 1114]), ("of", [430, 1064, 474, 1103]),
          ("research", [488, 1064, 682, 1103]),
        ],
        [("Family", [287, 1149, 403, 1187]), ("history", [414, 1149, 529, 1187])],
        [
          ("a", [225, 1221, 275, 1283]), ("Academic", [283, 1236, 450, 1266]),
          ("study", [464, 1236, 552, 1274]),
        ],
      ]
    ],
    [
      [
        [("Ef]", [221, 1304, 280, 1374]), ("Other", [287, 1323, 380, 1353])]
      ]
    ],
    [
      [
        [("Declaration", [226, 1424, 495, 1463])]
      ]
    ],
    [
      [
        [
          ("Rows", [226, 1507, 319, 1535]), ("rows", [334, 1514, 412, 1535]),
          ("letter", [427, 1505, 511, 1535]), ("explain", [525, 1505, 646, 1543]),
          ("the", [661, 1505, 709, 1535]), ("text", [724, 1511, 785, 1535]),
          ("and", [799, 1505, 857, 1535]), ("that", [872, 1505, 932, 1535]),
          ("outlives", [947, 1505, 1076, 1535]), ("a", [1091, 1514, 1108, 1535]),
          ("the", [1122, 1505, 1170, 1535]), ("a.", [1186, 1514, 1211, 1535]),
          ("A", [1224, 1506, 1253, 1534]), ("formats", [1266, 1505, 1390, 1535]),
          ("the", [1405, 1505, 1453, 1535]), ("author", [1469, 1505, 1573, 1535]),
          ("the", [1587, 1505, 1636, 1535]), ("the", [1651, 1505, 1699, 1535]),
          ("that", [1714, 1505, 1775, 1535]), ("reader", [1789, 1505, 1892, 1535]),
          ("every", [1906, 1514, 1997, 1543]), ("stand", [2011, 1505, 2097, 1535]),
          ("turns", [2111, 1511, 2192, 1535]), ("it", [2207, 1506, 2229, 1535]),
          ("turns", [2243, 1511, 2323, 1535]),
        ],
        [("pixels", [226, 1562, 323, 1600]), ("of.", [336, 1562, 377, 1592])],
      ]
    ],
    [
      [
        [("Signature", [228, 1644, 383, 1681]), ("Date", [823, 1645, 899, 1673])]
      ]
    ],

  ]

  /// The title's width let the form's run of rows go on through the
  /// paragraph under it, and the paragraph's first line became a cell
  /// spanning both columns, cut in two at the table's side: the part past
  /// it a paragraph of its own, read after the form's last row (CER 0.138
  /// against Tesseract's 0.018). A line reaching past a table's side is
  /// no row of it: the table ends above.
  @Test func aLineRunningPastATablesSideEndsTheTable() throws {
    let blocks = Self.formPage.map { paragraphs in
      Self.block(
        paragraphs.map { lines in
          Self.paragraph(
            lines.map(Self.readLine))
        })
    }
    let prose = try #require(
      blocks.flatMap(\.paragraphs).flatMap(\.lines).first { $0.words.first?.text == "Rows" })
    let tables = AlignedTables.tables(in: blocks)
    let table = try #require(tables.first)
    #expect(table.columns == 2, "\(table.columns) columns")
    #expect(table.rows >= 7)
    for found in tables {
      let bounds = try #require(found.bounds)
      #expect(
        bounds.maxY <= prose.bbox.minY || bounds.minY >= prose.bbox.maxY,
        "a table \(bounds) holds part of the line \(prose.bbox)")
    }
  }

  /// A paper's page printed from HTML, as Tesseract reads it at 300 dpi
  /// (paragraphs, lines, words): two columns of prose, then a
  /// table of four columns centred across the page's column gutter under
  /// its caption, which Tesseract read as two blocks, the columns left and
  /// right of the gutter.
  static let paperPage: [[[(String, [Int])]]] = [
    [
      [
        ("Reading", [230, 224, 548, 302]), ("Order", [580, 224, 803, 285]),
        ("in", [833, 224, 896, 284]), ("Scanned", [927, 224, 1266, 285]),
        ("Documents", [1300, 227, 1745, 285]),
      ]
    ],
    [
      [
        ("A.", [903, 356, 936, 383]), ("Writer", [951, 354, 1055, 384]),
        ("and", [1068, 354, 1130, 384]), ("B.", [1147, 356, 1178, 383]),
        ("Reader,", [1195, 354, 1327, 388]), ("Institute", [1345, 354, 1479, 384]),
        ("of", [1493, 354, 1524, 384]), ("Pages", [1538, 356, 1646, 391]),
      ]
    ],
    [
      [
        ("Abstract.", [226, 432, 394, 462]), ("Maintenance", [414, 432, 636, 462]),
        ("follows", [652, 432, 771, 462]), ("the", [788, 432, 840, 462]),
        ("it", [859, 432, 876, 461]), ("for", [891, 432, 936, 462]),
        ("appears", [952, 440, 1092, 469]), ("keep", [1111, 432, 1192, 469]),
        ("type", [1209, 435, 1281, 469]), ("below.", [1300, 432, 1406, 462]),
        ("Would", [1424, 432, 1533, 462]), ("in", [1552, 432, 1578, 461]),
        ("centuries", [1596, 432, 1754, 462]), ("is", [1772, 432, 1797, 461]),
        ("eye", [1814, 440, 1874, 469]), ("the", [1891, 432, 1944, 462]),
        ("before", [1962, 432, 2070, 462]), ("paper", [2089, 440, 2187, 469]),
        ("marker", [2204, 432, 2324, 462]),
      ],
      [
        ("turns", [226, 490, 312, 516]), ("the", [325, 486, 377, 516]),
        ("reads", [393, 486, 488, 516]), ("must", [503, 489, 585, 516]),
        ("text.", [597, 489, 668, 516]), ("Questions", [684, 486, 859, 523]),
        ("eye", [873, 494, 934, 523]), ("paper", [949, 494, 1047, 523]),
        ("in", [1061, 486, 1087, 515]), ("columns", [1102, 486, 1247, 516]),
        ("can", [1261, 494, 1320, 516]), ("footnote", [1334, 486, 1475, 516]),
        ("for", [1488, 486, 1533, 516]), ("keep", [1547, 486, 1629, 523]),
        ("each.", [1643, 486, 1735, 516]),
      ],
    ],
    [
      [("1", [228, 609, 254, 646]), ("Introduction", [274, 607, 583, 647])]
    ],
    [
      [
        ("Text", [226, 689, 297, 717]), ("for", [328, 687, 373, 716]),
        ("down", [406, 687, 496, 717]), ("the", [529, 687, 582, 717]),
        ("the", [614, 687, 667, 717]), ("pixels", [701, 687, 799, 724]),
        ("across", [832, 695, 945, 717]), ("coming", [978, 687, 1102, 724]),
        ("every", [1136, 695, 1231, 724]),
      ],
      [
        ("appears", [227, 749, 367, 778]), ("eye.", [390, 749, 460, 778]),
        ("A", [482, 743, 508, 770]), ("a", [528, 749, 549, 771]), ("into", [572, 741, 632, 771]),
        ("smaller", [655, 741, 781, 771]), ("figures", [803, 741, 919, 778]),
        ("the", [942, 741, 995, 771]), ("layout", [1019, 741, 1122, 778]),
        ("short", [1145, 741, 1231, 771]),
      ],
      [
        ("paragraphs", [228, 794, 424, 831]), ("Tesseract", [465, 796, 633, 824]),
        ("footnote", [673, 794, 814, 824]), ("the", [856, 794, 908, 824]),
        ("year", [950, 802, 1026, 831]), ("approved", [1068, 794, 1229, 831]),
      ],
      [
        ("footnote.", [225, 847, 375, 877]), ("Would", [396, 847, 505, 877]),
        ("while", [525, 847, 613, 877]), ("the", [632, 847, 685, 877]),
        ("layout", [706, 847, 809, 884]), ("reads", [829, 847, 924, 877]),
        ("each", [944, 847, 1026, 877]), ("so", [1046, 855, 1085, 877]),
        ("answer", [1105, 855, 1231, 877]),
      ],
    ],
    [
      [
        ("type", [226, 912, 298, 946]), ("costs", [312, 912, 402, 939]),
        ("at.+", [416, 901, 475, 939]),
      ],
      [
        ("Author", [225, 987, 341, 1017]), ("the", [362, 987, 415, 1017]),
        ("the", [438, 987, 490, 1017]), ("short", [514, 987, 600, 1017]),
        ("scanned", [622, 987, 768, 1017]), ("room", [793, 995, 878, 1017]),
        ("and", [902, 987, 964, 1017]), ("centuries", [988, 987, 1146, 1017]),
        ("into", [1170, 987, 1230, 1017]),
      ],
    ],
    [
      [
        ("them", [225, 1041, 310, 1071]), ("and", [328, 1041, 390, 1071]),
        ("marker", [408, 1041, 528, 1071]), ("that", [542, 1041, 607, 1071]),
        ("the", [621, 1041, 674, 1071]), ("the.", [689, 1041, 751, 1071]),
        ("Page", [771, 1043, 858, 1078]), ("after", [875, 1041, 952, 1071]),
        ("new", [968, 1049, 1038, 1071]), ("it", [1053, 1041, 1070, 1070]),
        ("columns", [1085, 1041, 1230, 1071]),
      ],
      [
        ("page", [227, 1102, 311, 1131]), ("a", [326, 1102, 346, 1124]),
        ("smaller", [358, 1094, 484, 1124]), ("take", [496, 1094, 569, 1124]),
        ("to", [582, 1097, 613, 1124]), ("running", [628, 1094, 755, 1131]),
        ("for", [769, 1094, 814, 1123]), ("for", [826, 1094, 871, 1124]),
        ("of", [884, 1094, 916, 1124]), ("room.", [929, 1102, 1024, 1124]),
      ],
    ],
    [
      [("2", [1320, 570, 1347, 608]), ("Method", [1367, 569, 1553, 609])]
    ],
    [
      [
        ("Below", [1322, 650, 1426, 680]), ("before", [1448, 650, 1556, 680]),
        ("every", [1578, 658, 1673, 687]), ("of", [1693, 650, 1725, 679]),
        ("paper", [1746, 658, 1844, 687]), ("tool", [1864, 650, 1925, 680]),
        ("the", [1947, 650, 1999, 680]), ("rule", [2023, 650, 2084, 680]),
        ("stand", [2106, 650, 2199, 680]), ("in", [2223, 650, 2249, 679]),
        ("the", [2271, 650, 2323, 680]),
      ],
      [
        ("stand", [1320, 703, 1413, 733]), ("in", [1434, 703, 1460, 732]),
        ("the", [1478, 703, 1531, 733]), ("promise.", [1551, 703, 1697, 740]),
        ("Text", [1716, 705, 1788, 733]), ("that", [1804, 703, 1870, 733]),
        ("the", [1886, 703, 1939, 733]), ("grants", [1958, 706, 2065, 740]),
        ("a", [2084, 711, 2104, 733]), ("in", [2122, 703, 2148, 732]),
        ("reader", [2169, 703, 2280, 733]), ("is", [2299, 703, 2324, 733]),
      ],
      [
        ("coming", [1320, 756, 1444, 793]), ("typed", [1467, 756, 1561, 793]),
        ("that", [1584, 756, 1650, 786]), ("scanned", [1671, 756, 1817, 786]),
        ("letter", [1842, 756, 1927, 786]), ("centuries", [1950, 756, 2107, 786]),
        ("rule", [2131, 756, 2193, 786]), ("prose.", [2218, 764, 2322, 793]),
      ],
    ],
    [
      [
        ("Columns", [1321, 818, 1474, 848]), ("to", [1487, 821, 1517, 847]),
        ("and", [1532, 818, 1594, 848]), ("block", [1609, 818, 1699, 848]),
        ("a", [1706, 806, 1720, 858]), ("follows", [1744, 818, 1863, 848]),
        ("a", [1877, 826, 1897, 847]), ("formats.+", [1909, 810, 2068, 848]),
      ],
      [
        ("The", [1320, 897, 1385, 927]), ("that", [1402, 897, 1467, 927]),
        ("rule", [1484, 897, 1546, 927]), ("follows", [1562, 897, 1681, 927]),
        ("the", [1697, 897, 1750, 927]), ("it", [1768, 897, 1785, 926]),
        ("can", [1801, 905, 1861, 927]), ("and", [1879, 897, 1941, 927]),
        ("the", [1959, 897, 2011, 927]), ("year", [2028, 905, 2104, 934]),
        ("costs", [2120, 901, 2209, 927]), ("and", [2227, 897, 2288, 927]),
        ("it", [2308, 897, 2325, 926]),
      ],
    ],
    [
      [
        ("that", [1319, 950, 1385, 979]), ("the.", [1404, 950, 1466, 980]),
        ("Year", [1489, 952, 1567, 980]), ("must", [1588, 953, 1671, 980]),
        ("that", [1691, 950, 1756, 980]), ("time", [1775, 950, 1848, 980]),
        ("the", [1869, 950, 1921, 980]), ("smaller", [1943, 950, 2069, 980]),
        ("would", [2088, 950, 2189, 980]), ("a", [2211, 958, 2232, 980]),
        ("type", [2251, 954, 2323, 987]),
      ],
      [
        ("one", [1320, 1011, 1383, 1033]), ("text", [1396, 1007, 1459, 1033]),
        ("room.", [1473, 1011, 1568, 1033]),
      ],
    ],
    [
      [
        ("Table", [944, 1148, 1036, 1178]), ("1:", [1051, 1150, 1078, 1177]),
        ("Pages", [1096, 1150, 1203, 1185]), ("read", [1218, 1148, 1292, 1178]),
        ("and", [1307, 1148, 1369, 1178]), ("errors", [1384, 1156, 1485, 1178]),
        ("found.", [1498, 1148, 1604, 1178]),
      ]
    ],
    [
      [("Set", [878, 1233, 953, 1287]), ("Pages", [1100, 1237, 1242, 1283])],
      [("Books", [880, 1310, 1013, 1347]), ("980", [1163, 1311, 1242, 1347])],
      [("Papers", [880, 1377, 1033, 1431]), ("204", [1163, 1381, 1243, 1417])],
      [("Letters", [880, 1452, 1027, 1488]), ("668", [1163, 1452, 1242, 1488])],
      [("Letters", [880, 1522, 1027, 1558]), ("102", [1164, 1522, 1242, 1558])],
    ],
    [
      [
        ("Words’", [1307, 1236, 1459, 1273]), ("_", [1497, 1232, 1507, 1285]),
        ("Errors", [1527, 1237, 1672, 1273]),
      ],
      [("38507", [1324, 1311, 1459, 1347]), ("0.41", [1579, 1311, 1672, 1347])],
      [("52217", [1325, 1381, 1459, 1417]), ("8.80", [1579, 1381, 1672, 1417])],
      [("22504", [1325, 1452, 1460, 1488]), ("3.79", [1579, 1452, 1672, 1488])],
      [("85483", [1324, 1522, 1459, 1558]), ("5:21", [1579, 1522, 1672, 1558])],
    ],
    [
      [("3", [226, 1633, 253, 1672]), ("Results", [274, 1632, 464, 1672])]
    ],
    [
      [
        ("1", [228, 1858, 242, 1881]), ("Year", [253, 1858, 319, 1881]),
        ("must", [331, 1860, 401, 1881]), ("follows", [411, 1857, 511, 1881]),
        ("scanned", [523, 1857, 645, 1881]), ("table", [657, 1857, 727, 1881]),
        ("promise", [740, 1857, 855, 1888]), ("pixels", [868, 1857, 950, 1888]),
      ],
      [
        ("numbers", [227, 1902, 353, 1926]), ("layout", [366, 1902, 453, 1933]),
        ("below", [464, 1902, 549, 1926]), ("marker", [561, 1902, 662, 1926]),
        ("travel.", [672, 1902, 759, 1926]),
      ],
    ],
    [
      [
        ("Committee", [1321, 1590, 1508, 1620]), ("prose", [1530, 1598, 1625, 1627]),
        ("aligned", [1646, 1590, 1769, 1627]), ("sits", [1790, 1590, 1847, 1620]),
        ("must", [1868, 1594, 1951, 1620]), ("room", [1972, 1598, 2057, 1620]),
        ("aligned", [2078, 1590, 2202, 1627]), ("the", [2222, 1590, 2275, 1620]),
        ("in", [2297, 1590, 2323, 1619]),
      ],
      [
        ("the.", [1319, 1643, 1381, 1673]), ("Table", [1399, 1643, 1491, 1673]),
        ("block", [1509, 1643, 1598, 1673]), ("is", [1615, 1643, 1639, 1672]),
        ("the", [1655, 1643, 1708, 1673]), ("carries", [1725, 1643, 1841, 1673]),
        ("a", [1857, 1651, 1878, 1673]), ("the", [1892, 1643, 1945, 1673]),
        ("at", [1962, 1646, 1993, 1673]), ("formats", [2008, 1643, 2138, 1673]),
        ("block", [2155, 1643, 2245, 1673]), ("that", [2260, 1643, 2325, 1673]),
      ],
      [
        ("a", [1320, 1704, 1341, 1726]), ("one.", [1361, 1704, 1433, 1726]),
        ("Keep", [1459, 1698, 1547, 1733]), ("follows", [1568, 1696, 1687, 1726]),
        ("while", [1708, 1696, 1796, 1726]), ("take", [1817, 1696, 1890, 1726]),
        ("text", [1911, 1699, 1974, 1726]), ("the", [1994, 1696, 2047, 1726]),
        ("is", [2070, 1696, 2095, 1726]), ("a", [2117, 1704, 2137, 1725]),
        ("Tesseract", [2157, 1698, 2325, 1726]),
      ],
      [
        ("while", [1319, 1750, 1407, 1780]), ("numbers", [1423, 1750, 1573, 1780]),
        ("come", [1587, 1758, 1680, 1780]), ("costs", [1694, 1753, 1784, 1780]),
        ("formats", [1797, 1750, 1927, 1780]), ("year", [1939, 1758, 2015, 1787]),
        ("and.", [2029, 1750, 2100, 1780]),
      ],
    ],
  ]

  /// Only the table's left columns were found, and the caption over the
  /// whole table ("Table 1: Pages read and errors found.") became their
  /// first row, cut in two at their side ("Table 1: Pages" a cell, "read
  /// and errors found." a paragraph read after the cells). A line over a
  /// table's first rows whose middle lies past its side is beside it.
  @Test func aCaptionWhoseMiddleLiesPastTheTablesSideIsNoRowOfIt() throws {
    let blocks = Self.paperPage.map { lines in
      Self.block([
        Self.paragraph(
          lines.map(Self.readLine))
      ])
    }
    let caption = try #require(
      blocks.flatMap(\.paragraphs).flatMap(\.lines).first { $0.words.first?.text == "Table" })
    let tables = AlignedTables.tables(in: blocks)
    #expect(!tables.isEmpty)
    for table in tables {
      let bounds = try #require(table.bounds)
      let cut = bounds.intersection(caption.bbox).map { $0 != caption.bbox } ?? false
      #expect(!cut, "a table \(bounds) holds part of the caption \(caption.bbox)")
    }
  }

  /// Develop `tables-1013`: names of two words make their column as wide
  /// as the widest, so most of them fill it. Two-word entries that fill
  /// the width are no prose (a narrow column of running text holds three
  /// or four words a line): the table is found, beside a column of prose.
  @Test func aColumnOfTwoWordNamesThatFillItIsShort() {
    let rows = [
      ["Sample", "Rate"], ["Sown canary", "296.254"], ["Stored lupin", "39.126"],
      ["Lupin", "4810.953"], ["Warm hedge", "318.668"], ["Spelt", "277.017"],
    ]
    var lines: [TextLine] = []
    for (i, row) in rows.enumerated() {
      let y = 400 + 80 * i
      lines.append(Self.line(row[0].split(separator: " ").map(String.init), x: 200, y: y))
      lines.append(Self.line([row[1]], x: 600, y: y))
    }
    // Prose beside the table on its own line pitch (52 px).
    let prose = (0..<9).map { i in
      Self.line(["the", "seed", "bank", "keeps", "every", "batch"], x: 1100, y: 390 + 52 * i)
    }
    let blocks = [Self.block([Self.paragraph(lines)]), Self.block([Self.paragraph(prose)])]
    let page = Page(width: 2000, height: 1400, blocks: TableCells.composingAligned(blocks))
    let cells = page.blocks.flatMap(\.paragraphs).filter { $0.cell != nil }
    #expect(cells.map { $0.lines.map(\.text).joined(separator: " ") } == rows.flatMap { $0 })
    #expect(!cells.contains { $0.bbox.minX >= 1100 })
  }

  /// PubTabNet's `PMC5198506_004_00`: values given with their errors,
  /// "0.12 ± 0.016", the sign read as a word of its own. A sign standing
  /// alone is no word: the value columns are short, and each row (read
  /// by Tesseract as one line across) is a row of three cells.
  @Test func valuesWithTheirErrorsMakeShortColumns() {
    let rows = [
      ["SIV", "0.12 ± 0.016", "0.20 ± 0.021"], ["HIV", "0.39 ± 0.063", "0.38 ± 0.035"],
      ["FIV", "0.087 ± 0.004", "0.064 ± 0.004"], ["EIAV", "0.20 ± 0.01", "0.17 ± 0.01"],
    ]
    let lines = rows.enumerated().map { i, row in
      let y = 400 + 80 * i
      let parts = zip(Self.columnX, row).map { x, text in
        Self.line(text.split(separator: " ").map(String.init), x: x, y: y)
      }
      let words = parts.flatMap(\.words)
      let box = PixelRect.union(words.map(\.bbox)) ?? parts[0].bbox
      return TextLine(bbox: box, baseline: parts[0].baseline, words: words)
    }
    let page = Page(
      width: 2000, height: 1400,
      blocks: TableCells.composingAligned([Self.block([Self.paragraph(lines)])]))
    let cells = page.blocks.flatMap(\.paragraphs).filter { $0.cell != nil }
    #expect(cells.map { $0.lines.map(\.text).joined(separator: " ") } == rows.flatMap { $0 })
    #expect(
      cells.compactMap(\.cell?.column) == Array(repeating: [0, 1, 2], count: 4).flatMap { $0 })
    #expect(AlignedTables.isSign("±") && AlignedTables.isSign("+") && AlignedTables.isSign("–"))
    #expect(
      !AlignedTables.isSign("0.12") && !AlignedTables.isSign("(b)") && !AlignedTables.isSign(""))
  }

  @Test func anUnruledTableIsReadRowByRowWithEveryWord() {
    let blocks = Self.tablePage
    let composed = TableCells.composingAligned(blocks)
    let page = Page(width: 1400, height: 1000, blocks: composed)
    let cells = page.blocks.flatMap(\.paragraphs).filter { $0.cell != nil }
    #expect(cells.map { $0.lines.map(\.text).joined(separator: " ") } == Self.cells.flatMap { $0 })
    #expect(
      cells.compactMap(\.cell)
        == (0..<4).flatMap { i in
          (0..<3).map { TableCellPosition(row: i, column: $0, isHeader: i == 0) }
        })
    #expect(cells.allSatisfy { $0.role == .tableCell })
    // The paragraph above is not a cell, and is read first.
    let first = page.blocks.first?.paragraphs.first
    #expect(first?.cell == nil)
    #expect(first?.lines.first?.words.first?.text == "The")
    // Nothing lost, nothing added.
    func words(_ blocks: [Block]) -> [String] {
      blocks.flatMap(\.paragraphs).flatMap(\.lines).flatMap(\.words).map(\.text).sorted()
    }
    #expect(words(composed) == words(blocks))
  }

  /// An unruled table of words whose first row is set bold (its words'
  /// strokes 1.6 times as thick for their size): composed with the
  /// strokes measured, the first row's cells are header cells; without,
  /// no cell is (a table of words has no header told from its text).
  @Test func aBoldFirstRowOfATableOfWordsIsItsHeader() {
    let rows = [
      ["Plant", "Use", "Grown"], ["Barley", "cereal", "north"], ["Woad", "dye", "east"],
      ["Flax", "fibre", "west"], ["Hemp", "rope", "south"],
    ]
    var blocks: [Block] = []
    for (j, x) in Self.columnX.enumerated() {
      let lines = rows.enumerated().map { i, row in Self.line([row[j]], x: x, y: 400 + 80 * i) }
      blocks.append(Self.block([Self.paragraph(lines)]))
    }
    let header = Set(rows[0])
    let strokes = TableInk(strokeWidth: { header.contains($0.text) ? 4.8 : 3 }) { _, _ in 0 }
    func headerTexts(_ blocks: [Block]) -> [String] {
      blocks.flatMap(\.paragraphs).filter { $0.cell?.isHeader == true }.flatMap(\.lines)
        .flatMap(\.words).map(\.text)
    }
    let measured = TableCells.composingAligned(blocks, ink: strokes)
    #expect(measured.flatMap(\.paragraphs).filter { $0.cell != nil }.count == 15)
    #expect(headerTexts(measured) == rows[0])
    #expect(headerTexts(TableCells.composingAligned(blocks)).isEmpty)
  }

  /// A table set as journals set them: rules over and under it and one
  /// under its two header rows, the body open. The second header row
  /// ("2019", "2020") reads as numbers: told by the text alone the header
  /// is one row; the rule under the second row (the image's ink fills a
  /// pixel row across the table there, nowhere else between rows) makes
  /// both header rows.
  @Test func theRuleUnderTheHeaderEndsIt() {
    let rows = [
      ["Crop", "Yield", "Yield"], ["", "2019", "2020"], ["Barley", "12.5", "13.1"],
      ["Oats", "9.5", "8.75"], ["Rye", "4.25", "5.5"], ["Flax", "3.5", "2.25"],
    ]
    var blocks: [Block] = []
    for (j, x) in Self.columnX.enumerated() {
      let lines = rows.enumerated().compactMap { i, row in
        row[j].isEmpty ? nil : Self.line([row[j]], x: x, y: 400 + 80 * i)
      }
      blocks.append(Self.block([Self.paragraph(lines)]))
    }
    // Rows' ink from y − 24 to y + 6: the rule halfway between rows 1 and 2.
    let rule = 400 + 80 + 6 + 25
    let ruled = TableInk(strokeWidth: { _ in 3 }) { band, _ in
      band.minY <= rule && rule < band.maxY ? 1 : 0.2
    }
    func headerRows(_ blocks: [Block]) -> Set<Int> {
      Set(blocks.flatMap(\.paragraphs).compactMap(\.cell).filter(\.isHeader).map(\.row))
    }
    let measured = TableCells.composingAligned(blocks, ink: ruled)
    #expect(measured.flatMap(\.paragraphs).filter { $0.cell != nil }.count == 17)
    #expect(headerRows(measured) == [0, 1])
    #expect(headerRows(TableCells.composingAligned(blocks)) == [0])
    // Ink across every gap (a grid ruled between every row) tells nothing.
    let grid = TableInk(strokeWidth: { _ in 3 }) { _, _ in 1 }
    #expect(headerRows(TableCells.composingAligned(blocks, ink: grid)) == [0])
  }

  @Test func aCellsWordLosesTheSpaceTesseractReadBeforeIt() {
    // Tesseract's LSTM may read a one-pixel space glyph before a word
    // after a wide gap (` +130.168`); its TSV has `+130.168`.
    var blocks = Self.tablePage
    let i = blocks[2].paragraphs[0].lines.count - 1
    blocks[2].paragraphs[0].lines[i].words[0].text = " +130.168"
    let cells = TableCells.composingAligned(blocks).flatMap(\.paragraphs).filter {
      $0.cell != nil
    }
    #expect(
      cells.map { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") }
        == Self.cells.flatMap { $0 })
  }

  @Test func aCellOfSeveralLinesStaysOneCell() {
    // Column 1 holds running words broken over three lines in row 1.
    let rows: [[(String, Int)]] = [
      [("Code", 400), ("Remarks", 400)],
      [("Rye", 480), ("Sown", 480), ("early", 530), ("Orchard", 580)],
      [("Flax", 660), ("Kept", 660)],
      [("Oats", 740), ("Lost", 740)],
    ]
    var left: [TextLine] = []
    var right: [TextLine] = []
    for row in rows {
      left.append(Self.line([row[0].0], x: 200, y: row[0].1))
      for (text, y) in row.dropFirst() {
        if let i = right.firstIndex(where: { Int($0.baseline?.start.y ?? 0) == y }) {
          right[i] = Self.line(right[i].words.map(\.text) + [text], x: 600, y: y)
        } else {
          right.append(Self.line([text], x: 600, y: y))
        }
      }
    }
    let blocks = [Self.block([Self.paragraph(left)]), Self.block([Self.paragraph(right)])]
    let composed = TableCells.composingAligned(blocks)
    let cells = composed.flatMap(\.paragraphs).filter { $0.cell != nil }
    #expect(
      cells.map { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") } == [
        "Code", "Remarks", "Rye", "Sown early Orchard", "Flax", "Kept", "Oats", "Lost",
      ])
    #expect(cells[3].cell == TableCellPosition(row: 1, column: 1))
    #expect(cells[3].lines.count == 3)
  }

  /// A receipt (develop `receipts` 1002, 1005): items and prices in two
  /// columns set flush left and flush right, a quantity line indented
  /// under some items, and the shop's name read by Tesseract in one
  /// paragraph with the first row. The indented line leaves its column's
  /// alignment, so it is a row of its own after its item's price, not a
  /// second line of the item's cell; the shop's name stays before the
  /// table.
  @Test func anIndentedLineUnderACellIsARowOfItsOwn() {
    let items: [(String, String, String?)] = [
      ("Butter", "37.32", "3 @ 12.44"), ("Coffee beans", "9.83", nil), ("Tea", "9.02", nil),
      ("Bananas", "20.06", "2 @ 10.03"), ("Milk", "7.04", nil),
    ]
    var lines = [Self.line(["Wiki", "Stores"], x: 300, y: 150)]
    var y = 300
    for (item, price, quantity) in items {
      let priceX = 1000 - 16 * price.count
      lines.append(
        TextLine.joined(
          Self.line(item.split(separator: " ").map(String.init), x: 200, y: y),
          Self.line([price], x: priceX, y: y)))
      y += 44
      if let quantity {
        lines.append(Self.line(quantity.split(separator: " ").map(String.init), x: 260, y: y))
        y += 44
      }
    }
    let blocks = [Self.block([Self.paragraph(lines)])]
    let composed = TableCells.composingAligned(blocks)
    let paragraphs = composed.flatMap(\.paragraphs)
    #expect(paragraphs.first?.cell == nil)
    #expect(paragraphs.first?.lines.flatMap(\.words).map(\.text) == ["Wiki", "Stores"])
    let cells = paragraphs.filter { $0.cell != nil }
    #expect(
      cells.map { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") } == [
        "Butter", "37.32", "3 @ 12.44", "Coffee beans", "9.83", "Tea", "9.02", "Bananas",
        "20.06", "2 @ 10.03", "Milk", "7.04",
      ])
    #expect(cells[2].cell == TableCellPosition(row: 1, column: 0))
  }

  /// A header with a group title over two columns (develop `tables`
  /// 1047): "Field trials" over "Grade" and "Score", "Origin" and "Site"
  /// beside it over both header rows.
  static let groupedRows: [[(String, Int)]] = [
    [("Origin", 0), ("Site", 1), ("Field trials", 2)],
    [("Grade", 2), ("Score", 3)],
    [("South", 0), ("+483.61", 1), ("+8.3", 2), ("-6.50", 3)],
    [("Spelt", 0), ("12.5", 1), ("-0.75", 2), ("+1.20", 3)],
    [("Woad", 0), ("7.25", 1), ("+3.1", 2), ("-2.00", 3)],
  ]

  static func groupedPage(_ rows: [[(String, Int)]]) -> [Block] {
    let xs = [200, 600, 1000, 1400]
    var columns = Array(repeating: [TextLine](), count: xs.count)
    for (i, row) in rows.enumerated() {
      for (text, j) in row {
        columns[j].append(
          Self.line(text.split(separator: " ").map(String.init), x: xs[j], y: 400 + 80 * i))
      }
    }
    return columns.map { Self.block([Self.paragraph($0)]) }
  }

  @Test func headersBesideAGroupTitleSpanBothHeaderRows() {
    let cells = TableCells.composingAligned(Self.groupedPage(Self.groupedRows)).flatMap(
      \.paragraphs
    ).filter { $0.cell != nil }
    #expect(
      cells.prefix(5).map { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") } == [
        "Origin", "Site", "Field trials", "Grade", "Score",
      ])
    #expect(
      cells.prefix(6).compactMap(\.cell) == [
        TableCellPosition(row: 0, column: 0, rowSpan: 2, isHeader: true),
        TableCellPosition(row: 0, column: 1, rowSpan: 2, isHeader: true),
        TableCellPosition(row: 0, column: 2, columnSpan: 2, isHeader: true),
        TableCellPosition(row: 1, column: 2, isHeader: true),
        TableCellPosition(row: 1, column: 3, isHeader: true),
        TableCellPosition(row: 2, column: 0),
      ])
    #expect(cells.count == 17)
  }

  @Test func aBodyRowWithAnEmptyCellSpansNothing() {
    // The second row's first cells are empty: its filled columns have a
    // header each, no title over them.
    var rows = Self.groupedRows
    rows[0] = [("Origin", 0), ("Site", 1), ("Grade", 2), ("Score", 3)]
    let cells = TableCells.composingAligned(Self.groupedPage(rows)).flatMap(\.paragraphs)
      .compactMap(\.cell)
    #expect(!cells.isEmpty)
    #expect(cells.allSatisfy { $0.rowSpan == 1 && $0.columnSpan == 1 })
  }

  /// PubTabNet's `PMC5402779_004_00`: "Male" and "Female" each centred
  /// over a "%" column and a "95% CI" column, so over the gap between the
  /// two, "Variable" beside them over both header rows. Each title is
  /// one cell spanning its two columns (it lay over one column's gap side
  /// only and was a cell of the column it touched, beside an empty one).
  @Test func aTitleCentredOverTwoColumnsSpansBoth() {
    // Left edges of the five columns, set flush left; each title centred
    // over its two columns, so over the gap between them, reaching a
    // little into the second column.
    let xs = [200, 600, 760, 1100, 1260]
    let rows: [[(text: String, x: Int, block: Int)]] = [
      [("Variable", xs[0], 0), ("Male", 704, 2), ("Female", 1188, 4)],
      [("%", xs[1], 1), ("95% CI", xs[2], 2), ("%", xs[3], 3), ("95% CI", xs[4], 4)],
      [("Sensitivity", xs[0], 0), ("39.13", xs[1], 1), ("31.55 to 47.12", xs[2], 2)]
        + [("37.50", xs[3], 3), ("30.49 to 44.92", xs[4], 4)],
      [("Specificity", xs[0], 0), ("93.92", xs[1], 1), ("92.68 to 95.00", xs[2], 2)]
        + [("92.42", xs[3], 3), ("91.18 to 93.54", xs[4], 4)],
      [("Prevalence", xs[0], 0), ("8.61", xs[1], 1), ("7.37 to 9.97", xs[2], 2)]
        + [("8.36", xs[3], 3), ("7.23 to 9.59", xs[4], 4)],
    ]
    var blocks = Array(repeating: [TextLine](), count: xs.count)
    for (i, row) in rows.enumerated() {
      for cell in row {
        blocks[cell.block].append(
          Self.line(cell.text.split(separator: " ").map(String.init), x: cell.x, y: 400 + 80 * i))
      }
    }
    let cells = TableCells.composingAligned(blocks.map { Self.block([Self.paragraph($0)]) })
      .flatMap(\.paragraphs).filter { $0.cell != nil }
    func cell(_ text: String) -> TableCellPosition? {
      cells.first { $0.lines.flatMap(\.words).map(\.text).joined(separator: " ") == text }?.cell
    }
    #expect(cell("Variable") == TableCellPosition(row: 0, column: 0, rowSpan: 2, isHeader: true))
    #expect(cell("Male") == TableCellPosition(row: 0, column: 1, columnSpan: 2, isHeader: true))
    #expect(cell("Female") == TableCellPosition(row: 0, column: 3, columnSpan: 2, isHeader: true))
    #expect(cell("95% CI") == TableCellPosition(row: 1, column: 2, isHeader: true))
    #expect(cell("Sensitivity") == TableCellPosition(row: 2, column: 0))
    #expect(cell("30.49 to 44.92") == TableCellPosition(row: 2, column: 4))
    // Every place of the table is one cell's: 3 in the first row, 4 in
    // the second, 5 in each of the three body rows.
    #expect(cells.count == 3 + 4 + 15)
  }

  @Test func twoColumnsOfProseAreNoTable() {
    // Two columns of running text whose lines stand on the same baselines.
    let text = [
      "For", "software", "which", "is", "copyrighted", "by", "the", "Free", "Software",
      "Foundation,", "write", "to", "the", "Foundation;", "we", "sometimes", "make",
    ]
    func column(_ x: Int) -> Block {
      let lines = (0..<12).map { i in
        Self.line(Array(text[(i % 5)...].prefix(5)), x: x, y: 300 + 50 * i)
      }
      return Self.block([Self.paragraph(lines)])
    }
    let blocks = [column(200), column(1100)]
    #expect(AlignedTables.tables(in: blocks).isEmpty)
    #expect(TableCells.composingAligned(blocks) == blocks)
  }

  @Test func aListIsNoTable() {
    // Markers in a column of their own beside long items.
    let lines = (0..<6).flatMap { i in
      [
        Self.line(["\(i + 1)."], x: 200, y: 300 + 50 * i),
        Self.line(
          ["Weigh", "the", "trays", "before", "and", "after", "drying", "them."], x: 300,
          y: 300 + 50 * i),
      ]
    }
    let blocks = [Self.block([Self.paragraph(lines)])]
    #expect(AlignedTables.tables(in: blocks).isEmpty)
  }

  @Test func aJustifiedParagraphsWideSpacesAreNoColumns() {
    // The last lines of a justified paragraph: spaces wider than a word's
    // height, at different places on each line, then a short last line.
    let lines = [
      Self.line(["Program", "remains", "governed"], x: 200, y: 300),
      TextLine.joined(
        Self.line(["by", "this", "License"], x: 200, y: 350), Self.line(["without"], x: 650, y: 350)
      ),
      TextLine.joined(
        Self.line(["regard", "to", "the"], x: 200, y: 400),
        Self.line(["additional"], x: 620, y: 400)),
      Self.line(["permissions."], x: 200, y: 450),
    ]
    let blocks = [Self.block([Self.paragraph(lines)])]
    #expect(AlignedTables.tables(in: blocks).isEmpty)
  }
}

extension TextLine {
  /// Two lines on one baseline as one line.
  fileprivate static func joined(_ a: TextLine, _ b: TextLine) -> TextLine {
    TextLine(bbox: a.bbox.union(b.bbox), baseline: a.baseline, words: a.words + b.words)
  }
}
