#!/usr/bin/env python3
"""Heading precision, recall and level accuracy of `scantext ocr` over seeds
of the heading family (Tools/generate/families/headings.py).

    .build/tools-venv/bin/python Tools/check/heading-family-eval.py SCANTEXT FIRST-LAST [--work DIR]

Generates each seed's page, recognises it once (`scantext ocr`, default
pipeline, one thread per page, two pages at a time), joins the pages and
their truths into one document each and prints `scantext eval`'s totals
(ratios of sums over all pages: headingPrecision, headingRecall,
headingLevelAccuracy) and the pages with a heading missed, extra or at the
wrong level. Seeds 1000-1999 are for developing the rules, 9000-9999 only
for checking them (docs/measurements/accuracy.md, "Roles and headings").
"""

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / d) for d in ("lib", "generate")]
from families import headings  # noqa: E402


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    scantext, span = argv[1], argv[2]
    lo, _, hi = span.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    work = Path(argv[argv.index("--work") + 1]) if "--work" in argv else Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")

    def one(seed):
        image = headings.generate(seed, work)
        out = work / f"{image.stem}.json"
        if not out.exists():
            subprocess.run([scantext, "ocr", str(image), "-o", str(out)], check=True, env=env)
        return image.stem

    with ThreadPoolExecutor(2) as pool:
        stems = list(pool.map(one, seeds))
    model, truth = None, None
    per_page = []
    for stem in stems:
        m = json.loads((work / f"{stem}.json").read_text())
        t = json.loads((work / f"{stem}.truth.json").read_text())
        report = json.loads(subprocess.run(
            [scantext, "eval", str(work / f"{stem}.json"), "--truth", str(work / f"{stem}.truth.json"),
             "--json"], check=True, capture_output=True, text=True).stdout)["total"]
        per_page.append((stem, report))
        for doc in (m, t):
            for p in doc["pages"]:
                p["index"] = stems.index(stem)
        if model is None:
            model, truth = m, t
        else:
            model["pages"] += m["pages"]
            truth["pages"] += t["pages"]
    (work / "all.json").write_text(json.dumps(model))
    (work / "all.truth.json").write_text(json.dumps(truth))
    total = json.loads(subprocess.run(
        [scantext, "eval", str(work / "all.json"), "--truth", str(work / "all.truth.json"), "--json"],
        check=True, capture_output=True, text=True).stdout)["total"]
    for stem, r in per_page:
        if min(r["headingPrecision"], r["headingRecall"], r["headingLevelAccuracy"]) < 1:
            print(f"{stem}: precision {r['headingPrecision']} recall {r['headingRecall']} "
                  f"levels {r['headingLevelAccuracy']}")
    print(f"{len(stems)} pages (seeds {span}): headingPrecision {total['headingPrecision']} "
          f"headingRecall {total['headingRecall']} headingLevelAccuracy "
          f"{total['headingLevelAccuracy']} roleAccuracy {total['roleAccuracy']} cer {total['cer']}")


if __name__ == "__main__":
    main(sys.argv)
