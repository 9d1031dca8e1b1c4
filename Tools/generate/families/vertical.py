"""The `vertical` page family: tables whose column headers are set turned.

A table of narrow number columns cannot take its headers across: the
typesetter turns each header a quarter, to read upward (the common way,
turned 90 degrees counter-clockwise) or, on some pages, downward (turned
270), set at the foot of its header cell over its column. The first
column holds the rows' names under an upright header. Each page holds one
such table of 4-10 number columns and 4-12 rows (figures of one to three
digits, some with a decimal), fully ruled, ruled only across, or not
ruled, alone or under a paragraph of running text.

The truth lists the text above the table, then the cells row by row
(each cell one paragraph with the role `tableCell`; a turned header is
one line whose `quad` and `baseline` run along its ink, its corners in
reading order, as the `columns` family's sideways notes). `generator.table`
holds the grid, as the `tables` family's, and `generator.turn` the
headers' turn.

Usage as a module: `generate(seed, out_dir)`; from the command line:
`Tools/generate/families/vertical.py SEED [OUT_DIR]`. Seeds 1000-1999 are
for developing, 9000-9999 only for checking.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from families import pagekit, tables  # noqa: E402
    from families.scans import make_scans as ms  # noqa: E402
else:
    from . import pagekit, tables
    from .scans import make_scans as ms

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

FAMILY = "vertical"
GENERATOR_VERSION = 1
DPI = 300
PAGE_W, PAGE_H = 8.5, 11.0      # inches
MARGIN = 0.75                   # inches, every side

# Headers of figures counted at a field station: one or two words each.
TURNED_HEADERS = (
    "Germinated", "Sown", "Weight", "Moisture", "Yield", "Viability", "Loss", "Count",
    "Trays", "Drawers", "Batches", "Samples", "Rainfall", "Frost days", "Dry weight",
    "Seed count", "Plots sown", "Mean height", "Field loss", "Kept cold", "Tested",
    "Returned", "Shared", "Stored", "Depth", "Spring", "Autumn", "Winter", "Summer",
)
ROW_HEADERS = ("Sample", "Species", "Batch", "Accession", "Plot", "Site")


class TurnedWord:
    """A word of a turned header, as `ms.build_truth` reads it."""

    def __init__(self, text, bbox, quad):
        self.text, self.bbox, self.quad = text, bbox, quad


class TurnedLine:
    """A turned header's line, as `ms.build_truth` reads it."""

    def __init__(self, words, bbox, baseline, quad):
        self.words, self.bbox, self.baseline, self.quad = words, bbox, baseline, quad


def _figure(rng, decimals):
    v = rng.uniform(0, rng.choice((9.9, 99.9, 999)))
    return f"{v:.{decimals}f}"


def _turned_ink(text, font, fkey):
    """The header set upright on one line: its coverage, the words' ink
    boxes in it, its baseline's y and its length."""
    line, boxes, baseline = pagekit.upright_line(font, fkey, text)
    ys, xs = np.nonzero(line >= ms.INK_THRESHOLD)
    ink_box = [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]
    return line, boxes, baseline, ink_box


def _place_turned(cov, header, turn, cell_box, pad, vpad):
    """Paints `header` (line, boxes, baseline, ink box) turned by `turn`
    into `cov`, at the foot of `cell_box`, centred across; returns its
    truth line."""
    line, boxes, baseline, ink = header
    height, length = line.shape
    k = 1 if turn == 90 else 3          # np.rot90 turns counter-clockwise
    turned = np.rot90(line, k)
    th, tw = turned.shape
    x0c, _, x1c, y1c = cell_box
    # The ink's extent across the column once turned, centred in the cell;
    # its end (read upward: the line's start) at the cell's foot.
    if k == 1:
        ink_left, ink_right = ink[1], ink[3]             # x = y of the line
        ink_bottom = length - ink[0]                    # y = length - x
    else:
        ink_left, ink_right = height - ink[3], height - ink[1]
        ink_bottom = ink[2]
    x0 = round((x0c + x1c) / 2 - (ink_left + ink_right) / 2)
    y0 = y1c - vpad - ink_bottom

    def fwd(x, y):
        return (x0 + y, y0 + length - x) if k == 1 else (x0 + height - y, y0 + x)

    def place(box):
        xs, ys = zip(*(fwd(x, y) for x, y in ms.corners(box)))
        return [min(xs), min(ys), max(xs), max(ys)]

    def quad(box):
        return [list(fwd(x, y)) for x, y in ms.corners(box)]

    area = cov[y0:y0 + th, x0:x0 + tw]
    if area.shape != turned.shape:
        raise RuntimeError(f"{FAMILY}: a turned header runs off the page")
    if (area >= ms.INK_THRESHOLD).any():
        raise RuntimeError(f"{FAMILY}: a turned header would touch print")
    np.maximum(area, turned, out=area)
    words = [TurnedWord(w, place(b), quad(b)) for w, b in boxes]
    upright = ms.union([b for _, b in boxes])
    base = [x0 + baseline, y0 + length, x0 + baseline, y0] if k == 1 else \
        [x0 + height - baseline, y0, x0 + height - baseline, y0 + length]
    return TurnedLine(words, ms.union([w.bbox for w in words]), base, quad(upright))


