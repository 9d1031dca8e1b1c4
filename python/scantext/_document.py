"""Documents and pages: the protocol's ops as methods."""

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ._server import Server, ServerError, failure, run, run_process
from ._types import (
    PNG,
    AttributedContent,
    Boundary,
    Box,
    Caret,
    Heading,
    Hit,
    Line,
    Match,
    Paragraph,
    Range,
    SelectionRect,
    Table,
    Word,
    box,
    rng,
)

PathLike = Union[str, Path]

#: Every op of the query protocol and the method that sends it: a
#: :class:`Page` method, or ``Document.page_count`` for ``pages``. In the
#: order of docs/query-protocol.md; a test checks it against its query table.
OPS: Dict[str, str] = {
    "text": "Page.text_in_range / Page.text_in",
    "rects": "Page.selection_rects",
    "caret": "Page.caret_rect",
    "firstRect": "Page.first_rect",
    "hit": "Page.hit",
    "enclosing": "Page.enclosing",
    "boundary": "Page.boundary",
    "line": "Page.line_at",
    "lineContent": "Page.line",
    "lines": "Page.lines",
    "pages": "Document.page_count",
    "headings": "Page.headings",
    "outline": "Page.outline",
    "nextHeading": "Page.next_heading",
    "previousHeading": "Page.previous_heading",
    "attributedContent": "Page.attributed_content",
    "find": "Page.find",
    "uncertain": "Page.uncertain / Page.next_uncertain",
    "position": "Page.position",
    "farthest": "Page.farthest",
    "extend": "Page.extend",
    "compare": "Page.compare",
    "writingDirection": "Page.writing_direction",
    "model": "Page.model",
}


def _option_arguments(options: Dict[str, Any]) -> List[str]:
    """``scantext ocr`` options from keyword arguments: ``no_preprocess=True``
    is ``--no-preprocess``, ``lang="eng+deu"`` (or ``["eng", "deu"]``) is
    ``--lang eng+deu``; ``False`` and ``None`` are left out."""
    arguments: List[str] = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            arguments.append(flag)
        elif isinstance(value, (list, tuple)):
            arguments += [flag, "+".join(str(v) for v in value)]
        else:
            arguments += [flag, str(value)]
    return arguments


def ocr(paths: Union[PathLike, Sequence[PathLike]], *, timeout: Optional[float] = None,
        partial: bool = False, **options: Any) -> "Document":
    """Recognises images and PDFs with ``scantext ocr`` and opens the result.

    Every page of every input becomes a page of the document, in order. The
    model (a compact model, ``.stm``) is written to a temporary folder that
    the document removes when it is closed.

    Args:
        paths: one path or several (PNG, JPEG, TIFF, PNM, BMP, WebP, GIF, PDF).
        timeout: seconds to allow the recognition (default: no limit).
        partial: when some inputs fail, open the pages of the others and
            list the failures in ``Document.errors`` instead of raising.
        **options: ``scantext ocr`` options with ``_`` for ``-``:
            ``lang="eng+deu"``, ``psm=6``, ``dpi=300``, ``no_preprocess=True``,
            ``pages="1-3"``, ``jobs=2``.

    Returns:
        The open document.

    Raises:
        ServerError: when ``scantext ocr`` fails (without ``partial``, when
            any input fails): the message is its error output, which names
            each file and the reason.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    sources = [Path(p) for p in paths]
    folder = Path(tempfile.mkdtemp(prefix="scantext-"))
    model = folder / "document.stm"
    # "--" ends the options: a path starting with "-" is a file, not one.
    arguments = (["ocr", "-q", "-o", model] + _option_arguments(options)
                 + ["--"] + [str(p) for p in sources])
    try:
        done = run_process(arguments, timeout)
        errors: List[str] = []
        if done.returncode != 0:
            # scantext ocr writes the pages it could read and exits 1 when
            # some inputs failed, one "Error: FILE: reason" line each.
            if not (partial and done.returncode == 1 and model.is_file()):
                raise ServerError(failure(arguments, done))
            errors = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines()
                      if line.strip()]
        document = Document(model, sources=sources, temporary=folder)
        document.errors = errors
        return document
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def _utf16_slice(text: str, start: int, end: int) -> str:
    """``text[start:end]`` in UTF-16 offsets, the model's unit."""
    return text.encode("utf-16-le")[2 * start:2 * end].decode("utf-16-le")


