"""Till receipts: narrow thermal paper, monospace print, faded and with
dropouts, and a barcode.

A seed draws an 80 mm (or 58 mm) receipt: the shop's name and address
centred, a date, time and till line, four to fourteen items with their
prices flush right (some with a quantity line), subtotal, tax and total,
a payment line, a thanks line, and a barcode under it (bars, no text: a
figure). Thermal print is grey, not black (ink 60-140 on paper 225-250),
fades along the roll, and a worn print head leaves one to three thin
vertical white lines through every line of print. 200 or 300 dpi, two
monospace fonts, 8-10 pt (7-8 pt on 58 mm). The truth is the printed text, a line per
printed line; the barcode is not text.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from families import prose, rowpages
from families.scans import make_scans as ms

FAMILY = "receipts"
ITEMS = ("MILK 1L", "BREAD WHOLEMEAL", "EGGS FREE RANGE 6", "APPLES GALA", "COFFEE BEANS 500G",
         "BUTTER UNSALTED", "ORANGE JUICE", "RICE BASMATI 1KG", "PASTA PENNE", "TOMATOES",
         "CHEDDAR MATURE", "OLIVE OIL 750ML", "BANANAS", "YOGURT GREEK", "TEA BAGS 80",
         "DISH SOAP", "PAPER TOWELS", "CHOCOLATE DARK", "WATER 6X1.5L", "ONIONS 1KG",
         "CARROTS", "CHICKEN BREAST", "SPINACH 200G", "HONEY 340G", "CEREAL OATS")
STREETS = ("High Street", "Market Square", "Station Road", "Church Lane", "Mill Road", "Bridge St")


def _money(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def _rows(rng, style, bold):
    shop = prose.phrase(rng, 1, 2).upper()
    rows = [
        rowpages.Row(f"{shop} STORES", "", bold, group=0, align="center"),
        rowpages.Row(f"{rng.randint(1, 240)} {rng.choice(STREETS)}", "", style, group=0,
                     align="center"),
        rowpages.Row(f"TEL {rng.randint(100, 999)} {rng.randint(1000, 9999)}", "", style, group=0,
                     align="center"),
    ]
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.randint(2015, 2026)
    rows.append(rowpages.Row(f"{day:02d}/{month:02d}/{year} {rng.randint(7, 21):02d}:"
                             f"{rng.randint(0, 59):02d}", f"TILL {rng.randint(1, 12)}", style,
                             gap_before=0.12, group=1))
    total = 0
    for name in rng.sample(ITEMS, rng.randint(4, 14)):
        quantity = rng.choice((1, 1, 1, 2, 3))
        unit = rng.randint(25, 1299)
        total += quantity * unit
        rows.append(rowpages.Row(name, _money(quantity * unit), style, group=2))
        if quantity > 1:
            rows.append(rowpages.Row(f"{quantity} @ {_money(unit)}", "", style, indent=0.2,
                                     group=2))
    tax = round(total * rng.choice((0.05, 0.07, 0.2)))
    rows += [
        rowpages.Row("SUBTOTAL", _money(total), style, gap_before=0.1, group=3),
        rowpages.Row("TAX", _money(tax), style, group=3),
        rowpages.Row("TOTAL", _money(total + tax), bold, group=3),
        rowpages.Row(rng.choice(("CARD", "CASH", "CONTACTLESS")), _money(total + tax), style,
                     gap_before=0.1, group=4),
        rowpages.Row("THANK YOU FOR SHOPPING", "", style, gap_before=0.12, group=5,
                     align="center"),
    ]
    return rows


def _barcode(rng, dpi, box):
    """Draws a barcode's bars (no text) in `box` (pixels) on the coverage."""
    x0, y0, x1, y1 = box
    module = max(1, round(dpi / 100))

    def mark(cov):
        x = x0
        while x < x1 - 4 * module:
            width = module * rng.choice((1, 1, 2, 3))
            if rng.random() < 0.5:
                cov[y0:y1, x:x + width] = 255
            x += width + module * rng.choice((1, 1, 2))

    return mark


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    dpi = rng.choice((200, 300))
    font = rng.choice(("mono", "dejavu-mono"))
    width = rng.choice((3.15, 2.28))
    size = rng.choice((8.0, 9.0, 10.0) if width > 3 else (7.0, 8.0))
    style = ms.Style(font, size, 1.3)
    bold = ms.Style("mono-bold" if font == "mono" else font, size, 1.3)
    margin = 0.15
    for _ in range(20):
        rows = _rows(rng, style, bold)
        frames, counts, bottom = rowpages.frames_for(rows, 0.3, margin, width - margin,
                                                     0.8 if width > 3 else 0.55, 30.0)
        height = round(bottom + 1.1, 2)
        spec = ms.PageSpec(f"{FAMILY}-{seed}", "generated: receipts family (thermal print)", [],
                           dpi=dpi, page_size=(width, height), frames=tuple(frames),
                           degrade={"kind": "contrast", "ink": rng.randint(60, 140),
                                    "paper": rng.randint(225, 250)})
        try:
            _, _, blocks = ms.layout(spec)
        except ms.DoesNotFit:
            continue
        laid = rowpages.merge(rows, counts, blocks)
        if laid is None:
            continue
        bar_top = round((bottom + 0.25) * dpi)
        bar = (round(0.35 * dpi), bar_top, round((width - 0.35) * dpi), bar_top + round(0.45 * dpi))
        heads = sorted(rng.sample(range(round(margin * dpi), round((width - margin) * dpi)),
                                  rng.randint(1, 3)))
        fade = rng.uniform(0.0, 0.35)

        def finish(img, heads=heads, fade=fade):
            v = img.astype(np.float64)
            paper = float(np.percentile(v, 90))
            rows_ = np.linspace(0.0, fade, v.shape[0])[:, None]
            v = v + (paper - v) * rows_
            for x in heads:
                v[:, x:x + max(1, dpi // 150)] = paper
            return np.clip(np.rint(v), 0, 255).astype(np.uint8)

        params = {"dpi": dpi, "font": font, "size": size, "width": width, "items": len(rows),
                  "ink": spec.degrade["ink"], "fade": round(fade, 3), "dropouts": len(heads)}
        return rowpages.write(spec, rowpages.truth_blocks([], laid), out_dir, FAMILY, seed, params,
                              mark=_barcode(rng, dpi, bar), finish=finish)
    raise RuntimeError(f"{FAMILY}-{seed}: no receipt fits")
