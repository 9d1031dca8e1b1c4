"""The answers, as small dataclasses built from the protocol's JSON.

Coordinates are pixels of the original image, top-left origin; a box is
``(x0, y0, x1, y1)`` with exclusive max; a quad is four ``(x, y)`` points
(top-left, top-right, bottom-right, bottom-left in reading order); ranges
are ``(start, end)`` UTF-16 offsets into the page text (equal to ``str``
indices for text without characters outside the Basic Multilingual Plane).
"""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

Box = Tuple[float, float, float, float]
Point = Tuple[float, float]
Quad = Tuple[Point, Point, Point, Point]
Range = Tuple[int, int]


def box(value: Any) -> Optional[Box]:
    return tuple(value) if value is not None else None  # type: ignore[return-value]


def rng(value: Any) -> Optional[Range]:
    return (int(value[0]), int(value[1])) if value is not None else None


def points(value: Any) -> Optional[Tuple[Point, ...]]:
    return tuple(tuple(p) for p in value) if value is not None else None  # type: ignore[misc]


def boxes(items: Any) -> Any:
    """The boxes of words, lines, paragraphs or selection rects as a numpy
    array of shape ``(n, 4)`` (``x0, y0, x1, y1`` per row, float64), for
    vectorised geometry. numpy is optional: only this function needs it.

    Raises:
        ImportError: when numpy is not installed (``pip install numpy``).
    """
    try:
        import numpy
    except ImportError:
        raise ImportError("scantext.boxes needs numpy (pip install numpy)") from None
    return numpy.array([item.bbox for item in items], dtype=numpy.float64).reshape(-1, 4)


class PNG(bytes):
    """PNG bytes that Jupyter shows inline (``_repr_png_``)."""

    def _repr_png_(self) -> bytes:
        return bytes(self)


@dataclass(frozen=True)
class Word:
    """An OCR word: its text with punctuation, box, range and confidence
    (0-100); ``quad`` on turned, deskewed or straightened pages; ``line`` is
    the page's line number when the protocol gives it."""

    text: str
    bbox: Box
    range: Range
    confidence: Optional[float] = None
    quad: Optional[Quad] = None
    line: Optional[int] = None

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Word":
        return cls(
            text=j["text"],
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            range=rng(j["range"]),  # type: ignore[arg-type]
            confidence=j.get("confidence"),
            quad=points(j.get("quad")),  # type: ignore[arg-type]
            line=j.get("line"),
        )


@dataclass(frozen=True)
class Line:
    """A text line (the ``lineContent`` answer): number, text, range, box,
    selection ``frame`` and ``quad``, its paragraph's role (and heading
    ``level``), and ``polygon`` on a curved line."""

    line: int
    text: str
    range: Range
    bbox: Box
    role: str
    frame: Optional[Box] = None
    quad: Optional[Quad] = None
    level: Optional[int] = None
    polygon: Optional[Tuple[Point, ...]] = None

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Line":
        return cls(
            line=j["line"],
            text=j["text"],
            range=rng(j["range"]),  # type: ignore[arg-type]
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            role=j.get("role", "body"),
            frame=box(j.get("frame")),
            quad=points(j.get("quad")),  # type: ignore[arg-type]
            level=j.get("level"),
            polygon=points(j.get("polygon")),
        )


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of the model: box, range, text, role (``heading`` with a
    ``level``, ``body``, ``caption``, ...), and its lines' words."""

    text: str
    bbox: Box
    range: Range
    role: str
    level: Optional[int]
    words: Tuple[Word, ...]


@dataclass(frozen=True)
class SelectionRect:
    """One line's part of a selection (the ``rects`` answer): ``bbox`` the
    axis-aligned box, ``quad`` the outline, ``rect`` the box before rotation
    and ``transform`` the rotation ``(a, b, c, d, tx, ty)`` about its
    centre; ``polygon`` on a curved line."""

    bbox: Box
    quad: Quad
    contains_start: bool
    contains_end: bool
    line: int
    range: Range
    is_vertical: bool
    writing_direction: str
    rect: Box
    transform: Tuple[float, ...]
    polygon: Optional[Tuple[Point, ...]] = None

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "SelectionRect":
        return cls(
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            quad=points(j["quad"]),  # type: ignore[arg-type]
            contains_start=j["containsStart"],
            contains_end=j["containsEnd"],
            line=j["line"],
            range=rng(j["range"]),  # type: ignore[arg-type]
            is_vertical=j["isVertical"],
            writing_direction=j["writingDirection"],
            rect=box(j["rect"]),  # type: ignore[arg-type]
            transform=tuple(j["transform"]),
            polygon=points(j.get("polygon")),
        )


@dataclass(frozen=True)
class Caret:
    """The caret at a position: zero-width ``bbox``, ``quad``, ``line``,
    ``rect`` and ``transform`` as a selection rect, and its visible
    ``width``."""

    bbox: Box
    quad: Quad
    line: Optional[int]
    rect: Box
    transform: Tuple[float, ...]
    width: float

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Caret":
        return cls(
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            quad=points(j["quad"]),  # type: ignore[arg-type]
            line=j.get("line"),
            rect=box(j["rect"]),  # type: ignore[arg-type]
            transform=tuple(j["transform"]),
            width=j["width"],
        )