class Document:
    """A ScanText document served by one long-running ``scantext query``
    process, which starts with the document and ends with :meth:`close`, the
    end of a ``with`` block, or garbage collection.

    Use :meth:`open` or :func:`scantext.ocr` to make one.
    """

    def __init__(self, model: PathLike, *, sources: Sequence[Path] = (),
                 temporary: Optional[Path] = None, timeout: float = 60.0):
        self.path = Path(model)
        self._sources = list(sources)
        self._temporary = temporary
        self._model: Optional[Dict[str, Any]] = None
        self._server: Optional[Server] = None
        self._pages: Optional[List["Page"]] = None
        self.timeout = timeout
        #: What ``scantext.ocr(..., partial=True)`` could not read, one
        #: message a file (``Error: FILE: reason``); empty otherwise.
        self.errors: List[str] = []
        try:
            self._server = Server(str(self.path), timeout=timeout)
            # Asked at once, so that a file the server refuses (a truncated
            # or damaged compact model, JSON that is not a model) fails
            # here, with the server's message naming it, not at the first
            # question.
            self._server.request({"op": "pages"})
        except BaseException:
            self.close()
            raise

    @classmethod
    def open(cls, path: PathLike, *, timeout: float = 60.0) -> "Document":
        """Opens a document.

        A ScanText JSON model (``.json``) or compact model (``.stm``) is
        served as it is: the server reads a page when a request first names
        it, so a document of any length opens at once. Anything else
        ``scantext convert`` reads (hOCR, ALTO, PAGE XML, Tesseract TSV, or
        an image, which is recognised first) is converted once to a
        temporary compact model, which is then the one source of every
        answer (text, words, paragraphs, queries).

        Args:
            path: the file to open.
            timeout: seconds to wait for each answer before the server is
                taken to be hung (it is killed and :class:`ServerError` raised).

        Raises:
            ServerError: the file cannot be read (the message names it and
                says why), or the binary cannot be found.
        """
        path = Path(path)
        if path.suffix.lower() in (".json", ".stm"):
            if not path.is_file():
                raise ServerError(f"{path}: no such file")
            return cls(path, timeout=timeout)
        folder = Path(tempfile.mkdtemp(prefix="scantext-"))
        model = folder / "document.stm"
        try:
            run(["convert", str(path), str(model)])
            return cls(model, sources=[path], temporary=folder, timeout=timeout)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise

    # The protocol.

    def request(self, op: str, page: int = 0, **arguments: Any) -> Dict[str, Any]:
        """Sends one request of the protocol as it is and returns its answer.

        Args:
            op: the op's name (see ``scantext.OPS``).
            page: the page's index, from 0.
            **arguments: the request's other members, in the protocol's
                spelling (``range=[0, 5]``, ``caseInsensitive=True``).

        Raises:
            QueryError: the server's error (its message).
            ServerError: the server is gone or hung.
        """
        if self._server is None:
            raise ServerError(f"the document {self.path} is closed")
        request = {"op": op, "page": page}
        request.update(arguments)
        return self._server.request(request)

    def markdown(self) -> str:
        """The document as Markdown (``scantext convert --format markdown``):
        headings, lists, tables (pipe tables; HTML where a cell spans),
        captions, figures as ``![alt](#)`` placeholders and footnotes, pages
        in order; running heads, feet and page numbers left out.

        Raises:
            ServerError: the conversion failed (its message).
        """
        output = run(["convert", "--format", "markdown", "--", str(self.path), "-"],
                     timeout=self.timeout)
        return output.decode("utf-8")

    def page_count(self) -> int:
        """The number of pages (the ``pages`` op)."""
        return int(self.request("pages")["pages"])

    @property
    def pages(self) -> List["Page"]:
        """The pages, in order."""
        if self._pages is None:
            self._pages = [Page(self, i) for i in range(self.page_count())]
        return self._pages

    @property
    def model(self) -> Dict[str, Any]:
        """The whole model as docs/formats.md ("JSON format") holds it: every
        page's (the ``model`` op), asked once. A page's alone is
        :meth:`Page.model`, which reads only that page."""
        if self._model is None:
            self._model = {"version": 1, "pages": [page.model() for page in self.pages]}
        return self._model

    @property
    def server_pid(self) -> Optional[int]:
        """The process id of the ``scantext query`` server (``None`` once
        closed)."""
        return self._server.pid if self._server else None

    # Lifetime.

    def close(self) -> None:
        """Ends the server and removes the temporary model, if any. Safe to
        call twice."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        self._remove_temporary()

    def _remove_temporary(self) -> None:
        folder, self._temporary = self._temporary, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> "Document":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<scantext.Document {self.path}>"

    def _image_for(self, index: int) -> Optional[Path]:
        """The image to draw page ``index`` on when the model is not beside
        it: the input it was recognised from (not a PDF)."""
        name = self.pages[index].model().get("image")
        if not name:
            return None
        for source in self._sources:
            if source.name == Path(name).name and source.suffix.lower() != ".pdf":
                return source
            beside = source.parent / name
            if beside.is_file() and beside.suffix.lower() != ".pdf":
                return beside
        return None


class Page:
    """One page of a :class:`Document`. Positions and ranges are UTF-16
    offsets into :attr:`text`; coordinates are pixels of the original image.
    Every method sends one request (``words`` and ``paragraphs`` read the
    model) and raises :class:`QueryError` with the server's message for an
    out-of-range argument."""

    def __init__(self, document: Document, index: int):
        self.document = document
        self.index = index
        self._model: Optional[Dict[str, Any]] = None

    def __repr__(self) -> str:
        return f"<scantext.Page {self.index} of {self.document.path}>"

    def _ask(self, op: str, **arguments: Any) -> Dict[str, Any]:
        return self.document.request(op, page=self.index, **arguments)

    def model(self) -> Dict[str, Any]:
        """The page's model as docs/formats.md ("JSON format") holds it (an item
        of its ``pages``: text, blocks, paragraphs, lines, words, glyphs),
        asked of the server once (the ``model`` op)."""
        if self._model is None:
            self._model = self._ask("model")["page"]
        return self._model

    @property
    def _json(self) -> Dict[str, Any]:
        return self.model()

    @property
    def text(self) -> str:
        """The page text (from the model)."""
        return self._json["text"]

    @property
    def size(self) -> Tuple[int, int]:
        """``(width, height)`` of the original image in pixels."""
        return (self._json["width"], self._json["height"])

    # Text.

    def text_in_range(self, start: int, end: int, spoken: bool = False) -> str:
        """The text of ``[start, end)``; with ``spoken``, as spoken (words
        hyphenated at a line end joined). Op ``text``."""
        return self._ask("text", range=[start, end], spoken=spoken)["text"]

    def text_in(self, rect: Box) -> str:
        """The text of the words in a rectangle ``(x0, y0, x1, y1)``. Op
        ``text``."""
        return self._ask("text", rect=list(rect))["text"]

    # Geometry.

    def selection_rects(self, start: int, end: int) -> List[SelectionRect]:
        """The selection rectangles of ``[start, end)``, one per line. Op
        ``rects``."""
        return [SelectionRect.from_json(r) for r in self._ask("rects", range=[start, end])["rects"]]

    def caret_rect(self, position: int) -> Caret:
        """The caret at a position. Op ``caret``."""
        return Caret.from_json(self._ask("caret", position=position))

    def first_rect(self, start: int, end: int) -> Optional[Box]:
        """The upright box of the range's part on its first line. Op
        ``firstRect``."""
        return box(self._ask("firstRect", range=[start, end])["rect"])

    def hit(self, x: float, y: float) -> Hit:
        """The position, character, word and line at a point. Op ``hit``."""
        return Hit.from_json(self._ask("hit", point=[x, y]))

    def line_at(self, x: float, y: float) -> Optional[int]:
        """The number of the line at a point, ``None`` off every line. Op
        ``line``."""
        return self._ask("line", point=[x, y])["line"]

    # Units.

    def enclosing(self, position: int, granularity: str = "word",
                  direction: str = "forward") -> Optional[Range]:
        """The range of the unit (``character``, ``word``, ``sentence``,
        ``paragraph``, ``line``, ``document``) enclosing a position. Op
        ``enclosing``."""
        return rng(self._ask("enclosing", position=position, granularity=granularity,
                             direction=direction)["range"])

    def boundary(self, position: int, granularity: str = "word",
                 direction: str = "forward") -> Boundary:
        """The next unit boundary from a position in a direction
        (``forward``, ``backward``, ``left``, ``right``, ``up``, ``down``).
        Op ``boundary``."""
        return Boundary.from_json(self._ask("boundary", position=position,
                                            granularity=granularity, direction=direction))

    def position(self, start: int, direction: str, offset: int = 1) -> Optional[int]:
        """The position ``offset`` characters from ``start`` in a screen
        direction; ``None`` past either end. Op ``position``."""
        return self._ask("position", **{"from": start}, direction=direction,
                         offset=offset)["position"]

    def farthest(self, start: int, end: int, direction: str) -> int:
        """The end of ``[start, end)`` farthest in a screen direction. Op
        ``farthest``."""
        return self._ask("farthest", range=[start, end], direction=direction)["position"]

    def extend(self, position: int, direction: str) -> Range:
        """The character range from a position one step in a screen
        direction. Op ``extend``."""
        return rng(self._ask("extend", position=position, direction=direction)["range"])  # type: ignore[return-value]

    def compare(self, position: int, other: int) -> int:
        """-1, 0 or 1 as ``position`` is before, at or after ``other``. Op
        ``compare``."""
        return int(self._ask("compare", position=position, other=other)["value"])

    def writing_direction(self, position: int, direction: str = "forward") -> str:
        """``leftToRight`` or ``rightToLeft`` at a position. Op
        ``writingDirection``."""
        return self._ask("writingDirection", position=position,
                         direction=direction)["writingDirection"]

    # Lines, words, paragraphs.

    def line(self, number: int) -> Line:
        """One line by number. Op ``lineContent``."""
        return Line.from_json(self._ask("lineContent", line=number))

    def lines(self) -> List[Line]:
        """Every line, in reading order. Op ``lines``."""
        return [Line.from_json(j) for j in self._ask("lines")["lines"]]

    def _walk(self) -> Iterable[Tuple[Dict[str, Any], List[Word]]]:
        line = 0
        for block in self._json["blocks"]:
            for paragraph in block["paragraphs"]:
                words: List[Word] = []
                for line_json in paragraph["lines"]:
                    words += [Word.from_json(dict(w, line=line)) for w in line_json["words"]]
                    line += 1
                yield paragraph, words

    def words(self) -> List[Word]:
        """Every word of the model, in reading order, with its box, range,
        confidence, quad (when the page was turned or straightened) and line
        number. Read from the page's model (:meth:`model`)."""
        return [w for _, words in self._walk() for w in words]

    def paragraphs(self) -> List[Paragraph]:
        """Every paragraph of the model with its role, heading level, box,
        range, text and words. Read from the page's model (:meth:`model`)."""
        text = self.text
        result = []
        for j, words in self._walk():
            start, end = j["range"]
            result.append(Paragraph(
                text=_utf16_slice(text, start, end), bbox=box(j["bbox"]),  # type: ignore[arg-type]
                range=(start, end), role=j.get("role", "body"), level=j.get("level"),
                words=tuple(words)))
        return result

    # Headings, search, confidence.

    def headings(self) -> List[Heading]:
        """The headings in reading order. Op ``headings``."""
        return [Heading.from_json(h) for h in self._ask("headings")["headings"]]

    def outline(self) -> List[Heading]:
        """The headings nested by level (``children``). Op ``outline``."""
        return [Heading.from_json(h) for h in self._ask("outline")["outline"]]

    def next_heading(self, position: int) -> Optional[Heading]:
        """The first heading starting at or after a position. Op
        ``nextHeading``."""
        heading = self._ask("nextHeading", position=position)["heading"]
        return Heading.from_json(heading) if heading else None

    def previous_heading(self, position: int) -> Optional[Heading]:
        """The last heading ending at or before a position. Op
        ``previousHeading``."""
        heading = self._ask("previousHeading", position=position)["heading"]
        return Heading.from_json(heading) if heading else None

    def attributed_content(self, line: Optional[int] = None, range: Optional[Range] = None,
                           below: Optional[float] = None) -> AttributedContent:
        """Runs of equal accessibility attributes of a line or a range; a
        word below ``below`` (default 60) is a run of its own. Op
        ``attributedContent``."""
        arguments: Dict[str, Any] = {}
        if line is not None:
            arguments["line"] = line
        if range is not None:
            arguments["range"] = list(range)
        if below is not None:
            arguments["below"] = below
        return AttributedContent.from_json(self._ask("attributedContent", **arguments))

    def find(self, query: str, case_insensitive: bool = False,
             diacritic_insensitive: bool = False) -> List[Match]:
        """Every match in the page text, across line breaks and line-end
        hyphens, with its selection rects. Op ``find``."""
        answer = self._ask("find", query=query, caseInsensitive=case_insensitive,
                           diacriticInsensitive=diacritic_insensitive)
        return [Match.from_json(m) for m in answer["matches"]]

    def uncertain(self, below: float = 60) -> List[Word]:
        """The words whose confidence is below ``below``, in reading order.
        Op ``uncertain``."""
        return [Word.from_json(w) for w in self._ask("uncertain", below=below)["words"]]

    def next_uncertain(self, position: int, direction: str = "forward",
                       below: float = 60) -> Optional[Word]:
        """The next (or, ``backward``, previous) word below ``below`` from a
        position: a rotor. Op ``uncertain``."""
        word = self._ask("uncertain", below=below, position=position,
                         direction=direction)["word"]
        return Word.from_json(word) if word else None

    # Tables.

    def tables(self) -> List[Table]:
        """The page's tables read cell by cell (``scantext tables --format
        json``), in reading order: each with its cells' places, spans,
        header marks, text and boxes, and its text as rows
        (:attr:`Table.rows`). Empty for a page without tables.

        Raises:
            ServerError: the command failed (its message).
        """
        output = run(["tables", "--format", "json", "--pages", str(self.index + 1), "--",
                      str(self.document.path)], timeout=self.document.timeout)
        return [Table.from_json(t) for t in json.loads(output.decode("utf-8"))]

    # Pictures.

    def draw(self, path: Optional[PathLike] = None, layers: Optional[str] = None,
             min_confidence: Optional[float] = None) -> PNG:
        """The page's picture from ``scantext draw``: word boxes, selection
        outlines, reading order and low-confidence words over its image.

        Returns PNG bytes that Jupyter shows inline; with ``path``, also
        writes them there (atomically, by ``scantext draw``).

        Args:
            path: a PNG file to write, or ``None``.
            layers: ``scantext draw --layers`` (``"words,lines"``; default
                all).
            min_confidence: words below it are filled in red (default 60).
        """
        # Paths go as "--name=value" or after "--": one starting with "-"
        # is never taken for an option.
        arguments: List[Any] = ["draw", "--pages", str(self.index + 1)]
        image = self.document._image_for(self.index)
        if image is not None:
            arguments += [f"--image={image}"]
        if layers is not None:
            arguments += ["--layers", layers]
        if min_confidence is not None:
            arguments += ["--min-confidence", str(min_confidence)]
        model = ["--", str(self.document.path)]
        if path is not None:
            run(arguments + [f"--output={path}"] + model)
            return PNG(Path(path).read_bytes())
        return PNG(run(arguments + ["-o", "-"] + model))

    def _repr_png_(self) -> bytes:
        return bytes(self.draw())


__all__ = ["Document", "Page", "ocr", "OPS"]
