"""Faxes and stamped pages.

A seed draws one of two kinds of page:

- **fax**: a letter-size page at 200 x 100 dpi (fax "standard" resolution:
  every pixel twice as tall as wide, the tag saying so), one bit deep, with
  the transmission line a fax machine prints at the top (role header),
  a few paragraphs of 10-12 pt text, and the speckle of a phone line
  (0.02-0.2 % of the pixels flipped). The page is set at 200 dpi and
  squeezed to half its height; the truth's boxes are the upright boxes'
  halves (rows rounded outward), so they hold the squeezed ink.
- **stamps**: a page of 10-12 pt text at 200 or 300 dpi with one to three
  rubber stamps (RECEIVED, PAID, COPY, a date ...) in red, blue, violet or
  green over it (an RGB image, make-scans' stamp code); the stamps' words
  are not page text.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
from PIL import Image

from families import pagekit, prose
from families.scans import make_scans as ms

FAMILY = "misc"
STAMP_WORDS = ("RECEIVED", "PAID", "COPY", "APPROVED", "FILED", "ENTERED", "URGENT", "CHECKED")
STAMP_COLOURS = ([205, 35, 45], [35, 70, 190], [120, 40, 160], [30, 130, 60])
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    kind = rng.choice(("fax", "stamps"))
    return (_fax if kind == "fax" else _stamps)(rng, seed, out_dir)


def _body(rng, style, count):
    drawn = set()
    return [ms.Para(prose.paragraph(rng, 2, 4, drawn), style) for _ in range(count)]


def _fitted(make, paras):
    while not pagekit.fits(make(paras)):
        paras = paras[:-1]
        if not paras:
            raise RuntimeError("no paragraph fits")
    return make(paras), paras


def _fax(rng, seed, out_dir):
    dpi, (pw, ph) = 200, (8.5, 11.0)
    style = ms.Style(rng.choice(("serif", "sans", "dejavu-sans")), rng.choice((10.0, 11.0, 12.0)),
                     align=rng.choice(("left", "justify")))
    day = rng.randint(1, 28)
    stamp_line = (f"{MONTHS[rng.randrange(12)]} {day:02d} {rng.randint(1994, 2009)} "
                  f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} FROM {prose.phrase(rng, 2, 3).upper()} "
                  f"TO {rng.randint(200, 989)} {rng.randint(1000, 9999)} P.{rng.randint(1, 3)}")
    margin = rng.uniform(0.7, 1.0)

    def make(paras):
        return ms.PageSpec(f"{FAMILY}-{seed}", "generated: misc family (fax)", [], dpi=dpi,
                           page_size=(pw, ph), frames=(
                               ms.Frame((0.3, 0.15, pw - 0.3, 0.45),
                                        [ms.Para(stamp_line, ms.Style("sans", 9), role="header")]),
                               ms.Frame((margin, 1.0, pw - margin, ph - 0.8), paras)))

    spec, paras = _fitted(make, _body(rng, style, rng.randint(3, 7)))
    params = {"kind": "fax", "font": style.font, "size": style.size, "paragraphs": len(paras)}
    path = pagekit.write_page(spec, out_dir, FAMILY, seed, params)
    # Half the rows: the mean of each pair, one bit deep, and the line's
    # speckle.
    gray = np.asarray(Image.open(path), dtype=np.float64)
    rows = gray.shape[0] // 2
    squeezed = (gray[0:2 * rows:2] + gray[1:2 * rows:2]) / 2
    bits = squeezed >= rng.uniform(150, 200)
    noise = np.random.default_rng(seed).random(bits.shape) < rng.uniform(0.0002, 0.002)
    bits ^= noise
    Image.fromarray(bits).convert("1").save(path, format="PNG", dpi=(200, 100))
    truth_path = path.with_name(f"{path.stem}.truth.json")
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    page = truth["pages"][0]
    page["height"] = rows

    def half(box):
        return [box[0], box[1] // 2, box[2], min(rows, math.ceil(box[3] / 2))]

    for block in page["blocks"]:
        block["bbox"] = half(block["bbox"])
        for para in block["paragraphs"]:
            para["bbox"] = half(para["bbox"])
            for line in para["lines"]:
                line["bbox"] = half(line["bbox"])
                b = line["baseline"]
                line["baseline"] = [b[0], ms.num(b[1] / 2), b[2], ms.num(b[3] / 2)]
                for word in line["words"]:
                    word["bbox"] = half(word["bbox"])
    truth["generator"]["resolution"] = [200, 100]
    truth_path.write_text(json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    return path


def _stamps(rng, seed, out_dir):
    dpi = rng.choice((200, 300))
    pw, ph = (8.5, 11.0) if dpi == 200 else (ms.PAGE_W_IN, ms.PAGE_H_IN)
    style = ms.Style(rng.choice(("serif", "sans", "dejavu-serif")), rng.choice((10.0, 11.0, 12.0)),
                     align=rng.choice(("left", "justify")))
    stamps = []
    for _ in range(rng.randint(1, 3)):
        lines = [rng.choice(STAMP_WORDS)]
        if rng.random() < 0.6:
            lines.append(f"{rng.randint(1, 28)} {MONTHS[rng.randrange(12)]} {rng.randint(1960, 2020)}")
        stamps.append({"text": lines, "rgb": rng.choice(STAMP_COLOURS),
                       "center": [round(rng.uniform(0.3, 0.7), 3), round(rng.uniform(0.2, 0.8), 3)],
                       "angle": rng.randint(-25, 25), "size": round(rng.uniform(0.22, 0.4), 3)})
    colour = {"kind": "stamps", "seed": seed, "stamps": stamps}

    def make(paras):
        return ms.PageSpec(f"{FAMILY}-{seed}", "generated: misc family (stamps)", paras, dpi=dpi,
                           page_size=(pw, ph), margins=(0.5, 0.5, 0.5, 0.5), colour=colour)

    spec, paras = _fitted(make, _body(rng, style, 8))
    params = {"kind": "stamps", "dpi": dpi, "font": style.font, "size": style.size,
              "stamps": len(stamps), "paragraphs": len(paras)}
    return pagekit.write_page(spec, out_dir, FAMILY, seed, params)
