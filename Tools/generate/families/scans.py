"""`Tools/generate/make-scans.py` loaded as the module `make_scans` (its file name has a hyphen)."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "make-scans.py"


def _load():
    if "make_scans" in sys.modules:
        return sys.modules["make_scans"]
    spec = importlib.util.spec_from_file_location("make_scans", _PATH)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {_PATH}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_scans"] = module
    spec.loader.exec_module(module)
    return module


make_scans = _load()
