#!/usr/bin/env python3
"""Writes small TIFF seeds for the image fuzzer (Tools/check/fuzz.sh): gray strip
pages, tiled pages, a multi-page file, a page list that loops back, a page
that lies about its size. Python standard library only."""
import struct
import zlib
import sys
from pathlib import Path


def tiff(pages, loop=None):
    """pages: (width, height, tile or None, data or None); little-endian."""
    out = bytearray(b"II*\0\0\0\0\0")
    ifds, nexts = [], []
    for width, height, tile, data in pages:
        if len(out) % 2:
            out += b"\0"
        if data is None:
            offsets, counts = [0x7FFF0000], [width * height]
        elif tile:
            offsets, counts = [], []
            for ty in range(0, height, tile):
                for tx in range(0, width, tile):
                    offsets.append(len(out))
                    for y in range(ty, ty + tile):
                        for x in range(tx, tx + tile):
                            out.append(data[y * width + x] if x < width and y < height else 255)
                    counts.append(tile * tile)
        else:
            offsets, counts = [len(out)], [len(data)]
            out += bytes(data)
        if len(out) % 2:
            out += b"\0"
        offsets_at = len(out)
        out += struct.pack(f"<{len(offsets)}I", *offsets)
        counts_at = len(out)
        out += struct.pack(f"<{len(counts)}I", *counts)
        entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1),
                   (262, 3, 1, 1), (277, 3, 1, 1)]
        many = len(offsets) > 1
        if tile:
            entries += [(322, 3, 1, tile), (323, 3, 1, tile),
                        (324, 4, len(offsets), offsets_at if many else offsets[0]),
                        (325, 4, len(counts), counts_at if many else counts[0])]
        else:
            entries += [(273, 4, 1, offsets[0]), (278, 4, 1, height), (279, 4, 1, counts[0])]
        entries.sort()
        ifds.append(len(out))
        out += struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
            out += struct.pack("<HHI", tag, kind, count) + packed
        nexts.append(len(out))
        out += b"\0\0\0\0"
    struct.pack_into("<I", out, 4, ifds[0])
    for k in range(len(pages)):
        target = ifds[k + 1] if k + 1 < len(pages) else 0
        if loop and loop[0] == k:
            target = ifds[loop[1]]
        struct.pack_into("<I", out, nexts[k], target)
    return bytes(out)


def square(width, height):
    return [0 if width // 4 <= x < 3 * width // 4 and height // 4 <= y < 3 * height // 4 else 255
            for y in range(height) for x in range(width)]


def many_samples(width=5000, height=5000, samples=1000):
    """A page within the pixel limit whose header claims 1000 samples per
    pixel in one PackBits strip: libtiff allocated the whole decoded strip
    (25 GB) for this 12 kB file before the allocation limit."""
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, samples, None), (259, 3, 1, 32773),
               (262, 3, 1, 2), (273, 4, 1, 4096), (277, 3, 1, samples), (278, 4, 1, height),
               (279, 4, 1, 4096), (284, 3, 1, 1), (338, 3, samples - 3, None)]
    out = bytearray(b"II*\0\x08\0\0\0")
    arrays_at = 8 + 2 + 12 * len(entries) + 4
    out += struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if value is None:
            value = arrays_at if tag == 258 else arrays_at + 2 * samples
        packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, count) + packed
    out += b"\0\0\0\0"
    out += struct.pack(f"<{samples}H", *([8] * samples)) + bytes(2 * (samples - 3))
    out += bytes(4096 + 4096 - len(out))
    return bytes(out)


def deflate(width, height, damaged=False):
    """A gray page in one Deflate strip (compression 8); damaged: a run of
    bytes in the middle of the stream overwritten, as a bad copy does
    (libtiff reports it and goes on; ScanText refuses the page)."""
    data = bytearray(zlib.compress(bytes(square(width, height))))
    if damaged:
        for i in range(len(data) // 3, 2 * len(data) // 3):
            data[i] = (i * 131) & 0xFF
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 8),
               (262, 3, 1, 1), (273, 4, 1, 8), (277, 3, 1, 1), (278, 4, 1, height),
               (279, 4, 1, len(data))]
    out = bytearray(b"II*\0\0\0\0\0") + data
    if len(out) % 2:
        out += b"\0"
    struct.pack_into("<I", out, 4, len(out))
    out += struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, count) + packed
    return bytes(out + b"\0\0\0\0")


def cut():
    """A file cut short: its directory first (as Pillow writes it), then
    half of its pixels."""
    width, height = 64, 64
    pixels = bytes(square(width, height))
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1),
               (262, 3, 1, 1), (273, 4, 1, 0), (277, 3, 1, 1), (278, 4, 1, height),
               (279, 4, 1, len(pixels))]
    start = 8 + 2 + 12 * len(entries) + 4
    out = bytearray(b"II*\0\x08\0\0\0") + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        value = start if tag == 273 else value
        packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, count) + packed
    out += b"\0\0\0\0" + pixels
    return bytes(out[: start + len(pixels) // 2])


def main():
    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    page = (32, 32, None, square(32, 32))
    tiled = (40, 40, 16, square(40, 40))
    seeds = {
        "strip.tif": tiff([page]),
        "tiled.tif": tiff([tiled]),
        "pages.tif": tiff([page, tiled, page]),
        "loop.tif": tiff([page, page, page], loop=(2, 0)),
        "liar.tif": tiff([page, (20000, 20000, None, None)]),
        "many-samples.tif": many_samples(),
        "deflate.tif": deflate(48, 48),
        "deflate-damaged.tif": deflate(48, 48, damaged=True),
        "cut.tif": cut(),
    }
    for name, data in seeds.items():
        (folder / name).write_bytes(data)


if __name__ == "__main__":
    main()
