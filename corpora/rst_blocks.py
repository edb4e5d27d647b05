"""Read reStructuredText into headings, prose and code (`corpora.blocks.Block`).

Section titles (text over a ``===``-style underline, or between an over- and underline) are
headings, their levels in the order the styles first appear; they are read only at the top
level, never inside a directive, a list or a literal block. Code is a literal block (the
indented block after a paragraph ending ``::``; the ``::`` becomes ``:``, or goes when it
stands apart), a doctest (``>>>`` lines), and the body of a code directive (``code-block``,
``code``, ``sourcecode`` and any directive `corpora.blocks.directive_kind` calls code).
Labels and link targets (``.. _x:``, ending at a blank line as in docutils), substitution
definitions, comments and a field list opening the file (Sphinx's metadata) leave nothing;
prose directives (``note``, ``versionadded``, ...) leave their text. Grid and simple tables
are read row by row.
"""

from __future__ import annotations

import re

from corpora.blocks import (
    LIST_ITEM,
    MAX_DEPTH,
    MAX_LEVEL,
    Block,
    code_block,
    dedent,
    directive_blocks,
    flat,
    prose_block,
)
from corpora.inline import FOOTNOTE_LABEL

_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+:.])\1{2,}\s*$")
_DIRECTIVE = re.compile(r"^([\w:.+-]+)::(?:\s+(.*))?$")
_GRID_RULE = re.compile(r"^\+[-=+]+\+?\s*$")
_SIMPLE_RULE = re.compile(r"^=+(?:\s+=+)+\s*$")
_TARGET = re.compile(r"^\.\.\s+_")
_CELL_GAP = re.compile(r"\s{2,}")
_COLUMN = re.compile(r"=+")
"""A column of a simple table's top rule: the column's text starts where it starts."""
_FIELD = re.compile(r"^:[\w-]+:(?:\s.*)?$")
_FOOTNOTE = re.compile(rf"^\[(?:{FOOTNOTE_LABEL})\](?:\s|$)")
"""A footnote or citation (`corpora.inline.FOOTNOTE_LABEL`); other explicit markup opening
with a bracket (a cog marker, ``.. [[[cog``; ``.. []``) is a comment."""
_ANONYMOUS_TARGET = re.compile(r"^__(?:\s|$)")
"""An anonymous link target's short form (``__ https://...``): where a link goes, no text."""


def rst_blocks(text: str) -> list[Block]:
    """The blocks of a reStructuredText document, in reading order."""
    return _read(_without_metadata(text.splitlines()), titles=[])


def _without_metadata(lines: list[str]) -> list[str]:
    """The lines after the field list opening a document (``:orphan:``, ``:tocdepth: 2``).

    Sphinx reads such a list as file-wide metadata and shows none of it; comments may come
    before it (a licence header).
    """
    i = 0
    while i < len(lines) and (not lines[i].strip() or _is_comment(lines[i])):
        i = _body_end(lines, i) if lines[i].strip() else i + 1
    start = i
    while i < len(lines) and (
        _FIELD.match(lines[i]) or (i > start and lines[i][:1] in " \t" and lines[i].strip())
    ):
        i += 1
    return lines[i:] if i > start else lines


def _is_comment(line: str) -> bool:
    """Whether `line` opens a comment: explicit markup that is no directive, target or note."""
    content = line.strip()[2:].strip()
    if not line.startswith("..") or (content and not line.startswith(".. ")):
        return False
    target = _TARGET.match(line.strip()) or content.startswith("|")  # a link or a substitution
    return not (_DIRECTIVE.match(content) or _FOOTNOTE.match(content) or target)


def _read(lines: list[str], titles: list[str] | None, depth: int = 0) -> list[Block]:
    """Read `lines` (at indent 0); `titles` collects title styles, None inside a body."""
    if depth > MAX_DEPTH:
        return flat(lines)
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        title = _title_at(lines, i) if titles is not None else None
        if title is not None:
            text, style, i = title
            assert titles is not None
            if style not in titles:
                titles.append(style)
            blocks.append(Block("heading", text, min(titles.index(style) + 1, MAX_LEVEL)))
        elif line[0] in " \t":  # a block quote
            end = _body_end(lines, i - 1)
            blocks += _read(dedent(lines[i:end]), None, depth + 1)
            i = end
        elif stripped == ".." or stripped.startswith(".. "):
            end = _target_end(lines, i) if _TARGET.match(stripped) else _body_end(lines, i)
            blocks += _explicit(stripped[2:].strip(), lines[i + 1 : end], depth)
            i = end
        elif _ANONYMOUS_TARGET.match(line):
            i = _target_end(lines, i)
        elif stripped.startswith(">>>"):
            end = _paragraph_end(lines, i)
            blocks += code_block(lines[i:end])
            i = end
        elif _GRID_RULE.match(stripped) or _SIMPLE_RULE.match(stripped):
            end = _table_end(lines, i)
            blocks += _table_rows(lines[i:end])
            i = end
        elif (item := LIST_ITEM.match(line)) is not None:
            end = _body_end(lines, i)
            width = item.end()
            body = [
                rest[width:] if not rest[:width].strip() else rest.lstrip()
                for rest in lines[i + 1 : end]
            ]
            blocks += _read([line[width:], *body], None, depth + 1)
            i = end
        else:
            i = _paragraph(lines, i, blocks, titles is not None, depth)
    return blocks


