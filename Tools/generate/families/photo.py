"""Phone photos of book pages, built on make-scans' photograph code.

A seed draws a half-letter book page at 300 dpi (one column of 10-12 pt
text, maybe a running head and a page number) and how it was photographed:
the scale (0.85-1.2 photo pixels per page pixel), the turn (up to 8
degrees either way), perspective or square on (a near edge 3-18 % wider
than the far one, toward any side, corners jittered), a curl toward the
spine (half the pages: the lines rise by 40-220 page pixels at the spine,
left or right), the light (paper 205-245, falling off by 5-30 %), the
table (dark or nearly as light as the paper, with grain), blur, noise,
JPEG quality 80-95, and how much of the page is in view: all four edges
with table round them, one side of the frame cutting into the page, or
every side (a close-up; the frame cuts off the turned page's outermost
corners, so parts of its edges may still show). A quarter of the photos
are stored turned with an EXIF orientation tag (6, 8 or 3) that turns
them back, as phones store them; the truth is in the frame a viewer
shows.

The truth's `generator` records what the pipeline's photo decisions are
checked against (`Tools/check/gate`'s confusion tables): `curled`,
`edgesInView` (all four corners inside the photo), `perspective` (the
page is not a turned rectangle in the photo) and `exifOrientation` (the
tag, or null).
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
from PIL import Image

from families import pagekit, prose
from families.scans import make_scans as ms

FAMILY = "photo"
# Stored pixels from the upright picture, for each EXIF tag: the tag says
# how a viewer turns the stored pixels back (6: 90 degrees clockwise).
STORE = {6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270, 3: Image.Transpose.ROTATE_180}


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    dpi, (pw, ph) = 300, (ms.PAGE_W_IN, ms.PAGE_H_IN)
    W, H = round(pw * dpi), round(ph * dpi)
    font = rng.choice(("serif", "serif", "sans", "dejavu-serif"))
    style = ms.Style(font, rng.choice((10.0, 10.5, 11.0, 12.0)), align=rng.choice(("justify", "left")),
                     space_after=rng.choice((0.0, 0.5)))
    head = rng.random() < 0.6
    number = rng.random() < 0.7
    top, bottom = (0.8 if head else 0.5), (ph - (0.7 if number else 0.5))
    frames_head = [ms.Frame((0.5, 0.35, pw - 0.5, 0.6),
                            [ms.Para(prose.phrase(rng), ms.Style("sans", 8, align="center"),
                                     role="header")])] if head else []
    page_no = rng.randint(3, 400)
    frames_tail = [ms.Frame((0.5, ph - 0.55, pw - 0.5, ph - 0.3),
                            [ms.Para(str(page_no), ms.Style("sans", 8, align="center"),
                                     role="pageNumber")])] if number else []
    paras, drawn = [], set()
    for _ in range(8):
        paras.append(ms.Para(prose.paragraph(rng, 2, 4, drawn), style))

    # How it was photographed.
    scale = rng.uniform(0.85, 1.2)
    turn = math.radians(rng.uniform(-8, 8))
    perspective = rng.random() < 0.7
    curled = rng.random() < 0.5
    view = rng.choices(("in", "one-out", "out"), weights=(2, 1, 1))[0]
    corners = [(0.0, 0.0), (W * scale, 0.0), (W * scale, H * scale), (0.0, H * scale)]
    if perspective:
        # A near edge wider than the far one: shrink the far edge about
        # its middle (the far edge is any of the four sides).
        shrink = rng.uniform(0.03, 0.18)
        side = rng.randrange(4)
        a, b = corners[side], corners[(side + 1) % 4]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        corners[side] = (a[0] + (mid[0] - a[0]) * shrink, a[1] + (mid[1] - a[1]) * shrink)
        corners[(side + 1) % 4] = (b[0] + (mid[0] - b[0]) * shrink, b[1] + (mid[1] - b[1]) * shrink)
        corners = [(x + rng.uniform(-15, 15), y + rng.uniform(-15, 15)) for x, y in corners]
    c, s = math.cos(turn), math.sin(turn)
    corners = [(c * x - s * y, s * x + c * y) for x, y in corners]
    # The photo's frame: margins of table round the page, negative where
    # an edge is out of view. A curled page's lines rise into its margin,
    # so a cut that reaches print is made milder (then none) until every
    # word is whole in the photo.
    margins = [rng.uniform(60, 220) for _ in range(4)]      # left, top, right, bottom
    cuts = [rng.uniform(20, 75) * scale for _ in range(4)]
    out_sides = {rng.randrange(4)} if view == "one-out" else set(range(4)) if view == "out" else set()
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    light_table = rng.random() < 0.3
    table = rng.randint(150, 190) if light_table else rng.randint(45, 120)
    look = {"grain": rng.randint(10, 30), "paper": rng.randint(205, 245),
            "falloff": round(rng.uniform(0.05, 0.3), 3), "blur": round(rng.uniform(0.5, 1.1), 2),
            "noise": round(rng.uniform(1.5, 4.0), 2), "seed": seed, "quality": rng.randint(80, 95)}
    if curled:
        look["curl"] = rng.randint(40, 220)
        look["spine"] = rng.choice(("left", "right"))
    exif = rng.choice((6, 8, 3)) if rng.random() < 0.25 else None

    def framed(factor):
        m = [-cuts[i] * factor if i in out_sides and factor > 0 else
             (margins[i] if i not in out_sides else 12.0) for i in range(4)]
        x0, y0 = min(xs) - m[0], min(ys) - m[1]
        canvas = [round(max(xs) + m[2] - x0), round(max(ys) + m[3] - y0)]
        placed = [[round(x - x0, 1), round(y - y0, 1)] for x, y in corners]
        return dict(look, canvas=canvas, corners=placed, table=table)

    def spec_for(paras, photo):
        body = ms.Frame((0.5, top, pw - 0.5, bottom), paras)
        return ms.PageSpec(f"{FAMILY}-{seed}", "generated: photo family", [], dpi=dpi,
                           page_size=(pw, ph), fmt="jpg", frames=tuple(frames_head + [body] + frames_tail),
                           photo=photo, skew=round(math.degrees(turn), 2))

    while not pagekit.fits(spec_for(paras, framed(1.0))):
        paras = paras[:-1]
        if not paras:
            raise RuntimeError(f"{FAMILY}-{seed}: no paragraph fits")
    for factor in (1.0, 0.5, 0.0):
        photo = framed(factor)
        canvas = photo["canvas"]
        edges_in_view = all(0 <= x < canvas[0] and 0 <= y < canvas[1] for x, y in photo["corners"])
        truth = {"curled": curled, "edgesInView": edges_in_view, "perspective": perspective,
                 "exifOrientation": exif}
        params = {"scale": round(scale, 3), "turn": round(math.degrees(turn), 2), "view": view,
                  "cut": factor, "lightTable": light_table, "font": font, "size": style.size,
                  "head": head, "number": number, "paragraphs": len(paras)}
        path = pagekit.write_page(spec_for(paras, photo), out_dir, FAMILY, seed, params, truth)
        if _print_inside(path, canvas):
            break
    else:
        raise RuntimeError(f"{FAMILY}-{seed}: print is cut by the photo's frame")
    if exif:
        _store_turned(path, exif, photo["quality"], dpi)
    return path


def _print_inside(path: Path, canvas) -> bool:
    """Whether every word's box is at least 4 px inside the photo: a word
    the frame cuts would be truth nobody can read."""
    import json
    truth = json.loads(path.with_name(path.stem + ".truth.json").read_text(encoding="utf-8"))
    for block in truth["pages"][0]["blocks"]:
        for para in block["paragraphs"]:
            for line in para["lines"]:
                for w in line["words"]:
                    x0, y0, x1, y1 = w["bbox"]
                    if x0 < 4 or y0 < 4 or x1 > canvas[0] - 4 or y1 > canvas[1] - 4:
                        return False
    return True


def _store_turned(path: Path, tag: int, quality: int, dpi: int) -> None:
    """Stores the picture turned, with the EXIF orientation tag that turns
    it back (a viewer shows the truth's frame)."""
    upright = Image.open(path)
    upright.load()
    stored = upright.transpose(STORE[tag])
    exif = Image.Exif()
    exif[0x0112] = tag
    stored.save(path, format="JPEG", quality=quality, dpi=(dpi, dpi), exif=exif.tobytes(),
                optimize=False, progressive=False)
    # The tag must turn the stored pixels back to the upright picture.
    from PIL import ImageOps
    back = np.asarray(ImageOps.exif_transpose(Image.open(path)), dtype=np.int16)
    if back.shape != np.asarray(upright).shape:
        raise RuntimeError(f"{path.name}: EXIF tag {tag} does not turn the picture back")
