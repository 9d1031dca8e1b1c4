"""The `tables` page family: ruled and unruled tables drawn from a seed.

Each page holds one table of 2-8 columns and 3-12 rows: a header row in
bold (sometimes under a row of merged header cells that span columns, the
cells beside them spanning both header rows), cells of words, of numbers
with decimals and signs, and of running words broken into one to three
lines. The table is fully ruled, ruled only across (top, under the header,
bottom), or not ruled at all, and stands alone, under a paragraph of
running text (with one after it), or beside a column of running text.

The truth lists the text above the table, then the cells row by row (each
cell one paragraph with the role `tableCell`), then the text below or
beside it. `generator.table` adds the grid: for every cell its row,
column, rowSpan, columnSpan, its box between the rules (`bbox`) and its
text (the words joined by single spaces).

Usage as a module: `generate(seed, out_dir)`; from the command line:
`Tools/generate/families/tables.py SEED [OUT_DIR]`. Seeds 1000-1999 are for
developing, 9000-9999 only for checking (see docs/tables.md).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from families.scans import make_scans as ms  # noqa: E402
else:
    from .scans import make_scans as ms

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

FAMILY = "tables"
GENERATOR_VERSION = 1
DPI = 300
PAGE_W, PAGE_H = 8.5, 11.0      # inches
MARGIN = 0.75                   # inches, every side

# Cell words: an inventory of a seed bank and a field station, a register
# the sample pages (ledgers, ferries, bread) never use.
NOUNS = (
    "barley", "clover", "fescue", "millet", "sorghum", "lentil", "vetch", "lupin", "sedge",
    "rye", "oats", "flax", "hemp", "sainfoin", "chicory", "yarrow", "sorrel", "madder",
    "teasel", "woad", "spelt", "emmer", "quinoa", "amaranth", "buckwheat", "canary",
    "meadow", "upland", "marsh", "heath", "orchard", "hedge", "terrace", "valley", "ridge",
    "north", "south", "east", "west", "plot", "bed", "tray", "drawer", "shelf", "vault",
)
ADJECTIVES = (
    "dry", "wet", "early", "late", "wild", "sown", "stored", "tested", "sealed", "open",
    "cold", "warm", "fresh", "aged", "mixed", "pure", "coarse", "fine", "spring", "winter",
)
STATUS = ("yes", "no", "pending", "done", "failed", "kept", "sent", "lost", "due", "new")
HEADERS = (
    "Sample", "Species", "Origin", "Site", "Batch", "Weight", "Yield", "Change", "Rate",
    "Share", "Count", "Moisture", "Status", "Notes", "Year", "Viability", "Depth", "Grade",
    "Stock", "Loss", "Mean", "Score", "Method", "Remarks", "Code", "Level",
)
GROUPS = ("Germination", "Field trials", "Storage", "Measured", "Spring sowing", "Results")
# Running text around the table: original sentences about the same work.
SENTENCES = (
    "The seed bank keeps every accession in two places, a cold vault and a field plot.",
    "Each spring a sample of every batch is sown on damp paper and counted after ten days.",
    "Batches that fall below the agreed rate are sown again in the next season.",
    "The table lists the figures recorded by the station over the last three seasons.",
    "Weights are given in grams, moisture as a share of the dry weight, and changes against the previous count.",
    "Where a trial failed, the note in the last column says why and what was done about it.",
    "Volunteers weigh the trays before and after drying, and the warden checks one in five.",
    "Seeds from the upland plots keep longer than those grown in the valley.",
    "A few drawers were moved to the new vault in autumn, which explains the gaps below.",
    "Figures marked with a minus sign fell since the previous count; the others rose.",
    "The station shares its surplus with three other collections in the region.",
    "Old batches are tested every fifth year, young ones every second.",
    "Cold storage halves the loss of viability, as the second half of the table shows.",
    "The warden signs each page of the register once the counts have been checked.",
)


@dataclass
class Column:
    kind: str                   # word | number | year | status | text
    header: str
    decimals: int = 1
    signed: bool = False
    text_width: float = 0.0     # px, for text columns


@dataclass
class Cell:
    row: int
    column: int
    lines: list                 # list of lists of words
    bold: bool = False
    align: str = "left"
    row_span: int = 1
    column_span: int = 1
    box: list = field(default_factory=list)
    words: list = field(default_factory=list)   # ms.Word, after layout


class _Role:
    """What `ms.ParaLines` reads from a paragraph."""

    def __init__(self, role):
        self.role = role
        self.level = None


def _number(rng, col):
    magnitude = rng.choice((1, 10, 100, 1000))
    v = rng.uniform(0, magnitude * 9.99)
    if col.signed and rng.random() < 0.5:
        v = -v
    text = f"{v:.{col.decimals}f}"
    if col.signed and v >= 0:
        text = "+" + text
    return text


def _cell_words(rng, col):
    if col.kind == "word":
        n = rng.choice((1, 1, 2))
        words = [rng.choice(NOUNS)] if n == 1 else [rng.choice(ADJECTIVES), rng.choice(NOUNS)]
        return [words[0].capitalize()] + words[1:]
    if col.kind == "number":
        return [_number(rng, col)]
    if col.kind == "year":
        return [str(rng.randint(1952, 2024))]
    if col.kind == "status":
        return [rng.choice(STATUS)]
    n = rng.randint(2, 9)
    words = [rng.choice(ADJECTIVES + NOUNS) for _ in range(n)]
    return [words[0].capitalize()] + words[1:]


def _columns(rng, count):
    kinds = ["word"]
    for _ in range(count - 1):
        kinds.append(rng.choice(("number", "number", "word", "year", "status", "text")))
    headers = rng.sample(HEADERS, count)
    return [Column(k, h, decimals=rng.choice((1, 2, 2, 3)), signed=rng.random() < 0.4)
            for k, h in zip(kinds, headers)]


def _plan(rng, max_width, ncols, nrows, size, fonts):
    """The cells of a table and the width of each column, or None when it does not fit."""
    body_font = ms.get_font(fonts[0], size, DPI)
    bold_font = ms.get_font(fonts[1], size, DPI)
    space = body_font.getlength(" ")
    pad = round(0.06 * DPI)
    cols = _columns(rng, ncols)
    for c in cols:
        if c.kind == "text":
            c.text_width = rng.uniform(0.9, 1.6) * DPI
    grouped = None
    if ncols >= 3 and rng.random() < 0.35:
        start = rng.randint(1, ncols - 2)
        grouped = (start, rng.randint(start + 1, min(ncols - 1, start + 2)), rng.choice(GROUPS))
    header_rows = 2 if grouped else 1
    cells = []
    if grouped:
        start, end, title = grouped
        for j in range(ncols):
            if start <= j <= end:
                continue
            cells.append(Cell(0, j, [[cols[j].header]], bold=True, row_span=2))
        cells.append(Cell(0, start, [title.split()], bold=True, column_span=end - start + 1))
        for j in range(start, end + 1):
            cells.append(Cell(1, j, [[cols[j].header]], bold=True))
    else:
        for j in range(ncols):
            cells.append(Cell(0, j, [[cols[j].header]], bold=True))
    for i in range(header_rows, header_rows + nrows - 1):
        for j, col in enumerate(cols):
            words = _cell_words(rng, col)
            align = "right" if col.kind == "number" else "left"
            if col.kind == "text":
                lines = ms.break_lines(words, body_font, col.text_width, False)[:3]
            else:
                lines = [words]
            cells.append(Cell(i, j, lines, align=align))

    def width(cell):
        font = bold_font if cell.bold else body_font
        return max(font.getlength(" ".join(ln)) for ln in cell.lines)

    widths = [0.0] * ncols
    for cell in cells:
        if cell.column_span == 1:
            widths[cell.column] = max(widths[cell.column], width(cell))
    for cell in cells:        # a merged cell wider than its columns widens the last
        if cell.column_span > 1:
            span = range(cell.column, cell.column + cell.column_span)
            inner = sum(widths[j] for j in span) + 2 * pad * (cell.column_span - 1)
            widths[span[-1]] += max(0.0, width(cell) - inner)
    widths = [round(w + 2 * pad + space) for w in widths]
    if sum(widths) > max_width:
        return None
    cells.sort(key=lambda c: (c.row, c.column))
    return cells, widths, header_rows + nrows - 1, pad


def _layout_table(cells, widths, nrows, pad, left, top, size, fonts):
    """Places every cell's words; returns the column and row edges (px)."""
    body_font = ms.get_font(fonts[0], size, DPI)
    bold_font = ms.get_font(fonts[1], size, DPI)
    ascent, descent = body_font.getmetrics()
    pitch = round(size * DPI / 72.0 * 1.2)
    vpad = round(0.045 * DPI)
    xs = [left]
    for w in widths:
        xs.append(xs[-1] + w)
    heights = [0] * nrows
    for cell in cells:
        if cell.row_span == 1:
            h = ascent + descent + (len(cell.lines) - 1) * pitch + 2 * vpad
            heights[cell.row] = max(heights[cell.row], h)
    ys = [top]
    for h in heights:
        ys.append(ys[-1] + h)
    for cell in cells:
        font = bold_font if cell.bold else body_font
        fkey = (fonts[1] if cell.bold else fonts[0], size, DPI)
        x0, x1 = xs[cell.column], xs[cell.column + cell.column_span]
        y0, y1 = ys[cell.row], ys[cell.row + cell.row_span]
        cell.box = [x0, y0, x1, y1]
        space = font.getlength(" ")
        cell.words = []
        for k, words in enumerate(cell.lines):
            baseline = y0 + vpad + ascent + k * pitch
            natural = sum(font.getlength(w) for w in words) + space * (len(words) - 1)
            x = x1 - pad - natural if cell.align == "right" else x0 + pad
            line = []
            for w in words:
                line.append(ms.Word(w, round(x), baseline, font, fkey))
                x += font.getlength(w) + space
            cell.words.append(line)
    return xs, ys


