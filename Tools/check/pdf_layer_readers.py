"""Does every PDF reader find a searchable PDF's words whole, on their ink?

For each page: `scantext ocr IMAGE -o page.json`, then the PDF from that
model (`scantext convert page.json page.pdf --image IMAGE`, the same writer
as `ocr -o page.pdf`, without recognising the page twice). Three readers
take the words out of the PDF with their boxes:

- Poppler: `pdftotext -bbox` (its words, as a viewer built on it selects);
- PyMuPDF: `page.get_text("words")`;
- pdfminer.six: its text lines (default LAParams), cut at white space
  (its own glyphs and the spaces it adds), a word's box the union of its
  characters' boxes.

A model word (ScanText's own JSON, every word with text) is found whole
when a reader's word has the same text (NFKC, white space removed) and its
box overlaps the model's word box (`bbox`, the hull of the word's ink)
with IoU >= 0.5, each reader word used once (a soft hyphen, a tagged
layer's breaking hyphen, is the hyphen the model reads). Both boxes are compared as
upright rectangles in the page's pixels: a reader gives only an upright
box, the hull of its glyphs (the reader's page turned back by `/Rotate`
and scaled to the page's pixels), and the model's `bbox` is the upright hull
of the ink, so a slanted word compares hull with hull.

With --order (issue 46 point 5), each page's plain text as users and
search indexers get it instead: `pdftotext` (default, reading-order mode),
`pdftotext -raw`, pdfminer.six `extract_text` and PyMuPDF `get_text()`;
per extractor and page its `readingOrderCER` (the text made a one-block
Tesseract TSV page in the extractor's order, measured by `scantext eval
TSV --truth MODEL`: 0 = the model's reading order) and the model's words
it holds whole (a white-space-separated token, so "Pumpa" loses two).

Prints a table reader x page kind: words found whole / model words, and
the pieces each reader cut the page into (its word count). With --json,
the per-page figures. Python: the tools venv (PyMuPDF and pdfminer.six,
installed by Tools/install/install-dependencies.sh); a reader that is missing is
left out of the table.
"""

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
READERS = ["pdftotext", "pymupdf", "pdfminer"]


# ---------------------------------------------------------------- the model


def model_pages(path):
    """The pages of ScanText JSON: each (words, width, height, dpi), a word
    (text, [x0, y0, x1, y1]) in the page's pixels."""
    with open(path) as f:
        doc = json.load(f)
    pages = []
    for page in doc["pages"]:
        words = []
        for block in page.get("blocks", []):
            for paragraph in block.get("paragraphs", []):
                for line in paragraph.get("lines", []):
                    for word in line.get("words", []):
                        if normal(word.get("text", "")):
                            words.append((word["text"], word["bbox"]))
        pages.append((words, page["width"], page["height"], page["dpi"]))
    return pages


def normal(text):
    """NFKC, no white space; a soft hyphen (U+00AD) is a hyphen: a tagged
    layer marks the hyphen that breaks a word at a line's end as a soft
    hyphen (its /ActualText, which MuPDF gives as the glyph's text), the
    same character the model reads as `-`."""
    return "".join(unicodedata.normalize("NFKC", text).split()).replace("\u00ad", "-")


# ------------------------------------------------------------- the readers
#
# Each reader gives, per page, (words, rotate, width, height): words as
# (text, [x0, y0, x1, y1]) in the page as shown (after /Rotate), points,
# y down; width and height those of the unrotated page (MediaBox).


def unrotate(box, rotate, width, height):
    """A box in the shown page (points, y down) in the unrotated page
    (points, y down): a viewer turns the page clockwise by /Rotate."""
    x0, y0, x1, y1 = box
    rotate %= 360

    def back(x, y):
        if rotate == 90:
            return y, height - x
        if rotate == 180:
            return width - x, height - y
        if rotate == 270:
            return width - y, x
        return x, y

    points = [back(x0, y0), back(x1, y1)]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return [min(xs), min(ys), max(xs), max(ys)]


def media_boxes(pdf):
    """(rotate, width, height) per page, from pdfinfo."""
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "9999", pdf], capture_output=True,
                         text=True).stdout
    sizes = re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", out)
    rots = re.findall(r"Page\s+\d+ rot:\s+(\d+)", out)
    result = []
    for (w, h), r in zip(sizes, rots):
        r = int(r) % 360
        # pdfinfo gives the MediaBox's size (the unrotated page).
        result.append((r, float(w), float(h)))
    return result


