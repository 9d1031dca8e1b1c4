#!/usr/bin/env python3
"""Renders Markdown on standard input to HTML on standard output, as
CommonMark with GitHub's pipe tables (markdown-it-py's `commonmark` preset
and its `table` rule): an independent reader of what `--format markdown`
writes (MarkdownTests checks that it reads a page as meant).

Exits 2 when markdown-it-py is not installed (Tools/install/install-dependencies.sh
puts it into .build/tools-venv)."""

import sys

try:
    from markdown_it import MarkdownIt
except ImportError:
    sys.stderr.write("markdown-it-py is not installed\n")
    sys.exit(2)

sys.stdout.write(MarkdownIt("commonmark").enable("table").render(sys.stdin.read()))
