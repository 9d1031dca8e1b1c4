"""Text for the page families: sentences the sample pages never use.

The sample pages (`Tools/generate/make-scans.py`) print original prose about
ledgers, ferries and bread. The families draw their text from the licence
texts every Debian system ships in `/usr/share/common-licenses` (package
base-files, so a fresh CI machine has them too): long, real English
sentences with numbers, section references and legal vocabulary, in a
register none of the sample pages uses. A seed picks the sentences, so
the same seed gives the same text on every Debian 12 machine.

Only sentences the fonts render and a reader would see on a page are
kept: plain ASCII letters, digits and common punctuation, no all-capital
disclaimers, no URLs, no word too long for a narrow column.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

LICENSES = Path("/usr/share/common-licenses")
# Fixed order, so a seed picks the same sentence everywhere.
SOURCES = ("Apache-2.0", "Artistic", "CC0-1.0", "GFDL-1.3", "GPL-3", "LGPL-2.1", "MPL-2.0")
ALLOWED = re.compile(r"^[A-Za-z0-9 ,.;:'()\-]+$")
MAX_WORD = 16           # characters: fits a 1.3 in column at 11 pt


@lru_cache(maxsize=1)
def sentences() -> tuple:
    """Every usable sentence of the licence texts, in file order."""
    out = []
    for name in SOURCES:
        path = LICENSES / name
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing (Debian package base-files)")
        text = path.read_text(encoding="utf-8", errors="replace")
        for para in re.split(r"\n\s*\n", text):
            flat = " ".join(para.split())
            for s in re.split(r"(?<=[.;])\s+(?=[A-Z(])", flat):
                s = s.strip()
                words = s.split()
                if not 6 <= len(words) <= 45 or not ALLOWED.match(s):
                    continue
                if any(len(w) > MAX_WORD for w in words):
                    continue
                letters = [c for c in s if c.isalpha()]
                if sum(c.isupper() for c in letters) > 0.3 * len(letters):
                    continue
                if not s[0].isupper() or s[-1] not in ".;:":
                    continue
                out.append(s)
    # Duplicates (the same clause in two licences) would make two
    # paragraphs of one page identical.
    seen, unique = set(), []
    for s in out:
        if s not in seen:
            seen.add(s)
            unique.append(s)
    return tuple(unique)


def paragraph(rng: random.Random, min_sentences: int = 2, max_sentences: int = 5,
              used: set | None = None) -> str:
    """A paragraph of consecutive sentences from a random place; with
    `used` (the indices of sentences already on the page, updated), none
    of them again where a few draws can avoid it."""
    pool = sentences()
    n = rng.randint(min_sentences, max_sentences)
    for _ in range(20):
        start = rng.randrange(len(pool) - n)
        if used is None or not used.intersection(range(start, start + n)):
            break
    if used is not None:
        used.update(range(start, start + n))
    return " ".join(pool[start:start + n])


def sentence(rng: random.Random, max_words: int = 45) -> str:
    """One sentence of at most `max_words` words."""
    pool = [s for s in sentences() if len(s.split()) <= max_words]
    return rng.choice(pool)


def phrase(rng: random.Random, min_words: int = 2, max_words: int = 5, title: bool = True) -> str:
    """A short phrase (a running head, a heading, a stamp): consecutive
    words of a sentence without trailing punctuation, in title case when
    `title`."""
    words = rng.choice(sentences()).split()
    n = min(len(words), rng.randint(min_words, max_words))
    start = rng.randrange(len(words) - n + 1)
    picked = [w.strip(",.;:()'") for w in words[start:start + n]]
    picked = [w for w in picked if w] or ["Notice"]
    if title:
        picked = [w[:1].upper() + w[1:] for w in picked]
    return " ".join(picked)
