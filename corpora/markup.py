"""Turn Markdown, reStructuredText and HTML into titled sections of clean prose.

Each format is first brought to Markdown headings (``#`` to ``####``), then split on them with
langchain's ``MarkdownHeaderTextSplitter``, which leaves ``#`` lines inside code fences alone.
Every section's text is then cleaned of markup: no heading marks, fences, emphasis, link
syntax, list bullets, quote marks or table pipes, and whitespace collapsed to single spaces,
so a passage quoted as an answer reads as prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

_LEVELS = ("h1", "h2", "h3", "h4")
_HEADERS = [("#" * n, name) for n, name in enumerate(_LEVELS, start=1)]
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+:.])\1{2,}\s*$")
_INLINE = (
    (re.compile(r"!\[([^\]]*)\]\([^)]*\)"), r"\1"),  # image: alt text
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),  # link: its text
    (re.compile(r"\[([^\]]+)\]\[[^\]]*\]"), r"\1"),  # reference link
    (re.compile(r"`([^`<]+?)\s*<[^>]+>`_{1,2}"), r"\1"),  # rst link `text <url>`_
    (re.compile(r"<[^>\n]+>"), " "),  # inline HTML tags
    (re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1"), r"\2"),  # strong
    (re.compile(r"(?<![\w*])([*_])(\S(?:.*?\S)?)\1(?![\w*])"), r"\2"),  # emphasis
    (re.compile(r"`+([^`]+)`+_{0,2}"), r"\1"),  # code spans and rst literals
    (re.compile(r":[a-z:]+:(?=\S)"), ""),  # rst roles such as :ref:
)
_LINE_MARKS = re.compile(r"^\s*(?:>\s*)*(?:[-*+]\s+|\d+[.)]\s+|\.\.\s+[\w-]+::\s*)?")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^[\s|:+=-]+$")


@dataclass(frozen=True)
class Section:
    """A run of text under one heading path (empty for text before the first heading)."""

    headings: tuple[str, ...]
    text: str


def markdown_sections(text: str) -> list[Section]:
    """Split Markdown on its headings; each section's text is cleaned prose."""
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    splitter = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=True)
    sections = []
    for doc in splitter.split_text(text):
        headings = tuple(clean_inline(doc.metadata[h]) for h in _LEVELS if doc.metadata.get(h))
        body = clean_markdown(doc.page_content)
        if body:
            sections.append(Section(headings, body))
    return sections


def rst_sections(text: str) -> list[Section]:
    """Split reStructuredText on its section titles (levels by order of underline style)."""
    return markdown_sections(rst_to_markdown(text))


def html_sections(text: str) -> list[Section]:
    """Split an HTML page on its ``h1``..``h4`` headings; text only (no scripts or styles)."""
    parser = _TextParser()
    parser.feed(text)
    parser.close()
    return markdown_sections("".join(parser.out))


def rst_to_markdown(text: str) -> str:
    """Rewrite reStructuredText section titles (text over a ``===``-style line) as ``#`` lines."""
    lines = text.splitlines()
    styles: list[str] = []
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        over = _RST_UNDERLINE.match(line)
        if over and i + 2 < len(lines) and lines[i + 2].strip() == line.strip() and lines[i + 1]:
            title, style, i = lines[i + 1], "over" + over.group(1), i + 3
        elif line.strip() and not over and (m := _RST_UNDERLINE.match(nxt)) and len(nxt) >= 3:
            title, style, i = line, m.group(1), i + 2
        else:
            out.append(line)
            i += 1
            continue
        if style not in styles:
            styles.append(style)
        level = min(styles.index(style) + 1, len(_LEVELS))
        out += ["", "#" * level + " " + title.strip(), ""]
    return "\n".join(out)


def clean_markdown(text: str) -> str:
    """Plain prose from a Markdown fragment: markup removed, whitespace collapsed."""
    kept = []
    for line in text.splitlines():
        if _FENCE.match(line) or _TABLE_RULE.match(line) and "-" in line:
            continue
        line = _LINE_MARKS.sub("", line)
        if "|" in line:
            line = " ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
        kept.append(clean_inline(line))
    return " ".join(" ".join(kept).split())


def clean_inline(text: str) -> str:
    """Remove inline markup (links, emphasis, code spans, tags) from one line."""
    for pattern, replacement in _INLINE:
        text = pattern.sub(replacement, text)
    return " ".join(text.split())


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
            self.out.append("\n\n" + "#" * min(int(tag[1]), len(_LEVELS)) + " ")
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