def generate(seed: int, out_dir: Path) -> Path:
    """Writes `vertical-SEED.png` and `vertical-SEED.truth.json` into `out_dir`."""
    rng = random.Random(seed)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    W, H = round(PAGE_W * DPI), round(PAGE_H * DPI)
    left, right = round(MARGIN * DPI), W - round(MARGIN * DPI)
    top, bottom = round(MARGIN * DPI), H - round(MARGIN * DPI)
    placement = rng.choice(("alone", "under", "under"))
    serif = rng.random() < 0.4
    fonts = ("serif", "serif-bold") if serif else ("sans", "sans-bold")
    size = rng.choice((9, 10, 10, 11, 12))
    header_bold = rng.random() < 0.6
    turn = rng.choice((90, 90, 90, 270))
    ruling = rng.choice(("grid", "grid", "across", "none"))
    rule_width = rng.choice((2, 3))
    text_style = ms.Style(rng.choice(("serif", "sans")), rng.choice((10, 11, 12)), space_after=0.7)

    body_font = ms.get_font(fonts[0], size, DPI)
    head_key = (fonts[1] if header_bold else fonts[0], size, DPI)
    head_font = ms.get_font(*head_key)
    ascent, descent = body_font.getmetrics()
    pad = round(0.06 * DPI)
    vpad = round(0.045 * DPI)
    space = body_font.getlength(" ")

    ncols = rng.randint(4, 10)
    nrows = rng.randint(4, 12)
    row_header = rng.choice(ROW_HEADERS)
    headers = rng.sample(TURNED_HEADERS, ncols)
    decimals = [rng.choice((0, 0, 1)) for _ in range(ncols)]
    names = []
    while len(names) < nrows:
        name = rng.choice(tables.NOUNS).capitalize()
        if rng.random() < 0.3:
            name = f"{name} {rng.randint(1, 9)}"
        if name not in names:
            names.append(name)
    rows = [[_figure(rng, d) for d in decimals] for _ in range(nrows)]
    turned = [_turned_ink(h, head_font, head_key) for h in headers]

    # Column widths: the turned header's thickness or the widest figure.
    first_width = max([head_font.getlength(row_header)] + [body_font.getlength(n) for n in names])
    widths = [round(first_width + 2 * pad + space)]
    for j in range(ncols):
        across = turned[j][3][3] - turned[j][3][1]
        widest = max(body_font.getlength(r[j]) for r in rows)
        widths.append(round(max(across, widest) + 2 * pad))
    if sum(widths) > right - left:
        raise RuntimeError(f"{FAMILY}-{seed}: the table does not fit")
    header_height = max(t[3][2] - t[3][0] for t in turned) + 2 * vpad
    row_height = ascent + descent + 2 * vpad

    before, after = [], []
    table_top = top
    if placement == "under":
        before = tables._text_block(rng, rng.sample(tables.SENTENCES, rng.randint(2, 4)), left,
                                    right - left, top, bottom, text_style)
        table_top = tables._bottom(before) + round(0.45 * DPI)
    xs = [left]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [table_top, table_top + header_height]
    for _ in range(nrows):
        ys.append(ys[-1] + row_height)
    if ys[-1] > bottom:
        raise RuntimeError(f"{FAMILY}-{seed}: table runs off the page")
    if placement == "under" and ys[-1] + round(0.9 * DPI) < bottom:
        after = tables._text_block(rng, rng.sample(tables.SENTENCES, rng.randint(1, 3)), left,
                                   right - left, ys[-1] + round(0.45 * DPI), bottom, text_style)

    # The upright cells: the first column's header (at the header cell's
    # foot) and every body cell (names left, figures right).
    cells = []          # (row, column, [ms.Line] or a TurnedLine, box)

    def upright(text, font, fkey, x0, x1, baseline, align):
        words, pen = [], 0.0
        natural = font.getlength(text)
        x = x1 - pad - natural if align == "right" else x0 + pad
        for w in text.split():
            words.append(ms.Word(w, round(x + pen), baseline, font, fkey))
            pen += font.getlength(w) + font.getlength(" ")
        return ms.Line(words, baseline)

    cells.append((0, 0, upright(row_header, head_font, head_key, xs[0], xs[1],
                                ys[1] - vpad - descent, "left"), [xs[0], ys[0], xs[1], ys[1]]))
    for j in range(ncols):
        cells.append((0, j + 1, None, [xs[j + 1], ys[0], xs[j + 2], ys[1]]))
    body_key = (fonts[0], size, DPI)
    for i in range(nrows):
        baseline = ys[i + 1] + vpad + ascent
        cells.append((i + 1, 0, upright(names[i], body_font, body_key, xs[0], xs[1], baseline,
                                        "left"), [xs[0], ys[i + 1], xs[1], ys[i + 2]]))
        for j in range(ncols):
            cells.append((i + 1, j + 1, upright(rows[i][j], body_font, body_key, xs[j + 1],
                                                xs[j + 2], baseline, "right"),
                          [xs[j + 1], ys[i + 1], xs[j + 2], ys[i + 2]]))

    table_block = ms.Block()
    paras = []
    for row, column, line, box in cells:
        para = ms.ParaLines(tables._Role("tableCell"))
        if line is not None:
            para.append(line)
        paras.append(para)
        table_block.paras.append(para)
    blocks = before + [table_block] + after
    upright_blocks = before + [ms.Block([p for p in paras if p])] + after

    cov = ms.render(W, H, upright_blocks)
    styles = [ms.Style(fonts[0], size), ms.Style(fonts[1], size)]
    if before or after:
        styles.append(text_style)
    spec = ms.PageSpec(f"{FAMILY}-{seed}", "generated table with turned headers",
                       [ms.Para("x", s) for s in styles], dpi=DPI, page_size=(PAGE_W, PAGE_H))
    noise = rng.random() < 0.3
    if noise:
        spec.degrade = {"kind": "gaussian", "seed": seed, "sigma": rng.choice((8, 12, 16))}
    cov, W, H = ms.transform_page(spec, cov, upright_blocks, W, H)
    for j in range(ncols):
        paras[1 + j].append(_place_turned(cov, turned[j], turn, cells[1 + j][3], pad, vpad))
    grid = [tables.Cell(row, column, [], box=box) for row, column, _, box in cells]
    tables._draw_rules(cov, [c for c in grid], xs, ys, ruling, rule_width) \
        if ruling != "across" else _rule_across(cov, xs, ys, rule_width)
    img = ms.degrade(spec, (255 - cov).astype(np.uint8))

    name = f"{FAMILY}-{seed}"
    image_name = f"{name}.png"
    path = out_dir / image_name
    Image.fromarray(img).save(path, format="PNG", dpi=(DPI, DPI), compress_level=6)
    truth = ms.build_truth(spec, blocks, W, H, image_name)
    # Turned lines carry their quads (build_truth writes quads only on a
    # turned or skewed page).
    page = truth["pages"][0]
    turned_lines = {tuple(p[0].bbox): p[0] for p in paras if p and isinstance(p[0], TurnedLine)}
    for block in page["blocks"]:
        for para in block["paragraphs"]:
            for jl in para["lines"]:
                source = turned_lines.get(tuple(jl["bbox"]))
                if source is None:
                    continue
                jl["quad"] = source.quad
                for jw, w in zip(jl["words"], source.words):
                    jw["quad"] = w.quad
    gen = truth["generator"]
    gen.update({
        "name": f"families/{FAMILY}", "version": GENERATOR_VERSION, "variant": name,
        "family": FAMILY, "seed": seed, "turn": turn,
        "tests": (f"a {len(widths)}-column, {nrows + 1}-row table ({ruling} rules, {placement}), "
                  f"{ncols} headers turned {turn} degrees"),
        "table": {
            "ruling": ruling, "ruleWidth": rule_width if ruling != "none" else 0,
            "placement": placement, "rows": nrows + 1, "columns": len(widths),
            "bbox": [xs[0], ys[0], xs[-1], ys[-1]],
            "cells": [{"row": row, "column": column, "rowSpan": 1, "columnSpan": 1, "bbox": box,
                       "text": " ".join(w.text for w in (para[0].words if para else []))}
                      for (row, column, _, box), para in zip(cells, paras)],
        },
    })
    js = json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    (out_dir / f"{name}.truth.json").write_text(js, encoding="utf-8")
    return path


def _rule_across(cov, xs, ys, width):
    """Rules across the table: its top, the header's foot, its bottom."""
    half = width // 2
    for y in (ys[0], ys[1], ys[-1]):
        cov[y - half:y - half + width, xs[0] - half:xs[-1] - half + width] = 255


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: Tools/generate/families/vertical.py SEED [OUT_DIR]")
    print(generate(int(sys.argv[1]), Path(sys.argv[2] if len(sys.argv) == 3 else ".")))