def read_pdftotext(pdf):
    boxes = media_boxes(pdf)
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True,
                         text=True).stdout
    pages = []
    for i, chunk in enumerate(out.split("<page ")[1:]):
        words = []
        for m in re.finditer(
                r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">(.*?)</word>',
                chunk):
            words.append((html.unescape(m.group(5)), [float(m.group(k)) for k in range(1, 5)]))
        rotate, w, h = boxes[i]
        pages.append((words, rotate, w, h))
    return pages


def read_pymupdf(pdf):
    import pymupdf
    pages = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            # get_text gives the unrotated page's coordinates (y down);
            # they are turned to the shown page here, so that every reader
            # is turned back the same way.
            words = []
            m = page.rotation_matrix
            for x0, y0, x1, y1, text, *_ in page.get_text("words"):
                r = pymupdf.Rect(x0, y0, x1, y1) * m
                words.append((text, [r.x0, r.y0, r.x1, r.y1]))
            w, h = page.mediabox.width, page.mediabox.height
            pages.append((words, page.rotation % 360, w, h))
    return pages


def read_pdfminer(pdf):
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTAnno, LTChar, LTTextLine

    boxes = media_boxes(pdf)
    pages = []
    for i, layout in enumerate(extract_pages(pdf, laparams=LAParams())):
        shown_h = layout.bbox[3] - layout.bbox[1]
        words = []

        def lines(item):
            if isinstance(item, LTTextLine):
                yield item
                return
            if hasattr(item, "__iter__"):
                for child in item:
                    yield from lines(child)

        for line in lines(layout):
            text, box = "", None

            def flush():
                if text and box:
                    words.append((text, [box[0], shown_h - box[3], box[2], shown_h - box[1]]))

            for ch in line:
                c = ch.get_text()
                if isinstance(ch, LTAnno) or c.isspace():
                    flush()
                    text, box = "", None
                    continue
                if isinstance(ch, LTChar):
                    text += c
                    b = ch.bbox
                    box = list(b) if box is None else [min(box[0], b[0]), min(box[1], b[1]),
                                                       max(box[2], b[2]), max(box[3], b[3])]
            flush()
        rotate, w, h = boxes[i]
        pages.append((words, rotate, w, h))
    return pages


READ = {"pdftotext": read_pdftotext, "pymupdf": read_pymupdf, "pdfminer": read_pdfminer}


# ----------------------------------------------------------- reading order
#
# Each extractor's plain text, page by page, as a user or a search indexer
# gets it: `pdftotext` (its default, reading-order mode) and `pdftotext
# -raw` (content order), pdfminer.six's `extract_text` (default LAParams)
# and PyMuPDF's `get_text()`.

ORDER_EXTRACTORS = ["pdftotext", "pdftotext-raw", "pdfminer", "pymupdf"]


def texts_pdftotext(pdf, raw=False):
    out = subprocess.run(["pdftotext"] + (["-raw"] if raw else []) + [pdf, "-"],
                         capture_output=True, text=True).stdout
    pages = out.split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def texts_pdfminer(pdf):
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage
    with open(pdf, "rb") as f:
        count = sum(1 for _ in PDFPage.get_pages(f))
    return [extract_text(pdf, page_numbers=[i]) for i in range(count)]


def texts_pymupdf(pdf):
    import pymupdf
    with pymupdf.open(pdf) as doc:
        return [page.get_text() for page in doc]


TEXTS = {"pdftotext": texts_pdftotext, "pdftotext-raw": lambda p: texts_pdftotext(p, raw=True),
         "pdfminer": texts_pdfminer, "pymupdf": texts_pymupdf}


