#!/usr/bin/env python3
"""Make Scans/scan.pdf: the documentation's sample PDF (three half-letter pages).

1. `Scans/dpi-150.png` put in a PDF by img2pdf: a scanned page, one image
   (lossless: img2pdf copies the PNG's compressed data).
2. `Scans/dpi-100.png` the same way.
3. A born-digital page written here: its text is text (Helvetica, one of
   the 14 standard fonts, not embedded), so a reader finds words without
   recognition; as a word processor or a browser's "print to PDF" makes it.

The three are joined with `qpdf --empty --pages` (with `--deterministic-id`)
and img2pdf runs with `--nodate`: running the script twice gives the same
bytes. Needs img2pdf (`.build/tools-venv`, see Tools/install/install-dependencies.sh)
and qpdf.

    .build/tools-venv/bin/python Tools/generate/make-sample-pdf.py
"""

import os
import shutil
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCANS = os.path.join(ROOT, "Scans")
OUTPUT = os.path.join(SCANS, "scan.pdf")

# Original prose, one paragraph per entry: (font size, lines).
TITLE = "Minutes of the Reading Room"
PARAGRAPHS = [
    [
        "This page was typed, not scanned: its words are",
        "stored as text, so a reader can select and search",
        "them without any recognition at all.",
    ],
    [
        "The committee agreed to open the reading room on",
        "Saturday mornings from the first of May, and to",
        "keep the catalogue cards beside the new terminals",
        "until every drawer has been entered.",
    ],
]


def img2pdf_tool():
    venv = os.path.join(ROOT, ".build", "tools-venv", "bin", "img2pdf")
    if os.access(venv, os.X_OK):
        return venv
    found = shutil.which("img2pdf")
    if not found:
        sys.exit("img2pdf not found: run Tools/install/install-dependencies.sh")
    return found


def born_digital_page():
    """A one-page PDF, 306 x 396 pt (half letter), text in Helvetica."""
    lines = ["BT", "/F1 16 Tf", "36 340 Td", f"({TITLE}) Tj", "/F1 11 Tf", "14 TL"]
    first = True
    for paragraph in PARAGRAPHS:
        # Td moves from the start of the last line (T* moves it too).
        lines.append("0 -30 Td" if first else "0 -22 Td")
        first = False
        for i, line in enumerate(paragraph):
            if i:
                lines.append("T*")
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            lines.append(f"({escaped}) Tj")
    lines.append("ET")
    content = zlib.compress("\n".join(lines).encode("latin-1"), 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 306 396] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(content)
        + content
        + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def main():
    with tempfile.TemporaryDirectory() as folder:
        parts = []
        for name in ["dpi-150.png", "dpi-100.png"]:
            part = os.path.join(folder, name + ".pdf")
            subprocess.run(
                [img2pdf_tool(), "--nodate", os.path.join(SCANS, name), "-o", part], check=True
            )
            parts.append(part)
        born = os.path.join(folder, "born.pdf")
        with open(born, "wb") as f:
            f.write(born_digital_page())
        parts.append(born)
        subprocess.run(
            ["qpdf", "--empty", "--deterministic-id", "--pages", *parts, "--", OUTPUT], check=True
        )
    print(f"{OUTPUT}: {os.path.getsize(OUTPUT)} bytes")


if __name__ == "__main__":
    main()
