#!/usr/bin/env python3
"""Writes an image as files carrying each EXIF orientation tag (1-8), the
way a phone or scanner stores a picture it knows is turned: the pixels are
stored turned or mirrored and the tag says how to show them, so that a
viewer applying the tag shows the original image.

Usage:
  make-orientation-samples.py IMAGE OUTDIR [--formats jpg,png,webp]

Writes OUTDIR/STEM-oN.EXT for N in 1..8 and each format: a JPEG (APP1
Exif), a PNG (an eXIf chunk before the image data), a lossless WebP (an
EXIF chunk) and, with `tif` in --formats, a TIFF (tag 274). Each file is checked: Pillow's exif_transpose of it gives the
original pixels back. Used by the HTML tests (`HTMLBrowserTests`), which
pair each file with the original's model in the viewer's frame.
"""
import argparse
import pathlib
import sys

from PIL import Image, ImageOps

# What exif_transpose does for each tag, and so the inverse that stores an
# upright picture under that tag (6 and 8 are each other's inverse; the
# others are their own).
SHOWN = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
STORED = {**SHOWN, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image")
    parser.add_argument("outdir")
    parser.add_argument("--formats", default="jpg,png,webp")
    args = parser.parse_args()
    original = Image.open(args.image)
    original.load()
    upright = original.convert("L" if original.mode in ("1", "L", "P") else "RGB")
    out = pathlib.Path(args.outdir)
    out.mkdir(parents=True, exist_ok=True)
    stem = pathlib.Path(args.image).stem
    for tag in range(1, 9):
        stored = upright.transpose(STORED[tag]) if tag in STORED else upright.copy()
        exif = Image.Exif()
        exif[0x0112] = tag
        for ext in args.formats.split(","):
            path = out / ("%s-o%d.%s" % (stem, tag, ext))
            if ext == "jpg":
                stored.save(path, exif=exif.tobytes(), quality=92)
            elif ext == "png":
                stored.save(path, exif=exif.tobytes())
            elif ext == "webp":
                stored.save(path, exif=exif.tobytes(), lossless=True)
            elif ext == "tif":
                stored.save(path, tiffinfo={0x0112: tag}, compression="tiff_deflate")
            else:
                parser.error("unknown format %r" % ext)
            with Image.open(path) as written:
                if written.getexif().get(0x0112) != tag:
                    sys.exit("%s: the tag did not survive" % path)
                shown = ImageOps.exif_transpose(written).convert(upright.mode)
                if shown.size != upright.size:
                    sys.exit("%s: shown %s, expected %s" % (path, shown.size, upright.size))
                if ext != "jpg" and shown.tobytes() != upright.tobytes():
                    sys.exit("%s: shown with its tag, the pixels differ" % path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
