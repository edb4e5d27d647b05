"""Read Markdown (CommonMark with MyST's directives) into headings, prose and code.

ATX headings (``#`` to ``######``, deeper than `corpora.blocks.MAX_LEVEL` counted as it) are
headings; a ``#`` line inside code never is. Code is a fenced block (```` ``` ```` or ``~~~``)
and an indented block (four spaces, after a blank line, outside a list). A MyST directive
(```` ```{name} ```` or ``:::{name}``) is read by its kind (`corpora.blocks.directive_kind`);
```` ```{eval-rst} ```` holds reStructuredText and is read as such. MyST targets (``(x)=``),
comments (``%``), attribute lines (``{.class}``), HTML comments, thematic breaks and table
rules leave nothing; each list item is its own paragraph and table rows keep their cells.
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
from corpora.rst_blocks import rst_blocks

_FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*(.*?)\s*$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SKIP = re.compile(r"^\s*(?:\([\w.:/-]+\)=|%.*|\{[.#][^}]*\}|[-*_](?:\s*[-*_]){2,})\s*$")
"""A MyST target, comment or attribute line, or a thematic break."""
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_DIRECTIVE = re.compile(r"^\{([\w:.+-]+)\}\s*(.*)$")
_INDENTED = ("    ", "\t")


def markdown_blocks(text: str) -> list[Block]:
    """The blocks of a Markdown document, in reading order."""
    return _read(text.splitlines())


def _read(lines: list[str], depth: int = 0) -> list[Block]:
    """Read `lines` into blocks (see the module docstring); `depth`: directives around them."""
    if depth > MAX_DEPTH:
        return flat(lines)
    blocks: list[Block] = []
    paragraph: list[str] = []
    in_list = after_blank = False
    i = 0
    while i < len(lines):
        line = _QUOTE.sub("", lines[i]) if lines[i].lstrip().startswith(">") else lines[i]
        fence = _FENCE.match(line)
        if not line.strip():
            blocks += prose_block(" ".join(paragraph))
            paragraph, after_blank = [], True
            i += 1
            continue
        if fence and (fence.group(1)[0] != ":" or fence.group(2).startswith("{")):
            blocks += prose_block(" ".join(paragraph))
            paragraph, i = [], _fenced(lines, i, fence.group(1), fence.group(2), blocks, depth)
            continue
        if line.startswith(_INDENTED) and not paragraph and not in_list:
            end = i
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith(_INDENTED)):
                end += 1
            blocks += code_block(lines[i:end])
            i = end
            continue
        heading = _ATX.match(line)
        item = LIST_ITEM.match(line)
        if heading or item or _SKIP.match(line) or _TABLE_RULE.match(line) or "<!--" in line:
            blocks += prose_block(" ".join(paragraph))
            paragraph = []
        if heading:
            in_list = False
            level = min(len(heading.group(1)), MAX_LEVEL)
            blocks.append(Block("heading", heading.group(2) or "", level))
        elif "<!--" in line:
            i = _after_comment(lines, i)
            continue
        elif item:
            in_list, paragraph = True, [line[item.end() :]]
        elif not (_SKIP.match(line) or _TABLE_RULE.match(line)):
            in_list = in_list and not (after_blank and line[0] not in " \t")
            paragraph.append(_row(line.strip()))
        after_blank = False
        i += 1
    return blocks + prose_block(" ".join(paragraph))


def _fenced(
    lines: list[str], i: int, marker: str, info: str, blocks: list[Block], depth: int
) -> int:
    """Read the fenced block opening at `i` into `blocks`; the line after its closing fence.

    A directive fence opened inside it with the same character (``:::{note}`` in a
    ``:::{glossary}``) takes the next closing fence, so nested directives close in order.
    """
    end, nested = i + 1, 0
    while end < len(lines):
        if _closes(lines[end], marker):
            if nested == 0:
                break
            nested -= 1
        elif (opener := _FENCE.match(lines[end])) and opener.group(1)[0] == marker[0]:
            nested += opener.group(2).startswith("{")  # a directive nested in this one
        end += 1
    body = dedent(lines[i + 1 : end])
    directive = _DIRECTIVE.match(info)
    if directive is None:
        blocks += code_block(body)
        return end + 1
    name, argument = directive.groups()
    if name.lower() == "eval-rst":
        blocks += rst_blocks("\n".join(body))
    else:
        blocks += directive_blocks(name, argument, body, lambda inner: _read(inner, depth + 1))
    return end + 1


def _closes(line: str, marker: str) -> bool:
    """Whether `line` closes a fence opened with `marker` (same character, at least as long)."""
    stripped = line.strip()
    return (
        len(stripped) >= len(marker)
        and stripped.startswith(marker)
        and not stripped.strip(marker[0])
    )


def _after_comment(lines: list[str], i: int) -> int:
    """The line after the HTML comment opening on line `i` (text before it is dropped)."""
    end = i
    while end < len(lines) and "-->" not in lines[end]:
        end += 1
    return end + 1


def _row(line: str) -> str:
    """A table row's cells joined by spaces; any other line as it is."""
    if not line.startswith("|"):
        return line
    return " ".join(cell.strip() for cell in line.strip().strip("|").split("|"))
