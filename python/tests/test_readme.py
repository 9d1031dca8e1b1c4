"""The Python example of docs/python.md (the README's "From Python" links to it)
runs as written (with the tested binary)."""

import os
import subprocess
import sys


def test_the_readme_python_example_runs_as_written(root, tmp_path):
    section = (root / "docs" / "python.md").read_text(encoding="utf-8")
    assert section.startswith("# Python\n")
    start = section.index("```python\n") + len("```python\n")
    example = section[start:section.index("```", start)]
    assert len(example.strip().splitlines()) <= 12
    (tmp_path / "Scans").symlink_to(root / "Scans")  # run from a package root
    environment = dict(os.environ, PYTHONPATH=str(root / "python"))
    done = subprocess.run([sys.executable, "-c", example], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("(9, 16) library (")
    assert lines[1] == "town town"
    assert (tmp_path / "clean-boxes.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
