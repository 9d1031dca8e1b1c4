#!/usr/bin/env python3
"""Verify the sample pages in Scans/ against their ScanText ground truth.

    python3 Tools/check/check-scans.py            # check every page
    python3 Tools/check/check-scans.py clean ...  # check only the named pages
    python3 Tools/check/check-scans.py --ocr      # also run tesseract and compare with truth
    python3 Tools/check/check-scans.py --dir=PATH # check another directory
    python3 Tools/check/check-scans.py --scantext=PATH  # the scantext binary to use

The text, the ranges and the OCR comparison are ScanText's own: the truth is
read and checked by `scantext verify --json` (its text must be its words
joined as Tesseract joins them, every range must slice it, and the selection
geometry must pass), and `--ocr` scores Tesseract's TSV with `scantext eval
--json`. The binary is .build/release/scantext, else .build/debug/scantext,
else built (see Tools/lib/scantext_tool.py).

Checks, per page:
  * image file: 8-bit grayscale (RGB on the colour pages), size and DPI as in
    the truth;
  * JSON: canonical formatting (sorted keys, 2-space indent, trailing newline),
    exact key names, value types;
  * text: `scantext verify` reads the truth (the page text is the words
    joined as Tesseract joins them, every range slices its element's text)
    and its selection geometry passes every check; word texts are non-empty
    and hold no whitespace;
  * geometry: boxes are integer [x0, y0, x1, y1] inside the image, children
    inside parents, line/paragraph/block boxes are exact unions of their
    children, quads present exactly on rotated/skewed pages and consistent
    with the boxes, baselines inside the line box (upright pages);
  * ink: every word box holds ink; on undegraded pages (ink = value < 128)
    every box is tight (ink on all four edges), boxes do not overlap on
    upright pages, and the share of ink outside all word boxes is < 1%.
    On degraded pages ink is found after a 3x3 median (noise pages),
    background flattening and Otsu thresholding; boxes get a small margin and
    the outside-ink share must stay < 5% (the deliberate noise is reported).

Exits non-zero on the first page that fails any check (all pages are still
checked and reported).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from scantext_tool import ScantextError, evaluate, find_scantext, verify

ROOT = Path(__file__).resolve().parents[2]
SCANS = ROOT / "Scans"

TOP_KEYS = {"version", "generator", "pages"}
PAGE_KEYS = {"index", "image", "width", "height", "dpi", "orientation", "skew", "language", "text", "blocks"}
BLOCK_KEYS = {"bbox", "paragraphs"}
PARA_KEYS = {"bbox", "lines"}
LINE_KEYS = {"bbox", "baseline", "text", "range", "words"}
WORD_KEYS = {"bbox", "text", "range"}

CLEAN_THRESHOLD = 128          # value < 128 is ink on undegraded pages
CLEAN_OUTSIDE_LIMIT = 0.01
DEGRADED_OUTSIDE_LIMIT = 0.05


class Fail(Exception):
    pass


def need(cond, msg):
    if not cond:
        raise Fail(msg)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_box(b):
    return isinstance(b, list) and len(b) == 4 and all(isinstance(v, int) and not isinstance(v, bool) for v in b)


def inside(child, parent):
    return (child[0] >= parent[0] and child[1] >= parent[1] and child[2] <= parent[2] and child[3] <= parent[3])


def union(boxes):
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


# --------------------------------------------------------------------------
# Structure
# --------------------------------------------------------------------------

def check_keys(obj, expected, optional, where):
    need(isinstance(obj, dict), f"{where}: not an object")
    keys = set(obj)
    missing = expected - keys
    extra = keys - expected - optional
    need(not missing, f"{where}: missing keys {sorted(missing)}")
    need(not extra, f"{where}: unexpected keys {sorted(extra)}")


def check_quad(q, where):
    need(isinstance(q, list) and len(q) == 4 and all(isinstance(p, list) and len(p) == 2 and all(is_num(v) for v in p)
                                                   for p in q), f"{where}: bad quad {q!r}")


def quad_aabb(q):
    xs, ys = [p[0] for p in q], [p[1] for p in q]
    return [min(xs), min(ys), max(xs), max(ys)]


def check_structure(doc, image_name, im):
    check_keys(doc, TOP_KEYS, set(), "document")
    need(doc["version"] == 1, "version must be 1")
    need(isinstance(doc["generator"], dict) and doc["generator"].get("name") == "make-scans",
         "generator.name must be make-scans")
    need(isinstance(doc["pages"], list) and len(doc["pages"]) == 1, "exactly one page expected")
    page = doc["pages"][0]
    check_keys(page, PAGE_KEYS, set(), "page")
    need(page["index"] == 0, "page.index must be 0")
    need(page["image"] == image_name, f"page.image {page['image']!r} != {image_name!r}")
    W, H = page["width"], page["height"]
    need(isinstance(W, int) and isinstance(H, int), "width/height must be integers")
    need((W, H) == im.size, f"size {W}x{H} != image {im.size[0]}x{im.size[1]}")
    if doc["generator"].get("colour"):
        need(im.mode == "RGB", f"image mode {im.mode}, expected RGB on a colour page")
    else:
        need(im.mode == "L", f"image mode {im.mode}, expected L (8-bit gray)")
    dpi = im.info.get("dpi")
    need(dpi is not None, "image has no DPI")
    need(isinstance(page["dpi"], int) and round(dpi[0]) == page["dpi"] and round(dpi[1]) == page["dpi"],
         f"dpi {page['dpi']} != file dpi {dpi}")
    need(page["orientation"] in (0, 90, 180, 270), "orientation must be 0/90/180/270")
    need(is_num(page["skew"]) and -45 <= page["skew"] <= 45, "skew must be a number of degrees")
    need(isinstance(page["language"], str) and len(page["language"]) == 3, "language must be a 3-letter code")
    need(isinstance(page["text"], str), "text must be a string")
    photo = doc["generator"].get("photo")
    geometric = page["orientation"] != 0 or page["skew"] != 0 or photo is not None
    qopt = {"quad"} if geometric else set()

    words_out = []
    need(isinstance(page["blocks"], list) and page["blocks"], "no blocks")
    for bi, b in enumerate(page["blocks"]):
        wb = f"block {bi}"
        check_keys(b, BLOCK_KEYS, set(), wb)
        need(is_box(b["bbox"]), f"{wb}: bbox must be 4 integers")
        need(b["paragraphs"], f"{wb}: no paragraphs")
        pboxes = []
        for pi, p in enumerate(b["paragraphs"]):
            wp = f"{wb} para {pi}"
            check_keys(p, PARA_KEYS, {"role", "level"}, wp)
            need(is_box(p["bbox"]), f"{wp}: bbox must be 4 integers")
            need(p["lines"], f"{wp}: no lines")
            lboxes = []
            for li, ln in enumerate(p["lines"]):
                wl = f"{wp} line {li}"
                # A curled page's lines carry the polygon that follows them.
                check_keys(ln, LINE_KEYS, qopt | ({"polygon"} if photo and "curl" in photo else set()), wl)
                need(geometric == ("quad" in ln), f"{wl}: quad must be present exactly on rotated/skewed pages")
                need(is_box(ln["bbox"]), f"{wl}: bbox must be 4 integers")
                need(isinstance(ln["baseline"], list) and len(ln["baseline"]) == 4
                     and all(is_num(v) for v in ln["baseline"]), f"{wl}: baseline must be 4 numbers")
                need(ln["words"], f"{wl}: no words")
                wboxes = []
                for wi, w in enumerate(ln["words"]):
                    ww = f"{wl} word {wi}"
                    check_keys(w, WORD_KEYS, qopt, ww)
                    need(geometric == ("quad" in w), f"{ww}: quad must be present exactly on rotated/skewed pages")
                    need(is_box(w["bbox"]), f"{ww}: bbox must be 4 integers")
                    x0, y0, x1, y1 = w["bbox"]
                    need(0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H, f"{ww}: bbox {w['bbox']} empty or off the image")
                    need(isinstance(w["text"], str) and w["text"] and " " not in w["text"] and "\n" not in w["text"],
                         f"{ww}: bad word text {w['text']!r}")
                    if geometric:
                        check_quad(w["quad"], ww)
                        qa = quad_aabb(w["quad"])
                        if page["skew"] == 0 and not photo:   # exact quarter turns: ink box == rotated box
                            need([round(v) for v in qa] == w["bbox"], f"{ww}: bbox {w['bbox']} != quad box {qa}")
                        else:                   # resampled ink stays within ~2 px of the rotated box
                            need(qa[0] - 2 <= x0 and qa[1] - 2 <= y0 and x1 <= qa[2] + 2 and y1 <= qa[3] + 2,
                                 f"{ww}: bbox {w['bbox']} sticks out of quad box {qa}")
                    wboxes.append(w["bbox"])
                    words_out.append(w)
                need(ln["bbox"] == union(wboxes), f"{wl}: bbox {ln['bbox']} != union of words {union(wboxes)}")
                if geometric:
                    check_quad(ln["quad"], wl)
                    bl = ln["baseline"]
                    need(all(-1 <= bl[i] <= (W if i % 2 == 0 else H) + 1 for i in range(4)),
                         f"{wl}: baseline off the image")
                else:
                    bx0, by0, bx1, by1 = ln["baseline"]
                    need(by0 == by1 and ln["bbox"][1] < by0 <= ln["bbox"][3], f"{wl}: baseline {ln['baseline']} "
                         f"not a horizontal line inside the box {ln['bbox']}")
                    need(bx0 == ln["bbox"][0] and bx1 == ln["bbox"][2], f"{wl}: baseline ends != line box ends")
                lboxes.append(ln["bbox"])
            need(p["bbox"] == union(lboxes), f"{wp}: bbox != union of lines")
            pboxes.append(p["bbox"])
        need(b["bbox"] == union(pboxes), f"{wb}: bbox != union of paragraphs")
    return page, words_out, geometric


def check_with_scantext(scantext, truth_path):
    """`scantext verify` on the truth: its text and ranges (ScanText's
    joining rules) and its selection geometry. Returns the number of checks."""
    try:
        report = verify(scantext, truth_path)
    except ScantextError as e:
        raise Fail(f"scantext cannot read the truth: {e}")
    violations = report["violations"]
    need(report["passed"], f"scantext verify: {len(violations)} violation(s), first: "
         + (f"{violations[0]['kind']} {violations[0]['element']} {violations[0]['detail']}" if violations else "?"))
    return report["checks"]


# --------------------------------------------------------------------------
# Ink
# --------------------------------------------------------------------------

def otsu(values):
    hist = np.bincount(values.ravel(), minlength=256).astype(np.float64)
    p = hist / hist.sum()
    omega = np.cumsum(p)
    mu = np.cumsum(p * np.arange(256))
    mu_t = mu[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        sb = (mu_t * omega - mu) ** 2 / (omega * (1 - omega))
    sb = np.nan_to_num(sb)
    return int(np.argmax(sb)) + 1      # ink = value < threshold


def robust_ink(im, degradation, dpi):
    a = im
    if degradation["kind"] in ("gaussian", "speckle"):
        a = a.filter(ImageFilter.MedianFilter(3))
    v = np.asarray(a, dtype=np.float64)
    H, W = v.shape
    bs = max(8, dpi // 8)
    nby, nbx = -(-H // bs), -(-W // bs)
    pad = np.pad(v, ((0, nby * bs - H), (0, nbx * bs - W)), mode="edge")
    blocks = pad.reshape(nby, bs, nbx, bs).transpose(0, 2, 1, 3).reshape(nby, nbx, bs * bs)
    bg_small = np.percentile(blocks, 90, axis=2).astype(np.float32)
    bg = np.asarray(Image.fromarray(bg_small, mode="F").resize((W, H), Image.Resampling.BILINEAR))
    norm = np.clip(v / np.maximum(bg, 1.0) * 255.0, 0, 255).astype(np.uint8)
    t = otsu(norm)
    return norm < t, t


def page_mask(corners, W, H, inset):
    """Pixels inside the photographed page's outline, `inset` pixels
    in from its edges (the table round the page is not ink)."""
    from PIL import ImageDraw
    full = Image.new("L", (W, H), 0)
    ImageDraw.Draw(full).polygon([tuple(c) for c in corners], fill=255)
    if inset:
        full = full.filter(ImageFilter.MinFilter(2 * inset + 1))
    return np.asarray(full) > 0


def check_ink(page, words, geometric, im, degradation, rules=False, photo=None):
    W, H = im.size
    dpi = page["dpi"]
    v = np.asarray(im)
    if degradation:
        ink, thr = robust_ink(im, degradation, dpi)
        margin = max(1, round(dpi / 100))
    else:
        ink, thr = v < CLEAN_THRESHOLD, CLEAN_THRESHOLD
        margin = 0
    if photo:
        # A curled page's edge is its recorded outline, not its corners'
        # quadrilateral.
        ink = ink & page_mask(photo.get("outline", photo["corners"]), W, H, 9)
        # A spread's fold is a shadow, not print.
        if "fold" in photo:
            ink = ink & ~page_mask(photo["fold"], W, H, 0)
    covered = np.zeros_like(ink)
    min_ink = None
    for i, w in enumerate(words):
        x0, y0, x1, y1 = w["bbox"]
        box = ink[y0:y1, x0:x1]
        n = int(box.sum())
        area = (x1 - x0) * (y1 - y0)
        need(n >= 4 and n >= 0.02 * area, f"word {i} {w['text']!r} {w['bbox']}: only {n} ink px of {area}")
        min_ink = n if min_ink is None else min(min_ink, n)
        if not degradation:
            need(box[0, :].any() and box[-1, :].any() and box[:, 0].any() and box[:, -1].any(),
                 f"word {i} {w['text']!r} {w['bbox']}: box not tight (an edge has no ink)")
        covered[max(0, y0 - margin):y1 + margin, max(0, x0 - margin):x1 + margin] = True
    if not degradation and not geometric:
        boxes = np.array([w["bbox"] for w in words])
        for i, b in enumerate(boxes):
            ov = ((boxes[:, 0] < b[2]) & (boxes[:, 2] > b[0]) & (boxes[:, 1] < b[3]) & (boxes[:, 3] > b[1]))
            ov[i] = False
            need(not ov.any(), f"word {i} {words[i]['text']!r} overlaps word {int(np.argmax(ov))}")
    if rules:
        # A ruled table's rules run across the table (the generator draws
        # them in the gaps, touching no word): they are not text.
        ink = ink.copy()
        ink[ink.sum(axis=1) >= 0.3 * W, :] = False
        ink[:, ink.sum(axis=0) >= 0.2 * H] = False
    total = int(ink.sum())
    outside = int((ink & ~covered).sum())
    share = outside / max(total, 1)
    limit = DEGRADED_OUTSIDE_LIMIT if degradation else CLEAN_OUTSIDE_LIMIT
    need(share < limit, f"{share:.2%} of ink lies outside all word boxes (limit {limit:.0%})")
    return share, min_ink, thr


# --------------------------------------------------------------------------
# Optional OCR comparison
# --------------------------------------------------------------------------

def ocr_compare(scantext, path, truth_path, language):
    """Tesseract's TSV scored by `scantext eval`: word recall (truth words
    matched by an equal OCR word with box IoU >= 0.5), OCR words read, and
    the mean IoU of the matched pairs."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    out = subprocess.run(["tesseract", str(path), "-", "--psm", "3", "-l", language, "tsv"],
                         capture_output=True, text=True, env=env, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="check-scans.") as work:
        tsv = Path(work) / f"{path.stem}.tsv"
        tsv.write_text(out, encoding="utf-8")
        try:
            total = evaluate(scantext, tsv, truth_path, env)["total"]
        except ScantextError as e:
            raise Fail(f"scantext eval: {e}")
    return total["wordRecall"], total["ocrWords"], total["meanIoU"]