def _text_block(rng, sentences, left, width, top, bottom, style):
    """A paragraph of running text laid out with make-scans' own layout."""
    text = " ".join(sentences)
    return ms.layout_region(FAMILY, DPI, [ms.Para(text, style)], left, width, top, bottom, 1, 0)


def _bottom(blocks):
    return max(ln.baseline_y for b in blocks for p in b.paras for ln in p)


def _draw_rules(cov, cells, xs, ys, ruling, width):
    """Rules on the cell edges (fully ruled: every edge a merged cell does not
    hide; across: the table's top, the header's foot and the table's bottom)."""
    half = width // 2
    ink = cov >= ms.INK_THRESHOLD

    def paint(y0, y1, x0, x1):
        band = (slice(y0, y1), slice(x0, x1))
        if ink[band].any():
            raise RuntimeError(f"{FAMILY}: a rule touches ink at x={x0}, y={y0}")
        cov[band] = 255

    if ruling == "none":
        return
    if ruling == "across":
        header_rows = max(c.row + c.row_span for c in cells if c.bold)
        for y in (ys[0], ys[header_rows], ys[-1]):
            paint(y - half, y - half + width, xs[0] - half, xs[-1] - half + width)
        return
    for cell in cells:
        x0, y0, x1, y1 = cell.box
        for y in (y0, y1):
            paint(y - half, y - half + width, x0 - half, x1 - half + width)
        for x in (x0, x1):
            paint(y0 - half, y1 - half + width, x - half, x - half + width)


