#!/usr/bin/env bash
# Sources/CScanOCR/pdf.c and pdfwrite.c declare the few Poppler GLib, GLib,
# cairo, qpdf and zlib functions and types they use instead of including
# their headers (no -dev package at build time). This compiles them against
# the real headers (libpoppler-glib-dev, libqpdf-dev, zlib1g-dev) and fails
# when any declaration differs.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! pkg-config --exists poppler-glib cairo libqpdf zlib; then
  echo "check-pdf-declarations: libpoppler-glib-dev, libqpdf-dev or zlib1g-dev is not installed" >&2
  exit 2
fi
for file in Sources/CScanOCR/pdf.c Sources/CScanOCR/pdfwrite.c; do
  # shellcheck disable=SC2046
  cc -std=c11 -fsyntax-only -Wall -Werror -DSCANTEXT_CHECK_DECLARATIONS \
    -ISources/CScanOCR/include $(pkg-config --cflags poppler-glib cairo libqpdf zlib) "$file"
done
echo "check-pdf-declarations: pdf.c and pdfwrite.c match the installed headers"
