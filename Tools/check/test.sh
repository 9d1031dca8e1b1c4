#!/usr/bin/env bash
# Runs the whole test suite (installs what is missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tools/install/install-dependencies.sh
swift format lint --strict --recursive Sources Tests
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
# The Python package (python/) against the binary the suite just built.
SCANTEXT="$PWD/.build/debug/scantext" .build/tools-venv/bin/python -m pytest -q python/tests
SCANTEXT="$PWD/.build/debug/scantext" bash Tools/install/check-python-install.sh
