"""Pages of 1 to 4 text columns with the furniture of a printed page.

A seed draws: the page (letter at 200 or 300 dpi, or 6x9 in at 300 dpi),
the number of columns (1-4; at most 3 on the narrow page), the type (serif
or sans, Liberation or DejaVu, 8-12 pt, smaller with more columns),
justified or ragged right, the gutter (0.12-0.5 in: narrow gutters are
where line finding merges columns), and independently a running head, a
title spanning the columns, a caption closing the text, footnotes and a
page number; single-column pages may carry notes in a wide outer margin,
each beside the paragraph it annotates; and some pages have a note turned
sideways in the right margin (read upward or downward).

The truth lists paragraphs in the order a reader takes them, the order
ScanText's reading order promises: running head, title, the columns left
to right (caption last), each marginal note right after its paragraph,
then footnotes and the page number.
"""

from __future__ import annotations

import random
from pathlib import Path

from families import pagekit, prose
from families.scans import make_scans as ms

FAMILY = "columns"

FONTS = ("serif", "sans", "dejavu-serif", "dejavu-sans")
SIZES = {1: (10.0, 12.0), 2: (9.0, 11.0), 3: (8.5, 10.0), 4: (8.0, 9.0)}


def generate(seed: int, out_dir: Path) -> Path:
    rng = random.Random(f"{FAMILY}-{seed}")
    (page_w, page_h), dpi = rng.choice([((8.5, 11.0), 200), ((8.5, 11.0), 200), ((6.0, 9.0), 300),
                                        ((8.5, 11.0), 300)])
    columns = rng.randint(1, 4 if page_w > 7 else 3)
    font = rng.choice(FONTS)
    size = round(rng.uniform(*SIZES[columns]) * 2) / 2
    align = rng.choice(("justify", "left"))
    gutter = round(rng.uniform(0.12, 0.5), 2)
    margin = round(rng.uniform(0.5, 0.85), 2)
    notes_side = rng.choice(("left", "right")) if columns == 1 and rng.random() < 0.4 else None
    has = {k: rng.random() < p for k, p in
           (("head", 0.7), ("title", 0.5), ("caption", 0.4), ("footnotes", 0.5), ("number", 0.8),
            ("sideways", 0.3))}

    left, right = margin, page_w - margin
    note_box = None
    if notes_side == "left":
        note_box, left = (margin, margin + 1.25), margin + 1.55
    elif notes_side == "right":
        note_box, right = (page_w - margin - 1.25, page_w - margin), page_w - margin - 1.55
    body_style = ms.Style(font, size, align=align, space_after=rng.choice((0.3, 0.6, 0.9)))
    small = ms.Style("sans" if "serif" in font else "serif", 7.5)
    frames = []
    top = 0.45
    if has["head"]:
        head_align = rng.choice(("left", "center", "right"))
        frames.append(ms.Frame((left, top, right, top + 0.3),
                               [ms.Para(prose.phrase(rng), ms.Style(small.font, 8, align=head_align),
                                        role="header")]))
        top += 0.55
    else:
        top = margin
    if has["title"]:
        title = ms.Para(prose.phrase(rng, 3, 7), ms.Style("sans-bold", rng.choice((16, 18, 20)),
                                                          align=rng.choice(("left", "center")),
                                                          space_after=0.2),
                        role="heading", level=1)
        height = pagekit.text_height([title], dpi, right - left)
        frames.append(ms.Frame((left, top, right, top + height + 0.05), [title]))
        top += height + 0.2
    bottom = page_h - (0.75 if has["number"] else margin)
    footnotes = []
    if has["footnotes"]:
        for k in range(1, rng.randint(1, 2) + 1):
            footnotes.append(ms.Para(f"{k} {prose.sentence(rng, 25)}",
                                     ms.Style(small.font if rng.random() < 0.5 else "serif", 7.5,
                                              space_after=0.3), role="footnote"))
        height = pagekit.text_height(footnotes, dpi, right - left)
        foot_top = bottom - height
        bottom = foot_top - 0.2
    caption = None
    if has["caption"]:
        caption = ms.Para(f"Figure {rng.randint(1, 12)}. {prose.sentence(rng, 18)}",
                          ms.Style(small.font, 7.5), role="caption")

    colw = (right - left - gutter * (columns - 1)) / columns
    # Paragraphs until the columns are about nine tenths full, then fewer
    # until make-scans can set them (balanced columns).
    capacity = columns * (bottom - top) * 0.9
    paras, used, drawn = [], 0.0, set()
    while True:
        p = ms.Para(prose.paragraph(rng, 2, 4, drawn), body_style)
        h = pagekit.text_height([p], dpi, colw)
        if used + h > capacity and paras:
            break
        paras.append(p)
        used += h

    def body_frames(paras):
        if notes_side is None:
            return [ms.Frame((left, top, right, bottom), paras + ([caption] if caption else []),
                             columns=columns, gutter=gutter)]
        # One frame per paragraph, so a note can follow the paragraph it
        # sits beside; a note goes beside every other paragraph of three
        # lines or more, its top level with the paragraph's.
        out, y = [], top
        for i, p in enumerate(paras + ([caption] if caption else [])):
            h = pagekit.text_height([p], dpi, right - left)
            out.append(ms.Frame((left, y, right, y + h + 0.02), [p]))
            lines = h / (p.style.size * p.style.leading / 72.0)
            if p.role == "body" and i % 2 == 0 and lines >= 3.5:
                note = ms.Para(prose.phrase(rng, 3, 7, title=False).capitalize() + ".",
                               ms.Style(small.font, 7.5, space_after=0.0), role="marginalia")
                nh = pagekit.text_height([note], dpi, note_box[1] - note_box[0])
                if nh < h:
                    out.append(ms.Frame((note_box[0], y + 0.03, note_box[1], y + 0.03 + nh + 0.02),
                                        [note]))
            y += h
        return out

    def spec_for(paras):
        tail = []
        if footnotes:
            tail.append(ms.Frame((left, foot_top, right, foot_top + 2.0), footnotes))
        if has["number"]:
            tail.append(ms.Frame((left, page_h - 0.6, right, page_h - 0.3),
                                 [ms.Para(str(rng_number), ms.Style(small.font, 8, align=number_align),
                                          role="pageNumber")]))
        return ms.PageSpec(f"{FAMILY}-{seed}", "generated: columns family", [], dpi=dpi,
                           page_size=(page_w, page_h), frames=tuple(frames + body_frames(paras) + tail))

    rng_number = rng.randint(2, 480)
    number_align = rng.choice(("center", "right" if rng_number % 2 else "left"))
    state = rng.getstate()
    while True:
        rng.setstate(state)
        spec = spec_for(paras)
        if pagekit.fits(spec) and _inside(spec, bottom):
            break
        if len(paras) == 1:
            raise RuntimeError(f"{FAMILY}-{seed}: one paragraph does not fit")
        paras = paras[:-1]
    params = {"page": [page_w, page_h], "dpi": dpi, "columns": columns, "font": font, "size": size,
              "align": align, "gutter": gutter, "margin": margin, "notes": notes_side,
              "paragraphs": len(paras), **has}
    sideways = None
    if has["sideways"] and notes_side != "right" and page_w - right >= 0.45:
        sideways = {"text": prose.phrase(rng, 4, 8, title=False).capitalize(),
                    "turn": rng.choice((90, 270)), "x": right + (page_w - right) / 2,
                    "y": rng.uniform(0.35, 0.6) * page_h}
    params["sideways"] = sideways is not None
    path = pagekit.write_page(spec, out_dir, FAMILY, seed, params)
    if sideways:
        _add_sideways_note(path, dpi, sideways)
    return path


