#!/usr/bin/env bash
# Builds the DocC catalog of each library product (ScanModel, ScanOCR,
# ScanFormats, ScanService) with the toolchain's own `docc`, from symbol
# graphs extracted from the modules of the last debug build (no plugin, no
# download, no second build), and fails on any warning: a link to a symbol
# that is not public or does not exist, an undocumented parameter, a broken
# topic. Run by DocumentationTests in the suite.
#
#   bash Tools/check/check-docs.sh [OUTPUT-DIR]     # default: .build/docs
#
# The modules are read from `swift build --show-bin-path`, or from
# $SCANTEXT_BIN (the folder holding the built products: the suite passes
# it, as SwiftPM is busy while it tests).
#
# Each catalog is Sources/MODULE/MODULE.docc; the rendered archive goes to
# OUTPUT-DIR/MODULE.doccarchive (open it with `docc preview` or serve it).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/docs}"
bin="${SCANTEXT_BIN:-$(swift build --show-bin-path)}"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
for m in ScanModel ScanOCR ScanFormats ScanService; do
  if [ ! -e "$modules/$m.swiftmodule" ]; then
    echo "check-docs: $modules/$m.swiftmodule is missing: run 'swift build' first" >&2
    exit 2
  fi
done
triple="$(uname -m)-unknown-linux-gnu"
# The C modules the libraries import: their module maps as the build wrote
# or keeps them, and their headers.
cflags=()
for map in "$bin"/*.build/module.modulemap Sources/C*/module.modulemap; do
  [ -e "$map" ] && cflags+=(-Xcc "-fmodule-map-file=$map")
done
for dir in Sources/C*/ Sources/C*/include/; do
  [ -d "$dir" ] && cflags+=(-Xcc "-I$dir")
done
status=0
for m in ScanModel ScanOCR ScanFormats ScanService; do
  graphs="$out/$m.symbols"
  rm -rf "$graphs" "$out/$m.doccarchive"
  mkdir -p "$graphs"
  swift symbolgraph-extract -module-name "$m" -I "$modules" "${cflags[@]}" \
    -target "$triple" -minimum-access-level public -output-dir "$graphs"
  log="$out/$m.log"
  converted=0
  docc convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$m" --fallback-bundle-identifier "org.scantext.$m" \
    --output-path "$out/$m.doccarchive" >"$log" 2>&1 || converted=$?
  # A link into another module (``ScanModel/Page`` from ScanFormats) cannot
  # resolve when one module's catalog is built alone: the only warning let
  # through.
  problems="$(grep -E '^(warning|error):' "$log" |
    grep -vE "^warning: '(ScanModel|ScanOCR|ScanFormats|ScanImaging|ScanService)' doesn't exist at " || true)"
  if [ "$converted" -ne 0 ] || [ -n "$problems" ]; then
    echo "check-docs: $m: the catalog has problems (docc exit $converted; the whole log: $log):" >&2
    if [ -n "$problems" ]; then
      # Each problem with the place it was found (the line after it).
      awk "/^(warning|error):/ { keep = !/^warning: '(ScanModel|ScanOCR|ScanFormats|ScanImaging|ScanService)' doesn't exist at / }
        keep && (/^(warning|error):/ || /-->/) { print }" "$log" >&2
    else
      tail -20 "$log" >&2
    fi
    status=1
  else
    echo "check-docs: $m: $out/$m.doccarchive"
  fi
done
exit $status
