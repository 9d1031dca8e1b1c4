#!/usr/bin/env python3
"""Generate the sample scanned pages in Scans/ together with exact ground truth.

    python3 Tools/generate/make-scans.py            # regenerate every page
    python3 Tools/generate/make-scans.py clean ...  # regenerate only the named pages

Every page is an 8-bit grayscale image (PNG, or JPEG for the blur+JPEG page;
the colour pages are RGB)
with its resolution stored in the file, plus `<name>.truth.json`, a ScanText
JSON document describing blocks, paragraphs, lines and words.

How the truth is made:
  * The upright page is laid out and rendered word by word (each word is
    rasterised on its own with FreeType through Pillow, then composited).
    A word's box is the tight box of its own ink pixels, where "ink" means
    coverage >= INK_THRESHOLD (i.e. pixel value <= 127 on the clean page).
  * Geometric variants (rotation, skew) transform the clean coverage image and
    a word-label map with the same affine map; word boxes are then recomputed
    from the transformed ink pixels of each word, so they follow the pixels
    exactly. `quad` holds the transformed corners of the upright box.
  * Degradations (noise, speckle, blur+JPEG, contrast, lighting) touch only
    the image; boxes come from the clean rendering.

Output is deterministic: fixed seeds, no timestamps, fixed layout engine.
Requires Pillow + numpy (see Tools/install/requirements-scans.txt) and the Debian
packages fonts-liberation2 and fonts-dejavu-core.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parents[2]
OUT_DIR = ROOT / "Scans"

GENERATOR_VERSION = 1
INK_THRESHOLD = 128          # coverage >= 128 (value <= 127) is ink
PAGE_W_IN, PAGE_H_IN = 4.25, 5.5   # half-letter
LABEL_PAD = 3                # px around a word's ink box owned by that word (skew label map)

FONT_DIRS = [
    Path("/usr/share/fonts/truetype/liberation2"),
    Path("/usr/share/fonts/truetype/liberation"),
    Path("/usr/share/fonts/truetype/dejavu"),
]
FONT_FILES = {
    "serif": "LiberationSerif-Regular.ttf",
    "serif-bold": "LiberationSerif-Bold.ttf",
    "sans": "LiberationSans-Regular.ttf",
    "sans-bold": "LiberationSans-Bold.ttf",
    "dejavu-sans": "DejaVuSans.ttf",
    "dejavu-serif": "DejaVuSerif.ttf",
    "mono": "LiberationMono-Regular.ttf",
    "mono-bold": "LiberationMono-Bold.ttf",
    "dejavu-mono": "DejaVuSansMono.ttf",
}

# --------------------------------------------------------------------------
# Text. Original prose written for this test set. A "|" marks a permitted
# hyphenation point (only used on the justified page); it never appears in
# the printed text unless the word is actually split there.
# --------------------------------------------------------------------------

EN = {
    "library": (
        "The town library began scanning its old ledgers in March, and the work has gone "
        "faster than anyone expected. Dr. Smith, who leads the project, says the team can't "
        "keep up with the requests that arrive by e-mail each morning. So far they have "
        "finished 1,250 pages, roughly a third of the collection."
    ),
    "ledgers": (
        "Each ledger is photographed under two lamps, checked for blur, and then passed to "
        "the recognition software. Pages with faded ink, e.g. the receipts from 1887, need a "
        "second pass. A volunteer compares every tenth page with the original and writes "
        "down any mistakes she finds."
    ),
    "tank": (
        "Some numbers in the ledgers are surprisingly precise. One clerk recorded the "
        "diameter of the water tank as 3.14 metres, and another noted that the bridge toll "
        "rose from 2 to 5 pennies in a single year."
    ),
    "bread": (
        "Baking bread at home is mostly a matter of patience. Mix 500 grams of flour with "
        "350 grams of water, add a teaspoon of salt, and let the dough rest for an hour. "
        "Fold it gently, wait again, and bake it at 230 degrees until the crust sounds "
        "hollow when you tap it."
    ),
    "weather": (
        "The weather station on the hill reports every ten minutes. Its sensors measure wind "
        "speed, air pressure, humidity and rainfall, and the readings are stored on a small "
        "computer in a wooden hut. Last winter the coldest night reached minus 14 degrees, "
        "while the wettest day brought 62 millimetres of rain."
    ),
    "ferry": (
        "When the ferry left the harbour at 7:45, the sea was calm and grey. Most passengers "
        "stayed inside, reading or drinking tea, but a few children stood at the rail and "
        "counted the gulls. The captain announced that the crossing would take about two "
        "hours, weather permitting."
    ),
    "tyre": (
        "Fixing a flat tyre isn't difficult once you have done it twice. Remove the wheel, "
        "lever the tyre off the rim, and pull out the inner tube. Pump a little air into it "
        "and listen for the hiss, or hold it under water and watch for bubbles."
    ),
    "garden": (
        "Our garden is small, only 6 by 9 metres, yet it feeds us for most of the summer. "
        "We grow beans, lettuce, tomatoes and a row of sunflowers that the birds visit every "
        "evening. The soil was poor when we moved in, so we added compost every autumn for "
        "three years."
    ),
    "clock": (
        "The museum's oldest clock was built in 1702 and still keeps good time. Its case is "
        "made of oak, its face is painted with a small ship, and its pendulum swings once "
        "every second. A restorer cleans the gears each spring."
    ),
    "meeting": (
        "At the meeting on Tuesday, the committee agreed to repaint the community hall and "
        "to replace the broken windows. The estimate came to 4,800 dollars, which is slightly "
        "more than the budget allows. Mr. Jones offered to ask local firms for a discount."
    ),
    "train": (
        "The night train to the coast leaves at 22:10 from platform 4. It's a slow journey "
        "with many stops, but the sleeping cars are comfortable and the staff serve "
        "breakfast before arrival. Travellers who book early pay about 40 percent less."
    ),
    "stars": (
        "On a clear night you can see about 2,500 stars without a telescope, although city "
        "lights reduce that number sharply. The planet Venus is the brightest object after "
        "the Moon, and it often appears low in the west just after sunset."
    ),
    "forms": (
        "Please send the signed forms back by e-mail before Friday, or drop them at the "
        "front desk. We can't process requests that arrive without a signature. If you have "
        "questions, call Dr. Patel at extension 217."
    ),
    "coffee": (
        "A good cup of coffee depends on fresh beans, clean water and the right grind. Use "
        "roughly 60 grams of coffee per litre, keep the water just below boiling, and don't "
        "let the brew sit on a hot plate for long. Small changes, e.g. a finer grind, can "
        "make a surprising difference."
    ),
    "bridge": (
        "The old stone bridge carries about 1,250 vehicles a day, far more than its builders "
        "imagined in 1820. Engineers inspected it last year and found that the arches are "
        "sound, but the road surface needs repair. Work will start in September and should "
        "take six weeks."
    ),
    "ocr": (
        "Over the years, software for optical character recog|nition has learned to turn "
        "pictures of printed pages into text that a computer can search and edit. Modern engines use neural networks trained on "
        "millions of lines, yet they still stumble over smudged ink, unusual typefaces and "
        "pages that were scanned at a steep angle."
    ),
    "ocr2": (
        "Good results depend on careful prepa|ration: the page should be flat, evenly lit and "
        "scanned at 300 dots per inch or more. A quick test, e.g. a single page printed in "
        "two sizes, shows whether the settings are right before hundreds of docu|ments are "
        "processed."
    ),
}

DE = {
    "baeckerei": (
        "Die kleine Bäckerei an der Ecke öffnet jeden Morgen um sechs Uhr. Schon vor der Tür "
        "riecht es nach frischem Brot, und die Schlange der Kunden reicht oft bis zur Straße. "
        "Die Besitzerin, Frau Müller, backt seit über zwanzig Jahren nach den Rezepten ihrer "
        "Großmutter."
    ),
    "seen": (
        "Im Sommer fahren viele Familien an die Seen im Süden des Landes. Dort kann man "
        "schwimmen, segeln oder einfach im Schatten der Bäume liegen. Die Wassertemperatur "
        "beträgt meistens zwischen 20 und 24 Grad, und abends wird es angenehm kühl."
    ),
    "handbuch": (
        "Für die Übersetzung des Handbuchs brauchte das Team fast drei Monate. Besonders "
        "schwierig waren die technischen Begriffe, für die es im Deutschen oft keine genaue "
        "Entsprechung gibt. Am Ende prüfte ein Fachmann jede Seite, bevor das Buch gedruckt "
        "wurde."
    ),
}


# --------------------------------------------------------------------------
# Page specifications
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Style:
    font: str = "serif"
    size: float = 11.0          # points
    leading: float = 1.25       # line pitch as a multiple of size
    align: str = "left"         # left | justify | center | right
    space_before: float = 0.0   # multiples of size (ignored at the top of a column)
    space_after: float = 0.7    # multiples of size


@dataclass(frozen=True)
class Para:
    text: str
    style: Style = Style()
    new_block: bool = False     # start a new block at this paragraph (single-column pages)
    hyphenate: bool = False
    role: str = "body"          # the paragraph's role in the truth (ScanModel.ParagraphRole)
    level: int | None = None    # a heading's level (1-6)


class ParaLines(list):
    """The lines of one laid-out paragraph, with the paragraph's role."""

    def __init__(self, para):
        super().__init__()
        self.role = para.role
        self.level = para.level


