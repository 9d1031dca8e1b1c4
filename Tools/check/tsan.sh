#!/usr/bin/env bash
# Runs tests under ThreadSanitizer: by default the tests of one page read
# on two cores (issue 47: two engines recognising a page's parts side by
# side, the determinism test's 20 readings among them). Any data race
# ThreadSanitizer reports fails the run.
#
#   bash Tools/check/tsan.sh [swift test arguments, such as --filter X]
#
# Tesseract and Leptonica are not built with ThreadSanitizer: a race inside
# them between the two engines would go unseen; what is checked is
# ScanText's side (the engines handed to the threads, the parts' results
# read back, the Swift code around them).
#
# Not checkable this way (2026-12-07, Swift 6.3.1): code behind Swift's
# `Synchronization.Mutex`. ThreadSanitizer reports every `withLock` from a
# second thread as a "Swift access race" on the Mutex's value, although
# the lock orders them: two threads adding 1 under `withLock` 10,000 times
# each report it and count 20,000. So `LongPDFTests` (the PDF's shared
# scanner, `PDFFile`) fail here with such a report at the scanner's
# `asked` counter; that report is this false positive, not a race.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=.build/tsan
swift build --build-tests --build-path "$build" -Xswiftc -sanitize=thread -Xcc -fsanitize=thread
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
if [ $# -eq 0 ]; then
  set -- --filter 'SideBySideRecognitionTests'
fi
swift test --skip-build --build-path "$build" "$@"
