#!/usr/bin/env bash
# Builds the libFuzzer targets in Tools/check/Fuzz (with AddressSanitizer) and runs
# each for a bounded time; any finding (crash, sanitizer report, timeout,
# memory over the limit) fails the script and leaves the input in the
# artifacts folder.
#
#   bash Tools/check/fuzz.sh [seconds per target, default 60] [target ...]
#
# Targets: FuzzJSON (JSON reader and document importer), FuzzImport (hOCR,
# ALTO, PAGE XML and TSV importers), FuzzQuery (query protocol), FuzzImage (image decoding, multi-page and tiled TIFF),
# FuzzPage (page finding and straightening on small gray images), FuzzCompact
# (the compact model and the paged JSON reader: docs/COMPACT-MODEL.md),
# FuzzModelJSON and FuzzModelCompact (structure-aware: a valid model's counts,
# offsets, floats and table cells changed; docs/reliability-limits.md). Seed
# corpora come from Scans/ and from hostile TIFFs written below; the
# corpora grown by a run are kept in .build/fuzz/corpus for the next.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(FuzzJSON FuzzImport FuzzQuery FuzzImage FuzzPage FuzzCompact FuzzModelJSON FuzzModelCompact); fi

work=.build/fuzz
scratch="$work/build"
mkdir -p "$work"
# SwiftPM does not see files added to a path dependency's targets once it
# has planned a build: start afresh when ScanText's file list changes.
files="$(cd Sources && find . -type f | LC_ALL=C sort)"
if [ "$files" != "$(cat "$work/source-files" 2>/dev/null)" ]; then
  rm -rf "$scratch"
  printf '%s\n' "$files" > "$work/source-files"
fi

# -sanitize=fuzzer instruments the Swift code for coverage and links
# libFuzzer; lld is needed to link it; LLVMFuzzerRunDriver must stay visible
# to dlsym (Tools/check/Fuzz/Sources/FuzzSupport).
swift build -c release --package-path Tools/check/Fuzz --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
  -Xcc -fsanitize=fuzzer-no-link,address \
  -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver
bin="$(swift build -c release --package-path Tools/check/Fuzz --scratch-path "$scratch" --show-bin-path)"

seed() {
  local target="$1" dir="$work/corpus/$1"
  mkdir -p "$dir"
  case "$target" in
    FuzzJSON)
      cp Scans/*.truth.json "$dir"/
      printf '{"a":[1,2.5e3,-0,true,false,null,"\\u00e9\\ud83d\\ude00"]}' > "$dir/values.json"
      ;;
    FuzzImport)
      # Every format, written by scantext from two sample truths.
      local scantext
      scantext="$(swift build --show-bin-path)/scantext"
      [ -x "$scantext" ] || swift build --product scantext
      for truth in Scans/clean.truth.json Scans/two-columns.truth.json; do
        local stem
        stem="$(basename "$truth" .truth.json)"
        for f in hocr alto page tsv; do
          "$scantext" convert "$truth" "$dir/$stem.$f" --format "$f" 2> /dev/null || true
        done
      done
      ;;
    FuzzCompact)
      # Two sample truths as compact models and as JSON (small pages: the
      # fuzzer works best on inputs of a few kB).
      local scantext
      scantext="$(swift build --show-bin-path)/scantext"
      [ -x "$scantext" ] || swift build --product scantext
      for truth in Scans/clean.truth.json Scans/two-columns.truth.json; do
        "$scantext" convert "$truth" "$dir/$(basename "$truth" .truth.json).stm" 2> /dev/null || true
        cp "$truth" "$dir"/
      done
      ;;
    FuzzModelJSON | FuzzModelCompact)
      # Choices, not files: the empty list (the valid model as it is) and
      # a few bytes; libFuzzer grows the rest.
      printf '' > "$dir/none"
      printf '\x04\x00\x13\x01\x00\x00\x00' > "$dir/cell"
      ;;
    FuzzQuery)
      local i=0
      for request in \
        '{"op":"text","range":[0,40]}' '{"op":"text","rect":[0,0,600,300]}' \
        '{"op":"rects","range":[10,200],"id":1}' '{"op":"caret","position":5}' \
        '{"op":"hit","point":[300,200]}' '{"op":"line","point":[300,200]}' \
        '{"op":"enclosing","position":12,"granularity":"word","direction":"forward"}' \
        '{"op":"boundary","position":12,"granularity":"sentence","direction":"backward"}' \
        '{"op":"lineContent","line":3}' '{"op":"lines"}' '{"op":"pages","page":0}'; do
        printf '%s' "$request" > "$dir/request-$i.json"
        i=$((i + 1))
      done
      ;;
    FuzzImage)
      # Small images only: libFuzzer works best on inputs of a few kB.
      for f in Scans/*.png Scans/*.jpg; do
        [ "$(stat -c %s "$f")" -lt 200000 ] && cp "$f" "$dir"/
      done
      python3 Tools/generate/make-fuzz-tiffs.py "$dir"
      ;;
    FuzzPage)
      # Width and height bytes, then pixels: a bright page on a dark table
      # (a 120 x 120 image, the page from 15 to 105), a page cut by the
      # frame, a flat white page.
      python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
def image(w, h, page):
    px = bytes(230 if page(x, y) else 60 for y in range(h) for x in range(w))
    return bytes([w - 32, h - 32]) + px
open(f"{d}/page.bin", "wb").write(image(120, 120, lambda x, y: 15 <= x < 105 and 15 <= y < 105))
open(f"{d}/cut.bin", "wb").write(image(120, 120, lambda x, y: 15 <= x and 15 <= y < 105 - x // 8))
open(f"{d}/white.bin", "wb").write(image(40, 40, lambda x, y: True))
PY
      ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target"
  [ -d "$corpus" ] || seed "$target"
  artifacts="$work/artifacts/$target/"
  mkdir -p "$artifacts"
  echo "== $target: $seconds s" >&2
  # Timeouts and memory: one input may take 10 s and 2 GB at most.
  if ! ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "$corpus" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
    -artifact_prefix="$artifacts" -print_final_stats=1 2> "$work/$target.log"; then
    echo "$target: FINDING (see $work/$target.log and $artifacts)" >&2
    # The cause first (a CI log may keep only part of the output): the
    # sanitizer's or runtime's own line, the frames of the stack, libFuzzer's
    # summary; then whether the input found crashes again when run alone.
    grep -E "==ERROR|^SUMMARY|Fatal error|deadly signal|^ +#[0-9]+ |^Crashed|^MS: |Test unit written" \
      "$work/$target.log" | head -60 >&2 || true
    unit="$(ls -t "$artifacts" 2> /dev/null | head -1)"
    if [ -n "$unit" ]; then
      { base64 -w 0 "$artifacts$unit" | head -c 4000 >&2; } || true
      echo " (the input, base64, first 4000 characters)" >&2
      again=0
      for _ in 1 2 3; do
        ASAN_OPTIONS=detect_leaks=0 "$bin/$target" "$artifacts$unit" > /dev/null 2>&1 || again=$((again + 1))
      done
      echo "$target: the input fails again in $again of 3 runs alone" >&2
    fi
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$target.log" >&2 || true
  fi
done
exit $status
