"""Shared fixtures: the binary, and one recognised page for the session.

The tests run the binary ``SCANTEXT`` names (``Tools/check/test.sh`` sets it to
the one the Swift suite built), else the checkout's ``.build/debug``.
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "python"))

if not os.environ.get("SCANTEXT"):
    os.environ["SCANTEXT"] = str(ROOT / ".build" / "debug" / "scantext")

import scantext  # noqa: E402


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def model(tmp_path_factory) -> Path:
    """The JSON model of Scans/headings.png (three heading levels), made
    once: every test that needs a page opens this file."""
    out = tmp_path_factory.mktemp("model") / "headings.json"
    scantext._server.run(["ocr", "-q", "-o", out, ROOT / "Scans" / "headings.png"])
    return out


@pytest.fixture(scope="session")
def doc(model):
    with scantext.Document.open(model) as document:
        yield document


@pytest.fixture(scope="session")
def page(doc):
    return doc.pages[0]
