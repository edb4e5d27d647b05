"""Inline markup of Markdown (with MyST roles) and reStructuredText, removed in linear time.

`clean_inline` keeps the words and drops the marks: code spans keep their text verbatim (no
emphasis is read inside them; an inline-highlight language mark, ``#!python``, goes), roles
(``:func:`x```, ``{ref}`text <target>```) and hyperlink references (```text <url>`_``) keep
their text, Markdown links and images keep their text and alt (a destination in angle brackets
may hold parentheses; a link with no text reads as its target's words, as MyST shows its
title), autolinks their address, inline HTML tags (a tag name, then attributes:
``<YOUR_HOME>`` is a placeholder and stays), footnote marks, attribute lists (``{: #id }``,
``{ .class }``, not a Jinja ``{# comment #}``) and backslash escapes go, character references
outside code read as their character (``&nbsp;`` as a space, ``&amp;`` as ``&``), and
whitespace collapses.

Every step is linear in the length of the line, whatever it holds (128 KB of ``<``, 32 KB of
backticks): backtick runs are paired by one scan (`_code_spans`), and each remaining pattern's
body excludes its own opening mark, so a failed match stops at the next opener instead of
rescanning the rest of the line.
"""

from __future__ import annotations

import html
import re
from bisect import bisect_right
from collections import defaultdict
from typing import NamedTuple

_BACKTICKS = re.compile(r"`+")
_ROLE_BEFORE = re.compile(r"(?::[A-Za-z][\w.+-]*)+:$|\{[A-Za-z][\w.:+-]*\}$")
"""An rst role (``:py:func:``) or a MyST role (``{func}``) ending right before a backtick."""
_ROLE_LOOKBACK = 64
_TARGET_NAME = re.compile(r"[^<>\s]+|[^<>]+_")
"""A link target (``https://x``, ``pump-guide``), or the name of another target, which may hold
spaces (``Tidelift Subscription_``)."""
_BARE_BRACKET = re.compile(r"(?<!\\)[<>]")
"""An angle bracket no backslash escapes."""
_ESCAPE = re.compile(r"\\(?:\s|$)|\\(.)")
"""A backslash escape: an escaped space (or a backslash ending the text) is nothing, as in
docutils, any other escaped character is itself."""


def _target(inner: str) -> tuple[str, str] | None:
    r"""``text <target>`` inside a role, a hyperlink reference or rst interpreted text, or None.

    The target (`_TARGET_NAME`) closes the span and opens it or follows whitespace, as docutils
    reads it (``target_version=<version>`` is code with a placeholder in it, no target); the
    text (as written, "" for none) holds no bare angle bracket, but may escape one
    (``Adopt plugin \<name\> <url>``: `_unescaped` reads it). Found without a regex over
    the whole span, so a span of any length takes linear time.
    """
    if not inner.endswith(">") or inner.endswith("\\>"):
        return None
    start = inner.rfind("<")
    if start < 0 or not _TARGET_NAME.fullmatch(inner[start + 1 : -1]):
        return None
    text = inner[:start]
    if text.endswith("\\") or (text and not text[-1].isspace()) or _BARE_BRACKET.search(text):
        return None
    return text, inner[start + 1 : -1]


def _unescaped(text: str) -> str:
    """The text with its backslash escapes read (a role's or an rst reference's text)."""
    return _ESCAPE.sub(lambda m: m.group(1) or "", text)


_HIGHLIGHT_MARK = re.compile(r"^#![\w+-]+\s+")
"""The language mark opening an inline-highlighted code span (```#!python len(x)```, mkdocs'
pymdownx.inlinehilite): it says how to colour the code, and is no part of it."""
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_PRIVATE = str.maketrans("", "", "\ue000\ue001")
_UNDERSCORE_STRONG = (re.compile(r"(?<![\w_])__(?=\S)([^_\n]+?)(?<=\S)__(?![\w_])"), r"\1")
_UNDERSCORE_EMPHASIS = (re.compile(r"(?<![\w_])_(?=\S)([^_\n]+?)(?<=\S)_(?![\w_])"), r"\1")
"""Markdown's underscore emphasis (``__strong__``, ``_em_``); not reStructuredText's."""


def _link_text(match: re.Match[str]) -> str:
    """A Markdown link's text; a link without text reads as its target's words.

    MyST shows a text-less link (``see [](customizing.md)``, ``[](#typingany)``) as the
    target's title: the words of its fragment, else of its page's name, stand in for it, as a
    link role's bare label does (`_label_words`), so the sentence keeps its object ("see
    Customizing", not "see ."); an address (``[](https://...)``) is shown as itself.
    """
    text = match.group(1)
    if text.strip():
        return text
    target = match.group(2).strip("<> ")
    if "://" in target:
        return target  # an address is shown as itself
    path, _, fragment = target.partition("#")
    page = path.rstrip("/").rsplit("/", 1)[-1]
    return _label_words(fragment or page.rsplit(".", 1)[0])