def tsv_of_texts(texts):
    """Pages of text as a Tesseract TSV document, each page one block:
    every line of the text a line, its words in their order (boxes placed
    down the page in that order, so that nothing reorders them)."""
    rows = ["level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"]
    for p, text in enumerate(texts, start=1):
        lines = [line.split() for line in text.splitlines()]
        lines = [words for words in lines if words]
        width = 20 * (1 + max((len(w) for w in lines), default=1))
        height = 20 * (1 + len(lines))
        rows.append(f"1\t{p}\t0\t0\t0\t0\t0\t0\t{width}\t{height}\t-1\t")
        for n, words in enumerate(lines, start=1):
            for k, word in enumerate(words, start=1):
                rows.append(f"5\t{p}\t1\t1\t{n}\t{k}\t{20 * k}\t{20 * n}\t16\t16\t95\t{word}")
    return "\n".join(rows) + "\n"


def whole_in_text(model_words, text):
    """(model words found whole, model words): a word is whole when the
    text holds it as one of its white-space-separated tokens (NFKC), each
    token used once; words joined to a neighbour ("Pumpa") or cut are not."""
    tokens = {}
    for token in text.split():
        key = normal(token)
        tokens[key] = tokens.get(key, 0) + 1
    found = 0
    for word, _ in model_words:
        key = normal(word)
        if tokens.get(key, 0) > 0:
            tokens[key] -= 1
            found += 1
    return found, len(model_words)


