"""Chapter openings with a drop cap.

A seed draws a book page that opens a chapter: a heading, then a paragraph
whose first letter is set large, two to four lines deep, with the
paragraph's first lines set beside it (the letter's baseline on the last
of them), and two to five paragraphs after. The initial is part of its
word: the truth's first word is the whole word ("When"), its box the
initial's and the rest's together. 300 dpi (a quarter at 200), three
fonts, 10-12 pt, the initial in the body's font or its bold.
"""

from __future__ import annotations

import random
from pathlib import Path

from families import pagekit, prose, rowpages
from families.scans import make_scans as ms

FAMILY = "dropcap"


def _joined(blocks, cap_word, first_block):
    """The truth blocks: the drop cap's block dropped and its word joined
    to the first word of `first_block`'s first line (or standing as a word
    of its own when it is the whole word)."""
    out = []
    for b in blocks:
        if any(w is cap_word for p in b.paras for ln in p for w in ln.words):
            continue
        out.append(b)
    line = first_block.paras[0][0]
    first = line.words[0]
    if getattr(cap_word, "whole", False):
        joined = [cap_word] + list(line.words)
    else:
        word = ms.Word(cap_word.text + first.text, cap_word.x, first.y, first.font, first.fkey)
        word.parts = (cap_word, first)
        joined = [word] + list(line.words[1:])
    first_block.paras[0][0] = ms.Line(joined, line.baseline_y)
    return out


def _boxes(truth_blocks):
    """Gives joined words the union of their parts' ink boxes (after the
    parts are rendered)."""

    def mark(cov):
        for b in truth_blocks:
            for p in b.paras:
                for ln in p:
                    for w in ln.words:
                        parts = getattr(w, "parts", None)
                        if parts:
                            w.bbox = ms.union([parts[0].bbox, parts[1].bbox])

    return mark


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    dpi = rng.choice((300, 300, 300, 200))
    font = rng.choice(("serif", "sans", "dejavu-serif"))
    size = rng.choice((10.0, 11.0, 12.0))
    depth = rng.choice((2, 3, 3, 4))
    bold_cap = rng.random() < 0.4 and font in ("serif", "sans")
    pw, ph = 8.5, 11.0
    ml, mr, mt = 1.0, 1.0, 1.0
    body = ms.Style(font, size, 1.3, rng.choice(("left", "justify")), space_after=0.6)
    px = size * dpi / 72.0
    pitch = px * body.leading
    bfont = ms.get_font(font, size, dpi)
    ascent = bfont.getmetrics()[0]
    cap_height = bfont.getbbox("H", anchor="ls")[3] - bfont.getbbox("H", anchor="ls")[1]
    cap_key = font + "-bold" if bold_cap else font
    # The initial's cap height spans `depth` lines: from the first line's
    # cap line to the last line's baseline.
    cap_size = size * ((depth - 1) * pitch + cap_height) / cap_height
    cfont = ms.get_font(cap_key, cap_size, dpi)
    heading = ms.Para(prose.phrase(rng, 2, 5), ms.Style(font + "-bold" if font in ("serif", "sans")
                                                        else font, size * 1.8, space_after=1.5),
                      role="heading", level=1)
    head_top = mt + 0.6
    top = head_top + 1.1
    for _ in range(20):
        words = prose.paragraph(rng, 4, 6, set()).split()
        first = words[0]
        if not first[:1].isalpha() or not first[:1].isupper():
            continue
        initial, rest = first[0], first[1:]
        c_bbox = cfont.getbbox(initial, anchor="ls")
        cap_w = max(c_bbox[2], cfont.getlength(initial)) / dpi
        gap = 0.3 * size / 72.0
        narrow = pw - mr - (ml + cap_w + gap)
        line_words = ([rest] if rest else []) + words[1:]
        lines = ms.break_lines(line_words, bfont, narrow * dpi, False)
        if len(lines) <= depth:
            continue
        beside = " ".join(" ".join(ws) for ws in lines[:depth])
        after = " ".join(" ".join(ws) for ws in lines[depth:])
        # The initial's baseline on the `depth`-th line's: its frame's top
        # is that baseline less the big font's ascent.
        baseline = top * dpi + ascent + (depth - 1) * pitch
        cap_top = (baseline - cfont.getmetrics()[0]) / dpi
        left_style = ms.Style(font, size, 1.3, "left", space_after=0.0)
        frames = [
            ms.Frame((ml, head_top, pw - mr, head_top + 1.0), [heading]),
            ms.Frame((ml, cap_top, ml + cap_w + 0.01, ph - 1.0),
                     [ms.Para(initial, ms.Style(cap_key, cap_size, 1.0, space_after=0.0))]),
            ms.Frame((ml + cap_w + gap, top, pw - mr, ph - 1.0),
                     [ms.Para(beside, left_style)]),
            ms.Frame((ml, top + depth * pitch / dpi, pw - mr, ph - 1.0),
                     [ms.Para(after, body)] + [ms.Para(prose.paragraph(rng, 2, 5, set()), body)
                                               for _ in range(rng.randint(2, 5))]),
        ]
        spec = ms.PageSpec(f"{FAMILY}-{seed}", "generated: dropcap family", [], dpi=dpi,
                           page_size=(pw, ph), frames=tuple(frames))
        while len(spec.frames[3].paras) > 1 and not pagekit.fits(spec):
            last = spec.frames[3]
            spec.frames = (*spec.frames[:3], ms.Frame(last.box, last.paras[:-1]))
        try:
            _, _, blocks = ms.layout(spec)
        except ms.DoesNotFit:
            continue
        # blocks: heading, initial, the lines beside it, the rest.
        if len(blocks) != 4 or sum(len(p) for p in blocks[2].paras) != depth:
            continue
        cap_word = blocks[1].paras[0][0].words[0]
        cap_word.whole = not rest
        drawn = [ms.Block([list(p) for p in b.paras]) for b in blocks]
        truth = _joined(blocks, cap_word, blocks[2])
        # The paragraph beside the initial and its continuation are one.
        opening = truth[1].paras[0]
        opening.extend(truth[2].paras[0])
        truth[2].paras = truth[2].paras[1:]
        truth = [truth[0], ms.Block([opening] + truth[2].paras)]
        params = {"dpi": dpi, "font": font, "size": size, "depth": depth, "bold_cap": bold_cap,
                  "paragraphs": len(truth[1].paras)}
        return rowpages.write(spec, truth, out_dir, FAMILY, seed, params, mark=_boxes(truth),
                              drawn=drawn)
    raise RuntimeError(f"{FAMILY}-{seed}: no opening fits")
