"""An answer's text split finer than sentences, for reading a short answer out of it.

`statements` splits at every sentence end, also before a lowercase word ("... PyPy. attrs
doesn't"), but never after an abbreviation or an initial ("C. W. Grafton"); `clauses` splits a
statement into its clauses' words and cuts each at a condition ("if ...", "unless ...").
"""

from __future__ import annotations

from collections.abc import Iterable

from graph.models.offline.reading import words
from graph.models.offline.tuning.reading import ABBREVIATION_RE
from graph.models.offline.tuning.yes_no import (
    CLAUSE_BREAK_RE,
    CONDITION_WORDS,
    CONTRACTION_RE,
    STATEMENT_BREAK_RE,
)


def statements(texts: Iterable[str]) -> list[str]:
    """Every statement of `texts`, in order."""
    found: list[str] = []
    for text in texts:
        merged: list[str] = []
        for piece in STATEMENT_BREAK_RE.split(text.strip()):
            if merged and ABBREVIATION_RE.search(merged[-1]):
                merged[-1] = f"{merged[-1]} {piece}"
            elif piece.strip():
                merged.append(piece)
        found += merged
    return found


def clauses(text: str) -> list[list[str]]:
    """The words of each clause of `text`, each cut at the first word opening a condition.

    Words are lowercased and "n't" read as "not".
    """
    found = []
    for part in CLAUSE_BREAK_RE.split(CONTRACTION_RE.sub(r"\1 not", text.lower())):
        tokens = words(part)
        cut = next((i for i, w in enumerate(tokens) if w in CONDITION_WORDS), len(tokens))
        found.append(tokens[:cut])
    return found
