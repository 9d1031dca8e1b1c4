#!/usr/bin/env bash
# Installs the Debian packages ScanText needs, if any is missing.
# Safe to run again: it does nothing when everything is there.
set -euo pipefail

packages=(
  pkg-config            # finds the C libraries for SwiftPM
  libtesseract-dev      # Tesseract's C API (libtesseract)
  libleptonica-dev      # Leptonica (image reading)
  libtiff-dev           # libtiff's headers: tiled TIFFs and page lists (Sources/CScanOCR/tiff.c)
  tesseract-ocr         # the tesseract command: parity tests and Tools/compare-tesseract
  tesseract-ocr-eng     # English
  tesseract-ocr-osd     # orientation and script detection
  tesseract-ocr-deu     # German (a sample scan)
  libtiff-tools         # tiffcp, for the tiled-TIFF test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "Installing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