def reading_order(pdf, model_json, scantext, extractors, work):
    """{extractor: [[readingOrderCER, words whole, words] per page]}: each
    page's text made a one-block page of a TSV document in the extractor's
    order and measured by `scantext eval TSV --truth MODEL`
    (`readingOrderCER`, the truth being the model's own text in its
    reading order; 0 = the model's order), and the model's words the text
    holds whole (`whole_in_text`)."""
    with open(model_json) as f:
        pages = len(json.load(f)["pages"])
    model = model_pages(model_json)
    result = {}
    stem = os.path.join(work, os.path.splitext(os.path.basename(pdf))[0])
    for extractor in extractors:
        texts = TEXTS[extractor](pdf)
        texts = (texts + [""] * pages)[:pages]
        tsv = f"{stem}.{extractor}.tsv"
        with open(tsv, "w") as f:
            f.write(tsv_of_texts(texts))
        out = subprocess.run([scantext, "eval", tsv, "--truth", model_json, "--json"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"scantext eval {tsv}: {out.stderr.strip()}")
        report = json.loads(out.stdout)
        result[extractor] = [[page["readingOrderCER"], *whole_in_text(m[0], text)]
                             for page, m, text in zip(report["pages"], model, texts)]
    return result


def order_extractors():
    found = ["pdftotext", "pdftotext-raw"]
    for name in ("pdfminer", "pymupdf"):
        try:
            __import__(name)
            found.append(name)
        except ImportError:
            print(f"pdf-layer-readers: {name} is missing: no {name} reading order", file=sys.stderr)
    return found


def available_readers():
    found = ["pdftotext"]
    for name, module in (("pymupdf", "pymupdf"), ("pdfminer", "pdfminer")):
        try:
            __import__(module)
            found.append(name)
        except ImportError:
            print(f"pdf-layer-readers: {module} is missing: no {name} column", file=sys.stderr)
    return found


# ---------------------------------------------------------------- matching


def iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def score(model, reader_page):
    """(found whole, model words, reader pieces, missed words) for a page."""
    words, width, height, dpi = model
    found_words, rotate, w, h = reader_page
    # Points to the model's pixels: ScanText's page is the image at its
    # dpi (72 / dpi points a pixel); another program's PDF (OCRmyPDF) may
    # give the page another size, so the scale comes from the page.
    scale = width / w if w > 0 else dpi / 72.0
    pieces = {}
    for text, box in found_words:
        b = unrotate(box, rotate, w, h)
        pieces.setdefault(normal(text), []).append([v * scale for v in b])
    found = 0
    missed = []
    for text, box in words:
        candidates = pieces.get(normal(text), [])
        best, best_iou = None, 0.0
        for i, b in enumerate(candidates):
            v = iou(box, b)
            if v > best_iou:
                best, best_iou = i, v
        if best is not None and best_iou >= 0.5:
            found += 1
            candidates.pop(best)
        else:
            missed.append(text)
    return found, len(words), len(found_words), missed


def measure_pdf(pdf, model_json, readers):
    """{reader: [(found, total, pieces, missed) per page]}."""
    model = model_pages(model_json)
    result = {}
    for reader in readers:
        pages = READ[reader](pdf)
        result[reader] = [score(m, p) for m, p in zip(model, pages)]
    return result


# ------------------------------------------------------------------- pages


def make_pages(pages_set, work, scantext):
    """(kind, image) pairs: generated pages (the Scans samples skewed and
    turned, the photo and misc families) and the real pages."""
    scans = os.path.join(ROOT, "Scans")
    shared = os.path.normpath(os.path.join(ROOT, "..", "shared", "scans"))
    if not os.path.isdir(shared):
        shared = "/work/shared/scans"
    seeds = {"dev": "1000-1001", "check": "9000-9001"}[pages_set]
    angles = {"dev": (8, -6), "check": (-8, 6)}[pages_set]
    samples = {"dev": ("clean.png", "headings.png"), "check": ("article.png", "justified-hyphenated.png")}[pages_set]
    out = []
    gen = os.path.join(work, "generated")
    os.makedirs(gen, exist_ok=True)
    from PIL import Image
    for sample, angle in zip(samples, angles):
        target = os.path.join(gen, f"{os.path.splitext(sample)[0]}-skew{angle:+d}.png")
        if not os.path.exists(target):
            im = Image.open(os.path.join(scans, sample))
            dpi = im.info.get("dpi", (300, 300))
            im.convert("L").rotate(angle, resample=Image.BICUBIC, expand=True,
                                   fillcolor=255).save(target, dpi=dpi)
        out.append(("skewed ±6–8° (generated)", target))
    for turn in (90, 180, 270):
        out.append(("turned 90/180/270 (Scans)", os.path.join(scans, f"rotated-{turn}.png")))
    out.append(("curled photo (Scans)", os.path.join(scans, "photo-curl.jpg")))
    for family in ("photo", "misc"):
        subprocess.run([os.path.join(ROOT, "Tools", "generate", "make-family"), family, "--seeds", seeds,
                        "--out", gen], check=True, capture_output=True)
        a, b = (int(s) for s in seeds.split("-"))
        for seed in range(a, b + 1):
            ext = "jpg" if family == "photo" else "png"
            out.append((f"{family} family (generated)", os.path.join(gen, f"{family}-{seed}.{ext}")))
    real = {"dev": [("real photo (curled)", "ocrd/boston-cooking-a.jpg"),
                    ("real scan", "ocrmypdf/linn.png"),
                    ("real scan, turned", "ocrmypdf/cardinal-2.png")],
            "check": [("real photo", "ocrd/linguistics-thesis-a.jpg"),
                      ("real scan", "ocrmypdf/skew-1.png"),
                      ("real scan, turned", "tesseract-test/phototest-rotated-R.png")]}[pages_set]
    for kind, rel in real:
        path = os.path.join(shared, rel)
        if os.path.exists(path):
            out.append((kind, path))
    return out


def run_page(kind, image, work, scantext, readers, keep):
    name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(image))
    model = os.path.join(work, name + ".json")
    pdf = os.path.join(work, name + ".pdf")
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    if not (keep and os.path.exists(model)):
        subprocess.run([scantext, "ocr", image, "-o", model], check=True, env=env,
                       capture_output=True)
    subprocess.run([scantext, "convert", model, pdf, "--image", image], check=True, env=env,
                   capture_output=True)
    return kind, image, measure_pdf(pdf, model, readers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", metavar="KIND=IMAGE",
                        help="pages to measure (default: the --set's pages)")
    parser.add_argument("--set", default="dev", choices=["dev", "check"],
                        help="the built-in pages: dev (seeds 1000-, clean/headings skewed) or "
                        "check (seeds 9000-, article/justified skewed)")
    parser.add_argument("--scantext", default=os.path.join(ROOT, ".build", "debug", "scantext"))
    parser.add_argument("--work", help="folder for the models and PDFs (default: a temporary one)")
    parser.add_argument("--keep-models", action="store_true",
                        help="reuse a model already in --work (measure a new PDF writer only)")
    parser.add_argument("--pdf", nargs=2, metavar=("PDF", "JSON"),
                        help="measure one PDF against its model and exit")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="per-page figures as JSON")
    parser.add_argument("--show-missed", action="store_true")
    parser.add_argument("--order", action="store_true",
                        help="measure each extractor's plain text instead (pdftotext, "
                        "pdftotext -raw, pdfminer.six extract_text, PyMuPDF get_text): its "
                        "readingOrderCER against the model, from `scantext eval` (0 = the "
                        "model's order), and the model's words it holds whole; one row a page")
    args = parser.parse_args()

    if args.order:
        return main_order(args)
    readers = available_readers()

    if args.pdf:
        result = measure_pdf(args.pdf[0], args.pdf[1], readers)
        print(json.dumps({r: [p[:3] for p in v] for r, v in result.items()}))
        return 0

    work = args.work or tempfile.mkdtemp(prefix="pdf-layer-readers-")
    os.makedirs(work, exist_ok=True)
    if args.pages:
        pages = [tuple(p.split("=", 1)) if "=" in p else ("page", p) for p in args.pages]
    else:
        pages = make_pages(args.set, work, args.scantext)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda p: run_page(p[0], p[1], work, args.scantext, readers,
                                                   args.keep_models), pages))
    if args.json:
        print(json.dumps([{"kind": k, "image": i,
                           "readers": {r: [list(p[:3]) for p in v] for r, v in res.items()}}
                          for k, i, res in results], indent=1))
        return 0
    kinds = []
    for k, _, _ in results:
        if k not in kinds:
            kinds.append(k)
    print("| page kind | pages | " + " | ".join(f"{r}: whole / words (pieces)" for r in readers)
          + " |")
    print("| --- | --- | " + " | ".join("---" for _ in readers) + " |")
    worst = 1.0
    for kind in kinds:
        rows = [res for k, _, res in results if k == kind]
        cells = []
        for r in readers:
            found = sum(p[0] for res in rows for p in res[r])
            total = sum(p[1] for res in rows for p in res[r])
            pieces = sum(p[2] for res in rows for p in res[r])
            share = found / total if total else 1.0
            worst = min(worst, share)
            cells.append(f"{found} / {total} = {100 * share:.1f} % ({pieces})")
        print(f"| {kind} | {len(rows)} | " + " | ".join(cells) + " |")
    if args.show_missed:
        for kind, image, res in results:
            for r in readers:
                missed = [m for p in res[r] for m in p[3]]
                if missed:
                    print(f"{os.path.basename(image)} {r}: {missed[:30]}", file=sys.stderr)
    print(f"\nworst: {100 * worst:.1f} % (work: {work})")
    return 0


