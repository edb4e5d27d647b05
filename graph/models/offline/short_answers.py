"""The short answer: the one candidate of the asked-for kind that the answer sentence holds.

A question asks for a kind (`question_kind`): a person ("who"), a place ("where"), a name
("which company"), a number, a duration ("how long"), a frequency ("how often"), a
temperature, a date ("when"), yes or no (an auxiliary first), or one of two named options.
The short answer is set only when the answering sentence holds exactly one candidate of that
kind that the question (or the chain's bridge) does not already name; otherwise it is None and
the sentence stands alone. A candidate is never a sentence-initial word (`reading.names`), a
unit without its number, or a number of another quantity.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graph.models.offline.reading import names, words
from graph.models.offline.tuning import (
    AUXILIARIES,
    CHOICE_RE,
    DATE_RE,
    FREQUENCY_RE,
    GROUP_NOUNS,
    HOW_MANY_RE,
    KIND_PATTERNS,
    LETTER_WORD_RE,
    NUMBER_RE,
    NUMBER_WORDS,
    OTHER_UNITS,
    PERSON_LEADS,
    PLACE_NOUNS,
    TEMPERATURE_UNITS,
    TIME_RE,
    TIME_UNITS,
    UNIT_RE,
    YEAR_RE,
)
from graph.models.offline.yes_no import yes_or_no
from graph.models.support import FUNCTION_WORDS
from tools.expand import stem


def question_kind(question: str) -> str | None:
    """The kind of answer asked for, or None when the question wants a sentence."""
    if choice_options(question) is not None:
        return "choice"
    if (words(question) or [""])[0] in AUXILIARIES:
        return "yesno"
    for pattern, kind in KIND_PATTERNS:
        if pattern.search(question):
            return kind
    return None


def choice_options(question: str) -> tuple[str, str] | None:
    """The two options of "..., X or Y?" or "between X and Y", or None."""
    if " or " not in question.lower() and "between" not in question.lower():
        return None
    match = CHOICE_RE.search(question)
    if match is None:
        return None
    a, b = (match.group(g).strip(" \"'") for g in ("a", "b"))
    return (a, b) if a and b else None


def short_answer(
    question: str,
    kind: str | None,
    answer: Sequence[str],
    known: str,
    capitalised: Collection[str],
    covered: float,
) -> str | None:
    """The short answer from the answer's sentences, or None.

    `known` holds the words the question and the chain's bridge already name; `capitalised`
    the words the retrieved text writes capitalised mid-sentence; `covered` the share of the
    question's weight the answer sentences hold. A yes or no is read by `yes_no.yes_or_no`.
    """
    if kind is None or not answer:
        return None
    if kind == "yesno":
        return yes_or_no(question, answer)
    if kind == "choice":
        options = choice_options(question) or ("", "")
        named = [o for o in options if o and o.lower() in " ".join(answer).lower()]
        return named[0] if len(named) == 1 else None
    asked = {stem(w) for w in words(known)}
    for sentence in reversed(answer):  # a chain's last sentence answers; the first links
        found = list(dict.fromkeys(candidates(kind, sentence, asked, capitalised, question)))
        if found:
            return found[0] if len(found) == 1 else None
    return None


def candidates(
    kind: str, sentence: str, asked: set[str], capitalised: Collection[str], question: str
) -> list[str]:
    """The spans of `sentence` of the asked-for kind that the question does not name."""
    if kind in ("person", "place", "name"):
        return named(kind, sentence, asked, capitalised)
    if kind == "frequency":
        return [
            m.group(0) for m in FREQUENCY_RE.finditer(sentence) if not _known(m.group(0), asked)
        ]
    if kind == "date":
        spans = [m.group(0) for m in TIME_RE.finditer(sentence)]
        spans += [m.group(0) for m in DATE_RE.finditer(sentence) if not _inside(m.group(0), spans)]
        spans = [s.strip() for s in spans if not _known(s, asked)]
        if "year" in words(question):  # "what year": the year of a full date
            return [w for s in spans for w in s.split() if YEAR_RE.match(w.strip(","))]
        return spans
    return quantities(kind, sentence, asked, question)


def named(kind: str, sentence: str, asked: set[str], capitalised: Collection[str]) -> list[str]:
    """Names of the asked-for kind that are new to the question.

    A person is not followed by a place or group noun; a place is followed by a place noun or
    follows "in", "at" or "from".
    """
    found = []
    for name in names(sentence, capitalised):
        tokens = words(name.text)
        if not tokens or sum(stem(t) in asked for t in tokens) * 2 >= len(tokens):
            continue
        after = (words(sentence[name.end :]) or [""])[0]
        before = (words(sentence[: name.start]) or [""])[-1:]
        place = after in PLACE_NOUNS or bool(before) and before[0] in ("in", "at", "from", "near")
        group = after in GROUP_NOUNS
        if kind == "person" and (place or group or DATE_RE.fullmatch(name.text)):
            continue
        if kind == "person" and len(tokens) == 1 and not (before and before[0] in PERSON_LEADS):
            continue  # one capitalised word is a person only as the doer ("built by Voltline")
        if kind == "place" and not place:
            continue
        if kind == "name" and (place or DATE_RE.fullmatch(name.text)):
            continue
        found.append(name.text)
    return found


def quantities(kind: str, sentence: str, asked: set[str], question: str) -> list[str]:
    """Numbers with their unit, of the quantity asked for (never a bare unit, never a year)."""
    unit_asked = _unit_asked(question)
    found = []
    spans = [(m.start(), m.group(0)) for m in NUMBER_RE.finditer(sentence)]
    spans += [
        (m.start(), m.group(0))
        for m in LETTER_WORD_RE.finditer(sentence)
        if m.group(0).lower() in NUMBER_WORDS
    ]
    for start, number in sorted(spans):
        if YEAR_RE.match(number) or _known(number, asked):
            continue
        rest = sentence[start + len(number) :]
        unit = _unit(rest)
        full = f"{number}{rest[: len(rest) - len(rest.lstrip())]}{unit}".strip() if unit else number
        if rest.startswith("-") and unit:
            full = f"{number}-{unit}"
        unit_word = unit.split()[-1].lower() if unit else ""
        if unit and stem(unit_word) in asked and kind == "number":
            full = number  # "how many stories": 14, not "14-story"
        if kind == "duration" and unit_word not in TIME_UNITS:
            continue
        if kind == "temperature" and not (
            "°" in number or unit_word in TEMPERATURE_UNITS or unit_word in ("c", "f")
        ):
            continue
        if kind == "number":
            if unit_asked and stem(unit_word) != stem(unit_asked):
                continue
            if (
                not unit_asked
                and (unit_word in OTHER_UNITS or "°" in number)
                and "much" not in question.lower()
            ):
                continue
        found.append(full)
    return found


def _unit(rest: str) -> str:
    """The unit right after a number ("business days", "weeks", "year" of "-year")."""
    match = UNIT_RE.match(rest)
    if match is None:
        return ""
    first, second = match.group(1), match.group(2)
    if first.lower() in FUNCTION_WORDS:
        return ""
    if first.lower() == "business" and second:
        return f"{first} {second}"
    return first


def _unit_asked(question: str) -> str:
    """The noun of "how many <noun>" ("days"), or ""."""
    match = HOW_MANY_RE.search(question)
    return match.group(1) if match and match.group(1).lower() not in FUNCTION_WORDS else ""


def _known(span: str, asked: set[str]) -> bool:
    """Whether every word of `span` is one the question already holds."""
    tokens = words(span)
    return bool(tokens) and all(stem(t) in asked for t in tokens)


def _inside(span: str, spans: Sequence[str]) -> bool:
    """Whether `span` is part of one of `spans` (a time already taken)."""
    return any(span in other for other in spans)
