"""Turn Markdown, reStructuredText and HTML into titled sections of prose and code.

A document is read into headings, prose and code (`corpora.markdown_blocks`,
`corpora.rst_blocks`; HTML is first brought to Markdown headings and paragraphs), then
grouped into `Section` s, each under its heading path. Prose is cleaned of inline markup
(`corpora.inline.clean_inline`: emphasis, links, roles, tags; code spans keep their text) so a
passage quoted as an answer reads as prose; code is kept as written, apart from the prose around
it: a section's text is its prose paragraphs joined by spaces, with each code block between
blank lines in a ```` ``` ```` fence (`Section.text`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from html.parser import HTMLParser

from corpora.blocks import MAX_LEVEL, Block
from corpora.inline import clean_inline
from corpora.markdown_blocks import markdown_blocks
from corpora.rst_blocks import rst_blocks

ITEM_END_RE = re.compile(r"[.!?:;,)\]\"'”’]\s*$")
"""How a list item ends when the next block may run on from it: a sentence's end (or one
closing a bracket or a quote), or a colon, semicolon or comma leading on. An item ending with
a bare word ("* Drop support for Python 2.7") is a statement of its own."""

CODE_FENCE = "```"
"""What a code block is wrapped in inside a passage's text."""


@dataclass(frozen=True)
class Section:
    """A run of prose and code under one heading path (empty for text before any heading)."""

    headings: tuple[str, ...]
    blocks: tuple[Block, ...]

    @property
    def text(self) -> str:
        """The section as one string: `units` joined by blank lines."""
        return "\n\n".join(units(self.blocks))


def units(blocks: tuple[Block, ...] | list[Block]) -> list[str]:
    """Runs of prose (paragraphs joined by spaces), fenced code blocks and table rows, in order.

    A table row is a unit of its own, so the blank line between two ends a sentence.
    """
    out: list[str] = []
    prose = False
    for block in blocks:
        if block.kind == "code":
            out.append(fenced(block.text))
            prose = False
        elif block.kind == "table":
            out.extend(block.text.split("\n"))
            prose = False
        elif prose:
            out[-1] += " " + block.text
        else:
            out.append(block.text)
            prose = True
        if block.kind == "prose" and block.item and not ITEM_END_RE.search(block.text):
            prose = False  # the item's last words end a sentence: the next block starts one
    return out


def fenced(code: str) -> str:
    """Code between ```` ``` ```` fence lines."""
    return f"{CODE_FENCE}\n{code}\n{CODE_FENCE}"


def sections(blocks: list[Block], rst: bool = False) -> list[Section]:
    """Group blocks under their headings; prose cleaned, sections without content dropped.

    `rst`: the blocks are reStructuredText's (`clean_inline` leaves its underscores).
    """
    clean = partial(clean_inline, rst=rst)
    out: list[Section] = []
    path: list[str] = []
    current: list[Block] = []
    for block in blocks:
        if block.kind == "heading":
            if current:
                out.append(Section(tuple(path), tuple(current)))
                current = []
            title = clean(block.text)
            path = [*path[: block.level - 1], title] if title else path
        elif block.kind == "prose":
            text = clean(block.text)
            if text:
                current.append(Block("prose", text, item=block.item))
        elif block.kind == "table":
            rows = [row for row in (clean(r) for r in block.text.split("\n")) if row]
            if rows:
                current.append(Block("table", "\n".join(rows)))
        elif block.text.strip():
            current.append(block)
    if current:
        out.append(Section(tuple(path), tuple(current)))
    return out


def plain_section(text: str, headings: tuple[str, ...] = ()) -> Section:
    """A section of unmarked text (a ``.txt`` file, a PDF page): one prose block, as it is."""
    return Section(headings, (Block("prose", text.strip()),))


def markdown_sections(text: str) -> list[Section]:
    """Split Markdown on its headings; prose cleaned, code kept as code."""
    return sections(markdown_blocks(text))


def rst_sections(text: str) -> list[Section]:
    """Split reStructuredText on its section titles (levels by order of underline style)."""
    return sections(rst_blocks(text), rst=True)


def html_sections(text: str) -> list[Section]:
    """Split an HTML page on its ``h1``..``h4`` headings; text only (no scripts or styles)."""
    parser = _TextParser()
    parser.feed(text)
    parser.close()
    return markdown_sections("".join(parser.out))


class _TextParser(HTMLParser):
    """Collect an HTML page's visible text, with headings as Markdown ``#`` lines."""

    _SKIP = frozenset({"script", "style", "head", "noscript", "template", "svg"})
    _BLOCK = frozenset({"p", "div", "li", "br", "tr", "section", "article", "pre", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Open a heading line, a block break, or a skipped element."""
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.out.append("\n\n" + "#" * min(int(tag[1]), MAX_LEVEL) + " ")
        elif tag in self._BLOCK:
            self.out.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        """Close a heading line or a skipped element."""
        if tag in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif tag in ("h1", "h2", "h3", "h4", "h5", "h6") or tag in self._BLOCK:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        """Keep visible text; a heading stays on its one line."""
        if not self._skipping:
            joined = " ".join(data.split())
            if joined:
                self.out.append(joined + " ")
