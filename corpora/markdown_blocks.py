"""Read Markdown (CommonMark with MyST's directives) into headings, prose and code.

ATX headings (``#`` to ``######``, deeper than `corpora.blocks.MAX_LEVEL` counted as it) are
headings; a ``#`` line inside code never is. Code is a fenced block (```` ``` ```` or ``~~~``)
and an indented block (four spaces, after a blank line, outside a list). A MyST directive
(```` ```{name} ```` or ``:::{name}``) is read by its kind (`corpora.blocks.directive_kind`);
```` ```{eval-rst} ```` holds reStructuredText and is read as such. MyST targets (``(x)=``),
comments (``%``), attribute lines (``{.class}``), HTML comments (not the text beside them on
their lines), thematic breaks and table rules leave nothing; each list item is its own
paragraph. A table (``| a | b |`` rows) is a
``table`` block, a row a line, its cells a `` | `` apart: each row reads as its own sentence, and no
name runs from one cell into the next ("Class Kind Description" of a header row).

Python-Markdown and mkdocs pages read as written too: YAML front matter (between ``---`` lines
at the top) and link reference definitions (``[w]: https://...``) leave nothing, and a
shortcut reference to a defined label (``[w]``) leaves its text; a line of ``=`` or ``-`` under
a paragraph makes it a setext heading (level 1 or 2); an admonition (``!!! note "Title"``,
``??? tip``) and a content tab (``=== "Title"``) keep their title and their indented body as
Markdown (not as an indented code block); a ``///`` block fence line leaves nothing, its body
read in place; a mkdocstrings line (``::: package.module``) and its indented options leave
nothing.

A definition list (a term line, then a line opening with ``: ``, as MyST and PHP Markdown
Extra write one) reads as "term: definition", each further definition of the term as its own
"term: ..." paragraph, so the term stays the subject of what defines it; a footnote definition
(``[^1]: text``) leaves its text.
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
_SKIP = re.compile(
    r"^\s*(?:\([\w.:/-]+\)=|%.*|\{[.#][^}]*\}|[-*_](?:\s*[-*_]){2,}|///(?:\s.*)?"
    r"|\[(?!\^)[^\[\]\n]+\]:\s*\S.*)\s*$"
)
"""A MyST target, comment or attribute line, a thematic break, a ``///`` block fence line or a
link reference definition (not a footnote's ``[^1]:``)."""
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ADMONITION = re.compile(r"^(\s*)(?:!!!|\?\?\?\+?)[ \t]+(\S.*)$")
"""``!!! type [classes] ["title"]`` (admonition) or ``??? type`` / ``???+`` (collapsible)."""
_TAB = re.compile(r'^(\s*)===\+?[ \t]+"([^"]*)"[ \t]*$')
"""``=== "Title"`` (a content tab, pymdownx.tabbed): read as an admonition, title then body."""
_AUTODOC = re.compile(r"^(\s*):::[ \t]+[\w.]+[ \t]*$")
"""``::: package.module`` (mkdocstrings): documentation rendered from code, not in the page, so
the line and its indented options leave nothing."""
_WORD = re.compile(r"[\w-]+")
_FRONT_KEY = re.compile(r"^[\w-]+[ \t]*:")
_LINK_DEF_OPEN = re.compile(r"^ {0,3}\[(?!\^)[^\[\]\n]+\]:[ \t]*$")
"""A link reference definition whose destination is on the next line (``[hook]:`` then an
indented ``<https://...>``): both lines leave nothing."""
_LINK_DEF = re.compile(r"^ {0,3}\[(?!\^)([^\[\]\n]+)\]:[ \t]*\S", re.MULTILINE)
_SHORTCUT = re.compile(r"(?<!\])\[([^\[\]\n]+)\](?![(\[:])")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_DIRECTIVE = re.compile(r"^\{([\w:.+-]+)\}\s*(.*)$")
_DEFINITION = re.compile(r"^ {0,3}:[ \t]+(\S.*)$")
_FOOTNOTE = re.compile(r"^ {0,3}\[\^[^\[\]\s]+\]:[ \t]*")
_INDENTED = ("    ", "\t")


def markdown_blocks(text: str) -> list[Block]:
    """The blocks of a Markdown document, in reading order."""
    blocks = _read(_without_front_matter(text.splitlines()))
    labels = {_label(m.group(1)) for m in _LINK_DEF.finditer(text)}
    if not labels:
        return blocks
    return [
        Block(b.kind, _unbracket(b.text, labels)) if b.kind in ("prose", "table") else b
        for b in blocks
    ]


def _label(text: str) -> str:
    """A link label as CommonMark matches it: case and runs of whitespace ignored."""
    return " ".join(text.split()).casefold()


def _unbracket(text: str, labels: set[str]) -> str:
    """Shortcut reference links (``[label]`` with a definition) as their text alone."""
    return _SHORTCUT.sub(lambda m: m.group(1) if _label(m.group(1)) in labels else m.group(0), text)


def _without_front_matter(lines: list[str]) -> list[str]:
    """The lines after a YAML front matter block (``---`` first, ``key:`` next), else all."""
    if not lines or lines[0].strip() != "---" or len(lines) < 2 or not _FRONT_KEY.match(lines[1]):
        return lines
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    return lines if end is None else lines[end + 1 :]


def _read(lines: list[str], depth: int = 0) -> list[Block]:
    """Read `lines` into blocks (see the module docstring); `depth`: directives around them."""
    if depth > MAX_DEPTH:
        return flat(lines)
    lines = list(lines)  # comments and footnotes are rewritten in place (`_uncommented`)
    blocks: list[Block] = []
    paragraph: list[str] = []
    in_list = after_blank = is_item = False
    defined: str | None = None  # the term the paragraph defines, if it is a definition
    last: tuple[str, bool] | None = None  # a term just before a blank line; pop its block?
    i = 0
    while i < len(lines):
        line = _QUOTE.sub("", lines[i]) if lines[i].lstrip().startswith(">") else lines[i]
        note = _FOOTNOTE.match(line)
        if note and not line[note.end() :].strip():
            _footnote_text(lines, i)  # "[^2]:" with its text indented below
            continue
        line = _FOOTNOTE.sub("", line)
        fence = _FENCE.match(line)
        if _LINK_DEF_OPEN.match(line) and i + 1 < len(lines) and lines[i + 1].strip():
            i += 2  # a link reference definition, its destination on the next line
            continue
        if autodoc := _AUTODOC.match(line):
            blocks += _prose(paragraph, is_item)
            paragraph, i = [], _body_end(lines, i, _indent(autodoc.group(1)))
            continue
        code = line.startswith(_INDENTED) and not paragraph and not in_list
        if "<!--" in line and not fence and not code:
            i = _uncommented(lines, i)  # the line again, without the comment
            continue
        if not line.strip():
            last = _term(paragraph, defined)
            blocks += _prose(paragraph, is_item)
            paragraph, after_blank, defined = [], True, None
            i += 1
            continue
        definition = _DEFINITION.match(line)
        if definition and (paragraph or last):
            if defined is not None:  # a second definition right under the first
                blocks += _prose(paragraph, is_item)
            elif paragraph:
                defined = " ".join(paragraph)
            elif last is not None:
                defined, is_block = last
                if is_block:
                    blocks.pop()
            defined = (defined or "").strip().rstrip(":").rstrip()
            paragraph, last, after_blank = [f"{defined}: {definition.group(1)}"], None, False
            is_item = False
            i += 1
            continue
        last = None
        if fence and (fence.group(1)[0] != ":" or fence.group(2).startswith("{")):
            blocks += _prose(paragraph, is_item)
            paragraph, i = [], _fenced(lines, i, fence.group(1), fence.group(2), blocks, depth)
            continue
        if paragraph and not in_list and _SETEXT.match(line):
            level = 1 if line.strip()[0] == "=" else 2
            blocks.append(Block("heading", " ".join(paragraph), level))
            paragraph, after_blank = [], False
            i += 1
            continue
        if not paragraph and (opener := _admonition_opener(line)):
            i = _admonition(lines, i, opener, blocks, depth)
            continue
        if code:  # the branches between that change the paragraph or the list continue
            end = i
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith(_INDENTED)):
                end += 1
            blocks += code_block(lines[i:end])
            i = end
            continue
        heading = _ATX.match(line)
        item = LIST_ITEM.match(line)
        if heading or item or _SKIP.match(line) or _TABLE_RULE.match(line):
            blocks += _prose(paragraph, is_item)
            paragraph = []
        if heading:
            in_list = False
            level = min(len(heading.group(1)), MAX_LEVEL)
            blocks.append(Block("heading", heading.group(2) or "", level))
        elif item:
            in_list, paragraph, is_item = True, [line[item.end() :]], True
        elif (_is_row(line) or _heads_table(lines, i)) and not in_list:
            blocks += _prose(paragraph, is_item)
            paragraph, i = [], _table(lines, i, blocks)
            continue
        elif not (_SKIP.match(line) or _TABLE_RULE.match(line)):
            in_list = in_list and not (after_blank and line[0] not in " \t")
            is_item = is_item and bool(paragraph)  # a new paragraph is no item's
            paragraph.append(_row(line.strip()))
        after_blank = False
        i += 1
    return blocks + _prose(paragraph, is_item)


