"""Tables of contents: numbered entries with leaders to their page numbers.

A seed draws a contents page: the heading "Contents" (or "Table of
Contents"), then four to seven chapters (bold, a line of space above each),
each with none to four numbered sections (indented) and some sections
with subsections (indented further), every entry's page number set flush
right on its baseline. Between an entry and its number a leader is drawn:
dots spaced as typesetters space them (aligned from row to row), dense
dots, dashes, or none. Leaders are marks, not text: the truth's line is
the entry's words and its number ("1.1 Scope 12"), one line per entry,
one paragraph per chapter. 200 or 300 dpi, three fonts, 10-12 pt, a
quarter of the pages noisy.
"""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageDraw
import numpy as np

from families import prose, rowpages
from families.scans import make_scans as ms

FAMILY = "contents"
LEADERS = ("dots", "dense-dots", "dashes", "none")


def _title(rng, words_min, words_max):
    words = prose.phrase(rng, words_min, words_max).split()
    return " ".join([words[0][:1].upper() + words[0][1:]] + words[1:])


def _entries(rng, font, size):
    regular = ms.Style(font, size, 1.45)
    bold = ms.Style(font + "-bold" if font in ("serif", "sans") else font, size, 1.45)
    rows, page = [], rng.randint(1, 9)
    for c in range(1, rng.randint(4, 7) + 1):
        rows.append(rowpages.Row(f"{c} {_title(rng, 1, 4)}", str(page), bold, 0.0,
                                 0.0 if c == 1 else size * 0.9 / 72.0, group=c))
        page += rng.randint(1, 4)
        for s in range(1, rng.randint(0, 4) + 1):
            rows.append(rowpages.Row(f"{c}.{s} {_title(rng, 1, 5)}", str(page), regular, 0.3,
                                     group=c))
            page += rng.randint(1, 6)
            if rng.random() < 0.3:
                for t in range(1, rng.randint(1, 3) + 1):
                    rows.append(rowpages.Row(f"{c}.{s}.{t} {_title(rng, 1, 4)}", str(page), regular,
                                             0.7, group=c))
                    page += rng.randint(0, 3)
        page += rng.randint(1, 5)
    return rows


def _leaders(kind, laid, dpi):
    """Draws `kind` leaders between each row's entry and its number on the
    coverage (255 = ink): dots on a grid common to all rows (as a
    typesetter's leaders line up), from half an em after the entry to half
    an em before the number."""

    def mark(cov):
        if kind == "none":
            return
        im = Image.fromarray(cov)
        draw = ImageDraw.Draw(im)
        for item in laid:
            if not item.right_words:
                continue
            px = item.row.style.size * dpi / 72.0
            start = item.left_words[-1].bbox[2] + 0.5 * px
            end = item.right_words[0].bbox[0] - 0.5 * px
            base = item.line.baseline_y
            if kind == "dashes":
                step, half_w, half_h = 0.5 * px, 0.12 * px, max(1.0, 0.03 * px)
                y = base - 0.28 * px
            else:
                step = (0.45 if kind == "dots" else 0.22) * px
                half_w = half_h = max(1.0, 0.055 * px)
                y = base - half_h
            x = (int(start / step) + 1) * step
            while x + half_w <= end:
                draw.ellipse((x - half_w, y - half_h, x + half_w, y + half_h), fill=255) \
                    if kind != "dashes" else \
                    draw.rectangle((x - half_w, y - half_h, x + half_w, y + half_h), fill=255)
                x += step
        cov[...] = np.asarray(im)

    return mark


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    dpi = rng.choice((200, 300))
    font = rng.choice(("serif", "sans", "dejavu-serif"))
    size = rng.choice((10.0, 11.0, 12.0))
    leader = rng.choice(LEADERS + ("dots",))
    pw, ph = 8.5, 11.0
    margin = rng.uniform(0.9, 1.3)
    skew = 0.0  # leaders are no word's ink, which make-scans' turn needs
    degrade = None
    if rng.random() < 0.25:
        degrade = {"kind": "gaussian", "seed": seed, "sigma": round(rng.uniform(6, 14), 1)}
    heading = ms.Para(rng.choice(("Contents", "Table of Contents")),
                      ms.Style(font + "-bold" if font in ("serif", "sans") else font, size * 1.6,
                               space_after=1.2), role="heading", level=1)
    head_frame = ms.Frame((margin, margin, pw - margin, margin + 1.0), [heading])
    for _ in range(20):
        rows = _entries(rng, font, size)
        frames, counts, bottom = rowpages.frames_for(rows, margin + 0.75, margin, pw - margin, 0.6,
                                                     ph - 0.7)
        if bottom > ph - 0.8:
            continue
        spec = ms.PageSpec(f"{FAMILY}-{seed}", "generated: contents family (leaders)", [], dpi=dpi,
                           page_size=(pw, ph), frames=(head_frame, *frames), skew=skew,
                           degrade=degrade)
        try:
            _, _, blocks = ms.layout(spec)
        except ms.DoesNotFit:
            continue
        laid = rowpages.merge(rows, counts, blocks[1:])
        if laid is None:
            continue
        params = {"dpi": dpi, "font": font, "size": size, "leader": leader, "rows": len(rows),
                  "noise": degrade["sigma"] if degrade else 0}
        return rowpages.write(spec, rowpages.truth_blocks(blocks[:1], laid), out_dir, FAMILY, seed,
                              params, mark=_leaders(leader, laid, dpi))
    raise RuntimeError(f"{FAMILY}-{seed}: no contents page fits")
