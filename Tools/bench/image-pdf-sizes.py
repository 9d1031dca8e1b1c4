#!/usr/bin/env python3
"""Measures the searchable PDFs of image files against the files' sizes.

For every image (the real scans in ../shared/scans and the generated pages
in Scans/, or the files given), `scantext ocr IMAGE -o IMAGE.pdf` is run
and the PDF is taken apart (the writer's objects are plain: the image
stream's length is read from its dictionary):

- file: the image file's size;
- image: the PDF's image stream (a JPEG's bytes, a PNG's IDAT data, a G4 or
  JPEG TIFF strip, else the decoded pixels as Flate with PNG predictors);
- layer: everything else (text layer, font, maps, page objects, xref);
- ratio: PDF / file;
- goal: whether the PDF is at most 1.1 × (file + layer), the issue's
  "the image file's size plus the text layer plus 10 %";
- OCRmyPDF: the size of OCRmyPDF's PDF of the same file with its defaults
  (`ocrmypdf_tool.py`, shared with `pdf-size-bench`: Debian's ocrmypdf,
  installed when missing, PDF/A output), and a note: `--image-dpi N` for
  an image OCRmyPDF refuses for want of a credible resolution (no tag, or
  96 dpi or less), N being the resolution ScanText records for the page
  (`scantext ocr IMAGE -o IMAGE.json`, the page's "dpi": the tag, else its
  estimate), or why OCRmyPDF failed (the table goes on).

    python3 Tools/bench/image-pdf-sizes.py [--scantext PATH] [--jobs N] [--no-ocrmypdf]
                                     [--keep DIR] [IMAGE ...]

--jobs (default 2) is how many files are measured at once, each by one
ScanText and then one single-job OCRmyPDF.

The scantext binary defaults to .build/release/scantext when it exists
(build it with `swift build -c release --product scantext`), else
.build/debug/scantext. Recognition results come from ScanText's cache when
present (the sizes do not depend on how long it took).
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from ocrmypdf_tool import ensure_ocrmypdf, ocrmypdf, version

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "scans"
EXTENSIONS = {".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp", ".gif", ".jp2"}


def images():
    found = []
    if REAL.is_dir():
        found += sorted(p for p in REAL.rglob("*") if p.suffix.lower() in EXTENSIONS)
    else:
        print(f"{REAL} not found: real images left out", file=sys.stderr)
    found += sorted(p for p in (ROOT / "Scans").iterdir() if p.suffix.lower() in EXTENSIONS)
    return found


def image_stream_bytes(pdf):
    data = pdf.read_bytes()
    total = 0
    for m in re.finditer(rb"<< ([^\n]*?/Subtype /Image[^\n]*?) /Length (\d+) >>\nstream\n", data):
        total += int(m.group(2))
    return total


def recorded_dpi(scantext, image, folder):
    """The resolution ScanText records for the image's first page, None
    when ScanText cannot read it."""
    model = folder / (image.name + ".json")
    run = subprocess.run([scantext, "ocr", str(image), "-o", str(model), "-q"],
                         capture_output=True)
    return json.loads(model.read_text())["pages"][0]["dpi"] if run.returncode == 0 else None


def measure(scantext, image, folder, compare):
    """(image, ScanText's PDF or None, its error, (OCRmyPDF's size or None,
    note) or None)."""
    out = folder / (image.name + ".pdf")
    run = subprocess.run([scantext, "ocr", str(image), "-o", str(out), "-q"],
                         capture_output=True, text=True)
    theirs = None
    if compare:
        theirs = ocrmypdf(image, folder / (image.name + ".ocrmypdf.pdf"),
                          image_dpi=lambda: recorded_dpi(scantext, image, folder))
    if run.returncode != 0:
        return image, None, run.stderr.strip() or f"exit code {run.returncode}", theirs
    return image, out, None, theirs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scantext")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-ocrmypdf", action="store_true")
    parser.add_argument("--keep", type=Path, help="keep the PDFs in this folder")
    parser.add_argument("images", nargs="*", type=Path)
    args = parser.parse_args()
    scantext = args.scantext
    if not scantext:
        release = ROOT / ".build/release/scantext"
        scantext = str(release if release.exists() else ROOT / ".build/debug/scantext")
    compare = not args.no_ocrmypdf and ensure_ocrmypdf("image-pdf-sizes")
    inputs = args.images or images()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for image, pdf, error, theirs in pool.map(
                lambda i: measure(scantext, i, folder, compare), inputs):
            name = str(image.relative_to(REAL)) if REAL in image.parents else \
                str(image.relative_to(ROOT)) if ROOT in image.parents else str(image)
            if error:
                print(f"{name}: {error}", file=sys.stderr)
                continue
            size = image.stat().st_size
            total = pdf.stat().st_size
            stream = image_stream_bytes(pdf)
            layer = total - stream
            rows.append((name, size, total, stream, layer, total / size,
                         total <= 1.1 * (size + layer), theirs))
    if compare:
        print(f"# OCRmyPDF {version()}")
    print(f"{'image':44} {'file':>10} {'PDF':>10} {'image':>10} {'layer':>8} {'ratio':>6}  goal "
          f"{'OCRmyPDF':>10} {'ratio':>6}  note")
    for name, size, total, stream, layer, ratio, ok, theirs in rows:
        other, note = theirs or (None, "not run")
        other_columns = f"{other:>10} {other / size:>6.3f}" if other else f"{'–':>10} {'–':>6}"
        print(f"{name:44} {size:>10} {total:>10} {stream:>10} {layer:>8} {ratio:>6.3f}  "
              f"{'yes' if ok else 'NO ':3}  {other_columns}  {note}")
    if not rows:
        sys.exit("image-pdf-sizes: no searchable PDF was written")
    met = sum(1 for r in rows if r[6])
    print(f"\n{met} of {len(rows)} within 1.1 × (file + layer); "
          f"image stream / file {min(r[3] / r[1] for r in rows):.3f}–"
          f"{max(r[3] / r[1] for r in rows):.3f}")
    compared = [r for r in rows if r[7] and r[7][0]]
    if compared:
        bigger = [r[0] for r in compared if r[2] > r[7][0]]
        print(f"OCRmyPDF wrote {len(compared)} of {len(rows)}; ScanText's PDF is bigger on "
              f"{len(bigger)}: {', '.join(bigger) or 'none'}")


if __name__ == "__main__":
    main()
