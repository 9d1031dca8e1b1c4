#!/usr/bin/env bash
# Sources/CScanOCR/pdf.c declares the few Poppler GLib, GLib, cairo and qpdf
# functions and types it uses instead of including their headers (no -dev
# package at build time). This compiles it against the real headers
# (libpoppler-glib-dev, libqpdf-dev) and fails when any declaration differs.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! pkg-config --exists poppler-glib cairo libqpdf; then
  echo "check-pdf-declarations: libpoppler-glib-dev or libqpdf-dev is not installed" >&2
  exit 2
fi
# shellcheck disable=SC2046
cc -std=c11 -fsyntax-only -Wall -Werror -DSCANTEXT_CHECK_DECLARATIONS \
  -ISources/CScanOCR/include $(pkg-config --cflags poppler-glib cairo libqpdf) Sources/CScanOCR/pdf.c
echo "check-pdf-declarations: pdf.c matches the installed headers"