@dataclass(frozen=True)
class Hit:
    """What is at a point: the nearest text ``position``, the ``character``
    range there, the ``line`` number, the OCR ``word`` under the point (with
    its punctuation) and the tokenizer's word (what a double tap selects)."""

    position: int
    character: Range
    line: Optional[int]
    word: Optional[Word]
    tokenizer_word: Optional[Tuple[str, Range]]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Hit":
        word = j.get("word")
        token = j.get("tokenizerWord")
        return cls(
            position=j["position"],
            character=rng(j["character"]),  # type: ignore[arg-type]
            line=j.get("line"),
            word=Word.from_json(word) if word else None,
            tokenizer_word=(token["text"], rng(token["range"])) if token else None,  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class Boundary:
    """The next unit boundary from a position (``None`` past either end of
    the text), whether the position is at one, whether it is within a unit,
    and the range of the unit enclosing it (``None`` when none does)."""

    position: Optional[int]
    at_boundary: bool
    within_unit: bool
    enclosing: Optional[Range]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Boundary":
        return cls(
            position=j.get("position"),
            at_boundary=bool(j["atBoundary"]),
            within_unit=bool(j.get("withinUnit", False)),
            enclosing=rng(j.get("enclosing")),
        )


@dataclass(frozen=True)
class Heading:
    """A heading: text, level (1-6), range, its lines ``(first, end)``, box,
    quads and selection rects; ``children`` in an outline."""

    text: str
    level: int
    range: Range
    lines: Range
    bbox: Box
    quads: Tuple[Quad, ...]
    rects: Tuple[SelectionRect, ...]
    children: Tuple["Heading", ...] = field(default=())

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Heading":
        return cls(
            text=j["text"],
            level=j["level"],
            range=rng(j["range"]),  # type: ignore[arg-type]
            lines=rng(j["lines"]),  # type: ignore[arg-type]
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            quads=tuple(points(q) for q in j.get("quads", [])),  # type: ignore[misc]
            rects=tuple(SelectionRect.from_json(r) for r in j.get("rects", [])),
            children=tuple(cls.from_json(c) for c in j.get("children", [])),
        )


@dataclass(frozen=True)
class Match:
    """A match of :meth:`Page.find`: its range, its text in the page (which
    may span a line break or a line-end hyphen) and its selection rects."""

    range: Range
    text: str
    rects: Tuple[SelectionRect, ...]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Match":
        return cls(
            range=rng(j["range"]),  # type: ignore[arg-type]
            text=j["text"],
            rects=tuple(SelectionRect.from_json(r) for r in j["rects"]),
        )


@dataclass(frozen=True)
class Run:
    """A run of equal accessibility attributes: BCP-47 ``language``,
    paragraph ``role`` (``None`` on a line break between paragraphs),
    heading ``level``, and ``confidence`` on a low-confidence word."""

    range: Range
    text: str
    language: Optional[str]
    role: Optional[str]
    level: Optional[int]
    low_confidence: bool
    confidence: Optional[float]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Run":
        return cls(
            range=rng(j["range"]),  # type: ignore[arg-type]
            text=j["text"],
            language=j.get("language"),
            role=j.get("role"),
            level=j.get("level"),
            low_confidence=bool(j.get("lowConfidence", False)),
            confidence=j.get("confidence"),
        )


@dataclass(frozen=True)
class AttributedContent:
    """The ``attributedContent`` answer: the text, its range and its runs."""

    text: str
    range: Range
    runs: Tuple[Run, ...]

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "AttributedContent":
        return cls(
            text=j["text"],
            range=rng(j["range"]),  # type: ignore[arg-type]
            runs=tuple(Run.from_json(r) for r in j["runs"]),
        )


@dataclass(frozen=True)
class TableCell:
    """One cell of a :class:`Table`: its place (``row``, ``column`` from 0)
    and spans, whether the model marks it a header cell, its text (lines
    joined by spaces, words broken at a line end joined), box and range."""

    row: int
    column: int
    row_span: int
    column_span: int
    header: bool
    text: str
    bbox: Box
    range: Range

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "TableCell":
        return cls(
            row=int(j["row"]),
            column=int(j["column"]),
            row_span=int(j["rowSpan"]),
            column_span=int(j["columnSpan"]),
            header=bool(j["header"]),
            text=j["text"],
            bbox=box(j["bbox"]),  # type: ignore[arg-type]
            range=rng(j["range"]),  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class Table:
    """A table of a page read cell by cell (``scantext tables``): its
    ``index`` on the page (from 1), its size, box and cells in reading
    order. :attr:`rows` is its text as a grid, as the CSV has it: a
    spanning cell's text at its first row and column, other places empty."""

    index: int
    row_count: int
    column_count: int
    bbox: Optional[Box]
    cells: List[TableCell] = field(default_factory=list)

    @property
    def rows(self) -> List[List[str]]:
        grid = [["" for _ in range(self.column_count)] for _ in range(self.row_count)]
        for cell in self.cells:
            here = grid[cell.row][cell.column]
            grid[cell.row][cell.column] = cell.text if not here else here + " " + cell.text
        return grid

    @classmethod
    def from_json(cls, j: Dict[str, Any]) -> "Table":
        return cls(
            index=int(j["index"]),
            row_count=int(j["rows"]),
            column_count=int(j["columns"]),
            bbox=box(j.get("bbox")),
            cells=[TableCell.from_json(c) for c in j["cells"]],
        )