def _prose(paragraph: list[str], is_item: bool) -> list[Block]:
    """The paragraph's prose block, marked when it is a list item's."""
    return [Block("prose", b.text, item=is_item) for b in prose_block(" ".join(paragraph))]


def _term(paragraph: list[str], defined: str | None) -> tuple[str, bool] | None:
    """The term a definition after this paragraph would define, and whether it is a block.

    A definition paragraph passes its own term on (its block stays); a one-line paragraph is
    the term itself (its block goes, the definition takes its place); any other, None.
    """
    if defined is not None:
        return defined, False
    return (paragraph[0], True) if len(paragraph) == 1 else None


def _fenced(
    lines: list[str], i: int, marker: str, info: str, blocks: list[Block], depth: int
) -> int:
    """Read the fenced block opening at `i` into `blocks`; the line after its closing fence.

    Inside a directive, a directive fence opened with the same character and at least as long
    (``:::{note}`` in a ``:::{glossary}``) takes the next closing fence, so nested directives
    close in order. Inside code nothing nests: an example fence with an attribute list
    (```` ``` { .python } ```` inside a ```` ```` ```` block) or a shorter one is its text.
    """
    directive = _DIRECTIVE.match(info)
    end, nested = i + 1, 0
    while end < len(lines):
        if _closes(lines[end], marker):
            if nested == 0:
                break
            nested -= 1
        elif directive and _nests(lines[end], marker):
            nested += 1
        end += 1
    body = dedent(lines[i + 1 : end])
    if directive is None:
        blocks += code_block(body)
        return end + 1
    name, argument = directive.groups()
    if name.lower() == "eval-rst":
        blocks += rst_blocks("\n".join(body))
    else:
        blocks += directive_blocks(name, argument, body, lambda inner: _read(inner, depth + 1))
    return end + 1


