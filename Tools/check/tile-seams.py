#!/usr/bin/env python3
"""Measures seams where a searchable PDF's image pieces meet (not a test).

A TIFF page stored as JPEG tiles goes into `scantext ocr IN.tif -o OUT.pdf`
as several image XObjects (a column of tiles each). A viewer that smooths
the edges of what it draws lets the paper show through the device pixels
where pieces meet. For each TIFF given (default: the real archive page
`ocrd/indian-ferns-0004.tif`), this script renders with `pdftocairo`, at
several resolutions:

- ScanText's PDF ("pieces");
- the same PDF with the stretched copies drawn under the pieces taken out
  ("no underlay": the content's inner clipped group removed with qpdf);
- the same pixels as one image (the TIFF decoded by Pillow, as a PNG of the
  page's resolution, made a PDF by img2pdf from .build/tools-venv):
  the reference.

and prints, against the reference, the largest mean difference down a
device column where pieces meet (+ lighter: paper showing through), the
largest anywhere else, and the largest difference of one pixel.

Usage: Tools/check/tile-seams.py [--scantext PATH] [--dpi 72,100,150,217,300] [TIFF ...]
"""
import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".build" / "tools-venv" / "bin"
FERNS = ROOT.parent / "shared" / "scans" / "ocrd" / "indian-ferns-0004.tif"


def run(arguments, **kwargs):
    return subprocess.run(arguments, check=True, capture_output=True, **kwargs)


def without_underlay(pdf, out, folder):
    """The PDF with the group of stretched copies (the second clip, up to
    its `Q`) taken out of its page's content."""
    qdf = folder / "qdf.pdf"
    run(["qpdf", "--qdf", "--object-streams=disable", str(pdf), str(qdf)])
    data = qdf.read_bytes()
    edited = re.sub(rb"(re W n\n)q [-\d. ]+ re W n\n(?:q [-\d. ]+ cm /Im\d+ Do Q\n)*Q\n", rb"\1",
                    data, count=1)
    if edited == data:
        sys.exit(f"{pdf}: no underlay found")
    (folder / "edited.pdf").write_bytes(edited)
    with open(out, "wb") as f:
        subprocess.run(["fix-qdf", str(folder / "edited.pdf")], check=True, stdout=f)


def render(pdf, dpi, folder, name):
    base = folder / f"{name}-{dpi}"
    run(["pdftocairo", "-png", "-r", str(dpi), "-singlefile", str(pdf), str(base)])
    return np.asarray(Image.open(f"{base}.png").convert("L")).astype(float)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scantext", default=str(ROOT / ".build" / "debug" / "scantext"))
    parser.add_argument("--dpi", default="72,100,150,217,300")
    parser.add_argument("tiffs", nargs="*", default=[str(FERNS)])
    args = parser.parse_args()
    resolutions = [int(r) for r in args.dpi.split(",")]
    print("| file | dpi | variant | worst seam column | worst other column | worst pixel |")
    print("|---|---|---|---|---|---|")
    for tiff in args.tiffs:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            pieces = folder / "pieces.pdf"
            run([args.scantext, "ocr", tiff, "-o", str(pieces), "-q"])
            info = run(["pdfimages", "-list", str(pieces)]).stdout.decode().splitlines()[2:]
            tile = int(info[0].split()[3])
            bare = folder / "bare.pdf"
            without_underlay(pieces, bare, folder)
            # The page's resolution: its width in pixels over its width in
            # points.
            box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pieces.read_bytes())
            image = Image.open(tiff).convert("RGB")
            dpi = image.size[0] * 72 / float(box.group(1))
            png = folder / "one.png"
            image.save(png, dpi=(dpi, dpi))
            one = folder / "one.pdf"
            run([str(VENV / "img2pdf"), str(png), "-o", str(one)])
            for r in resolutions:
                reference = render(one, r, folder, "one")
                seams = {int(x * r / dpi) + o for x in range(tile, image.size[0], tile)
                         for o in (-1, 0, 1)}
                for name, pdf in [("pieces", pieces), ("no underlay", bare)]:
                    shown = render(pdf, r, folder, name.replace(" ", "-"))
                    if shown.shape != reference.shape:
                        print(f"| {Path(tiff).name} | {r} | {name} | size {shown.shape} vs {reference.shape} | | |")
                        continue
                    d = shown - reference
                    columns = d.mean(axis=0)
                    at = [c for c in seams if 0 <= c < len(columns)]
                    if not at:
                        print(f"| {Path(tiff).name} | {r} | {name} | one image | | |")
                        continue
                    # The page's last device column is partly outside it.
                    other = [c for c in range(len(columns) - 1) if c not in seams]
                    worst = max(at, key=lambda c: abs(columns[c]))
                    print(f"| {Path(tiff).name} | {r} | {name} | {columns[worst]:+.1f} | "
                          f"{max(abs(columns[c]) for c in other):.1f} | {int(np.abs(d).max())} |")


if __name__ == "__main__":
    main()
