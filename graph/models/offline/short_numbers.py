"""Short answers that are numbers: a count, an amount, a duration, an age, a temperature.

A number keeps its unit ("16 weeks", "$100 million", "40 degrees") and a one-word modifier
before it ("over 1,600"); a multiplier spelled out joins it ("118 million"). It is never a
bare unit, never a year, and never a number of another quantity than the one asked: "how many
days" wants days, "how old" an age ("at age seven", "20 years old"), "what percentage" a
percent, "how long" a duration.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.models.offline.reading import words
from graph.models.offline.tuning.short_answers import (
    DATE_RE,
    HOW_MANY_RE,
    LETTER_WORD_RE,
    NUMBER_RE,
    NUMBER_WORDS,
    OTHER_UNITS,
    TEMPERATURE_UNITS,
    TIME_RE,
    TIME_UNITS,
    UNIT_RE,
    YEAR_RE,
)
from graph.models.offline.tuning.spans import (
    AGE_RE,
    CURRENCY_SIGNS,
    MEASURE_RE,
    MULTIPLIER_WORDS,
    NOT_UNITS,
    NUMBER_CONTEXT,
    NUMBER_MODIFIERS,
    PERCENT_UNITS,
)
from graph.models.support import FUNCTION_WORDS
from tools.expand import stem


@dataclass(frozen=True)
class Number:
    """A number as the sentence writes it, with its modifier, and the unit after it."""

    text: str
    """The number with its modifier and multiplier ("over 118 million")."""
    unit: str
    """The unit after it ("records", "business days"), or ""."""
    joined: bool
    """Whether the unit is hyphenated to it ("two-year")."""
    spelled: bool
    """Whether the number is a word ("seven")."""
    near: list[str]
    """The two words after it and `NUMBER_CONTEXT` before: a question word among them types
    it ("700 towers", "a focal depth of 19 km")."""


def numbers(sentence: str) -> list[Number]:
    """Every number of `sentence`, in order.

    Never a year, a date's or a time's number, or a number opening a parenthesis (a
    conversion: "12,799 feet (3,901 m)").
    """
    spans = [(m.start(), m.group(0), False) for m in NUMBER_RE.finditer(sentence)]
    spans += [
        (m.start(), m.group(0), True)
        for m in LETTER_WORD_RE.finditer(sentence)
        if m.group(0).lower() in NUMBER_WORDS
    ]
    dated = [m.span() for r in (DATE_RE, TIME_RE) for m in r.finditer(sentence)]
    found = []
    taken = -1
    for start, number, spelled in sorted(spans):
        if start < taken or YEAR_RE.match(number) or any(a <= start < b for a, b in dated):
            continue
        rest = sentence[start + len(number) :]
        multiplier = (words(rest) or [""])[0]
        if multiplier in MULTIPLIER_WORDS and rest[: len(rest) - len(rest.lstrip())] == " ":
            number = f"{number} {rest.lstrip()[: len(multiplier)]}"
            rest = rest.lstrip()[len(multiplier) :]
        taken = start + len(number)
        if spelled and number.lower() in MULTIPLIER_WORDS or sentence[:start].endswith("("):
            continue  # "hundred", "dozen" alone count nothing
        before = (words(sentence[:start]) or [""])[-1]
        text = (
            f"{sentence[start - len(before) - 1 : start]}{number}"
            if before in NUMBER_MODIFIERS
            else number
        )
        joined = rest.startswith("-")
        unit = "" if number[0] in CURRENCY_SIGNS else _unit(rest)  # "$215 million development"
        near = words(rest)[:2] + words(sentence[:start])[-NUMBER_CONTEXT:]
        found.append(Number(text.strip(), unit, joined and bool(unit), spelled, near))
    return found


def quantities(kind: str, sentence: str, asked: set[str], question: str) -> list[str]:
    """The numbers of `sentence` of the quantity asked for, as the answer gives them.

    A unit the question already names is left out ("how many days": 30, not "30 days"); when
    some numbers stand next to a question word ("more than 700 towers"), or to the measure
    the question names ("a depth of 19 km"), only those count.
    """
    if kind == "age":
        return ages(sentence, asked)
    unit_asked = _unit_asked(question)
    measure = MEASURE_RE.search(question)
    keys = {stem(measure.group(2).lower())} if measure and measure.group(2) else asked
    found, typed = [], []
    for number in numbers(sentence):
        unit_word = number.unit.split()[-1].lower() if number.unit else ""
        if _known(number.text, asked) or not _of_quantity(kind, number, unit_word, question):
            continue
        if unit_asked and not _counts(number, unit_asked):
            continue
        named = _counts(number, unit_asked & asked) or stem(unit_word) in asked
        bare = named and kind != "percent"  # the question names the unit; "6.3 percent" stays
        found.append(number.text if bare else _with_unit(number))
        if any(stem(w) in keys for w in number.near if w not in FUNCTION_WORDS):
            typed.append(found[-1])
    return typed or found


def _of_quantity(kind: str, number: Number, unit_word: str, question: str) -> bool:
    """Whether `number` (its unit last word `unit_word`) measures what `kind` asks for."""
    if kind == "duration":
        return unit_word in TIME_UNITS
    if kind == "temperature":
        return "°" in number.text or unit_word in TEMPERATURE_UNITS
    if kind == "percent":
        return "%" in number.text or unit_word in PERCENT_UNITS
    if number.spelled and not number.unit:
        return False  # "one of the ...": a spelled number counts only with its noun
    if unit_word and _counts(number, _unit_asked(question)):
        return True  # "how many years": 3 years
    if unit_word in TIME_UNITS:
        return False  # a duration is no count and no measure ("the plan spanned 3 years")
    other = unit_word in OTHER_UNITS or "°" in number.text or "%" in number.text
    return not other or bool(MEASURE_RE.search(question))


def ages(sentence: str, asked: set[str]) -> list[str]:
    """The ages `sentence` gives ("at age seven", "aged 20", "20 years old")."""
    found = []
    for match in AGE_RE.finditer(sentence):
        age = match.group("n") or match.group("m")
        if (age.isdigit() or age.lower() in NUMBER_WORDS) and not _known(age, asked):
            found.append(age)
    return found


def _with_unit(number: Number) -> str:
    """The number and its unit as written ("16 weeks", "two-year")."""
    if not number.unit:
        return number.text
    return f"{number.text}{'-' if number.joined else ' '}{number.unit}"


def _unit(rest: str) -> str:
    """The unit right after a number ("business days", "weeks", "year" of "-year")."""
    match = UNIT_RE.match(rest)
    if match is None:
        return ""
    first, second = match.group(1), match.group(2)
    if first.lower() in FUNCTION_WORDS or first.lower() in NOT_UNITS:
        return ""
    if first.lower() == "business" and second:
        return f"{first} {second}"
    return first


def _unit_asked(question: str) -> set[str]:
    """The stems of the words "how many" counts ("how many undergrad students"), or none."""
    match = HOW_MANY_RE.search(question)
    if match is None or match.group(1).lower() in FUNCTION_WORDS:
        return set()  # "how many of X's towers": no noun right after
    return {stem(w.lower()) for w in match.groups() if w and w.lower() not in FUNCTION_WORDS}


def _counts(number: Number, unit_asked: set[str]) -> bool:
    """Whether one of the two words after `number` is what "how many" counts.

    A word counts when its stem and an asked one begin alike ("undergrad", "undergraduates";
    "14 female dorms").
    """
    after = [stem(w) for w in number.near[:2]]
    return any(a.startswith(u) or u.startswith(a) for a in after for u in unit_asked if a and u)


def _known(span: str, asked: set[str]) -> bool:
    """Whether every word of `span` is one the question already holds."""
    tokens = words(span)
    return bool(tokens) and all(stem(t) in asked for t in tokens)
