#!/usr/bin/env python3
"""Measures ScanText's resolution estimate (PageResolution in ScanModel)
against pages whose resolution is known.

Each page is copied with its resolution tag made useless (a PNG's pHYs
chunk removed; a JPEG's JFIF density set to 0, no unit; a TIFF's X/Y
resolution set to 1 dpi with tiffset), so ScanText must estimate it from
the text; the copy is recognised with `scantext ocr` and the dpi it records
is compared with the page's true resolution. The pixels are not touched.

    python3 Tools/check/dpi-estimate-check.py [--scantext .build/debug/scantext] [--jobs 2]

The pages: the generated sample pages in Scans/ (their tag is the
resolution they were rendered at) and the real pages in ../shared/scans
whose tag is a scanner's (kant-0017, 8071_093.3B, eurotext, phototest and
its turned copies, cardinal-1..4, skew-1, c02-22's embedded JPEG) or whose
resolution is documented (linn.png: 300 dpi, no tag).
"""
import argparse
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "scans"

# Real pages and their true resolution.
REAL_PAGES = {
    "ocrd/kant-0017.tif": 300,
    "tesseract-test/8071_093.3B.tif": 300,
    "tesseract-test/eurotext.tif": 300,
    "tesseract-test/phototest.tif": 200,
    "tesseract-test/phototest-rotated-L.png": 200,
    "tesseract-test/phototest-rotated-R.png": 200,
    "tesseract-test/phototest-rotated-180.png": 200,
    "ocrmypdf/cardinal-1.png": 300,
    "ocrmypdf/cardinal-2.png": 300,
    "ocrmypdf/cardinal-3.png": 300,
    "ocrmypdf/cardinal-4.png": 300,
    "ocrmypdf/skew-1.png": 300,
    "ocrmypdf/linn.png": 300,
    "ocrmypdf/c02-22-embedded-000.jpg": 150,
}


def png_dpi(data):
    i = 8
    while i + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[i + 8:i + 17])
            return round(x * 0.0254) if unit == 1 else None
        i += 12 + length
    return None


def png_without_phys(data):
    out, i = bytearray(data[:8]), 8
    while i + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind != b"pHYs":
            out += data[i:i + 12 + length]
        i += 12 + length
    return bytes(out)


def jpeg_dpi(data):
    if data[2:4] == b"\xff\xe0" and data[6:11] == b"JFIF\0":
        unit, x, y = struct.unpack(">BHH", data[13:18])
        return x if unit == 1 else round(x * 2.54) if unit == 2 else None
    return None


def jpeg_without_density(data):
    if data[2:4] == b"\xff\xe0" and data[6:11] == b"JFIF\0":
        return data[:13] + b"\0\0\1\0\1" + data[18:]
    return data


def untagged_copy(source, folder):
    target = folder / source.name
    data = source.read_bytes()
    suffix = source.suffix.lower()
    if suffix == ".png":
        target.write_bytes(png_without_phys(data))
    elif suffix in (".jpg", ".jpeg"):
        target.write_bytes(jpeg_without_density(data))
    elif suffix in (".tif", ".tiff"):
        shutil.copyfile(source, target)
        for tag in ("282", "283"):
            subprocess.run(["tiffset", "-s", tag, "1", str(target)], check=True)
    else:
        raise SystemExit(f"{source}: unknown format")
    return target


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scantext", default=str(ROOT / ".build/debug/scantext"))
    parser.add_argument("--jobs", default="2")
    args = parser.parse_args()
    pages = []
    for path in sorted((ROOT / "Scans").iterdir()):
        if path.suffix in (".png", ".jpg"):
            data = path.read_bytes()
            dpi = png_dpi(data) if path.suffix == ".png" else jpeg_dpi(data)
            pages.append((f"Scans/{path.name}", path, dpi))
    if REAL.is_dir():
        for name, dpi in REAL_PAGES.items():
            pages.append((name, REAL / name, dpi))
    else:
        print(f"{REAL} not found: real pages left out", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        copies = []
        for i, (name, path, dpi) in enumerate(pages):
            sub = folder / str(i)
            sub.mkdir()
            copies.append(untagged_copy(path, sub))
        out = folder / "out.json"
        run = subprocess.run(
            [args.scantext, "ocr", *map(str, copies), "-o", str(out), "-q", "--jobs", args.jobs],
            capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(run.stderr)
        results = json.loads(out.read_text())["pages"]
    # A multi-page file would add pages; these are all single pages.
    assert len(results) == len(pages), (len(results), len(pages))
    errors = []
    print(f"{'page':46} {'true':>5} {'estimated':>9} {'error':>7}  source")
    for (name, _, dpi), page in zip(pages, results):
        estimate = page.get("dpi")
        error = (estimate - dpi) / dpi if dpi and estimate else None
        if error is not None:
            errors.append((abs(error), error, name))
        shown = f"{error:+.1%}" if error is not None else "-"
        print(f"{name:46} {dpi or '-':>5} {estimate or '-':>9} {shown:>7}  {page.get('dpiSource')}")
    errors.sort()
    if errors:
        median = errors[len(errors) // 2][0]
        within = sum(1 for e in errors if e[0] <= 0.15)
        print(f"\n{len(errors)} pages: median |error| {median:.1%}, "
              f"{within} within 15 %, worst {errors[-1][1]:+.1%} ({errors[-1][2]})")


if __name__ == "__main__":
    main()
