#!/usr/bin/env bash
# Installs the Debian packages ScanText needs, if any is missing.
# Safe to run again: it does nothing when everything is there.
#
#   install-dependencies.sh            everything the test suite needs
#   install-dependencies.sh --runtime  only what building scantext and
#                                      recognising a page needs (Tools/install/try-sample.sh)
#   install-dependencies.sh --list [--runtime]   print the packages, one a line
set -euo pipefail

runtime_only=0
list=0
for argument in "$@"; do
  case "$argument" in
    --runtime) runtime_only=1 ;;
    --list) list=1 ;;
    *) echo "usage: $0 [--runtime] [--list]" >&2; exit 64 ;;
  esac
done

# Building scantext and recognising a page: the one list (the suite's adds to it).
runtime=(
  pkg-config            # finds the C libraries for SwiftPM
  libtesseract-dev      # Tesseract's C API (libtesseract)
  libleptonica-dev      # Leptonica (image reading)
  libtiff-dev           # libtiff's headers: tiled TIFFs and page lists (Sources/CScanOCR/tiff.c)
  zlib1g-dev            # zlib: Flate streams of searchable PDFs (Sources/CZlib)
  libxml2-dev           # libxml2, behind Foundation's XMLParser (the XML importers); static builds link it
  tesseract-ocr-eng     # English (tesseract-ocr-osd adds turned-page detection; without it pages are taken as upright)
  icc-profiles-free     # sRGB.icc: the output intent of a PDF/A searchable PDF (without it: plain PDF, with a warning)
  libharfbuzz-dev       # HarfBuzz's subsetter (Sources/CHarfBuzz): a typed page's font a PDF input leaves out is embedded as a subset of its twin
  fonts-liberation2     # those twins: Liberation Sans, Serif, Mono for Helvetica/Arial, Times, Courier (without it: plain PDF, with a warning); also the fonts Tools/generate/make-scans.py and the page families set text in
)

packages=(
  "${runtime[@]}"
  libpoppler-glib8      # Poppler's GLib API: PDF input (loaded at run time, Sources/CScanOCR/pdf.c)
  libpoppler-glib-dev   # its headers: Tools/check/check-pdf-declarations.sh checks the loader's declarations against them
  libqpdf29             # qpdf's library: the searchable PDF of a PDF input is the input edited (Sources/CScanOCR/pdfwrite.c)
  libqpdf-dev           # its headers, for the same check
  libpng-dev            # libpng's header, for the same check (quiet.c hooks Leptonica's libpng)
  libjpeg-dev           # libjpeg's header, for the same check (quiet.c hooks Leptonica's libjpeg)
  tesseract-ocr         # the tesseract command: parity tests and Tools/check/compare-tesseract
  tesseract-ocr-osd     # orientation and script detection
  tesseract-ocr-deu     # German (a sample scan)
  tesseract-ocr-kor     # Korean, Arabic and Persian: the docling documents
  tesseract-ocr-ara     # in those languages (Tools/check/structure-eval and the
  tesseract-ocr-fas     # structure tests read them as a user would)
  libtiff-tools         # tiffcp, for the tiled-TIFF test
  qpdf                  # qpdf --check on the searchable PDFs
  poppler-utils         # pdftotext and pdfimages: the PDFs' text layer and images are checked
  libxml2-utils         # xmllint: the ALTO and PAGE exports are validated against their schemas
  python3-venv          # a virtual environment for hocr-tools (below)
  chromium              # a real browser: Tools/check/check-html.py checks `scantext html` pages in it
  fonts-dejavu-core     # the fonts the page families (Tools/generate/make-family) set text in, with Liberation (GateTests, TableFamilyTests and HeadingFamilyTests generate pages with them)
  base-files            # /usr/share/common-licenses: the page families' text (Tools/generate/families/prose.py)
  slurm-wlm             # a one-node Slurm cluster: Tools/check/test-slurm.sh runs Tools/run/slurm-batch.sh on it
  munge                 # Slurm's authentication
  parallel              # GNU parallel: the sharded batch line of docs/batch.md is run by the suite
)

