"""The package runs on the oldest Python it declares (``requires-python``).

Python 3.9 itself is not on Debian 12, so its syntax and library use are
checked statically by vermin (installed by Tools/install/install-dependencies.sh):
the minimum version it finds for every file must be at most 3.9.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def vermin():
    beside = Path(sys.executable).parent / "vermin"
    return str(beside) if beside.exists() else shutil.which("vermin")


@pytest.mark.skipif(vermin() is None, reason="vermin is not installed (Tools/install/install-dependencies.sh)")
def test_the_package_needs_no_python_newer_than_it_declares(root):
    declared = re.search(r'requires-python = ">=(\d+)\.(\d+)"',
                         (root / "python" / "pyproject.toml").read_text()).groups()
    target = ".".join(declared)
    run = subprocess.run(
        [vermin(), "--no-tips", "--eval-annotations", f"--target={target}-", "--violations",
         str(root / "python" / "scantext")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    found = re.search(r"Minimum required versions: 3\.(\d+)", run.stdout)
    assert found and int(found.group(1)) <= int(declared[1]), run.stdout
