"""What the families share: writing a page through make-scans, and measuring
laid-out text before choosing where frames go."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from families.scans import make_scans as ms


def write_page(spec, out_dir: Path, family: str, seed: int, params: dict, truth_extra=None) -> Path:
    """Renders `spec` with make-scans' `make_page` into `out_dir` (its
    progress line swallowed), then records the family, the seed and the
    drawn parameters in the truth's `generator` (plus `truth_extra`, keys
    a family's checks compare with the pipeline's decisions). Returns the
    image's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):
        ms.make_page(spec, out_dir)
    truth_path = out_dir / f"{spec.name}.truth.json"
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    generator = truth["generator"]
    generator["family"] = family
    generator["seed"] = seed
    generator["parameters"] = params
    if truth_extra:
        generator.update(truth_extra)
    truth_path.write_text(json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    return out_dir / f"{spec.name}.{spec.fmt}"


def text_height(paras, dpi: int, width_in: float) -> float:
    """The height in inches that `paras` take set in one column
    `width_in` wide (from the first line's top to the last paragraph's
    space after), as make-scans lays them out."""
    blocks = ms.layout_region("measure", dpi, paras, 0.0, width_in * dpi, 0.0, 1e9, 1, 0.0)
    last = paras[-1]
    font = ms.get_font(last.style.font, last.style.size, dpi)
    descent = font.getmetrics()[1]
    lines = ms.all_lines(blocks)
    px = last.style.size * dpi / 72.0
    return (lines[-1].baseline_y + descent + last.style.space_after * px) / dpi


def fits(spec) -> bool:
    """Whether make-scans can lay the page out."""
    try:
        ms.layout(spec)
        return True
    except ms.DoesNotFit:
        return False


def upright_line(font, fkey, text):
    """`text` drawn upright on one baseline with make-scans' word renderer,
    for a family to turn: (coverage, [(word, ink box)], baseline y).

    Each word's crop carries 4 px of padding, and a last word whose ink
    runs past its advance ("f", "y" in some fonts, columns-9011) reaches
    past pen + 4: the line is made as long (and as deep) as its crops
    reach."""
    import numpy as np

    space = font.getlength(" ")
    ascent, descent = font.getmetrics()
    words, pen = [], 0.0
    for word in text.split():
        crop, dx, dy, ink = ms.render_word(font, fkey, word)
        words.append((word, round(pen), crop, dx, dy, ink))
        pen += font.getlength(word) + space
    length = max([round(pen - space) + 8] + [x + dx + 4 + c.shape[1] for _, x, c, dx, _, _ in words])
    height = max([ascent + descent + 8] + [ascent + 4 + dy + c.shape[0] for _, _, c, _, dy, _ in words])
    line = np.zeros((height, length), dtype=np.uint8)
    baseline = ascent + 4
    boxes = []
    for word, x, crop, dx, dy, ink in words:
        h, w = crop.shape
        region = line[baseline + dy:baseline + dy + h, x + dx + 4:x + dx + 4 + w]
        np.maximum(region, crop, out=region)
        boxes.append((word, [x + 4 + ink[0], baseline + ink[1], x + 4 + ink[2], baseline + ink[3]]))
    return line, boxes, baseline