def main_order(args):
    extractors = order_extractors()
    if args.pdf:
        work = tempfile.mkdtemp(prefix="pdf-reading-order-")
        result = reading_order(args.pdf[0], args.pdf[1], args.scantext, extractors, work)
        print(json.dumps(result))
        return 0
    if not args.pages:
        print("pdf-layer-readers --order: name the pages (KIND=IMAGE or IMAGE)", file=sys.stderr)
        return 64
    work = args.work or tempfile.mkdtemp(prefix="pdf-reading-order-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def one(image):
        name = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(image))
        model = os.path.join(work, name + ".json")
        pdf = os.path.join(work, name + ".pdf")
        if not (args.keep_models and os.path.exists(model)):
            subprocess.run([args.scantext, "ocr", image, "-o", model], check=True, env=env,
                           capture_output=True)
        subprocess.run([args.scantext, "convert", model, pdf, "--image", image], check=True,
                       env=env, capture_output=True)
        return image, reading_order(pdf, model, args.scantext, extractors, work)

    images = [p.split("=", 1)[-1] for p in args.pages]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, images))
    if args.json:
        print(json.dumps([{"image": i, "readingOrderCER": r} for i, r in results], indent=1))
        return 0
    print("readingOrderCER (words whole in the text / words)\n")
    print("| page | " + " | ".join(extractors) + " |")
    print("| --- | " + " | ".join("---" for _ in extractors) + " |")
    for image, result in results:
        pages = len(next(iter(result.values()), []))
        for k in range(pages):
            label = os.path.basename(image) + (f" p{k + 1}" if pages > 1 else "")
            cells = [f"{result[e][k][0]:.3f} ({result[e][k][1]}/{result[e][k][2]})"
                     for e in extractors]
            print(f"| {label} | " + " | ".join(cells) + " |")
    print(f"\n(work: {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
