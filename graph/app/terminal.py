r"""Text made safe for a terminal: control and format characters shown, never obeyed.

Questions, model output, corpus ids and error messages are untrusted. Printed raw, an escape
sequence could retitle the window, clear the screen or recolour the output, and a bidi
override (U+202E) could reorder what the reader sees. Everything the CLI prints goes through
`safe_text` (plain lines), `safe_json` (``--json`` output) or `safe_markup` (rich widgets).

A C0/C1 control shows as its Python escape (``ESC`` -> ``\x1b``, CR -> ``\r``); a format,
separator, surrogate or unassigned character shows as ``<U+202E>``. Newline and tab are kept
unless `one_line`; zero-width joiners (emoji, Persian) are kept.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

KEPT_FORMAT = frozenset("\u200c\u200d")  # zero-width non-joiner / joiner: shape text only
SHOWN_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Cs", "Cn"})
ELLIPSIS = "…"


def _shown(char: str, one_line: bool) -> str:
    """One character as printed: itself, or a visible stand-in."""
    if char in "\n\t":
        return " " if one_line else char
    if char.isprintable() or char in KEPT_FORMAT:
        return char
    category = unicodedata.category(char)
    if category == "Cc":
        return repr(char)[1:-1]
    if category in SHOWN_CATEGORIES:
        return f"<U+{ord(char):04X}>"
    return char  # other spaces and private-use characters draw as themselves


def safe_text(text: Any, one_line: bool = False) -> str:
    """`text` (made a string) with every control or format character rendered visibly.

    With `one_line`, newlines and tabs become spaces too.
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(_shown(char, one_line) for char in text)


def _json_escape(char: str) -> str:
    r"""A character as JSON writes it: itself when harmless, else a `\uXXXX` escape."""
    if _shown(char, one_line=False) == char:
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # an astral character: a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def safe_json(value: Any) -> str:
    r"""`value` as one line of JSON (non-ASCII readable) with no raw control/format characters.

    JSON already escapes C0 controls; C1 controls, bidi overrides and the like are escaped
    here as `\uXXXX`, so the text decodes to exactly the same value.
    """
    text = json.dumps(value, ensure_ascii=False, default=str)
    if text.isprintable():
        return text
    return "".join(_json_escape(char) for char in text)


def safe_markup(text: Any) -> str:
    """`text` for a rich widget that reads markup: rendered safe, one line, brackets escaped."""
    from rich.markup import escape

    return escape(safe_text(text, one_line=True))


def cut(text: str, width: int) -> str:
    """`text` cut to at most `width` terminal cells, ending in `…` when cut."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return set_cell_size(text, width - 1).rstrip() + ELLIPSIS
