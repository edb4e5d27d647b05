r"""A pattern for the spans of requests that a set of argument values were taken from.

The values are cut into runs of capitals, small letters, digits and single other characters.
Values whose runs have the same classes in the same order share one pattern: a run that is the
same text in every value stays literal (``RD``), digits become ``\d{n}`` (``\d{m,n}`` when the
lengths differ), letters ``[A-Z]{n}`` or ``[a-z]{n}``; several orders of classes give an
alternation. The pattern is matched between non-alphanumerics, like the offline policy's
identifier shapes (``graph.models.offline.schemas.shape_of``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

RUN_RE = re.compile(r"[A-Z]+|[a-z]+|\d+|.", re.DOTALL)
EDGE_START = r"(?<![A-Za-z0-9])"
EDGE_END = r"(?![A-Za-z0-9])"


def runs_of(value: str) -> list[tuple[str, str]]:
    """``RD-40213`` -> ``[("A", "RD"), ("-", "-"), ("9", "40213")]``."""
    found = []
    for match in RUN_RE.finditer(value):
        text = match.group()
        if text.isdigit():
            found.append(("9", text))
        elif text.isupper() and text.isalpha():
            found.append(("A", text))
        elif text.islower() and text.isalpha():
            found.append(("a", text))
        else:
            found.append((text, text))
    return found


SPECIAL = set(".^$*+?{}[]\\|()")
"""Characters a literal must escape in a pattern."""


def literal(text: str) -> str:
    """`text` as a pattern that matches it (escaped only where a character is special)."""
    return "".join(f"\\{c}" if c in SPECIAL else c for c in text)


def _part(kind: str, texts: Sequence[str]) -> str:
    """One run's piece of the pattern, over the texts the values have there."""
    if len(set(texts)) == 1 and kind != "9":
        return literal(texts[0])
    lengths = sorted({len(text) for text in texts})
    count = f"{{{lengths[0]}}}" if len(lengths) == 1 else f"{{{lengths[0]},{lengths[-1]}}}"
    return {"9": r"\d", "A": "[A-Z]", "a": "[a-z]"}.get(kind, literal(kind)) + count


def induce(values: Sequence[str]) -> str | None:
    """The pattern covering `values` (see the module docstring); None for no usable value."""
    groups: dict[tuple[str, ...], list[list[str]]] = {}
    for value in dict.fromkeys(v for v in values if v.strip()):
        runs = runs_of(value)
        groups.setdefault(tuple(kind for kind, _ in runs), []).append([t for _, t in runs])
    if not groups:
        return None
    bodies = []
    for kinds, members in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        bodies.append("".join(_part(kind, [m[i] for m in members]) for i, kind in enumerate(kinds)))
    body = bodies[0] if len(bodies) == 1 else "(?:" + "|".join(bodies) + ")"
    return EDGE_START + body + EDGE_END


def first_span(pattern: str, text: str) -> str | None:
    """The first span of `text` the pattern finds, or None."""
    match = re.search(pattern, text)
    return match.group() if match else None