def generate(seed: int, out_dir: Path) -> Path:
    """Writes `tables-SEED.png` and `tables-SEED.truth.json` into `out_dir`."""
    rng = random.Random(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    W, H = round(PAGE_W * DPI), round(PAGE_H * DPI)
    left, right = round(MARGIN * DPI), W - round(MARGIN * DPI)
    top, bottom = round(MARGIN * DPI), H - round(MARGIN * DPI)
    placement = rng.choice(("alone", "under", "under", "beside"))
    serif = rng.random() < 0.4
    fonts = ("serif", "serif-bold") if serif else ("sans", "sans-bold")
    size = rng.choice((9, 10, 10, 11, 12))
    ruling = rng.choice(("grid", "grid", "grid", "across", "none"))
    rule_width = rng.choice((2, 3, 4))
    text_style = ms.Style(rng.choice(("serif", "sans")), rng.choice((10, 11, 12)), space_after=0.7)

    table_width = right - left
    text_left = None
    if placement == "beside":
        table_width = round((right - left) * rng.uniform(0.5, 0.6))
        text_left = left + table_width + round(0.35 * DPI)
    for _ in range(50):
        ncols = rng.randint(2, 4 if placement == "beside" else 8)
        nrows = rng.randint(3, 12)
        plan = _plan(rng, table_width, ncols, nrows, size, fonts)
        if plan:
            break
    else:
        raise RuntimeError(f"{FAMILY}-{seed}: no table fits")
    cells, widths, nrows, pad = plan

    before, after, beside = [], [], []
    table_top = top
    if placement == "under":
        before = _text_block(rng, rng.sample(SENTENCES, rng.randint(2, 4)), left, right - left,
                             top, bottom, text_style)
        table_top = _bottom(before) + round(0.45 * DPI)
    xs, ys = _layout_table(cells, widths, nrows, pad, left, table_top, size, fonts)
    if ys[-1] > bottom:
        raise RuntimeError(f"{FAMILY}-{seed}: table runs off the page")
    if placement == "under" and ys[-1] + round(0.9 * DPI) < bottom:
        after = _text_block(rng, rng.sample(SENTENCES, rng.randint(1, 3)), left, right - left,
                            ys[-1] + round(0.45 * DPI), bottom, text_style)
    if placement == "beside":
        beside = _text_block(rng, rng.sample(SENTENCES, rng.randint(4, 7)), text_left,
                             right - text_left, table_top, bottom, text_style)

    table_block = ms.Block()
    for cell in cells:
        para = ms.ParaLines(_Role("tableCell"))
        for line in cell.words:
            para.append(ms.Line(line, line[0].y))
        table_block.paras.append(para)
    blocks = before + [table_block] + after + beside

    cov = ms.render(W, H, blocks)
    styles = [ms.Style(fonts[0], size), ms.Style(fonts[1], size)]
    if before or after or beside:
        styles.append(text_style)
    spec = ms.PageSpec(f"{FAMILY}-{seed}", "generated table", [ms.Para("x", s) for s in styles],
                       dpi=DPI, page_size=(PAGE_W, PAGE_H))
    noise = rng.random() < 0.3
    if noise:
        spec.degrade = {"kind": "gaussian", "seed": seed, "sigma": rng.choice((8, 12, 16))}
    cov, W, H = ms.transform_page(spec, cov, blocks, W, H)
    _draw_rules(cov, cells, xs, ys, ruling, rule_width)
    img = ms.degrade(spec, (255 - cov).astype(np.uint8))

    name = f"{FAMILY}-{seed}"
    image_name = f"{name}.png"
    path = out_dir / image_name
    Image.fromarray(img).save(path, format="PNG", dpi=(DPI, DPI), compress_level=6)
    truth = ms.build_truth(spec, blocks, W, H, image_name)
    gen = truth["generator"]
    gen.update({
        "name": f"families/{FAMILY}", "version": GENERATOR_VERSION, "variant": name,
        "family": FAMILY, "seed": seed,
        "tests": (f"a {len(widths)}-column, {nrows}-row table ({ruling} rules, {placement}), "
                  f"header in bold{', merged header cells' if any(c.column_span > 1 for c in cells) else ''}"),
        "table": {
            "ruling": ruling, "ruleWidth": rule_width if ruling != "none" else 0,
            "placement": placement, "rows": nrows, "columns": len(widths),
            "bbox": [xs[0], ys[0], xs[-1], ys[-1]],
            "cells": [{"row": c.row, "column": c.column, "rowSpan": c.row_span,
                       "columnSpan": c.column_span, "bbox": c.box,
                       "text": " ".join(w.text for ln in c.words for w in ln)} for c in cells],
        },
    })
    js = json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    (out_dir / f"{name}.truth.json").write_text(js, encoding="utf-8")
    return path


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: Tools/generate/families/tables.py SEED [OUT_DIR]")
    print(generate(int(sys.argv[1]), Path(sys.argv[2] if len(sys.argv) == 3 else ".")))
