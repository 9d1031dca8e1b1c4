"""Pages made of rows: a text at the left and a text set flush right on the
same baseline (a contents page's title and page number, a receipt's item
and price), one truth line per row, with marks drawn between the two that
are not text (leaders). Shared by the contents and receipts families.

make-scans lays each side out as its own frame (so the right side is set
flush right on the same baseline); the two one-line blocks of a row are
then merged into one truth line, the rows grouped into paragraphs, and the
page rendered, marked, transformed and written as `make_page` does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from families.scans import make_scans as ms


@dataclass
class Row:
    """One row: `left` text indented by `indent` inches, `right` text set
    flush right (may be empty), in `style`; `gap_before` inches of space
    above; `group` starts a new truth paragraph when it changes; `role` of
    that paragraph."""
    left: str
    right: str
    style: ms.Style
    indent: float = 0.0
    gap_before: float = 0.0
    group: int = 0
    role: str = "body"
    level: int | None = None
    align: str = "left"         # the left side's alignment when there is no right side


@dataclass
class Laid:
    """A laid-out row: its merged truth line and the ink boxes' gap."""
    row: Row
    line: ms.Line
    left_words: list = field(default_factory=list)
    right_words: list = field(default_factory=list)


def frames_for(rows, top: float, left: float, right: float, right_width: float, bottom: float):
    """make-scans frames for `rows` from `top` (inches), the left side
    between `left` + indent and `right` - `right_width`, the right side in
    the last `right_width` inches, flush right. Returns the frames and, per
    row, how many frames it has (1 or 2)."""
    frames, counts = [], []
    y = top
    for r in rows:
        y += r.gap_before
        pitch = r.style.size * r.style.leading / 72.0
        box_bottom = min(bottom, y + 2.5 * pitch)
        lstyle = ms.Style(r.style.font, r.style.size, r.style.leading,
                          r.align if not r.right else "left", 0.0, 0.0)
        frames.append(ms.Frame((left + r.indent, y, right - (right_width if r.right else 0.0),
                                box_bottom),
                               [ms.Para(r.left, lstyle, role=r.role, level=r.level)]))
        n = 1
        if r.right:
            rstyle = ms.Style(r.style.font, r.style.size, r.style.leading, "right", 0.0, 0.0)
            frames.append(ms.Frame((right - right_width, y, right, box_bottom),
                                   [ms.Para(r.right, rstyle, role=r.role, level=r.level)]))
            n = 2
        counts.append(n)
        y += pitch
    return frames, counts, y


def merge(rows, counts, blocks):
    """The laid-out frames' blocks (one per frame, one line each) merged
    into one line per row; `None` when a side wrapped onto a second line
    (the caller draws again with shorter text)."""
    laid, i = [], 0
    for r, n in zip(rows, counts):
        parts = blocks[i:i + n]
        i += n
        lines = [ln for b in parts for p in b.paras for ln in p]
        if len(lines) != n:
            return None
        words = [w for ln in lines for w in ln.words]
        line = ms.Line(words, lines[0].baseline_y)
        laid.append(Laid(r, line, list(lines[0].words), list(lines[1].words) if n == 2 else []))
    return laid


def truth_blocks(head_blocks, laid):
    """The truth's blocks: the blocks before the rows as laid out, then one
    block of the rows, a paragraph per group."""
    block = ms.Block()
    current = None
    for item in laid:
        if current is None or item.row.group != current[0]:
            para = ms.ParaLines(ms.Para("", role=item.row.role, level=item.row.level))
            block.paras.append(para)
            current = (item.row.group, para)
        current[1].append(item.line)
    return list(head_blocks) + [block]


def write(spec, blocks, out_dir: Path, family: str, seed: int, params: dict, mark=None,
          finish=None, drawn=None) -> Path:
    """Renders `blocks` (already laid out from `spec`) as `make_page` does:
    `mark(cov)` draws what is not text on the coverage before the page is
    transformed (leaders), `finish(gray)` changes the final image (fading,
    dropouts); then the image and the truth with the family's parameters.
    With `drawn`, those blocks are rendered and `blocks` (the same ink as
    other words: a drop cap joined to its word) are the truth; `mark` then
    makes `blocks`' words' boxes from `drawn`'s."""
    W, H = round(spec.page_size[0] * spec.dpi), round(spec.page_size[1] * spec.dpi)
    cov = ms.render(W, H, drawn if drawn is not None else blocks)
    if mark is not None:
        mark(cov)
    cov, W, H = ms.transform_page(spec, cov, blocks, W, H)
    img = ms.degrade(spec, (255 - cov).astype(np.uint8))
    if finish is not None:
        img = finish(img)
    out_dir.mkdir(parents=True, exist_ok=True)
    image_name = f"{spec.name}.{spec.fmt}"
    path = out_dir / image_name
    im = Image.fromarray(img)
    if spec.fmt == "png":
        im.save(path, format="PNG", dpi=(spec.dpi, spec.dpi), compress_level=9)
    else:
        im.save(path, format="JPEG", dpi=(spec.dpi, spec.dpi), quality=params.get("quality", 85),
                optimize=False, progressive=False)
    truth = ms.build_truth(spec, blocks, W, H, image_name)
    truth["generator"].update({"family": family, "seed": seed, "parameters": params})
    (out_dir / f"{spec.name}.truth.json").write_text(
        json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