@dataclass
class PageSpec:
    name: str
    tests: str
    paras: list
    dpi: int = 300
    language: str = "eng"
    columns: int = 1
    gutter: float = 0.25        # inches
    margins: tuple = (0.5, 0.5, 0.5, 0.5)   # left, top, right, bottom (inches)
    orientation: int = 0        # degrees clockwise (multiple of 90)
    skew: float = 0.0           # degrees, positive = clockwise
    degrade: dict | None = None
    fmt: str = "png"
    page_size: tuple = (PAGE_W_IN, PAGE_H_IN)   # inches
    must_contain: tuple = ()    # printed words that must appear (layout assertions)
    rules: dict | None = None   # ruled table: rules drawn between the rows and columns
    colour: dict | None = None  # colour page: stamps or coloured paper (an RGB image)
    frames: tuple = ()          # Frames laid out one by one (paras, columns and margins unused)
    photo: dict | None = None   # photographed page: the page warped onto a table (see photograph);
                                # `skew` then only records the page's turn in the photo


@dataclass(frozen=True)
class Frame:
    """A region of the page laid out on its own, in inches from the top-left
    corner: (left, top, right, bottom). Frames are read in the order given."""
    box: tuple
    paras: list
    columns: int = 1
    gutter: float = 0.25        # inches


def body(keys, style=Style(), src=EN, hyphenate=False):
    return [Para(src[k], style, hyphenate=hyphenate) for k in keys]


SERIF11 = Style("serif", 11)
SERIF12 = Style("serif", 12)

def spread_frames(left, right):
    """A double-page spread of two half-letter pages: running heads, one
    column of 9.5 pt serif (the paragraphs `left` and `right`), page numbers
    24 and 25."""
    return (
        Frame((0.5, 0.35, 3.75, 0.6), [Para("The Harbour Office", Style("sans", 8), role="header")]),
        Frame((0.5, 0.8, 3.75, 4.9), body(left, Style("serif", 9.5))),
        Frame((0.5, 5.05, 3.75, 5.3), [Para("24", Style("sans", 8, align="center"), role="pageNumber")]),
        Frame((4.75, 0.35, 8.0, 0.6), [Para("Tides and Ledgers", Style("sans", 8, align="right"),
                                           role="header")]),
        Frame((4.75, 0.8, 8.0, 4.9), body(right, Style("serif", 9.5))),
        Frame((4.75, 5.05, 8.0, 5.3), [Para("25", Style("sans", 8, align="center"), role="pageNumber")]),
    )


