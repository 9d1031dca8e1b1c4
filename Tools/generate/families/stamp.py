"""Rubber stamps over body text on tinted paper (issue 48, point 2).

A seed draws a page of 10-12 pt body text, black (or nearly: a warm or
cool dark gray) on tinted paper (cream, buff, gray-green, pale blue; its
chroma 8-30, mottled), at 200 or 300 dpi, and one or two rubber stamps
pressed over the text: a ring (two circles, capitals set round the ring,
a word or a date across the middle) or a box (a double frame round one to
three lines of capitals), turned up to 30 degrees either way, in a
saturated blue, blue-violet, violet or red. The stamp's ink is partly
transparent (multiplied over the page at 55-90 % strength, so black text
under it stays black and the paper's tint shows through) and textured
(grain, and blotches where the pad left less ink). The page is stored as
a JPEG (quality 55-85, chroma subsampled as cameras and scanners do).
The stamps' words are not page text: the truth is the body text only,
every word under a stamp included; the truth's `generator` records each
stamp's box (`stampBoxes`, [x0, y0, x1, y1] of its ink).
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from families import pagekit, prose
from families.scans import make_scans as ms

FAMILY = "stamp"
STAMP_WORDS = ("RECEIVED", "PAID", "COPY", "APPROVED", "FILED", "ENTERED", "URGENT", "CHECKED",
               "CONFIDENTIAL", "VOID")
RING_WORDS = ("ARCHIVES", "REGISTRY OFFICE", "ACCOUNTS DEPT", "CITY CLERK", "NOTARY PUBLIC",
              "POST OFFICE", "RECORDS SECTION")
# Saturated stamp inks: blue, blue-violet, violet, red.
INKS = ([40, 70, 185], [85, 60, 175], [120, 45, 160], [200, 40, 50])
# Tinted papers: cream, buff, gray-green, pale blue.
PAPERS = ([242, 234, 212], [236, 224, 198], [226, 232, 218], [222, 230, 238])
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    dpi = rng.choice((200, 300, 300))
    pw, ph = 8.5, 11.0
    style = ms.Style(rng.choice(("serif", "sans", "dejavu-serif")), rng.choice((10.0, 11.0, 12.0)),
                     align=rng.choice(("left", "justify")))
    drawn: set = set()
    paras = [ms.Para(prose.paragraph(rng, 2, 4, drawn), style) for _ in range(rng.randint(3, 6))]

    def make(ps):
        return ms.PageSpec(f"{FAMILY}-{seed}", "generated: stamp family", ps, dpi=dpi,
                           page_size=(pw, ph), margins=(0.9, 0.9, 0.9, 0.9))

    while not pagekit.fits(make(paras)):
        paras = paras[:-1]
        if not paras:
            raise RuntimeError("no paragraph fits")
    spec = make(paras)
    paper = list(rng.choice(PAPERS))
    ink = [rng.randint(15, 40)] * 3
    ink[rng.randrange(3)] += rng.randint(0, 10)
    stamps = []
    for _ in range(rng.choice((1, 1, 2))):
        kind = rng.choice(("ring", "box"))
        if kind == "ring":
            text = [rng.choice(RING_WORDS), _date(rng) if rng.random() < 0.6 else rng.choice(STAMP_WORDS)]
        else:
            text = [rng.choice(STAMP_WORDS)] + ([_date(rng)] if rng.random() < 0.6 else [])
        stamps.append({"kind": kind, "text": text, "rgb": list(rng.choice(INKS)),
                       "strength": round(rng.uniform(0.55, 0.9), 3),
                       "angle": rng.randint(-30, 30), "size": round(rng.uniform(1.6, 2.6), 2),
                       "center": [round(rng.uniform(0.3, 0.7), 3), round(rng.uniform(0.2, 0.6), 3)]})
    quality = rng.randint(55, 85)
    params = {"dpi": dpi, "font": style.font, "size": style.size, "paragraphs": len(paras),
              "paper": paper, "ink": ink, "stamps": stamps, "quality": quality}
    png = pagekit.write_page(spec, out_dir, FAMILY, seed, params)
    gray = np.asarray(Image.open(png).convert("L"), dtype=np.float64) / 255.0
    png.unlink()
    nprng = np.random.default_rng(seed)
    rgb = _on_paper(gray, paper, ink, nprng)
    lines = _text_rows(gray)
    boxes = []
    for st in stamps:
        # Over the text: the stamp's centre on a line of it.
        cy = round(st["center"][1] * gray.shape[0])
        if lines:
            cy = min(lines, key=lambda y: abs(y - cy))
        mask = _stamp_mask(st, dpi, nprng)
        boxes.append(_press(rgb, mask, st, round(st["center"][0] * gray.shape[1]), cy))
    path = out_dir / f"{FAMILY}-{seed}.jpg"
    Image.fromarray(np.clip(np.rint(rgb), 0, 255).astype(np.uint8)).save(
        path, format="JPEG", dpi=(dpi, dpi), quality=quality, optimize=False, progressive=False)
    truth_path = out_dir / f"{FAMILY}-{seed}.truth.json"
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    truth["pages"][0]["image"] = path.name
    truth["generator"]["stampBoxes"] = boxes
    truth_path.write_text(json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")
    return path


def _date(rng):
    return f"{rng.randint(1, 28)} {MONTHS[rng.randrange(12)]} {rng.randint(1960, 2020)}"


def _on_paper(v, paper, ink, nprng):
    """The gray page (1 paper, 0 ink) as ink on mottled tinted paper."""
    H, W = v.shape
    small = nprng.normal(0.0, 1.0, size=(H // 50 + 2, W // 50 + 2))
    field = np.asarray(Image.fromarray(((small + 4) * 32).clip(0, 255).astype(np.uint8))
                       .resize((W, H), Image.Resampling.BICUBIC), dtype=np.float64) / 32 - 4
    p = np.array(paper, dtype=np.float64)[None, None, :] + 4.0 * field[:, :, None]
    p = p + nprng.normal(0.0, 2.0, size=(H, W, 1))
    k = np.array(ink, dtype=np.float64)[None, None, :]
    return k + (p - k) * v[:, :, None]


def _text_rows(v):
    """The middle rows of the page's lines of text."""
    dark = (v < 0.5).sum(axis=1) > 0
    rows, y = [], 0
    while y < len(dark):
        if dark[y]:
            start = y
            while y < len(dark) and dark[y]:
                y += 1
            rows.append((start + y) // 2)
        y += 1
    return rows


def _stamp_mask(st, dpi, nprng):
    """The stamp's ink, 0..1: its outline and capitals, turned, grainy and
    blotched."""
    size = round(st["size"] * dpi * (1.0 if st["kind"] == "ring" else 1.1))
    font = ms.get_font("sans-bold", 13 if st["kind"] == "ring" else 18, dpi)
    if st["kind"] == "ring":
        im = Image.new("L", (size, size), 0)
        d = ImageDraw.Draw(im)
        r = size / 2
        d.ellipse([3, 3, size - 4, size - 4], outline=255, width=max(3, dpi // 60))
        inner = r * 0.7
        d.ellipse([r - inner, r - inner, r + inner, r + inner], outline=255, width=max(2, dpi // 100))
        # Capitals round the ring, each turned to face outward.
        ring_text = st["text"][0] + " * "
        radius = (r + inner) / 2
        asc, desc = font.getmetrics()
        count = len(ring_text)
        for i, ch in enumerate(ring_text):
            theta = -math.pi / 2 + 2 * math.pi * i / count
            glyph = Image.new("L", (asc + desc + 4, asc + desc + 4), 0)
            gd = ImageDraw.Draw(glyph)
            gw = font.getlength(ch)
            gd.text(((glyph.width - gw) / 2, 2), ch, fill=255, font=font)
            glyph = glyph.rotate(-math.degrees(theta) - 90, resample=Image.Resampling.BICUBIC)
            x = r + radius * math.cos(theta) - glyph.width / 2
            y = r + radius * math.sin(theta) - glyph.height / 2
            im.paste(255, (round(x), round(y)), glyph)
        middle = st["text"][1]
        mw = font.getlength(middle)
        d.text((r - mw / 2, r - (asc + desc) / 2), middle, fill=255, font=font)
    else:
        lines = st["text"]
        asc, desc = font.getmetrics()
        pitch = asc + desc
        widths = [font.getlength(t) for t in lines]
        w = max(int(max(widths)) + dpi // 4, size)
        h = pitch * len(lines) + dpi // 5
        im = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(im)
        d.rectangle([3, 3, w - 4, h - 4], outline=255, width=max(3, dpi // 50))
        d.rectangle([dpi // 20, dpi // 20, w - 1 - dpi // 20, h - 1 - dpi // 20], outline=255,
                    width=max(2, dpi // 120))
        y = (h - pitch * len(lines)) / 2
        for t, tw in zip(lines, widths):
            d.text(((w - tw) / 2, y), t, fill=255, font=font)
            y += pitch
    im = im.rotate(st["angle"], resample=Image.Resampling.BICUBIC, expand=True)
    m = np.asarray(im, dtype=np.float64) / 255.0
    # Grain, and blotches where the pad gave less ink.
    hh, ww = m.shape
    blot = nprng.normal(0.0, 1.0, size=(hh // 25 + 2, ww // 25 + 2))
    blot = np.asarray(Image.fromarray(((blot + 4) * 32).clip(0, 255).astype(np.uint8))
                      .resize((ww, hh), Image.Resampling.BICUBIC), dtype=np.float64) / 32 - 4
    m *= np.clip(0.8 + 0.2 * blot, 0.25, 1.0) * (0.8 + 0.2 * nprng.random(m.shape))
    return m


def _press(rgb, mask, st, cx, cy):
    """Multiplies the stamp's ink over the page, centred at (cx, cy)."""
    H, W, _ = rgb.shape
    h, w = mask.shape
    x0, y0 = cx - w // 2, cy - h // 2
    sx0, sy0 = max(0, -x0), max(0, -y0)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(W, x0 + w - sx0), min(H, y0 + h - sy0)
    a = st["strength"] * mask[sy0:sy0 + (y1 - y0), sx0:sx0 + (x1 - x0)][:, :, None]
    colour = np.array(st["rgb"], dtype=np.float64)[None, None, :] / 255.0
    rgb[y0:y1, x0:x1] *= 1.0 - a + a * colour
    ys, xs = np.nonzero(a[:, :, 0] > 0.05)
    return [int(x0 + xs.min()), int(y0 + ys.min()), int(x0 + xs.max() + 1), int(y0 + ys.max() + 1)]
