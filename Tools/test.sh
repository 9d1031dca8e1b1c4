#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/install-dependencies.sh
swift format lint --strict --recursive Sources Tests
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
