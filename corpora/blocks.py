"""What a marked-up document is read into: headings, prose and code, and which directives hold what.

The Markdown and reStructuredText readers (`corpora.markdown_blocks`, `corpora.rst_blocks`)
turn a file into a list of `Block` in reading order; `corpora.markup` groups them into titled
sections. Prose is one paragraph or list item with its inline markup still in place (cleaned
later, once); code is the block's lines as written, dedented.

A directive (rst ``.. name::``, MyST ```` ```{name} ```` or ``:::{name}``) is read by its
kind (`directive_kind`): *prose* directives (admonitions, version notes, object descriptions,
tabs) keep their body's text, with the version of a version note in front (``Changed in
version 2.9.``); *empty* ones (tables of contents, images, module markers) leave nothing; an
*autodoc* one (``autoclass``, ...) leaves what the page writes in its body, after its object's
name (the docstring it pulls in is not in the folder), and nothing when it has no body, but a
signature the page writes in its argument (``.. autoclass:: Store(path='/jobs')``) stays, as
code: its defaults are the page's words; every other directive's body is code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Kind = Literal["heading", "prose", "code", "table"]


@dataclass(frozen=True)
class Block:
    """One heading, paragraph, code block or table of a document (a table's rows a line each)."""

    kind: Kind
    text: str
    level: int = 0
    """A heading's level (1 for the top); 0 for prose and code."""
    item: bool = False
    """Prose that is a list item's first paragraph."""


MAX_LEVEL = 4
"""Headings deeper than this count as this level."""

MAX_DEPTH = 32
"""Quotes, list items and directives nested deeper than this are read as one paragraph.

This bounds the work of a hostile file (5,000 nested block quotes or directives) to a
constant times its length, and keeps the readers far from Python's recursion limit."""

VERSION_NOTES = {
    "versionadded": "New in version {}.",
    "versionchanged": "Changed in version {}.",
    "deprecated": "Deprecated since version {}.",
    "versionremoved": "Removed in version {}.",
    "version-added": "New in version {}.",
    "version-changed": "Changed in version {}.",
    "version-deprecated": "Deprecated since version {}.",
    "version-removed": "Removed in version {}.",
}
"""Version directives (Sphinx 7.3 spells them with a hyphen too), and the sentence their
argument becomes."""

PROSE_DIRECTIVES = frozenset(
    {
        *VERSION_NOTES,
        *("note", "warning", "tip", "important", "caution", "attention", "danger", "error"),
        *("hint", "admonition", "seealso", "topic", "sidebar", "rubric", "container", "only"),
        *("tabs", "tab", "group-tab", "tab-set", "tab-item", "dropdown", "card", "div"),
        "ifconfig",
        *("glossary", "centered", "hlist", "epigraph", "highlights", "pull-quote", "compound"),
        *("table", "list-table", "csv-table", "figure", "margin", "grid-item-card"),
        *("function", "class", "method", "attribute", "data", "exception", "module-data"),
        *("decorator", "describe", "object", "option", "cmdoption", "envvar", "confval"),
        "property",
    }
)
"""Directives whose body (and argument) is text to keep."""

TERM_DIRECTIVES = frozenset({"option", "cmdoption", "envvar", "confval", "describe"})
"""Directives whose argument is the term their body defines, as Sphinx shows it: the argument
leads as a definition line ("--workers N: Number of worker processes. Defaults to ..."), so
an option's description and default read as one unit (`graph.models.offline.reading`)."""

EMPTY_DIRECTIVES = frozenset(
    {
        *("toctree", "contents", "image", "include", "literalinclude", "module"),
        *("currentmodule", "highlight", "default-role", "meta", "raw", "index"),
        *("sectionauthor", "moduleauthor", "codeauthor", "program", "title", "tabularcolumns"),
        *("footbibliography", "bibliography", "autosummary", "role", "default-domain"),
    }
)
"""Directives that leave nothing in a passage (their body names files, options or targets)."""

_DOMAIN = re.compile(r"^(?:py|js|c|cpp|rst|std|click):")
_OPTION = re.compile(r"^\s*:([\w -]+):(?:\s+(.*)|$)")
"""A directive's option line, ``:caption: text``: its name and value."""
LIST_ITEM = re.compile(r"^(\s*)(?:[-*+•]|\d+[.)]|#\.|\(\d+\)|[a-z][.)])\s+")
"""A bullet or enumerated list item's marker, with the space after it."""


def directive_kind(name: str) -> Literal["prose", "empty", "code", "autodoc"]:
    """How a directive's body is read (see the module docstring)."""
    bare = name.lower()
    if bare.startswith("auto"):
        return "autodoc"
    if bare in EMPTY_DIRECTIVES:
        return "empty"
    if bare in PROSE_DIRECTIVES or _DOMAIN.sub("", bare) in PROSE_DIRECTIVES:
        return "prose"
    return "code"


def lead_text(name: str, argument: str, options: dict[str, str] | None = None) -> str:
    """The prose a directive's argument gives: a version sentence, a term, or the argument.

    A version note's words after its version follow it as Sphinx shows them ("New in version
    7.10: --save-signal."), not run into the paragraph after it. A term (`TERM_DIRECTIVES`)
    ends in a colon: "--workers N:". A described object's ``:type:`` and ``:value:`` options
    join its name as Sphinx shows them ("TIMEOUT: int = 30"); a setting's ``:type:`` and
    ``:default:`` follow its term as fields ("workers: Type: int. Default: 4."). A build
    condition (`CONDITION_DIRECTIVES`) is no text.
    """
    bare, options = _DOMAIN.sub("", name.lower()), options or {}
    note = VERSION_NOTES.get(bare)
    if note is not None:
        version, _, rest = argument.strip().partition(" ")
        rest = rest.strip()
        if not version:
            return ""
        if not rest:
            return note.format(version)
        end = "" if rest.endswith((".", "!", "?", ":")) else "."
        return f"{note.format(version)[:-1]}: {rest}{end}"  # "New in version 7.10: --save-signal."
    lead = "" if bare in CONDITION_DIRECTIVES else argument.strip()
    if bare in SIGNATURE_DIRECTIVES and lead:
        kind, value = options.get("type"), options.get("value")
        return lead + (f": {kind}" if kind else "") + (f" = {value}" if value else "")
    if bare in TERM_DIRECTIVES and lead:
        fields = [f"{label}: {options[key]}." for key, label in _FIELDS if options.get(key)]
        return " ".join([f"{lead}:", *fields])
    return lead


CONDITION_DIRECTIVES = frozenset({"only", "ifconfig"})
"""Directives whose argument is a build condition (``.. only:: html``, ``.. ifconfig::
prerelease``), not text: only their body is read."""

SIGNATURE_DIRECTIVES = frozenset({"data", "attribute", "module-data", "property"})
"""Directives describing a name whose ``:type:`` and ``:value:`` options Sphinx shows in its
signature ("DEFAULT_TIMEOUT: int = 30"): the value is often the fact asked for."""
_FIELDS = (("type", "Type"), ("default", "Default"))
"""A setting's options Sphinx shows as fields under its term (``.. confval::``)."""


def leading_options(lines: list[str]) -> dict[str, str]:
    """A directive body's leading option lines as a mapping (``:type: int`` to type: int)."""
    options: dict[str, str] = {}
    for line in lines:
        option = _OPTION.match(line)
        if option is None:
            break
        options[option.group(1).strip().lower()] = (option.group(2) or "").strip()
    return options


def without_options(lines: list[str]) -> list[str]:
    """A directive body without its leading option lines (``:caption: x``) or YAML block."""
    body = list(lines)
    if body and body[0].strip() == "---":
        end = next((i for i in range(1, len(body)) if body[i].strip() == "---"), None)
        if end is not None:
            body = body[end + 1 :]
    while body and _OPTION.match(body[0]):
        body.pop(0)
    return body


def dedent(lines: list[str]) -> list[str]:
    """The lines with their common leading spaces removed (blank lines ignored for it)."""
    margins = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(margins, default=0)
    return [line[cut:] if line.strip() else "" for line in lines]


def code_block(lines: list[str]) -> list[Block]:
    """One code block of the lines (dedented, blank edges dropped), or none if all blank."""
    body = dedent(lines)
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    return [Block("code", "\n".join(line.rstrip() for line in body))] if body else []


def prose_block(text: str) -> list[Block]:
    """One prose block of the text (lines joined), or none if it is blank."""
    joined = " ".join(text.split())
    return [Block("prose", joined)] if joined else []


def directive_blocks(
    name: str, argument: str, body: list[str], read: Callable[[list[str]], list[Block]]
) -> list[Block]:
    """What a directive leaves, by its kind: nothing, its body as code, or its text.

    `body` is the directive's content, dedented; a prose body is read with `read` (the
    reader of the directive's own markup), after the argument's lead text.
    """
    kind = directive_kind(name)
    inner = without_options(body)
    if name.lower() == "list-table":
        return list_table(dedent(inner))
    if kind == "autodoc" and "(" in argument:  # a signature the page writes: its defaults
        return code_block([argument.strip()]) + read(dedent(inner))
    if kind == "empty" or (kind == "autodoc" and not any(line.strip() for line in inner)):
        return []
    if kind == "code":
        return code_block(inner)
    lead = lead_text(name, argument, leading_options(body))
    return prose_block(lead) + read(dedent(inner))


def list_table(lines: list[str]) -> list[Block]:
    """A ``list-table`` as a ``table`` block: each ``* -`` item a row, each ``-`` a cell.

    A row reads a line, its cells `` | `` apart, as a grid table's and a Markdown table's do;
    a cell's further lines join it. Without this the rows ran together into one sentence
    ("EVENT_SCHEDULER_STARTED The scheduler was started SchedulerEvent EVENT_...").
    """
    rows: list[list[str]] = []
    for line in lines:
        row = _LIST_TABLE_ROW.match(line)
        cell = _LIST_TABLE_CELL.match(line)
        if row is not None:
            rows.append([row.group(1) or ""])
        elif cell is not None and rows:
            rows[-1].append(cell.group(1) or "")
        elif line.strip() and rows:
            rows[-1][-1] = f"{rows[-1][-1]} {line.strip()}".strip()
    text = "\n".join(" | ".join(c for c in row if c) for row in rows if any(row))
    return [Block("table", text)] if text else []


_LIST_TABLE_ROW = re.compile(r"^[*+-]\s+[*+-](?:\s+(.*)|$)")
"""A list-table row's opening line, ``* - first cell``."""
_LIST_TABLE_CELL = re.compile(r"^\s+[*+-](?:\s+(.*)|$)")
"""A further cell of the row, ``  - cell``, indented under the row's marker."""


def flat(lines: list[str]) -> list[Block]:
    """Lines nested past `MAX_DEPTH`: one paragraph of their text."""
    return prose_block(" ".join(line.strip() for line in lines))
