"""Short answers that are times: a date, a year, a month, a clock time, a frequency.

A date keeps a one-word modifier before it ("late 2005"); "what year" wants the year of a full
date, "what month" its month, and "what century" gets none (no date gives a century). When
some dates stand right after a question word ("reached Montana from the west in 1881 and from
the east in 1882"), only those count, unless one is part of a time written in two parts
("every Saturday at 14:00").
"""

from __future__ import annotations

from graph.models.offline.reading import words
from graph.models.offline.tuning.short_answers import DATE_RE, FREQUENCY_RE, TIME_RE, YEAR_RE
from graph.models.offline.tuning.spans import (
    DATE_MODIFIERS,
    MONTH_RE,
    NUMBER_CONTEXT,
    UNREAD_PERIODS,
)
from graph.models.support import FUNCTION_WORDS
from tools.expand import stem


def dates(sentence: str, asked: set[str], question: str) -> list[str]:
    """The times and dates of `sentence` the question asks for and does not name."""
    asked_for = set(words(question))
    if asked_for & UNREAD_PERIODS:
        return []  # "what century": a date is no answer, and the century is not read
    found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in TIME_RE.finditer(sentence)]
    taken = [m.span() for m in TIME_RE.finditer(sentence)]
    for match in DATE_RE.finditer(sentence):
        if not any(a <= match.start() < b for a, b in taken):
            found.append((match.start(), _with_modifier(sentence, match.start(), match.group(0))))
    found = [(at, s.strip()) for at, s in sorted(found) if not _known(s, asked)]
    if "year" in asked_for:  # "what year": the year of a full date
        found = [(at, w) for at, s in found for w in s.split() if YEAR_RE.match(w.strip(","))]
    elif "month" in asked_for:
        found = [(at, m.group(0)) for at, s in found for m in MONTH_RE.finditer(s)]
    typed = [(at, s) for at, s in found if _after_question_word(sentence[:at], asked)]
    if any(_joined(sentence, t, f) for t in typed for f in found if f != t):
        typed = []  # "every Saturday at 14:00": one time in two parts, no part alone
    return [s for _, s in typed or found]


def frequencies(sentence: str, asked: set[str]) -> list[str]:
    """The frequencies of `sentence` ("every night", "twice a week") the question does not name."""
    return [m.group(0) for m in FREQUENCY_RE.finditer(sentence) if not _known(m.group(0), asked)]


def _with_modifier(sentence: str, start: int, date: str) -> str:
    """`date` with the modifier written before it ("late 2005"), if any."""
    before = sentence[:start].split()[-1:]
    return f"{before[0]} {date}" if before and before[0].lower() in DATE_MODIFIERS else date


def _after_question_word(before: str, asked: set[str]) -> bool:
    """Whether a question word is among the content words just before a date."""
    near = [w for w in words(before)[-NUMBER_CONTEXT:] if w not in FUNCTION_WORDS]
    return any(stem(w) in asked for w in near)


def _joined(sentence: str, a: tuple[int, str], b: tuple[int, str]) -> bool:
    """Whether two times of `sentence` are written as one ("Saturday at 14:00")."""
    (first, text), (second, _) = sorted((a, b))
    return len(words(sentence[first + len(text) : second])) <= 1


def _known(span: str, asked: set[str]) -> bool:
    """Whether every word of `span` is one the question already holds."""
    tokens = words(span)
    return bool(tokens) and all(stem(t) in asked for t in tokens)
