#!/usr/bin/env bash
# The Python package installs with pip from the checkout into a fresh
# virtual environment and works from there (issue 33's done-when). pip
# fetches the build backend (setuptools) from PyPI. Usage:
#   SCANTEXT=.build/debug/scantext bash Tools/install/check-python-install.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export SCANTEXT="${SCANTEXT:-$PWD/.build/debug/scantext}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# A copy: pip builds in the source folder (build/, *.egg-info).
cp -r python "$scratch/python"
rm -rf "$scratch/python/tests" "$scratch/python/build" "$scratch"/python/*.egg-info
/usr/bin/python3 -m venv "$scratch/venv"
"$scratch/venv/bin/pip" install -q --disable-pip-version-check "$scratch/python"
cd "$scratch"
"$scratch/venv/bin/python" - "$OLDPWD/Scans/headings.png" <<'PY'
import sys
import scantext
assert "site-packages" in scantext.__file__, scantext.__file__
with scantext.Document.open(sys.argv[1]) as doc:
    first = doc.pages[0].line(0).text
assert first == "Notes from the Archive", first
print(f"python package installed with pip into a fresh venv: {scantext.__file__}; line 0: {first}")
PY
