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
  "the image file's size plus the text layer plus 10 %".

    python3 Tools/image-pdf-sizes.py [--scantext PATH] [--jobs N] [IMAGE ...]

The scantext binary defaults to .build/release/scantext when it exists
(build it with `swift build -c release --product scantext`), else
.build/debug/scantext. Recognition results come from ScanText's cache when
present (the sizes do not depend on how long it took).
"""
import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def measure(scantext, image, folder):
    out = folder / (image.name + ".pdf")
    run = subprocess.run([scantext, "ocr", str(image), "-o", str(out), "-q"],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return image, None, run.stderr.strip()
    return image, out, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scantext")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("images", nargs="*", type=Path)
    args = parser.parse_args()
    scantext = args.scantext
    if not scantext:
        release = ROOT / ".build/release/scantext"
        scantext = str(release if release.exists() else ROOT / ".build/debug/scantext")
    inputs = args.images or images()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(args.jobs) as pool:
        folder = Path(tmp)
        for image, pdf, error in pool.map(lambda i: measure(scantext, i, folder), inputs):
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
                         total <= 1.1 * (size + layer)))
    print(f"{'image':44} {'file':>10} {'PDF':>10} {'image':>10} {'layer':>8} {'ratio':>6}  goal")
    for name, size, total, stream, layer, ratio, ok in rows:
        print(f"{name:44} {size:>10} {total:>10} {stream:>10} {layer:>8} {ratio:>6.3f}  "
              f"{'yes' if ok else 'NO'}")
    met = sum(1 for r in rows if r[6])
    print(f"\n{met} of {len(rows)} within 1.1 × (file + layer); "
          f"image stream / file {min(r[3] / r[1] for r in rows):.3f}–"
          f"{max(r[3] / r[1] for r in rows):.3f}")


if __name__ == "__main__":
    main()
