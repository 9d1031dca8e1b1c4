#!/usr/bin/env bash
# Recognises a bundled sample scan and prints its text (installs what is
# missing: only what building and recognising need, not the test suite's tools).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tools/install/install-dependencies.sh --runtime
swift build -c release --product scantext --static-swift-stdlib >&2
.build/release/scantext ocr Scans/clean.png --format text