def _add_sideways_note(path: Path, dpi: int, note: dict) -> None:
    """Prints a note of 8 pt sans turned by 90 degrees (read upward) or 270
    (read downward) in the right margin, centred on (`x`, `y`) inches, and
    adds it to the truth as the last paragraph (role marginalia), its
    words' boxes the turned ink's."""
    import json

    import numpy as np
    from PIL import Image

    font = ms.get_font("sans", 8, dpi)
    fkey = ("sans", 8, dpi)
    line, boxes, baseline = pagekit.upright_line(font, fkey, note["text"])
    height, length = line.shape
    k = 1 if note["turn"] == 90 else 3          # np.rot90 turns counter-clockwise
    turned = np.rot90(line, k)
    th, tw = turned.shape
    x0, y0 = round(note["x"] * dpi - tw / 2), round(note["y"] * dpi - th / 2)

    def fwd(x, y):
        # A point of the upright line in the page: turned counter-clockwise
        # (x, y) -> (y, length - x), or clockwise (x, y) -> (height - y, x).
        return (x0 + y, y0 + length - x) if k == 1 else (x0 + height - y, y0 + x)

    def place(box):
        xs, ys = zip(*(fwd(x, y) for x, y in ms.corners(box)))
        return [min(xs), min(ys), max(xs), max(ys)]

    def quad(box):
        return [list(fwd(x, y)) for x, y in ms.corners(box)]

    image = Image.open(path)
    page = np.asarray(image.convert("L"), dtype=np.uint8).copy()
    area = page[y0:y0 + th, x0:x0 + tw]
    if area.min() < 128:
        raise RuntimeError(f"{path.name}: the sideways note would touch print")
    np.minimum(area, 255 - turned, out=area)
    Image.fromarray(page).save(path, format="PNG", dpi=(dpi, dpi), compress_level=9)

    truth_path = path.with_name(f"{path.stem}.truth.json")
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    tp = truth["pages"][0]
    start = len(tp["text"]) + 1        # after the empty line that separates paragraphs
    jwords, pos = [], start
    for i, (text, box) in enumerate(boxes):
        if i:
            pos += 1
        jwords.append({"bbox": place(box), "quad": quad(box), "text": text,
                       "range": [pos, pos + len(text)]})
        pos += len(text)
    text = " ".join(t for t, _ in boxes)
    bbox = ms.union([w["bbox"] for w in jwords])
    base = [x0 + baseline, y0 + length, x0 + baseline, y0] if k == 1 else \
        [x0 + height - baseline, y0, x0 + height - baseline, y0 + length]
    upright = ms.union([b for _, b in boxes])
    jline = {"bbox": bbox, "baseline": base, "quad": quad(upright), "text": text,
             "range": [start, pos], "words": jwords}
    tp["blocks"].append({"bbox": bbox, "paragraphs": [{"bbox": bbox, "lines": [jline],
                                                       "role": "marginalia"}]})
    tp["text"] += "\n" + text + "\n"
    truth["generator"]["sideways"] = note
    truth_path.write_text(json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def _inside(spec, bottom) -> bool:
    """Stacked paragraph frames (pages with notes) must end above the
    footnotes; make-scans only checks each frame on its own."""
    return all(fr.box[3] <= bottom + 0.05 for fr in spec.frames
               if fr.paras and fr.paras[0].role in ("body", "caption", "marginalia"))