PAGES: list[PageSpec] = [
    PageSpec("clean", "Baseline: single column, 12 pt Liberation Serif, ragged right, 300 dpi.",
             body(["library", "ledgers", "tank"], SERIF12)),
    PageSpec("two-columns", "Two text columns (one block each); text flows from the left column into the right.",
             body(["bread", "weather", "ferry"], Style("serif", 10)), columns=2, gutter=0.3,
             margins=(0.45, 0.5, 0.45, 0.5)),
    PageSpec("three-columns", "Three narrow columns of 8.5 pt sans text (one block each).",
             body(["garden", "clock", "train"], Style("sans", 8.5)), columns=3, gutter=0.22,
             margins=(0.4, 0.5, 0.4, 0.5)),
    PageSpec("headings", "Title, section headings (18/14/12 pt bold) and body text; one block per section.",
             [Para("Notes from the Archive", Style("sans-bold", 18, align="center", space_after=0.8), new_block=True,
                   role="heading", level=1),
              Para("Scanning the Ledgers", Style("sans-bold", 14, space_after=0.35), new_block=True,
                   role="heading", level=2),
              Para(EN["ledgers"], SERIF11),
              Para("Numbers and Units", Style("sans-bold", 12, space_before=0.6, space_after=0.35), new_block=True,
                   role="heading", level=3),
              Para(EN["tank"], SERIF11)]),
    PageSpec("justified-hyphenated", "Justified 11 pt serif with hyphenated line ends (recog- / nition).",
             body(["ocr", "ocr2"], Style("serif", 11, align="justify"), hyphenate=True),
             must_contain=("recog-", "nition")),
    PageSpec("small-print", "Small print: 8 pt serif, single column.",
             body(["coffee", "forms", "bridge"], Style("serif", 8))),
    PageSpec("skew-plus2", "Page skewed +2 degrees (clockwise); boxes from the rotated ink, quads added.",
             body(["weather", "stars", "forms"], SERIF11), skew=2.0),
    PageSpec("skew-minus5", "Page skewed -5 degrees (counter-clockwise).",
             body(["ferry", "coffee"], SERIF11), skew=-5.0),
    PageSpec("skew-plus7", "Page skewed +7 degrees, the steep end of the skew range.",
             body(["tyre", "clock"], SERIF11), skew=7.0),
    PageSpec("skew-minus1", "Page skewed -1 degree, the gentle end of the skew range.",
             body(["meeting", "garden"], SERIF11), skew=-1.0),
    PageSpec("rotated-90", "Content rotated 90 degrees clockwise (image is landscape).",
             body(["bread", "train"], SERIF11), orientation=90),
    PageSpec("rotated-180", "Content upside down (rotated 180 degrees).",
             body(["bridge", "tyre"], SERIF11), orientation=180),
    PageSpec("rotated-270", "Content rotated 270 degrees clockwise (90 counter-clockwise).",
             body(["stars", "library"], SERIF11), orientation=270),
    PageSpec("dpi-150", "Rendered directly at 150 dpi (638x825 px), 11 pt serif.",
             body(["clock", "forms", "ferry"], SERIF11), dpi=150),
    PageSpec("dpi-100", "Rendered directly at 100 dpi (425x550 px), 12 pt sans.",
             body(["tank", "train"], Style("sans", 12)), dpi=100),
    PageSpec("noise-gaussian", "Additive Gaussian noise (sigma 24) over the whole page; shorter page "
             "(4.25x3.25 in) because noise compresses poorly.",
             body(["garden", "tank"], SERIF11), page_size=(4.25, 3.25),
             degrade={"kind": "gaussian", "sigma": 24.0, "seed": 1101}),
    PageSpec("speckle", "Salt-and-pepper speckle (0.4% black, 0.4% white pixels, plus small dirt blobs).",
             body(["meeting", "coffee"], SERIF11),
             degrade={"kind": "speckle", "pepper": 0.004, "salt": 0.004, "blobs": 120, "seed": 1202}),
    PageSpec("blur-jpeg", "Gaussian blur (radius 1.6) then JPEG at quality 25.",
             body(["ferry", "tank"], SERIF11),
             degrade={"kind": "blur-jpeg", "radius": 1.6, "quality": 25}, fmt="jpg"),
    PageSpec("low-contrast", "Low contrast: ink at gray 135 on paper at gray 200 (10.5 pt DejaVu Sans).",
             body(["library", "bread"], Style("dejavu-sans", 10.5)), degrade={"kind": "contrast", "ink": 135, "paper": 200}),
    PageSpec("uneven-light", "Uneven illumination: a book-gutter shadow reaching into the text from the "
             "left edge plus a top-to-bottom gradient (paper from 251 down to about 105 behind the text, 35 at the edge).",
             body(["stars", "bridge", "weather"], SERIF11),
             degrade={"kind": "lighting", "gutter_depth": 0.8, "gutter_scale": 1.1, "gradient": 0.35}),
    PageSpec("german", "German text with umlauts and sharp s (language deu).",
             body(["baeckerei", "seen", "handbuch"], SERIF11, src=DE), language="deu"),
    # Pages added for issue 8 (colour and ruled tables). New pages go at the end.
    PageSpec("color-stamp", "Black text on white with a red and a blue rubber stamp over it (RGB PNG); "
             "the stamps' words are not page text.",
             body(["forms", "meeting", "library"], SERIF11),
             colour={"kind": "stamps", "seed": 2301, "stamps": [
                 {"text": ["RECEIVED", "12 MAR 1998"], "rgb": [205, 35, 45], "center": [0.55, 0.32],
                  "angle": 14, "size": 0.3},
                 {"text": ["PAID"], "rgb": [35, 70, 190], "center": [0.4, 0.7], "angle": -9,
                  "size": 0.42}]}),
    PageSpec("color-paper", "Dark brown text on orange-red mottled paper, JPEG quality 70 (RGB): "
             "luminance leaves the text little contrast, the red channel much more.",
             body(["bridge", "clock", "tank"], SERIF11), fmt="jpg",
             colour={"kind": "paper", "seed": 2302, "paper": [225, 100, 70], "mottle": 14,
                     "ink": [60, 38, 34], "quality": 70}),
    PageSpec("ruled-table", "A ruled table: three columns of one-line cells (10 pt sans) with 3 px "
             "rules around every cell.",
             [Para(t, Style("sans", 10, space_after=0.45), role="tableCell") for t in (
                 "Item", "Flour", "Water", "Salt", "Yeast", "Butter", "Sugar", "Milk",
                 "Amount", "500 grams", "350 grams", "10 grams", "7 grams", "40 grams", "25 grams",
                 "120 ml",
                 "Note", "sifted twice", "lukewarm", "fine sea salt", "dried", "softened", "brown",
                 "whole")],
             columns=3, gutter=0.1, margins=(0.45, 0.6, 0.45, 0.5), rules={"width": 4, "pad": 0.03}),
    # Reading order: pages made of frames; the truth lists them in the order
    # a reader expects (running header first; footnotes, footer and page
    # number last; marginalia after the paragraph beside them; the left page
    # of a spread before the right one).
    PageSpec("article", "Reading order: running header, a title spanning three columns of 9 pt text "
             "ending in a caption, footnotes, a footer and a page number (letter page at 200 dpi).",
             [], dpi=200, page_size=(8.5, 11.0), frames=(
                 Frame((0.7, 0.45, 7.8, 0.75), [Para("The Harbour Quarterly, Autumn Number",
                                                     Style("sans", 8), role="header")]),
                 Frame((0.7, 1.2, 7.8, 1.9), [Para("Ships, Tides and the Old Ledgers",
                                                   Style("sans-bold", 20, align="center"),
                                                   role="heading", level=1)]),
                 Frame((0.7, 2.1, 7.8, 8.6),
                       body(["ferry", "weather", "bridge", "ledgers", "library", "clock", "stars"],
                            Style("serif", 9.5))
                       + [Para("Figure 1. The harbour office ledgers, as they were found in the cellar.",
                               Style("sans", 7.5), role="caption")], columns=3, gutter=0.3),
                 Frame((0.7, 9.0, 7.8, 9.8), [
                     Para("1 The ledgers were kept in the harbour office until the flood of 1932.",
                          Style("serif", 7.5, space_after=0.3), role="footnote"),
                     Para("2 Tide tables from the same years survive in two copies.",
                          Style("serif", 7.5), role="footnote")]),
                 Frame((0.7, 10.3, 4.0, 10.6), [Para("The Harbour Quarterly", Style("sans", 8), role="footer")]),
                 Frame((6.8, 10.3, 7.8, 10.6), [Para("17", Style("sans", 8, align="right"), role="pageNumber")]),
             )),
    PageSpec("spread", "Reading order: a double-page spread (two half-letter pages side by side at 200 dpi), "
             "each with a running head, one column and a page number; the left page is read first.",
             [], dpi=200, page_size=(8.5, 5.5),
             frames=spread_frames(["library", "tank", "coffee"], ["meeting", "tyre", "forms"])),
    PageSpec("marginalia", "Reading order: notes in the left margin (7.5 pt) beside the paragraphs "
             "they annotate; each note is read after its paragraph (6x3.5 in at 200 dpi).",
             [], dpi=200, page_size=(6.0, 3.5), frames=(
                 Frame((1.85, 0.5, 5.5, 1.5), [Para(EN["garden"], Style("serif", 10))]),
                 Frame((0.4, 0.55, 1.6, 1.5), [Para("Sown in April, picked in August.", Style("sans", 7.5),
                                                    role="marginalia")]),
                 Frame((1.85, 1.55, 5.5, 2.35), [Para(EN["clock"], Style("serif", 10))]),
                 Frame((1.85, 2.4, 5.5, 3.2), [Para(EN["train"], Style("serif", 10))]),
                 Frame((0.4, 2.45, 1.6, 3.2), [Para("Timetable of 1911, second edition.", Style("sans", 7.5),
                                                    role="marginalia")]),
             )),
    # Photographed pages (issue 12): the page warped in perspective onto a
    # table; the truth's boxes follow the warped ink, quads the warped boxes.
    PageSpec("photo-perspective", "A page photographed at an angle lying on a table: perspective "
             "(the near edge wider), a small turn, light falling off toward the bottom, "
             "the dark table round it, camera blur and noise, JPEG quality 90.",
             body(["weather", "garden", "bridge"], SERIF11), fmt="jpg",
             photo={"canvas": [1680, 2040], "corners": [[210, 170], [1440, 245], [1540, 1880], [140, 1840]],
                    "table": 92, "grain": 22, "paper": 236, "falloff": 0.14, "blur": 0.8, "noise": 2.5,
                    "seed": 3101, "quality": 90}),
    PageSpec("photo-spread", "A double-page spread (two half-letter pages side by side at 200 dpi) "
             "photographed at an angle lying on a table: both pages are found as one sheet, "
             "straightened, and read left page first; light falling off, blur, noise, JPEG quality 90.",
             [], dpi=200, page_size=(8.5, 5.5), fmt="jpg",
             frames=spread_frames(["weather", "clock", "coffee"], ["garden", "bridge", "forms"]),
             photo={"canvas": [2000, 1450], "corners": [[170, 150], [1830, 195], [1885, 1300], [115, 1265]],
                    "table": 80, "grain": 20, "paper": 234, "falloff": 0.12, "blur": 0.7, "noise": 2.5,
                    "seed": 3103, "quality": 90}),
    PageSpec("photo-gutter", "A double-page spread photographed at an angle on a dark table, its "
             "gutter a shadow down the fold as dark as the table: the paper is two bright regions, "
             "found together as one sheet (never one page alone); light falling off, blur, noise, "
             "JPEG quality 90.",
             [], dpi=200, page_size=(8.5, 5.5), fmt="jpg",
             frames=spread_frames(["ferry", "tank", "forms"], ["clock", "weather", "coffee"]),
             photo={"canvas": [1950, 1420], "corners": [[150, 170], [1800, 130], [1840, 1290], [120, 1250]],
                    "gutter": [22, 0.72],
                    "table": 70, "grain": 18, "paper": 232, "falloff": 0.1, "blur": 0.7, "noise": 2.5,
                    "seed": 3107, "quality": 90}),
    PageSpec("photo-fold", "A double-page spread of an open book photographed from above: each "
             "page is its own plane, folded at the spine (the fold's ends above and below the outer "
             "corners' lines), a soft gutter shadow, the dark table round it; light falling off, "
             "blur, noise, JPEG quality 90.",
             [], dpi=200, page_size=(8.5, 5.5), fmt="jpg",
             frames=spread_frames(["bridge", "coffee", "ferry"], ["tank", "forms", "clock"]),
             photo={"canvas": [2000, 1450], "corners": [[170, 190], [1840, 205], [1880, 1290], [125, 1270]],
                    "crease": [[1005, 120], [1010, 1335]], "gutter": [14, 0.35],
                    "table": 72, "grain": 18, "paper": 233, "falloff": 0.1, "blur": 0.7, "noise": 2.5,
                    "seed": 3108, "quality": 90}),
    PageSpec("photo-curl", "A book page photographed from above at a slight angle, curling toward "
             "its spine on the left: each line rises by up to 180 page pixels toward the spine "
             "(a curve, not a slope), in slight perspective on the dark table; light falling off, "
             "blur, noise, JPEG quality 90.",
             body(["clock", "coffee", "bridge"], SERIF11), fmt="jpg",
             photo={"canvas": [1700, 2150], "corners": [[150, 190], [1560, 150], [1600, 1990], [110, 2010]],
                    "curl": 180, "spine": "left",
                    "table": 75, "grain": 18, "paper": 234, "falloff": 0.1, "blur": 0.7, "noise": 2.5,
                    "seed": 3104, "quality": 90}),
    PageSpec("photo-thumbs", "A page held down by two thumbs, photographed at a slight angle on a "
             "dark table: each thumb covers part of the page's edge and margin (no print); "
             "light falling off, blur, noise, JPEG quality 90.",
             body(["ferry", "weather", "forms"], SERIF11), fmt="jpg",
             photo={"canvas": [1650, 2000], "corners": [[190, 150], [1470, 195], [1500, 1850], [150, 1830]],
                    "thumbs": [[175, 1000, 70, 125, 8], [1490, 700, 70, 125, -6]], "skin": 150,
                    "table": 78, "grain": 20, "paper": 233, "falloff": 0.12, "blur": 0.7, "noise": 2.5,
                    "seed": 3105, "quality": 90}),
    PageSpec("photo-corner", "A page photographed at an angle on a dark table, its bottom-right "
             "corner outside the photo's frame: the region of paper touches the frame, so the page "
             "is found by its four straight sides, whose crossings put that corner outside the "
             "photo; light falling off, blur, noise, JPEG quality 90.",
             body(["tank", "meeting", "ferry"], SERIF11), fmt="jpg",
             photo={"canvas": [1600, 1900], "corners": [[200, 160], [1450, 230], [1560, 1990], [130, 1850]],
                    "table": 84, "grain": 20, "paper": 234, "falloff": 0.12, "blur": 0.7, "noise": 2.5,
                    "seed": 3106, "quality": 90}),
    PageSpec("photo-flat", "A page photographed square on, lying on a table turned by 3 degrees: "
             "no perspective, so it is only cropped (and deskewed); light falling off, blur, noise, "
             "JPEG quality 90.",
             body(["ferry", "clock", "coffee"], SERIF11), fmt="jpg", skew=3.0,
             photo={"canvas": [1600, 1950], "corners": [[207, 118], [1480, 184], [1393, 1832], [120, 1766]],
                    "table": 70, "grain": 18, "paper": 232, "falloff": 0.1, "blur": 0.7, "noise": 2.5,
                    "seed": 3102, "quality": 90}),
]