# --------------------------------------------------------------------------

def main(argv):
    global SCANS
    args = [a for a in argv[1:] if not a.startswith("--")]
    do_ocr = "--ocr" in argv
    scantext_arg = None
    for a in argv[1:]:
        if a.startswith("--dir="):
            SCANS = Path(a[len("--dir="):])
        elif a.startswith("--scantext="):
            scantext_arg = a[len("--scantext="):]
    if do_ocr and not shutil.which("tesseract"):
        sys.exit("check-scans: --ocr needs tesseract on PATH")
    scantext = find_scantext(scantext_arg, tool="check-scans")
    truths = sorted(SCANS.glob("*.truth.json"))
    images = sorted(p for p in SCANS.iterdir() if p.suffix in (".png", ".jpg", ".jpeg"))
    failures = 0
    names = {t.name[:-len(".truth.json")] for t in truths}
    for img in images:
        if img.stem not in names:
            print(f"FAIL {img.name}: image without truth file")
            failures += 1
    for tp in truths:
        name = tp.name[:-len(".truth.json")]
        if args and name not in args:
            continue
        cand = [p for p in images if p.stem == name]
        try:
            need(len(cand) == 1, "expected exactly one image file for this truth")
            raw = tp.read_text(encoding="utf-8")
            doc = json.loads(raw)
            need(json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n" == raw,
                 "JSON not canonical (sort_keys, indent=2, ensure_ascii=False, trailing newline)")
            path = cand[0]
            with Image.open(path) as im:
                im.load()
                need(path.suffix == ".png" and im.format == "PNG" or path.suffix == ".jpg" and im.format == "JPEG",
                     f"format {im.format} does not match extension")
                page, words, geometric = check_structure(doc, path.name, im)
                degradation = doc["generator"].get("degradation")
                if doc["generator"].get("colour"):
                    # The text is dark in every channel; stamps and coloured
                    # paper are bright in at least one: ink is where the
                    # brightest channel is dark. JPEG blurs the edges.
                    im = Image.fromarray(np.asarray(im).max(axis=2))
                    if path.suffix == ".jpg" and not degradation:
                        degradation = {"kind": "jpeg"}
                photo = doc["generator"].get("photo")
                if photo and not degradation:
                    # Camera blur, noise and JPEG: ink as on degraded pages.
                    degradation = {"kind": "photo"}
                share, min_ink, thr = check_ink(page, words, geometric, im, degradation,
                                                rules=bool(doc["generator"].get("rules")), photo=photo)
            checks = check_with_scantext(scantext, tp)
            nlines = sum(len(p["lines"]) for b in page["blocks"] for p in b["paragraphs"])
            msg = (f"ok   {path.name:26s} {page['width']:4d}x{page['height']:<4d} {page['dpi']:3d}dpi "
                   f"{page['language']} {len(page['blocks'])}b {nlines:2d}l {len(words):3d}w  "
                   f"ink-outside {share:6.2%}  min-word-ink {min_ink}px  thr {thr}  verify {checks} checks")
            if do_ocr:
                recall, n_ocr, iou = ocr_compare(scantext, path, tp, page["language"])
                msg += f"  | ocr word recall {recall:6.1%} ({n_ocr} words read), mean IoU {iou:.3f}"
            print(msg, flush=True)
        except Fail as e:
            print(f"FAIL {name}: {e}", flush=True)
            failures += 1
    if failures:
        print(f"{failures} page(s) failed")
        sys.exit(1)
    print(f"all {len(truths) if not args else len(args)} page(s) ok")


if __name__ == "__main__":
    main(sys.argv)