def _nests(line: str, marker: str) -> bool:
    """Whether `line` opens a directive whose closing fence would also close `marker`'s."""
    opener = _FENCE.match(line)
    return (
        opener is not None
        and opener.group(1)[0] == marker[0]
        and len(opener.group(1)) >= len(marker)
        and _DIRECTIVE.match(opener.group(2)) is not None
    )


def _admonition_opener(line: str) -> tuple[int, str] | None:
    """An admonition opener's indent and title (``""`` for none), or None for another line."""
    if tab := _TAB.match(line):
        return _indent(tab.group(1)), tab.group(2)
    match = _ADMONITION.match(line)
    if match is None:
        return None
    rest = match.group(2).rstrip()
    words, title = rest, ""
    if rest.endswith('"') and rest.count('"') == 2:
        words, title = rest[: rest.index('"')], rest[rest.index('"') + 1 : -1]
    if not words.split() or not all(_WORD.fullmatch(word) for word in words.split()):
        return None
    return _indent(match.group(1)), title


def _admonition(
    lines: list[str], i: int, opener: tuple[int, str], blocks: list[Block], depth: int
) -> int:
    """Read the admonition opening at `i` into `blocks` (title, then body); the line after it.

    Its body is every following line indented past the opener's own indent, blank lines
    between them included. When that body leaves nothing, its title goes too.
    """
    margin, title = opener
    end = _body_end(lines, i, margin)
    inside = dedent([line.expandtabs(4) for line in lines[i + 1 : end]])
    body = _read(inside, depth + 1)
    if body or not inside:  # a title over nothing read (a mkdocstrings box) says nothing
        blocks += prose_block(title) + body
    return end