# --------------------------------------------------------------------------
# Fonts and word rendering
# --------------------------------------------------------------------------

_font_cache: dict = {}
_word_cache: dict = {}


def font_path(key: str) -> Path:
    name = FONT_FILES[key]
    for d in FONT_DIRS:
        p = d / name
        if p.exists():
            return p
    sys.exit(f"make-scans: font {name} not found; install it with "
             f"`apt-get install -y fonts-liberation2 fonts-dejavu-core`")


class _Font(ImageFont.FreeTypeFont):
    """A font that remembers the advance of every string it measured: line
    breaking and balancing columns measure the same words thousands of
    times (the page families' 4-column pages spent 55 of 66 s there)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._lengths = {}

    def getlength(self, text, *args, **kwargs):
        if args or kwargs:
            return super().getlength(text, *args, **kwargs)
        if text not in self._lengths:
            self._lengths[text] = super().getlength(text)
        return self._lengths[text]


def get_font(key: str, size_pt: float, dpi: int) -> ImageFont.FreeTypeFont:
    px = size_pt * dpi / 72.0
    ck = (key, px)
    if ck not in _font_cache:
        _font_cache[ck] = _Font(str(font_path(key)), px, layout_engine=ImageFont.Layout.BASIC)
    return _font_cache[ck]


def render_word(font, fkey, text):
    """Coverage crop of one word drawn with its pen origin on the baseline.

    Returns (coverage uint8 array, dx, dy, ink_box) where (dx, dy) is the crop's
    top-left relative to the pen origin and ink_box is relative to the origin.
    """
    ck = (fkey, text)
    if ck in _word_cache:
        return _word_cache[ck]
    l, t, r, b = font.getbbox(text, anchor="ls")
    pad = 4
    w, h = r - l + 2 * pad, b - t + 2 * pad
    im = Image.new("L", (w, h), 0)
    ImageDraw.Draw(im).text((pad - l, pad - t), text, fill=255, font=font, anchor="ls")
    cov = np.asarray(im, dtype=np.uint8).copy()
    ys, xs = np.nonzero(cov >= INK_THRESHOLD)
    if len(xs) == 0:
        raise RuntimeError(f"word {text!r} has no ink")
    dx, dy = l - pad, t - pad
    ink = (int(xs.min()) + dx, int(ys.min()) + dy, int(xs.max()) + 1 + dx, int(ys.max()) + 1 + dy)
    _word_cache[ck] = (cov, dx, dy, ink)
    return _word_cache[ck]


# --------------------------------------------------------------------------
# Layout
# --------------------------------------------------------------------------

@dataclass
class Word:
    text: str
    x: int                      # pen origin
    y: int                      # baseline
    font: object
    fkey: tuple
    bbox: list = None           # ink box in final image pixels
    quad: list = None


@dataclass
class Line:
    words: list
    baseline_y: int
    bbox: list = None
    baseline: list = None
    quad: list = None


@dataclass
class Block:
    paras: list = field(default_factory=list)   # list of list[Line]


def break_lines(words, font, width, hyphenate):
    """Greedy line breaking. Words may contain '|' hyphenation points."""
    space = font.getlength(" ")
    lines, cur, cur_w = [], [], 0.0
    queue = list(words)
    while queue:
        w = queue.pop(0)
        shown = w.replace("|", "")
        wl = font.getlength(shown)
        need = wl if not cur else cur_w + space + wl
        if need <= width:
            cur.append(shown)
            cur_w = need
            continue
        if hyphenate and "|" in w and cur:
            parts = w.split("|")
            for k in range(len(parts) - 1, 0, -1):
                head = "".join(parts[:k]) + "-"
                hl = cur_w + space + font.getlength(head)
                if hl <= width:
                    cur.append(head)
                    lines.append(cur)
                    cur, cur_w = [], 0.0
                    queue.insert(0, "|".join(parts[k:]))
                    break
            else:
                lines.append(cur)
                cur, cur_w = [], 0.0
                queue.insert(0, w)
            continue
        if not cur:
            raise RuntimeError(f"word {shown!r} wider than column")
        lines.append(cur)
        cur, cur_w = [], 0.0
        queue.insert(0, w)
    if cur:
        lines.append(cur)
    return lines


class DoesNotFit(RuntimeError):
    pass


def layout(spec: PageSpec):
    """Lay the page out; multi-column pages get balanced columns (the lowest
    column bottom, in 2 px steps, at which the text still fits)."""
    if spec.frames:
        return layout_frames(spec)
    if spec.columns == 1:
        return layout_at(spec, None)
    H = round(spec.page_size[1] * spec.dpi)
    limit = H - round(spec.margins[3] * spec.dpi)
    for bottom in range(round(spec.margins[1] * spec.dpi) + 50, limit + 1, 2):
        try:
            return layout_at(spec, bottom)
        except DoesNotFit:
            pass
    raise DoesNotFit(f"{spec.name}: text does not fit on the page")


def layout_at(spec, bottom_px):
    dpi = spec.dpi
    W, H = round(spec.page_size[0] * dpi), round(spec.page_size[1] * dpi)
    ml, mt, mr, mb = (m * dpi for m in spec.margins)
    bottom = H - mb if bottom_px is None else bottom_px
    blocks = layout_region(spec.name, dpi, spec.paras, ml, W - ml - mr, mt, bottom,
                           spec.columns, spec.gutter * dpi)
    return W, H, blocks


def layout_frames(spec):
    """Lays out a page made of frames: each frame is laid out on its own
    (multi-column frames balanced), and its blocks follow the previous
    frame's, so the truth's reading order is the order of the frames."""
    dpi = spec.dpi
    W, H = round(spec.page_size[0] * dpi), round(spec.page_size[1] * dpi)
    blocks = []
    for fr in spec.frames:
        left, top, right, bottom = (v * dpi for v in fr.box)
        gutter = fr.gutter * dpi
        if fr.columns == 1:
            blocks += layout_region(spec.name, dpi, fr.paras, left, right - left, top, bottom, 1, gutter)
            continue
        for b in range(round(top) + 50, round(bottom) + 1, 2):
            try:
                blocks += layout_region(spec.name, dpi, fr.paras, left, right - left, top, b,
                                        fr.columns, gutter)
                break
            except DoesNotFit:
                pass
        else:
            raise DoesNotFit(f"{spec.name}: frame {fr.box} does not fit")
    return W, H, blocks


def layout_region(name, dpi, paras, ml, width, mt, bottom, columns, gutter):
    colw = (width - gutter * (columns - 1)) / columns
    col_x = [ml + i * (colw + gutter) for i in range(columns)]
    top = mt

    blocks: list[Block] = []
    col = 0
    y = top                       # top of free space in the current column
    at_col_top = True
    cur_block = None

    def new_block():
        nonlocal cur_block
        cur_block = Block()
        blocks.append(cur_block)

    for para in paras:
        st = para.style
        fkey = (st.font, st.size, dpi)
        font = get_font(st.font, st.size, dpi)
        px = st.size * dpi / 72.0
        ascent, descent = font.getmetrics()
        pitch = px * st.leading
        texts = break_lines(para.text.split(), font, colw, para.hyphenate)
        if cur_block is None or para.new_block:
            new_block()
        if not at_col_top:
            y += st.space_before * px
        cur_para = ParaLines(para)
        cur_block.paras.append(cur_para)
        baseline = None
        for li, words in enumerate(texts):
            nb = y + ascent if baseline is None else baseline + pitch
            if nb + descent > bottom:
                col += 1
                if col >= columns:
                    raise DoesNotFit(f"{name}: text does not fit on the page")
                y, at_col_top = top, True
                new_block()
                cur_para = ParaLines(para)
                cur_block.paras.append(cur_para)
                nb = y + ascent
            baseline = nb
            at_col_top = False
            by = round(baseline)
            x0 = col_x[col]
            space = font.getlength(" ")
            widths = [font.getlength(w) for w in words]
            natural = sum(widths) + space * (len(words) - 1)
            gap = space
            if st.align == "justify" and li < len(texts) - 1 and len(words) > 1:
                gap = space + (colw - natural) / (len(words) - 1)
            elif st.align == "center":
                x0 = col_x[col] + (colw - natural) / 2
            elif st.align == "right":
                x0 = col_x[col] + colw - natural
            x = x0
            line_words = []
            for w, wl in zip(words, widths):
                line_words.append(Word(w, round(x), by, font, fkey))
                x += wl + gap
            cur_para.append(Line(line_words, by))
        y = baseline + descent + st.space_after * px
    for b in blocks:   # a column break right before a paragraph leaves an empty one behind
        b.paras = [p for p in b.paras if p]
    return [b for b in blocks if b.paras]


def all_words(blocks):
    return [w for b in blocks for p in b.paras for ln in p for w in ln.words]


def all_lines(blocks):
    return [ln for b in blocks for p in b.paras for ln in p]


def render(W, H, blocks):
    cov = np.zeros((H, W), dtype=np.uint8)
    for w in all_words(blocks):
        crop, dx, dy, ink = render_word(w.font, w.fkey, w.text)
        x0, y0 = w.x + dx, w.y + dy
        h, wd = crop.shape
        if x0 < 0 or y0 < 0 or x0 + wd > W or y0 + h > H:
            raise RuntimeError(f"word {w.text!r} outside the page")
        region = cov[y0:y0 + h, x0:x0 + wd]
        np.maximum(region, crop, out=region)
        w.bbox = [ink[0] + w.x, ink[1] + w.y, ink[2] + w.x, ink[3] + w.y]
    return cov


# --------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------

def union(boxes):
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


def corners(b):
    x0, y0, x1, y1 = b
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def num(v):
    # Two decimals: ScanText's export precision (ScanConventions.exportFractionDigits
    # in Sources/ScanModel/Conventions.swift). Kept here rather than read from the
    # Swift source: this script runs without a build, and the truth files it writes
    # are committed, so the copy only matters when they are regenerated.
    v = round(float(v), 2)
    return int(v) if v == int(v) else v


def ink_boxes(spec, cov2, lab2, count):
    """Each word's ink box (x0, y0, x1, y1 arrays indexed by word label,
    label 0 unused) in the transformed image; every ink pixel must belong to
    a word."""
    ys, xs = np.nonzero(cov2 >= INK_THRESHOLD)
    ls = lab2[ys, xs]
    stray = int((ls == 0).sum())
    if stray:
        raise RuntimeError(f"{spec.name}: {stray} ink pixels not owned by any word")
    n = count + 1
    bx0 = np.full(n, 1 << 30, dtype=np.int64)
    by0 = np.full(n, 1 << 30, dtype=np.int64)
    bx1 = np.full(n, -1, dtype=np.int64)
    by1 = np.full(n, -1, dtype=np.int64)
    np.minimum.at(bx0, ls, xs)
    np.minimum.at(by0, ls, ys)
    np.maximum.at(bx1, ls, xs + 1)
    np.maximum.at(by1, ls, ys + 1)
    return bx0, by0, bx1, by1


def transform_page(spec, cov, blocks, W, H):
    """Apply rotation / skew to coverage + boxes. Returns (cov, W, H)."""
    words = all_words(blocks)
    lines = all_lines(blocks)
    for ln in lines:
        ln.bbox = union([w.bbox for w in ln.words])
        ln.baseline = [ln.bbox[0], ln.baseline_y, ln.bbox[2], ln.baseline_y]
    if spec.orientation == 0 and spec.skew == 0:
        return cov, W, H

    # label map: each word owns its ink box grown by LABEL_PAD
    lab = np.zeros((H, W), dtype=np.int32)
    for i, w in enumerate(words, start=1):
        x0, y0, x1, y1 = w.bbox
        x0, y0 = max(0, x0 - LABEL_PAD), max(0, y0 - LABEL_PAD)
        x1, y1 = min(W, x1 + LABEL_PAD), min(H, y1 + LABEL_PAD)
        reg = lab[y0:y1, x0:x1]
        if reg.any():
            raise RuntimeError(f"{spec.name}: label regions overlap at word {w.text!r}")
        reg[...] = i

    if spec.orientation:
        k = spec.orientation // 90
        cov2 = np.ascontiguousarray(np.rot90(cov, -k))
        lab2 = np.ascontiguousarray(np.rot90(lab, -k))
        W2, H2 = (H, W) if k % 2 else (W, H)

        def fwd(p):
            x, y = p
            if k == 1:
                return (H - y, x)
            if k == 2:
                return (W - x, H - y)
            return (y, W - x)
    else:
        th = math.radians(spec.skew)
        c, s = math.cos(th), math.sin(th)
        cx, cy = W / 2.0, H / 2.0
        W2, H2 = W, H

        def fwd(p):
            x, y = p[0] - cx, p[1] - cy
            return (cx + c * x - s * y, cy + s * x + c * y)

        # inverse map (output -> input) in continuous pixel coordinates
        data = (c, s, cx - c * cx - s * cy, -s, c, cy + s * cx - c * cy)
        cov2 = np.asarray(Image.fromarray(cov).transform((W, H), Image.Transform.AFFINE, data,
                                                         resample=Image.Resampling.BICUBIC, fillcolor=0))
        lab2 = np.asarray(Image.fromarray(lab).transform((W, H), Image.Transform.AFFINE, data,
                                                         resample=Image.Resampling.NEAREST, fillcolor=0))

    bx0, by0, bx1, by1 = ink_boxes(spec, cov2, lab2, len(words))

    def quad(b):
        pts = [fwd(p) for p in corners(b)]
        for qx, qy in pts:
            if not (-0.5 <= qx <= W2 + 0.5 and -0.5 <= qy <= H2 + 0.5):
                raise RuntimeError(f"{spec.name}: box leaves the page after transform")
        return [[num(qx), num(qy)] for qx, qy in pts]

    for ln in lines:
        ln.quad = quad(ln.bbox)
        p0, p1 = fwd((ln.baseline[0], ln.baseline[1])), fwd((ln.baseline[2], ln.baseline[3]))
        ln.baseline = [num(p0[0]), num(p0[1]), num(p1[0]), num(p1[1])]
    for i, w in enumerate(words, start=1):
        w.quad = quad(w.bbox)
        if bx1[i] < 0:
            raise RuntimeError(f"{spec.name}: word {w.text!r} lost its ink")
        w.bbox = [int(bx0[i]), int(by0[i]), int(bx1[i]), int(by1[i])]
    for ln in lines:
        ln.bbox = union([w.bbox for w in ln.words])
    return cov2, W2, H2


# --------------------------------------------------------------------------
# Degradations (image only)
# --------------------------------------------------------------------------

def degrade(spec, img):
    d = spec.degrade
    if not d:
        return img
    v = img.astype(np.float64)
    kind = d["kind"]
    H, W = img.shape
    if kind == "gaussian":
        rng = np.random.default_rng(d["seed"])
        v = v + rng.normal(0.0, d["sigma"], size=v.shape)
    elif kind == "speckle":
        rng = np.random.default_rng(d["seed"])
        r = rng.random(v.shape)
        v[r < d["pepper"]] = 0
        v[r > 1.0 - d["salt"]] = 255
        for _ in range(d["blobs"]):
            bx, by = int(rng.integers(0, W - 4)), int(rng.integers(0, H - 4))
            bw, bh = int(rng.integers(2, 4)), int(rng.integers(2, 4))
            v[by:by + bh, bx:bx + bw] = 0
    elif kind == "blur-jpeg":
        im = Image.fromarray(img).filter(ImageFilter.GaussianBlur(d["radius"]))
        return np.asarray(im)
    elif kind == "contrast":
        v = d["ink"] + v * (d["paper"] - d["ink"]) / 255.0
    elif kind == "lighting":
        ys = (np.arange(H) + 0.5) / H
        x_in = (np.arange(W) + 0.5) / spec.dpi
        shadow = d["gutter_depth"] * np.exp(-x_in / d["gutter_scale"])
        grad = d["gradient"] * ys
        light = (1.0 - shadow)[None, :] * (1.0 - grad)[:, None]
        v = v * light
    else:
        raise ValueError(kind)
    return np.clip(np.rint(v), 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------
# Rules and colour (issue 8 pages)
# --------------------------------------------------------------------------

def draw_rules(spec, cov, blocks):
    """Rules around every cell of a table laid out as columns of one-line
    paragraphs: one column per block, rows aligned across the columns. The
    rules are drawn in the gaps, never touching a word's ink."""
    r = spec.rules
    width = r["width"]
    pad = round(r["pad"] * spec.dpi)
    columns = [[ln for p in b.paras for ln in p] for b in blocks]
    rows = len(columns[0])
    if any(len(c) != rows for c in columns):
        raise RuntimeError(f"{spec.name}: table columns have different row counts")
    row_boxes = [union([c[i].bbox for c in columns]) for i in range(rows)]
    col_boxes = [union([ln.bbox for ln in c]) for c in columns]
    ys = [row_boxes[0][1] - pad]
    ys += [(row_boxes[i][3] + row_boxes[i + 1][1]) // 2 for i in range(rows - 1)]
    ys += [row_boxes[-1][3] + pad]
    xs = [col_boxes[0][0] - pad]
    xs += [(col_boxes[i][2] + col_boxes[i + 1][0]) // 2 for i in range(len(columns) - 1)]
    xs += [col_boxes[-1][2] + pad]
    H, W = cov.shape
    ink = cov >= INK_THRESHOLD
    half = width // 2
    for y in ys:
        band = (slice(y - half, y - half + width), slice(xs[0] - half, xs[-1] - half + width))
        if ink[band].any():
            raise RuntimeError(f"{spec.name}: a rule at y={y} touches ink")
        cov[band] = 255
    for x in xs:
        band = (slice(ys[0] - half, ys[-1] - half + width), slice(x - half, x - half + width))
        if ink[band].any():
            raise RuntimeError(f"{spec.name}: a rule at x={x} touches ink")
        cov[band] = 255
    return cov


def stamp_mask(st, W, H, dpi, rng):
    """A rubber stamp's ink (0..1): a double frame and its lines of capitals,
    rotated, with the gaps of uneven inking."""
    size = round(st["size"] * W)
    font = get_font("sans-bold", 20, dpi)
    lines = st["text"]
    widths = [font.getlength(t) for t in lines]
    asc, desc = font.getmetrics()
    pitch = asc + desc
    box_w = max(int(max(widths)) + 60, size)
    box_h = pitch * len(lines) + 50
    im = Image.new("L", (box_w, box_h), 0)
    d = ImageDraw.Draw(im)
    d.rectangle([4, 4, box_w - 5, box_h - 5], outline=255, width=7)
    d.rectangle([16, 16, box_w - 17, box_h - 17], outline=255, width=3)
    y = (box_h - pitch * len(lines)) / 2
    for t, tw in zip(lines, widths):
        d.text(((box_w - tw) / 2, y), t, fill=255, font=font)
        y += pitch
    im = im.rotate(st["angle"], resample=Image.Resampling.BICUBIC, expand=True)
    m = np.asarray(im, dtype=np.float64) / 255.0
    m *= 0.75 + 0.25 * rng.random(m.shape)
    out = np.zeros((H, W))
    h, w = m.shape
    cx, cy = round(st["center"][0] * W), round(st["center"][1] * H)
    x0, y0 = cx - w // 2, cy - h // 2
    out[y0:y0 + h, x0:x0 + w] = m
    return out


def colourise(spec, img):
    """The gray page as an RGB image: stamps multiplied over it, or the ink
    laid on coloured, mottled paper."""
    c = spec.colour
    rng = np.random.default_rng(c["seed"])
    H, W = img.shape
    v = img.astype(np.float64)[:, :, None] / 255.0
    if c["kind"] == "stamps":
        rgb = np.repeat(v, 3, axis=2)
        for st in c["stamps"]:
            a = stamp_mask(st, W, H, spec.dpi, rng)[:, :, None]
            colour = np.array(st["rgb"], dtype=np.float64)[None, None, :] / 255.0
            rgb = rgb * (1.0 - a + a * colour)
        out = rgb * 255.0
    elif c["kind"] == "paper":
        small = rng.normal(0.0, 1.0, size=(H // 40 + 2, W // 40 + 2))
        field_ = np.asarray(Image.fromarray(((small + 4) * 32).clip(0, 255).astype(np.uint8))
                            .resize((W, H), Image.Resampling.BICUBIC), dtype=np.float64) / 32 - 4
        paper = np.array(c["paper"], dtype=np.float64)[None, None, :] + c["mottle"] * field_[:, :, None]
        ink = np.array(c["ink"], dtype=np.float64)[None, None, :]
        out = ink + (paper - ink) * v
    else:
        raise ValueError(c["kind"])
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


# --------------------------------------------------------------------------
# Photographed pages (issue 12)
# --------------------------------------------------------------------------

def homography(src, dst):
    """The 3x3 projective map taking the four points `src` to `dst`."""
    a, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    h = np.linalg.solve(np.array(a, dtype=np.float64), np.array(b, dtype=np.float64))
    return np.append(h, 1.0).reshape(3, 3)


def apply_h(m, p):
    x, y = p
    d = m[2, 0] * x + m[2, 1] * y + m[2, 2]
    return ((m[0, 0] * x + m[0, 1] * y + m[0, 2]) / d, (m[1, 0] * x + m[1, 1] * y + m[1, 2]) / d)


def table_texture(W, H, spec, rng):
    """A wooden table: dark gray with grain running across the photo."""
    ph = spec.photo
    small = rng.normal(0.0, 1.0, size=(H // 8 + 2, 6))
    grain = np.asarray(Image.fromarray(((small + 4) * 32).clip(0, 255).astype(np.uint8))
                       .resize((W, H), Image.Resampling.BICUBIC), dtype=np.float64) / 32 - 4
    return ph["table"] + ph["grain"] * grain / 2


def photograph(spec, cov, blocks, W, H):
    """The rendered page laid in perspective on a table. Word boxes are
    recomputed from the warped ink (a label map warped with the same map),
    quads are the warped corners of the upright boxes. Returns (image, W, H,
    extras for the truth's record: the curled page's outline, the fold's
    shadow)."""
    ph = spec.photo
    words = all_words(blocks)
    lines = all_lines(blocks)
    for ln in lines:
        ln.bbox = union([w.bbox for w in ln.words])
        ln.baseline = [ln.bbox[0], ln.baseline_y, ln.bbox[2], ln.baseline_y]
    lab = np.zeros((H, W), dtype=np.int32)
    for i, w in enumerate(words, start=1):
        x0, y0, x1, y1 = w.bbox
        x0, y0 = max(0, x0 - LABEL_PAD), max(0, y0 - LABEL_PAD)
        x1, y1 = min(W, x1 + LABEL_PAD), min(H, y1 + LABEL_PAD)
        reg = lab[y0:y1, x0:x1]
        if reg.any():
            raise RuntimeError(f"{spec.name}: label regions overlap at word {w.text!r}")
        reg[...] = i
    W2, H2 = ph["canvas"]
    page_corners = [(0, 0), (W, 0), (W, H), (0, H)]
    fwd_m = homography(page_corners, [tuple(c) for c in ph["corners"]])
    inv_m = np.linalg.inv(fwd_m)
    inv_m = inv_m / inv_m[2, 2]
    data = tuple(inv_m.ravel()[:8])
    # A page curling toward its spine (`curl`: how far, in page pixels, the
    # lines rise at the spine edge, `spine`: "left" or "right"): a point
    # (x, y) of the flat page moves to (x, y - curl * t^2), t running from
    # 0 at the outer edge to 1 at the spine, before the perspective.
    curl = ph.get("curl", 0)

    def lift(x):
        t = (1 - x / W) if ph.get("spine", "left") == "left" else x / W
        return -curl * t * t

    # A spread folded at its spine (`crease`: the fold's top and bottom in
    # the photo): each half is its own plane, mapped from its half of the
    # sheet to the quadrilateral between the outer corners and the fold.
    crease = ph.get("crease")
    halves = None
    if crease:
        c = [tuple(q) for q in ph["corners"]]
        top, bottom = tuple(crease[0]), tuple(crease[1])
        left_m = homography([(0, 0), (W / 2, 0), (W / 2, H), (0, H)], [c[0], top, bottom, c[3]])
        right_m = homography([(W / 2, 0), (W, 0), (W, H), (W / 2, H)], [top, c[1], c[2], bottom])
        halves = [(m, np.linalg.inv(m) / np.linalg.inv(m)[2, 2]) for m in (left_m, right_m)]

    def fwd(p):
        if halves:
            return apply_h(halves[0 if p[0] <= W / 2 else 1][0], p)
        return apply_h(fwd_m, (p[0], p[1] + lift(p[0])))

    def page_point(xs_, ys_):
        # Each photo pixel's point on the flat sheet: back through the
        # perspective (of the half it lies in, for a folded spread).
        def back(m):
            d = m[2, 0] * xs_ + m[2, 1] * ys_ + m[2, 2]
            return (m[0, 0] * xs_ + m[0, 1] * ys_ + m[0, 2]) / d, (m[1, 0] * xs_ + m[1, 1] * ys_ + m[1, 2]) / d
        if not halves:
            return back(inv_m)
        lx, ly = back(halves[0][1])
        rx, ry = back(halves[1][1])
        right = lx > W / 2
        return np.where(right, rx, lx), np.where(right, ry, ly)

    def warp(a, resample, fill=0):
        if not curl and not halves:
            return np.asarray(Image.fromarray(a).transform((W2, H2), Image.Transform.PERSPECTIVE, data,
                                                           resample=resample, fillcolor=fill))
        # Each photo pixel's point on the flat page, then down by the
        # curl's lift there.
        ys_, xs_ = np.mgrid[0:H2, 0:W2].astype(np.float64)
        px, py = page_point(xs_, ys_)
        py = py - lift(px)
        # Pixel centres: the value at (x, y) covers [x, x+1).
        px -= 0.5
        py -= 0.5
        src = np.asarray(a)
        if resample == Image.Resampling.NEAREST:
            ix, iy = np.rint(px).astype(np.int64), np.rint(py).astype(np.int64)
            inside = (ix >= 0) & (ix < W) & (iy >= 0) & (iy < H)
            out = np.full((H2, W2), fill, dtype=src.dtype)
            out[inside] = src[iy[inside], ix[inside]]
            return out
        padded = np.pad(src.astype(np.float64), 1, constant_values=fill)
        fx, fy = np.floor(px), np.floor(py)
        tx, ty = px - fx, py - fy
        ix = np.clip(fx.astype(np.int64) + 1, 0, W)
        iy = np.clip(fy.astype(np.int64) + 1, 0, H)
        ix1, iy1 = np.clip(ix + 1, 0, W + 1), np.clip(iy + 1, 0, H + 1)
        v = (padded[iy, ix] * (1 - tx) * (1 - ty) + padded[iy, ix1] * tx * (1 - ty)
             + padded[iy1, ix] * (1 - tx) * ty + padded[iy1, ix1] * tx * ty)
        outside = (px < -1) | (px > W) | (py < -1) | (py > H)
        v[outside] = fill
        return np.clip(np.rint(v), 0, 255).astype(src.dtype)

    cov2 = warp(cov, Image.Resampling.BICUBIC)
    lab2 = warp(lab, Image.Resampling.NEAREST)
    mask = warp(np.full((H, W), 255, dtype=np.uint8), Image.Resampling.BILINEAR).astype(np.float64) / 255.0

    bx0, by0, bx1, by1 = ink_boxes(spec, cov2, lab2, len(words))

    def quad(b):
        return [[num(qx), num(qy)] for qx, qy in (fwd(p) for p in corners(b))]

    def enclosing_rectangle(b):
        # A line's warped box is a trapezoid; its outline is the rectangle
        # along the line holding it (as ScanText outlines lines in perspective).
        tl, tr, br, bl = [np.array(fwd(p)) for p in corners(b)]
        along = (tr - tl) + (br - bl)
        u = along / np.linalg.norm(along)
        v = np.array([-u[1], u[0]])
        pts = [tl, tr, br, bl]
        us, vs = [float(p @ u) for p in pts], [float(p @ v) for p in pts]
        u0, u1, v0, v1 = min(us), max(us), min(vs), max(vs)
        return [[num(c[0]), num(c[1])] for c in (u * a + v * b_ for a, b_ in
                                                  ((u0, v0), (u1, v0), (u1, v1), (u0, v1)))]

    def curled_outline(b):
        # A curled line's outline, as ScanText gives it: cross-sections at
        # most 48 photo pixels apart (at least three), the top edge left
        # to right, then the bottom edge back.
        x0, y0, x1, y1 = b
        length = np.linalg.norm(np.array(fwd((x1, y0))) - np.array(fwd((x0, y0))))
        k = max(3, int(np.ceil(length / 48)) + 1)
        xs = [x0 + (x1 - x0) * i / (k - 1) for i in range(k)]
        return ([[num(c) for c in fwd((x, y0))] for x in xs]
                + [[num(c) for c in fwd((x, y1))] for x in reversed(xs)])

    def chord_rectangle(polygon, others):
        # The rectangle along the outline's chord (from the middle of its
        # first cross-section to the middle of its last) holding it and
        # `others`, as ScanText's TextLine.chordRectangle.
        k = len(polygon) // 2
        p = np.array(polygon, dtype=np.float64)
        d = (p[k - 1] + p[k]) / 2 - (p[0] + p[2 * k - 1]) / 2
        u = d / np.linalg.norm(d)
        v = np.array([-u[1], u[0]])
        pts = np.vstack([p, np.array(others, dtype=np.float64)])
        us, vs = pts @ u, pts @ v
        u0, u1, v0, v1 = us.min(), us.max(), vs.min(), vs.max()
        return [[num(c[0]), num(c[1])] for c in (u * a + v * b_ for a, b_ in
                                                  ((u0, v0), (u1, v0), (u1, v1), (u0, v1)))]

    for ln in lines:
        if curl:
            ln.polygon = curled_outline(ln.bbox)
            ln.quad = chord_rectangle(ln.polygon, [c for w in ln.words for c in quad(w.bbox)])
        else:
            ln.quad = enclosing_rectangle(ln.bbox)
        p0, p1 = fwd((ln.baseline[0], ln.baseline[1])), fwd((ln.baseline[2], ln.baseline[3]))
        ln.baseline = [num(p0[0]), num(p0[1]), num(p1[0]), num(p1[1])]
    for i, w in enumerate(words, start=1):
        w.quad = quad(w.bbox)
        if bx1[i] < 0:
            raise RuntimeError(f"{spec.name}: word {w.text!r} lost its ink")
        w.bbox = [int(bx0[i]), int(by0[i]), int(bx1[i]), int(by1[i])]
    for ln in lines:
        ln.bbox = union([w.bbox for w in ln.words])

    rng = np.random.default_rng(ph["seed"])
    table = table_texture(W2, H2, spec, rng)
    ys_, xs_ = np.mgrid[0:H2, 0:W2]
    light = ph["paper"] * (1.0 - ph["falloff"] * (ys_ / H2) * (0.5 + 0.5 * xs_ / W2))
    # A spread's gutter (`gutter`: [half-width in page pixels, depth]): the
    # paper darkens toward the fold down the middle of the sheet, to
    # (1 - depth) of its brightness there, as in a photo of an open book.
    if "gutter" in ph:
        half, depth = ph["gutter"]
        px, _ = page_point(xs_.astype(np.float64), ys_.astype(np.float64))
        light = light * (1.0 - depth * np.exp(-((px - W / 2) / half) ** 2))
    page = light * (1.0 - cov2.astype(np.float64) / 255.0 * 0.85)
    v = mask * page + (1.0 - mask) * table
    # Thumbs holding the page down (`thumbs`: ellipses [cx, cy, rx, ry,
    # degrees] in photo pixels, over the margins and the page's edge, never
    # over print), skin a gray between the table's and the paper's, darker
    # toward the nail's edge.
    for cx, cy, rx, ry, deg in ph.get("thumbs", []):
        t = np.radians(deg)
        dx, dy = xs_ - cx, ys_ - cy
        a_ = (dx * np.cos(t) + dy * np.sin(t)) / rx
        b_ = (-dx * np.sin(t) + dy * np.cos(t)) / ry
        r = np.sqrt(a_ * a_ + b_ * b_)
        inside = np.clip((1.0 - r) * 12, 0, 1)
        skin = ph.get("skin", 150) - 25 * np.clip(r, 0, 1) ** 2
        v = inside * skin + (1 - inside) * v
    im = Image.fromarray(np.clip(np.rint(v), 0, 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(ph["blur"]))
    v = np.asarray(im, dtype=np.float64) + rng.normal(0.0, ph["noise"], size=(H2, W2))
    # A curled page's edge in the photo is not the quadrilateral of its
    # corners: the truth records it (clockwise from the top-left, 32
    # points an edge) for the checks that tell the page from the table.
    outline = None
    if curl:
        ts = [i / 32 for i in range(32)]
        edge = ([(t * W, 0) for t in ts] + [(W, t * H) for t in ts]
                + [((1 - t) * W, H) for t in ts] + [(0, (1 - t) * H) for t in ts])
        outline = [[num(qx), num(qy)] for qx, qy in (fwd(p) for p in edge)]
    if halves:
        # The folded sheet's edge: the outer corners and the fold's ends.
        outline = [[num(q) for q in p] for p in (ph["corners"][0], crease[0], ph["corners"][1],
                                                 ph["corners"][2], crease[1], ph["corners"][3])]
    extras = {"outline": outline} if outline else {}
    if "gutter" in ph:
        # The fold's shadow, 3 half-widths each side of the middle, in the
        # photo: the checks do not count it as ink.
        reach = 3 * ph["gutter"][0]
        extras["fold"] = [[num(qx), num(qy)] for qx, qy in (
            fwd(p) for p in ((W / 2 - reach, 0), (W / 2 + reach, 0), (W / 2 + reach, H),
                             (W / 2 - reach, H)))]
    return np.clip(np.rint(v), 0, 255).astype(np.uint8), W2, H2, extras


# --------------------------------------------------------------------------
# Truth
# --------------------------------------------------------------------------

def u16(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def build_truth(spec, blocks, W, H, image_name, extras=None):
    geometric = spec.orientation != 0 or spec.skew != 0 or spec.photo is not None
    text = []
    pos = 0
    jblocks = []
    for b in blocks:
        jparas = []
        for p in b.paras:
            # An empty line separates paragraphs (not after the last one),
            # as Tesseract joins text.
            if pos > 0:
                text.append("\n")
                pos += 1
            jlines = []
            for ln in p:
                start = pos
                jwords = []
                for wi, w in enumerate(ln.words):
                    if wi:
                        text.append(" ")
                        pos += 1
                    jw = {"bbox": w.bbox, "text": w.text, "range": [pos, pos + u16(w.text)]}
                    if geometric:
                        jw["quad"] = w.quad
                    jwords.append(jw)
                    text.append(w.text)
                    pos += u16(w.text)
                lt = " ".join(w.text for w in ln.words)
                jl = {"bbox": ln.bbox, "baseline": ln.baseline, "text": lt,
                      "range": [start, pos], "words": jwords}
                if geometric:
                    jl["quad"] = ln.quad
                if getattr(ln, "polygon", None):
                    jl["polygon"] = ln.polygon
                jlines.append(jl)
                text.append("\n")
                pos += 1
            jpara = {"bbox": union([l["bbox"] for l in jlines]), "lines": jlines, "role": p.role}
            if p.role == "heading":
                jpara["level"] = p.level or 1
            jparas.append(jpara)
        jblocks.append({"bbox": union([p["bbox"] for p in jparas]), "paragraphs": jparas})
    paras = [p for fr in spec.frames for p in fr.paras] if spec.frames else spec.paras
    fonts = sorted({FONT_FILES[p.style.font] for p in paras})
    gen = {
        "name": "make-scans",
        "version": GENERATOR_VERSION,
        "variant": spec.name,
        "tests": spec.tests,
        "fonts": fonts,
        "ink_threshold": INK_THRESHOLD,
        "degradation": spec.degrade,
    }
    if spec.rules:
        gen["rules"] = spec.rules
    if spec.colour:
        gen["colour"] = spec.colour
    if spec.photo:
        gen["photo"] = dict(spec.photo, **extras) if extras else spec.photo
    page = {
        "index": 0,
        "image": image_name,
        "width": W,
        "height": H,
        "dpi": spec.dpi,
        "orientation": spec.orientation,
        "skew": float(spec.skew),
        "language": spec.language,
        "text": "".join(text),
        "blocks": jblocks,
    }
    return {"version": 1, "generator": gen, "pages": [page]}


# --------------------------------------------------------------------------

def make_page(spec: PageSpec, out_dir: Path):
    W, H, blocks = layout(spec)
    cov = render(W, H, blocks)
    printed = {w.text for w in all_words(blocks)}
    for m in spec.must_contain:
        if m not in printed:
            raise RuntimeError(f"{spec.name}: layout lost required word {m!r}")
    extras = None
    if spec.photo:
        img, W, H, extras = photograph(spec, cov, blocks, W, H)
    else:
        cov, W, H = transform_page(spec, cov, blocks, W, H)
        if spec.rules:
            cov = draw_rules(spec, cov, blocks)
        img = degrade(spec, (255 - cov).astype(np.uint8))
    if spec.colour:
        img = colourise(spec, img)
    im = Image.fromarray(img)
    assert im.mode == ("RGB" if spec.colour else "L")
    image_name = f"{spec.name}.{spec.fmt}"
    path = out_dir / image_name
    if spec.fmt == "png":
        im.save(path, format="PNG", dpi=(spec.dpi, spec.dpi), compress_level=9)
    else:
        quality = (spec.degrade or spec.colour or spec.photo)["quality"]
        im.save(path, format="JPEG", dpi=(spec.dpi, spec.dpi), quality=quality,
                optimize=False, progressive=False)
    # A ruled table's truth lists its cells row by row, as a reader reads
    # them (it is laid out one column per block).
    truth_blocks = [Block([p for row in zip(*(b.paras for b in blocks)) for p in row])] \
        if spec.rules else blocks
    truth = build_truth(spec, truth_blocks, W, H, image_name, extras)
    js = json.dumps(truth, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    (out_dir / f"{spec.name}.truth.json").write_text(js, encoding="utf-8")
    nlines = len(all_lines(blocks))
    print(f"{image_name:28s} {W}x{H} {spec.dpi:3d} dpi  {nlines:2d} lines  "
          f"{len(all_words(blocks)):3d} words  {path.stat().st_size // 1024:4d} KiB")


def main(argv):
    names = argv[1:]
    known = {p.name for p in PAGES}
    for n in names:
        if n not in known:
            sys.exit(f"make-scans: unknown page {n!r}; known: {', '.join(sorted(known))}")
    OUT_DIR.mkdir(exist_ok=True)
    for spec in PAGES:
        if not names or spec.name in names:
            make_page(spec, OUT_DIR)


if __name__ == "__main__":
    main(sys.argv)