def _paragraph(lines: list[str], i: int, blocks: list[Block], titles: bool, depth: int) -> int:
    """Read the paragraph at `i` (a definition's body, a literal block after it); the next i."""
    end = _paragraph_end(lines, i, titles)
    text = " ".join(line.strip() for line in lines[i:end])
    literal = text.endswith("::")
    if literal:
        text = text[:-2].rstrip() + ("" if text[:-2].endswith((" ", "\t")) else ":")
        text = "" if text == ":" else text
    defines = end < len(lines) and bool(lines[end].strip()) and lines[end][0] in " \t"
    if defines and text and not text.endswith((":", ".", "!", "?", ",", ";")):
        text += ":"  # a definition list's term leads its definition: "timeout_grace: Seconds ..."
    blocks += prose_block(text)
    if defines:  # a definition
        body_end = _body_end(lines, end - 1)
        blocks += _read(dedent(lines[end:body_end]), None, depth + 1)
        return body_end
    if not literal:
        return end
    start = end
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start < len(lines) and lines[start][0] in " \t":
        body_end = _body_end(lines, start - 1)
        blocks += code_block(lines[start:body_end])
        return body_end
    return end


def _explicit(content: str, body: list[str], depth: int) -> list[Block]:
    """What an explicit markup block leaves: a directive's body by its kind, else nothing."""
    if (note := _FOOTNOTE.match(content)) is not None:  # a footnote or citation: its text
        return _read([content[note.end() :].strip(), *dedent(body)], None, depth + 1)
    directive = _DIRECTIVE.match(content)
    if directive is None:  # a comment, a label or link target, a substitution definition
        return []
    name, argument = directive.group(1), directive.group(2) or ""
    return directive_blocks(
        name, argument, dedent(body), lambda inner: _read(inner, None, depth + 1)
    )


def _title_at(lines: list[str], i: int) -> tuple[str, str, int] | None:
    """A section title starting at line `i`: its text, underline style and the next line."""
    line = lines[i]
    over = _UNDERLINE.match(line)
    if over and i + 2 < len(lines) and lines[i + 2].strip() == line.strip() and lines[i + 1]:
        return lines[i + 1].strip(), "over" + over.group(1), i + 3
    if over or line[0] in " \t" or i + 1 >= len(lines):
        return None
    under = _UNDERLINE.match(lines[i + 1])
    if under and len(lines[i + 1].strip()) >= 3:
        return line.strip(), under.group(1), i + 2
    return None


def _body_end(lines: list[str], i: int) -> int:
    """The end of the indented body after line `i` (blank lines inside it belong to it)."""
    end = i + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    return end


def _target_end(lines: list[str], i: int) -> int:
    """The end of the link target at `i` (``.. _x: URL``): its indented lines up to a blank.

    As docutils reads it: what is indented after the blank line is a block quote of its own
    (a table indented under a label is the page's table, not the target's text).
    """
    end = i + 1
    while end < len(lines) and lines[end].strip() and lines[end][0] in " \t":
        end += 1
    return end


def _paragraph_end(lines: list[str], i: int, titles: bool = False) -> int:
    """The end of the unindented lines from `i` (before a blank line, or a title's text)."""
    end = i + 1
    while end < len(lines) and lines[end].strip() and lines[end][0] not in " \t":
        if titles and end + 1 < len(lines) and _UNDERLINE.match(lines[end + 1]):
            break
        end += 1
    return end


def _table_end(lines: list[str], i: int) -> int:
    """The end of the grid or simple table starting at `i` (a blank line after a rule)."""
    end = i + 1
    while end < len(lines):
        if not lines[end].strip() and (
            _GRID_RULE.match(lines[end - 1].strip()) or _SIMPLE_RULE.match(lines[end - 1].strip())
        ):
            break
        end += 1
    return end


def _table_rows(lines: list[str]) -> list[Block]:
    """A table as a ``table`` block: a row a line, its cells a `` | `` apart, rules dropped.

    A grid table's row runs from one rule to the next, each cell's lines joined; a simple
    table's line is a row, its cells two or more spaces apart, and a line whose first column
    is blank continues the row above. Each row then reads as its own sentence, as a Markdown
    table's does.
    """
    rows: list[list[str]] = []
    grid = _GRID_RULE.match(lines[0].strip()) is not None
    starts = [m.start() for m in _COLUMN.finditer(lines[0])]
    open_row = False
    for line in lines:
        stripped = line.strip()
        if not stripped or _GRID_RULE.match(stripped) or _SIMPLE_RULE.match(stripped):
            open_row = False
            continue
        if grid:
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
        else:
            cells = _simple_cells(line, starts)
        if rows and (open_row if grid else not cells[0]):
            rows[-1] = _merged(rows[-1], cells)
        else:
            rows.append(cells)
        open_row = grid
    text = "\n".join(" | ".join(cell for cell in row if cell) for row in rows if any(row))
    return [Block("table", text)] if text else []


def _simple_cells(line: str, starts: list[int]) -> list[str]:
    """A simple table line's cells, cut where the top rule's columns start (docutils' reading).

    The last column runs to the line's end; a line that does not fit the columns (text across
    a column's start) is cut at gaps of two or more spaces instead, its first cell blank when
    it starts blank (it continues the row above).
    """
    bounds = [*starts[1:], len(line)]
    if any(0 < at < len(line) and line[at - 1] != " " for at in starts[1:]):
        cells = [cell for cell in _CELL_GAP.split(line.strip()) if cell]
        return ["", *cells] if not line[: starts[0] + 1].strip() else cells
    return [line[start:end].strip() for start, end in zip(starts, bounds, strict=True)]


def _merged(row: list[str], more: list[str]) -> list[str]:
    """A row's cells with a further line's cells joined on, column by column."""
    width = max(len(row), len(more))
    padded = row + [""] * (width - len(row)), more + [""] * (width - len(more))
    return [" ".join(filter(None, pair)) for pair in zip(*padded, strict=True)]