def _label_words(label: str) -> str:
    """A label or page path as its words, capitalised as a title ("Pull request docs")."""
    words = _LABEL_SEPARATORS.sub(" ", label.rsplit("/", 1)[-1]).strip()
    return words[:1].upper() + words[1:]


_HARD_BREAK = (re.compile(r"\\ "), " ")
"""A backslash ending a Markdown line (a hard line break, the lines already joined by a space):
a break between words ("etc.\\" then "Recommended" reads "etc. Recommended", not run together)."""
_ESCAPED_SPACE = (re.compile(r"\\ "), "")
"""reStructuredText's escaped space ("``block``\\ s"): nothing, so the text around it joins."""
_INLINE = (
    (re.compile(r"!\[([^\[\]\n]*)\]\((?:<[^<>\n]*>[^()\n]*|[^()\n]*)\)"), r"\1"),  # image: alt
    (re.compile(r"\[([^\[\]\n]*)\]\((<[^<>\n]*>[^()\n]*|[^()\n]*)\)"), _link_text),  # link
    (re.compile(r"\[\^[^\[\]\s]+\]"), ""),  # footnote mark [^1]
    (re.compile(r"\[([^\[\]\n]+)\]\[[^\[\]\n]*\]"), r"\1"),  # reference link
    (re.compile(r"\{(?::[^{}\n]*|[ \t]*[#.][A-Za-z_][^{}\n]*(?<!#))\}"), ""),  # attribute list
    (re.compile(r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>"), r"\1"),  # autolink: its address
    (re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>"), " "),  # inline HTML tag
    (re.compile(r"(?<![\w*])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![\w*])"), r"\1"),  # strong
    _UNDERSCORE_STRONG,
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),  # emphasis
    _UNDERSCORE_EMPHASIS,
    _HARD_BREAK,
    (re.compile(r"\\([!-/:-@\[-`{-~])"), r"\1"),  # backslash escape of punctuation
)
_NAMED_REFERENCE = (
    re.compile(r"(?<![\w`])([A-Za-z0-9](?:[\w.+:-]{0,98}[A-Za-z0-9])?)__?(?=[\s.,;:!?)\]'\"]|$)"),
    r"\1",
)
"""A reStructuredText reference to a named target, a word and an underscore (``Docker_``,
``django_apscheduler_``; two for an anonymous one): the word, as docutils shows it. A name
opening with an underscore (``__init__``) is no reference; a name is at most 100 characters, so
a long run of name characters (``:a:a:a...``) is read in linear time."""
FOOTNOTE_LABEL = r"#[\w.:+-]*|\*|\d+|[A-Za-z][\w.:+-]*"
"""A footnote's or citation's label inside its brackets (``1``, ``#``, ``#note``, ``*``,
``CIT2002``, ``ISO:8601``), as docutils names them: the one syntax of a note
(`corpora.rst_blocks`) and of a reference to it."""
_FOOTNOTE_REFERENCE = (re.compile(rf"\s?(?<![\w\\])\[(?:{FOOTNOTE_LABEL})\]_(?!\w)"), "")
"""A reStructuredText footnote or citation reference (``[#f1]_``, ``[1]_``, ``[CIT2002]_``):
a mark pointing at a note, no words of the sentence."""
_RST_INLINE = (
    _FOOTNOTE_REFERENCE,
    *(
        _ESCAPED_SPACE if p is _HARD_BREAK else p
        for p in _INLINE
        if p not in (_UNDERSCORE_STRONG, _UNDERSCORE_EMPHASIS)
    ),
    _NAMED_REFERENCE,
)
"""What reStructuredText's inline markup is: Markdown's but for underscore emphasis, so
``__tablename__`` stays the name as written, and with a backslash before a space an escaped
space, which joins ("``block``\\ s" reads "blocks")."""
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
"""An HTML character reference (``&nbsp;``, ``&#8212;``): read as its character, as Markdown
renders it, except inside a code span."""
_NAMED_ROLES = {"pep": "PEP {}", "rfc": "RFC {}"}
_LINK_ROLES = frozenset({"ref", "doc", "numref"})
"""Roles whose bare target is a label or a page path (``:ref:`pull-request-docs```,
``:doc:`extending/index```): Sphinx shows the section's or page's title there, so the target
reads as its words, capitalised as a title is ("Pull request docs"), not as one hyphenated
token run into the sentence."""
_LABEL_SEPARATORS = re.compile(r"[-_/]+")
_INVENTORY = re.compile(r"^[A-Za-z][\w.-]*:(?=[^:\s])")
"""An intersphinx inventory name before a role's target (``:ref:`pytest:writinghooks```,
``:term:`python:argument```): it says which project's docs to link, and Sphinx does not show
it. A C++ scope (``ns::f``) has two colons and is kept, and so is the text of a role that shows
its target as written (``:samp:`http://x```): only cross-reference roles (`_INVENTORY_ROLES`)
take an inventory name."""
_INVENTORY_ROLES = frozenset(
    {*("ref", "doc", "term", "any", "obj", "mod", "func", "class", "meth", "attr", "data")}
    | {"exc", "const", "type"}
)


def clean_inline(text: str, rst: bool = False) -> str:
    """Remove inline markup from one line or paragraph; whitespace collapsed (linear time).

    `rst`: the text is reStructuredText, whose underscores mark no emphasis.
    """
    text = text.translate(_PRIVATE)
    kept: list[str] = []
    out: list[str] = []
    last = 0
    for span in _code_spans(text):
        markup_start, replacement = _span_text(text, span, rst)
        out.append(text[last:markup_start])
        out.append(f"\ue000{len(kept)}\ue001")
        kept.append(replacement)
        last = span.end
    out.append(text[last:])
    text = "".join(out)
    for pattern, repl in _RST_INLINE if rst else _INLINE:
        text = pattern.sub(repl, text)
    text = _ENTITY.sub(lambda m: html.unescape(m.group(0)), text)
    text = _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], text)
    return " ".join(text.split())