if [ "$runtime_only" -eq 1 ]; then packages=("${runtime[@]}"); fi
if [ "$list" -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Symbol's and ZapfDingbats' twins (a typed page of a PDF input showing them
# is embedded as a subset, Sources/ScanOCR/PDF/TwinFont.swift): two files of
# fonts-urw-base35, StandardSymbolsPS.otf and D050000L.otf, put in
# /usr/local/share/scantext/fonts, where fontconfig does not look. Not the
# package itself: its fontconfig rules make URW's Nimbus fonts the match for
# Helvetica, Times and Courier, which changes how Poppler draws a PDF that
# leaves those out (a PDF input's pages, and so their recognition). Without
# the files, such a page keeps its font out, with the plain-PDF warning.
# Nothing is done when the package is installed already (ghostscript brings it).
symbol_fonts=/usr/local/share/scantext/fonts
urw=/usr/share/fonts/opentype/urw-base35
if ! { [ -f "$urw/StandardSymbolsPS.otf" ] && [ -f "$urw/D050000L.otf" ]; } &&
  ! { [ -f "$symbol_fonts/StandardSymbolsPS.otf" ] && [ -f "$symbol_fonts/D050000L.otf" ]; }; then
  echo "Installing StandardSymbolsPS.otf and D050000L.otf (fonts-urw-base35) into $symbol_fonts" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  work="$(mktemp -d)"
  chmod 755 "$work"  # (apt-get download fetches as the _apt user where it can)
  (cd "$work" && apt-get download -qq fonts-urw-base35 >/dev/null 2>&1)
  dpkg-deb --fsys-tarfile "$work"/fonts-urw-base35_*.deb |
    tar -x -C "$work" ".$urw/StandardSymbolsPS.otf" ".$urw/D050000L.otf"
  $sudo install -D -m 644 -t "$symbol_fonts" "$work$urw/StandardSymbolsPS.otf" "$work$urw/D050000L.otf"
  rm -rf "$work"
fi
# The tools below are the test suite's.
if [ "$runtime_only" -eq 1 ]; then exit 0; fi

# hocr-check (PyPI's hocr-tools) validates the hOCR exports. Debian 12's
# Python is "externally managed" (PEP 668): pip refuses to install into it,
# so hocr-tools goes into a virtual environment under .build, where the
# tests look for it (.build/tools-venv/bin/hocr-check). websocket-client
# drives Chromium over the DevTools protocol (Tools/check/check-html.py); fontTools
# builds the HTML text layer's font (Tools/generate/make-html-font.py, run by hand);
# img2pdf makes image-only PDFs of the sample pages for the PDF input tests
# (a JPEG's bytes go in unchanged, other images losslessly).
cd "$(dirname "$0")/../.."
venv=".build/tools-venv"
if [ ! -x "$venv/bin/hocr-check" ]; then
  echo "Installing hocr-tools into $venv" >&2
  mkdir -p .build
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check hocr-tools >/dev/null
fi
if ! "$venv/bin/python" -c "import websocket, fontTools, img2pdf" 2>/dev/null; then
  echo "Installing websocket-client, fonttools and img2pdf into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check websocket-client fonttools img2pdf >/dev/null
fi
# numpy and Pillow for Tools/generate/make-scans.py and Tools/check/check-scans.py (the
# generated pages' checks in the suite), Tools/check/check-html.py (the ink of a
# Chromium screenshot) and Tools/generate/make-orientation-samples.py (EXIF photos).
# pytest runs the Python package's tests (python/tests, from Tools/check/test.sh).
# vermin checks that the package needs no Python newer than 3.9 (Debian 12
# has 3.11 only, so 3.9 itself cannot run here).
if ! "$venv/bin/python" -c "import pytest" 2>/dev/null || [ ! -x "$venv/bin/vermin" ]; then
  echo "Installing pytest and vermin into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check pytest vermin >/dev/null
fi
# pdfua (on pikepdf) checks the tagged searchable PDF (PDF/UA-1's
# machine-checkable rules it implements); Tools/check/check-tagged-pdf.py adds the
# project's own checks with pikepdf.
if [ ! -x "$venv/bin/pdfua" ]; then
  echo "Installing pdfua into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check pdfua==0.1.3 >/dev/null
fi
# page-validation (`page`, veraPDF's rules, a self-contained wheel)
# validates the searchable PDFs for the PDF/A level and PDF/UA part they
# claim (Tools/check/check-pdfa.py, PDFArchiveTests).
if ! "$venv/bin/python" -c "import page" 2>/dev/null; then
  echo "Installing page-validation into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check page-validation==0.11.0 >/dev/null
fi
# markdown-it-py reads the Markdown export as CommonMark with pipe tables
# (Tools/check/render-markdown.py, run by MarkdownTests).
if ! "$venv/bin/python" -c "import markdown_it" 2>/dev/null; then
  echo "Installing markdown-it-py into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check markdown-it-py >/dev/null
fi
# PyMuPDF and pdfminer.six read the searchable PDF's text layer as two
# more readers beside Poppler's pdftotext (Tools/check/pdf-layer-readers and the
# searchable-PDF tests: every reader finds the page's words whole).
if ! "$venv/bin/python" -c "import pymupdf, pdfminer" 2>/dev/null; then
  echo "Installing PyMuPDF and pdfminer.six into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check pymupdf pdfminer.six >/dev/null
fi
# table-recognition-metric scores tables by TEDS against PubTabNet's truth
# (Tools/check/table-eval, the structure scorer of issue 44).
if ! "$venv/bin/python" -c "import table_recognition_metric" 2>/dev/null; then
  echo "Installing table-recognition-metric into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check table-recognition-metric==0.0.6 >/dev/null
fi
# segno encodes the real QR codes the QR-code tests print on a page
# (ReceiptBarcodeTests).
if ! "$venv/bin/python" -c "import segno" 2>/dev/null; then
  echo "Installing segno into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check segno >/dev/null
fi
if ! "$venv/bin/python" -c "import numpy, PIL" 2>/dev/null; then
  echo "Installing numpy and Pillow into $venv" >&2
  "$venv/bin/pip" install -q --disable-pip-version-check -r Tools/install/requirements-scans.txt >/dev/null
fi
