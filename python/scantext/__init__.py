"""Query ScanText's text model of scanned pages from Python.

A client of ``scantext query`` (docs/query-protocol.md): one
long-running server process per open document, requests as method calls,
answers as small dataclasses, server errors as :class:`QueryError`.

    import scantext
    with scantext.ocr("Scans/clean.png") as doc:
        page = doc.pages[0]
        for match in page.find("library", case_insensitive=True):
            print(match.range, match.rects[0].bbox)

The binary is ``SCANTEXT``, else ``scantext`` on ``PATH``, else the
checkout's ``.build/{release,debug}/scantext``.
"""

from ._document import OPS, Document, Page, ocr
from ._server import QueryError, ServerError, find_binary
from ._types import (
    PNG,
    AttributedContent,
    Boundary,
    Caret,
    Heading,
    Hit,
    Line,
    Match,
    Paragraph,
    Run,
    SelectionRect,
    Table,
    TableCell,
    Word,
    boxes,
)

__version__ = "0.1.0"

__all__ = [
    "OPS", "Document", "Page", "ocr", "QueryError", "ServerError", "find_binary", "PNG",
    "AttributedContent", "Boundary", "Caret", "Heading", "Hit", "Line", "Match", "Paragraph",
    "Run", "SelectionRect", "Table", "TableCell", "Word", "boxes",
]