class _Span(NamedTuple):
    """A backtick span: where it starts and ends, its inner text, and whether it is ```x`_``."""

    start: int
    end: int
    inner: str
    reference: bool


def _code_spans(text: str) -> list[_Span]:
    """Each backtick span of `text`, in order, found in one pass over its backtick runs.

    A run of N backticks opens a span that the next run of exactly N backticks closes
    (CommonMark); a run with no partner is left as text. A ``_`` or ``__`` right after the
    closing run (an rst hyperlink reference) belongs to the span.
    """
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    by_length: dict[int, list[int]] = defaultdict(list)
    for index, (start, end) in enumerate(runs):
        by_length[end - start].append(index)
    spans: list[_Span] = []
    index = 0
    while index < len(runs):
        start, end = runs[index]
        same = by_length[end - start]
        position = bisect_right(same, index)
        if position == len(same):
            index += 1
            continue
        partner = same[position]
        close_start, close_end = runs[partner]
        tail = 2 if text.startswith("__", close_end) else int(text.startswith("_", close_end))
        spans.append(_Span(start, close_end + tail, text[end:close_start], tail > 0))
        index = partner + 1
    return spans


def _span_text(text: str, span: _Span, rst: bool = False) -> tuple[int, str]:
    """Where the span's markup begins (a role just before it counts) and the text it leaves.

    Only reStructuredText reads ``text <target>`` in a span without a role (interpreted text);
    in Markdown a code span is code, ``<placeholder>`` and all.
    """
    role = _ROLE_BEFORE.search(text, max(0, span.start - _ROLE_LOOKBACK), span.start)
    if role is not None:
        name = role.group(0).strip(":{}").split(":")[-1].lower()
        return role.start(), _role_text(name, span.inner)
    literal = text.startswith("``", span.start)  # an inline literal: its text as written
    target = _target(span.inner) if span.reference or (rst and not literal) else None
    if span.reference or (target and target[0].strip()):
        # a hyperlink reference, or rst interpreted text `text <target>`: the text
        shown = target[0] if target and target[0].strip() else span.inner
        return span.start, (_unescaped(shown) if rst else shown).strip()
    inner = span.inner
    if len(inner) > 2 and inner[0] == inner[-1] == " " and inner.strip():
        inner = inner[1:-1]  # CommonMark strips one space each side of a code span
    return span.start, _HIGHLIGHT_MARK.sub("", inner, count=1)


def _role_text(name: str, inner: str) -> str:
    """What a role shows: the text of ``text <target>``, else the target, as Sphinx shows it.

    ``~a.b`` shows ``b``; ``.a.b`` (a relative target) shows ``a.b``; an intersphinx inventory
    name before the target (`_INVENTORY`) is not shown; backslash escapes are read.

    A bare label or page of a link role (`_LINK_ROLES`) reads as its words, capitalised, its
    page's last part for a path ("extending/custom_error_handling" as "Custom error handling").
    """
    target = _target(inner)
    if target and target[0].strip():
        return _unescaped(target[0]).strip()
    shown = (target[1] if target else _unescaped(inner)).strip()
    shown = shown.lstrip("!").lstrip(".")  # "!": no link; ".": a relative target, shown without
    short = shown.startswith("~")  # "~": only the last part is shown
    shown = shown.lstrip("~")
    if name in _INVENTORY_ROLES:
        shown = _INVENTORY.sub("", shown, count=1)
    if short:
        shown = shown.rsplit(".", 1)[-1]
    if name in _LINK_ROLES and not target:
        return _label_words(shown)
    return _NAMED_ROLES[name].format(shown) if name in _NAMED_ROLES else shown
