#!/usr/bin/env bash
# The generated bindings (Sources/CScanOCR/bindings.h and CScanOCR.h, from
# the table in Tools/generate/generate-ocr-shims.py) declare the Poppler GLib, GLib,
# cairo, qpdf, zlib, libpng and libjpeg functions and types ScanText uses
# instead of including their headers (no -dev package at build time). This
# compiles every C file that uses them against the real headers
# (libpoppler-glib-dev, libqpdf-dev, zlib1g-dev, libpng-dev, libjpeg-dev)
# and fails when any declaration differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
modules="poppler-glib cairo libqpdf zlib libpng libjpeg"
# shellcheck disable=SC2086
if ! pkg-config --exists $modules; then
  echo "check-pdf-declarations: libpoppler-glib-dev, libqpdf-dev, zlib1g-dev, libpng-dev or libjpeg-dev is not installed" >&2
  exit 2
fi
for file in Sources/CScanOCR/shims.c Sources/CScanOCR/pdf.c Sources/CScanOCR/pdfwrite.c \
  Sources/CScanOCR/quiet.c; do
  # shellcheck disable=SC2046,SC2086
  cc -std=gnu11 -fsyntax-only -Wall -Werror -DSCANTEXT_CHECK_DECLARATIONS \
    -ISources/CScanOCR/include $(pkg-config --cflags $modules) "$file"
done
echo "check-pdf-declarations: the generated declarations match the installed headers"
