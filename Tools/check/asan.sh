#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and LeakSanitizer (the
# test process and every `scantext` it starts). Leaks inside third-party
# code are suppressed by name in Tools/check/lsan-suppressions.txt, each with its
# reason; any other leak or memory error fails the run.
#
#   bash Tools/check/asan.sh [swift test arguments, such as --filter X]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=.build/asan
swift build --build-tests --build-path "$build" \
  -Xswiftc -sanitize=address -Xcc -fsanitize=address
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_odr_violation=0"
export LSAN_OPTIONS="suppressions=$PWD/Tools/check/lsan-suppressions.txt:print_suppressions=0"
swift test --skip-build --build-path "$build" "$@"
