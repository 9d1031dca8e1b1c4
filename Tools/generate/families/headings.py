"""The heading family: pages of running text with headings of one to three
levels, and paragraphs that look like headings but are not.

    python3 -m families.headings SEED [SEED ...] --out DIR   (from Tools/)

Each seed draws a page: 200 or 300 dpi, one or two columns of 9.5-12 pt
body text (serif or sans, ragged or justified), and a house style for each
heading level, as typesetters make them: a level is told from the next one
by at least one visible cue (larger type, bold against regular, capitals
against mixed case), every level stays told from the running text (larger,
bold or in capitals), and, when the page numbers its
headings, by the depth of its numbering ("2", "2.1", "2.1.1"; or "II.",
"A.", "1."). Headings are one to three lines long, set flush left or
centred, with the space above and below drawn for each page. The
look-alikes, never headings in the truth: a numbered list ("1. Cut the
..."), a caption ("Figure 2. ..."), a one-line paragraph of running text,
a bold word inside running text, and a run-in heading (a bold lead-in such
as "Methods." that starts a paragraph of running text: the model gives
roles to whole paragraphs, so that paragraph is running text).

The text is drawn from its own vocabulary (mills, rivers, orchards,
weaving), not the sample pages' prose. Seeds 1000-1999 are for developing
the heading rules, 9000-9999 only for checking them.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from families.scans import make_scans as ms  # noqa: E402
else:
    from .scans import make_scans as ms

FAMILY = "headings"

# Bold faces the sample pages do not use.
ms.FONT_FILES.setdefault("dejavu-sans-bold", "DejaVuSans-Bold.ttf")
ms.FONT_FILES.setdefault("dejavu-serif-bold", "DejaVuSerif-Bold.ttf")

BOLD = {"serif": "serif-bold", "sans": "sans-bold", "dejavu-sans": "dejavu-sans-bold",
        "dejavu-serif": "dejavu-serif-bold"}
# A word set in bold inside running text is written with this mark before it;
# it is laid out in the regular face (the mark's width covers the bold
# face's extra) and drawn in the bold one.
BOLD_MARK = "*"

# --------------------------------------------------------------------------
# Text: a small grammar over its own vocabulary.
# --------------------------------------------------------------------------

NOUNS = ["mill", "river", "orchard", "loom", "weaver", "miller", "wheel", "sluice", "barge", "cart",
         "market", "village", "bridge", "meadow", "shepherd", "fleece", "basket", "granary", "kiln",
         "quarry", "lantern", "harvest", "cellar", "workshop", "smith", "road", "valley", "spring",
         "fence", "stable", "wagon", "chapel", "tower", "garden", "pond", "forest", "hedge", "school"]
PLURALS = {"smith": "smiths", "valley": "valleys", "quarry": "quarries", "granary": "granaries"}
ADJS = ["old", "narrow", "wooden", "busy", "quiet", "northern", "eastern", "small", "heavy", "early",
        "late", "broad", "stone", "dry", "wet", "local", "common", "upper", "lower", "new", "long"]
VERBS = ["repaired", "carried", "measured", "counted", "built", "cleared", "painted", "moved",
         "sold", "kept", "opened", "closed", "crossed", "filled", "emptied", "visited", "mended"]
ADVS = ["slowly", "again", "twice", "carefully", "early", "later", "often", "at last"]
PREPS = ["beside", "behind", "near", "across", "below", "above", "along", "under", "past"]
NAMES = ["Martha", "Jonas", "Elena", "Tobias", "Greta", "Samuel", "Ida", "Felix", "Ruth", "Oskar"]
MONTHS = ["March", "April", "June", "July", "October", "November"]
STEPS = ["Cut", "Soak", "Dry", "Weigh", "Stack", "Wash", "Sort", "Check", "Tie", "Store"]


def plural(n):
    return PLURALS.get(n, n + "s")


def sentence(r):
    n1, n2, n3 = r.sample(NOUNS, 3)
    a1, a2 = r.sample(ADJS, 2)
    t = r.randrange(7)
    if t == 0:
        s = f"The {a1} {n1} {r.choice(VERBS)} the {n2} {r.choice(PREPS)} the {n3}."
    elif t == 1:
        s = (f"{r.choice(NAMES)} {r.choice(VERBS)} {r.randint(3, 90)} {plural(n1)} "
             f"{r.choice(PREPS)} the {a1} {n2}.")
    elif t == 2:
        s = (f"In {r.choice(MONTHS)} {r.randint(1850, 1960)}, the {n1} {r.choice(VERBS)} a {a1} "
             f"{n2}, and the {plural(n3)} were {r.choice(VERBS)} {r.choice(ADVS)}.")
    elif t == 3:
        s = (f"Most of the {plural(n1)} were {r.choice(VERBS)} {r.choice(PREPS)} the {n2}, "
             f"but a few stayed {r.choice(PREPS)} the {a1} {n3}.")
    elif t == 4:
        s = (f"Each {n1} held about {r.randint(2, 40)}.{r.randint(1, 9)} tons, "
             f"so the {plural(n2)} {r.choice(VERBS)} it {r.choice(ADVS)}.")
    elif t == 5:
        s = f"Nobody {r.choice(VERBS)} the {a1} {n1} {r.choice(PREPS)} the {a2} {n2} that year."
    else:
        s = (f"When the {n1} was {r.choice(VERBS)}, the {plural(n2)} {r.choice(PREPS)} it "
             f"were {r.choice(VERBS)} {r.choice(ADVS)} and then {r.choice(VERBS)}.")
    return s


def paragraph_text(r, sentences):
    return " ".join(sentence(r) for _ in range(sentences))


def heading_text(r, long=False):
    n1, n2, n3 = r.sample(NOUNS, 3)
    a1, a2 = r.sample(ADJS, 2)
    if long:
        return r.choice([
            f"A {a1} account of the {plural(n1)} {r.choice(PREPS)} the {n2} and the {a2} "
            f"{plural(n3)} of the valley",
            f"How the {plural(n1)} of the {a1} {n2} were {r.choice(VERBS)} and {r.choice(VERBS)} "
            f"in the years before the {n3}",
        ])
    return r.choice([
        f"{a1} {plural(n1)}",
        f"The {n1} of the {n2}",
        f"{plural(n1)} and {plural(n2)}",
        f"On the {a1} {n1}",
        f"Notes on {plural(n1)}",
        f"{n1}",
        f"The {a1} {n1} {r.choice(PREPS)} the {n2}",
        f"How the {plural(n1)} were {r.choice(VERBS)}",
        f"{r.choice(['Results', 'Methods', 'Summary', 'Sources', 'Background'])}",
    ])


MINOR = {"a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "by", "with", "from"}


def cased(text, case):
    words = text.split()
    if case == "upper":
        return text.upper()
    if case == "title":
        return " ".join(w if (i and w in MINOR) else w[:1].upper() + w[1:] for i, w in enumerate(words))
    return text[:1].upper() + text[1:]


def roman(k):
    out = ""
    for value, letters in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while k >= value:
            out += letters
            k -= value
    return out


def numbering(scheme, path):
    """The number of a heading at `path` (its place at each level, from 1)."""
    if scheme == "decimal":
        return ".".join(str(i) for i in path) + ("." if len(path) == 1 else "")
    if scheme == "decimal-dot":
        return ".".join(str(i) for i in path) + "."
    # "classic": II. / A. / 1.
    k = path[-1]
    if len(path) == 1:
        return f"{roman(k)}."
    return f"{chr(64 + k)}." if len(path) == 2 else f"{k}."


# --------------------------------------------------------------------------
# The page
# --------------------------------------------------------------------------

def house_style(r, depth, body):
    """One style per heading level (at most `depth`), each told from the next
    by a visible cue: smaller type, regular after bold, mixed case after
    capitals. Every level stays told from the running text: larger, bold or
    in capitals."""
    family = r.choice([body.font, "sans" if body.font != "sans" else "serif"])
    size = body.size * r.uniform(1.3, 1.9) if r.random() < 0.8 else body.size
    bold = True
    case = r.choice(["title", "title", "sentence", "upper"])
    styles = []
    for level in range(1, depth + 1):
        if level > 1:
            cues = []
            smaller = max(body.size, size * r.uniform(0.72, 0.86))
            if smaller <= size * 0.88 and (bold or case == "upper" or smaller >= body.size * 1.2):
                cues += ["size", "size"]
            if bold and (size >= body.size * 1.2 or case == "upper"):
                cues.append("weight")
            if case == "upper" and (bold or size >= body.size * 1.2):
                cues.append("case")
            if not cues:
                break
            cue = r.choice(cues)
            if cue == "size":
                size = smaller
            elif cue == "weight":
                bold = False
            else:
                case = r.choice(["title", "sentence"])
        styles.append({"font": BOLD.get(family, family) if bold else family,
                       "size": round(size * 2) / 2, "case": case,
                       "align": "center" if level == 1 and r.random() < 0.4 else "left",
                       "above": r.uniform(0.4, 1.4), "below": r.uniform(0.15, 0.7)})
    return styles


def draw_page(r, seed):
    dpi = r.choice([200, 300, 300])
    page_w, page_h = r.choice([(6.0, 8.0), (6.5, 9.0), (7.0, 9.0)])
    columns = 2 if r.random() < 0.45 else 1
    body_font = r.choice(["serif", "serif", "sans", "dejavu-serif", "dejavu-sans"])
    body = ms.Style(body_font, r.choice([9.5, 10, 10.5, 11, 11.5, 12]), leading=r.uniform(1.15, 1.35),
                    align=r.choice(["left", "justify"]), space_after=r.uniform(0.25, 0.8))
    depth = r.choice([1, 2, 2, 3, 3])
    scheme = r.choice([None, None, "decimal", "decimal-dot", "classic"])
    styles = house_style(r, depth, body)
    depth = len(styles)

    paras = []
    path = []
    figures = 0
    title = r.random() < 0.3 and depth < 3
    if title:
        st = ms.Style(BOLD.get(body_font, body_font), round(max(body.size * 2, styles[0]["size"] * 1.2)),
                      align="center", space_after=0.8)
        paras.append(ms.Para(cased(heading_text(r), "title"), st, role="heading", level=1))
    offset = 1 if title else 0
    for _ in range(14):
        # The next heading: a sibling, a child or back up a level.
        if not path:
            level = 1
        else:
            level = r.choice([len(path), min(depth, len(path) + 1), max(1, len(path) - 1)])
        path = path[:level]
        if len(path) < level:
            path.append(0)
        path[-1] += 1
        while len(path) < level:
            path.append(1)
        hs = styles[level - 1]
        text = cased(heading_text(r, long=r.random() < 0.15), hs["case"])
        if scheme:
            text = f"{numbering(scheme, path)} {text}"
        st = ms.Style(hs["font"], hs["size"], leading=1.2, align=hs["align"],
                      space_before=hs["above"] * (body.size / hs["size"]) + body.space_after * 0,
                      space_after=hs["below"] * body.size / hs["size"])
        paras.append(ms.Para(text, st, role="heading", level=min(3, level + offset)))
        for _ in range(r.choice([1, 1, 2, 2, 3])):
            paras.append(lookalike(r, body) or ms.Para(paragraph_text(r, r.randint(2, 5)), body))
            if paras[-1].role == "caption":
                figures += 1
    return dpi, (page_w, page_h), columns, paras, scheme, depth, styles, title


def lookalike(r, body):
    """Sometimes a paragraph that looks like a heading and is not one."""
    kind = r.choices(["none", "list", "caption", "short", "bold", "runin"], [10, 1, 1, 1, 1, 1])[0]
    if kind == "list":
        n = r.randint(1, 4)
        st = ms.Style(body.font, body.size, body.leading, "left", 0, body.space_after * 0.4)
        return ms.Para(f"{n}. {r.choice(STEPS)} the {r.choice(NOUNS)} {r.choice(PREPS)} the "
                       f"{r.choice(NOUNS)}.", st, role="listItem")
    if kind == "caption":
        st = ms.Style(body.font, body.size * 0.85, 1.2, "left", 0.3, body.space_after)
        return ms.Para(f"Figure {r.randint(1, 9)}. The {r.choice(ADJS)} {r.choice(NOUNS)} "
                       f"{r.choice(PREPS)} the {r.choice(NOUNS)}.", st, role="caption")
    if kind == "short":
        return ms.Para(f"The {r.choice(NOUNS)} was {r.choice(VERBS)}.", body)
    if kind == "bold":
        words = paragraph_text(r, r.randint(2, 4)).split()
        k = r.randrange(2, len(words) - 2)
        if words[k][-1].isalpha():
            words[k] = BOLD_MARK + words[k]
        return ms.Para(" ".join(words), body)
    if kind == "runin":
        lead = " ".join(BOLD_MARK + w for w in f"{cased(heading_text(r), 'title')}.".split())
        return ms.Para(f"{lead} {paragraph_text(r, r.randint(2, 4))}", body)
    return None


def embolden(blocks):
    """Draws the words written with BOLD_MARK in the bold face, in place."""
    for w in ms.all_words(blocks):
        if w.text.startswith(BOLD_MARK) and len(w.text) > 1:
            name, size, dpi = w.fkey
            bold = BOLD.get(name, name)
            w.text = w.text[len(BOLD_MARK):]
            w.font = ms.get_font(bold, size, dpi)
            w.fkey = (bold, size, dpi)


def heading_at_column_foot(blocks):
    """A heading that ends a column (its text in the next): typesetters never
    leave one there."""
    for b in blocks:
        if b.paras and b.paras[-1].role == "heading":
            return True
    return False


def fitting(spec):
    """The longest run of the spec's paragraphs from the start that fills
    its columns without running off the page (a binary search)."""
    lo, hi = 0, len(spec.paras)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            ms.layout_at(ms.PageSpec(spec.name, "", spec.paras[:mid], dpi=spec.dpi,
                                     columns=spec.columns, gutter=spec.gutter,
                                     margins=spec.margins, page_size=spec.page_size), None)
            lo = mid
        except ms.DoesNotFit:
            hi = mid - 1
    return spec.paras[:lo]


def balanced(spec):
    """`make_scans.layout`'s balanced columns (the lowest bottom at which the
    text fits), found by a binary search rather than in 2 px steps."""
    if spec.columns == 1:
        return ms.layout_at(spec, None)
    lo = round(spec.margins[1] * spec.dpi) + 50
    hi = round(spec.page_size[1] * spec.dpi) - round(spec.margins[3] * spec.dpi)
    while lo < hi:
        mid = (lo + hi) // 2
        try:
            ms.layout_at(spec, mid)
            hi = mid
        except ms.DoesNotFit:
            lo = mid + 1
    return ms.layout_at(spec, lo)


def generate(seed: int, out_dir: Path) -> Path:
    """Writes `headings-SEED.png` and its truth into `out_dir`; returns the image's path."""
    r = random.Random(seed)
    name = f"{FAMILY}-{seed}"
    for _ in range(50):
        dpi, size, columns, paras, scheme, depth, styles, title = draw_page(r, seed)
        spec = ms.PageSpec(name, "", paras, dpi=dpi, columns=columns, gutter=r.uniform(0.25, 0.4),
                           margins=(0.6, 0.6, 0.6, 0.7), page_size=size)
        try:
            paras = fitting(spec)
            if paras:
                spec.paras = paras
                W, H, blocks = balanced(spec)
        except RuntimeError:   # a word wider than the column
            continue
        if not paras or paras[-1].role == "heading":
            continue
        # Columns stop where the page is full: the last paragraph may be cut.
        if heading_at_column_foot(blocks[:-1]) or any(
                len(p) > 3 for b in blocks for p in b.paras if p.role == "heading"):
            continue
        if not any(p.role == "heading" for b in blocks for p in b.paras):
            continue
        break
    else:
        raise RuntimeError(f"{name}: no page drawn")
    embolden(blocks)
    spec = ms.PageSpec(name, (
        f"Heading family, seed {seed}: {columns} column(s), {depth} heading level(s), "
        f"numbering {scheme or 'none'}{', a title' if title else ''}."), paras, dpi=dpi,
        columns=columns, page_size=size)
    cov = ms.render(W, H, blocks)
    cov, W, H = ms.transform_page(spec, cov, blocks, W, H)
    img = (255 - cov).astype("uint8")
    from PIL import Image
    out_dir.mkdir(parents=True, exist_ok=True)
    image_name = f"{name}.png"
    path = out_dir / image_name
    Image.fromarray(img).save(path, format="PNG", dpi=(dpi, dpi), compress_level=6)
    truth = ms.build_truth(spec, blocks, W, H, image_name)
    truth["generator"].update({"family": FAMILY, "seed": seed, "columns": columns, "levels": depth,
                               "numbering": scheme, "headingStyles": styles})
    js = json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    (out_dir / f"{name}.truth.json").write_text(js, encoding="utf-8")
    return path


def main(argv):
    out = Path(".")
    seeds = []
    args = iter(argv[1:])
    for a in args:
        if a == "--out":
            out = Path(next(args))
        elif a.startswith("--out="):
            out = Path(a[len("--out="):])
        elif "-" in a:
            lo, hi = a.split("-")
            seeds += range(int(lo), int(hi) + 1)
        else:
            seeds.append(int(a))
    for s in seeds:
        print(generate(s, out))


if __name__ == "__main__":
    main(sys.argv)