def _body_end(lines: list[str], i: int, margin: int) -> int:
    """The end of the lines after `i` indented past `margin` (blank lines between included)."""
    end = i + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > margin):
        end += 1
    while end > i + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def _indent(line: str) -> int:
    """How many columns of leading whitespace `line` has (a tab to the next multiple of 4)."""
    wide = line.expandtabs(4)
    return len(wide) - len(wide.lstrip())


def _closes(line: str, marker: str) -> bool:
    """Whether `line` closes a fence opened with `marker` (same character, at least as long)."""
    stripped = line.strip()
    return (
        len(stripped) >= len(marker)
        and stripped.startswith(marker)
        and not stripped.strip(marker[0])
    )


def _footnote_text(lines: list[str], i: int) -> None:
    """Put in place of the footnote marker alone on line `i` the text indented below it.

    The text is a paragraph of its own (the marker's line left blank), its lines dedented: no
    code. In place, so a page of many footnotes is read in linear time.
    """
    lines[i] = ""
    end = i + 1
    while end < len(lines) and lines[end].startswith(_INDENTED):
        lines[end] = lines[end].strip()
        end += 1


def _uncommented(lines: list[str], i: int) -> int:
    """Take out the HTML comment opening on line `i`; the line to read next.

    The text before ``<!--`` and after its ``-->`` stays, as one line ("Default value: 3
    <!-- see #12 -->" keeps "Default value: 3"), put on the comment's last line, which is read
    next (the lines between are skipped); a comment never closed runs to the end. In place, so
    a page of many comments is read in linear time.
    """
    start = lines[i].index("<!--")
    opened = start + len("<!--")
    end = next(
        (j for j in range(i, len(lines)) if "-->" in lines[j][opened if j == i else 0 :]), None
    )
    if end is None:
        lines[i] = lines[i][:start]
        del lines[i + 1 :]
        return i
    close = lines[end].index("-->", opened if end == i else 0) + len("-->")
    lines[end] = lines[i][:start] + lines[end][close:]
    return end


def _is_row(line: str) -> bool:
    """Whether `line` is a table row: it starts with ``|`` and holds another."""
    stripped = line.strip()
    return stripped.startswith("|") and "|" in stripped[1:]


def _heads_table(lines: list[str], i: int) -> bool:
    """Whether line `i` is the header row of a table written without outer pipes.

    It holds a ``|`` and the next line is a delimiter row holding one too (``--- | ---``).
    """
    following = lines[i + 1] if i + 1 < len(lines) else ""
    return "|" in lines[i] and "|" in following and _TABLE_RULE.match(following) is not None


def _table(lines: list[str], i: int, blocks: list[Block]) -> int:
    """Read the table starting at `i` into `blocks`, a row a line; the line after it.

    A table written without outer pipes (``a | b``) runs while its lines hold a ``|``.
    """
    rows: list[str] = []
    bare = not _is_row(lines[i])
    while i < len(lines) and (
        _is_row(lines[i]) or _TABLE_RULE.match(lines[i]) or (bare and "|" in lines[i])
    ):
        cells = [] if _TABLE_RULE.match(lines[i]) else [c for c in _cells(lines[i]) if c]
        if cells:
            rows.append(" | ".join(cells))
        i += 1
    if rows:
        blocks.append(Block("table", "\n".join(rows)))
    return i


def _row(line: str) -> str:
    """A table row's cells joined by spaces; any other line as it is."""
    if not line.startswith("|"):
        return line
    return " ".join(_cells(line))


def _cells(line: str) -> list[str]:
    """A table row's cells, stripped (an empty cell as "")."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
