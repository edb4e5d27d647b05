"""Short answers that are numbers or times: a count, an amount, a duration, an age, a date.

A number keeps its unit ("16 weeks", "$100 million", "40 degrees") and a one-word modifier
before it ("over 1,600"); a multiplier spelled out joins it ("118 million"), and an article
before a unit of time is one ("a month"). It is never a
bare unit, never a year, and never a number of another quantity than the one asked: "how many
days" wants days, "how old" an age ("at age seven", "20 years old"), "what percentage" a
percent, "how long" a duration. A date keeps a one-word modifier before it ("late 2005");
"what year" wants the year of a full date, "what month" its month, and "what century" gets none
(no date gives a century). When some numbers or dates stand next to a question word ("more than
700 towers", "from the west in 1881 and from the east in 1882"), only those count, unless a
date is part of a time written in two parts ("every Saturday at 14:00").
"""

from __future__ import annotations

from dataclasses import dataclass

from graph.models.offline.reading import known, words
from graph.models.offline.tuning.numbers import (
    AGE_RE,
    ARTICLE_NUMBERS,
    CURRENCY_SIGNS,
    DATE_MODIFIERS,
    DATE_RE,
    FREQUENCY_RE,
    HOW_MANY_RE,
    LABEL_QUESTION_RE,
    LETTER_WORD_RE,
    MEASURE_RE,
    MONTH_RE,
    MULTIPLIER_WORDS,
    NUMBER_CONTEXT,
    NUMBER_MODIFIERS,
    NUMBER_RE,
    NUMBER_WORDS,
    OTHER_UNITS,
    PERCENT_UNITS,
    STATUS_QUESTION_RE,
    TEMPERATURE_UNITS,
    TIME_QUALIFIERS,
    TIME_RE,
    TIME_UNITS,
    UNIT_RE,
    UNREAD_PERIODS,
    YEAR_RE,
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
    """Every number of `sentence`, in order ("a" or "an" only before a unit of time).

    Never a year, a date's or a time's number, or a number opening a parenthesis (a
    conversion: "12,799 feet (3,901 m)").
    """
    spans = [(m.start(), m.group(0), False) for m in NUMBER_RE.finditer(sentence)]
    spans += [
        (m.start(), m.group(0), True)
        for m in LETTER_WORD_RE.finditer(sentence)
        if m.group(0).lower() in NUMBER_WORDS
        or m.group(0).lower() in ARTICLE_NUMBERS
        and (_unit(sentence[m.end() :]).split() or [""])[-1] in TIME_UNITS
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
    status = STATUS_QUESTION_RE.search(question) is not None
    found, typed = [], []
    for number in numbers(sentence):
        unit_word = number.unit.split()[-1].lower() if number.unit else ""
        if known(number.text, asked) or not _of_quantity(kind, number, unit_word, question):
            continue
        if status and not number.text.isdigit():
            continue  # a status or exit code is a whole number ("0.3" is a version)
        if unit_asked and not _counts(number, unit_asked):
            continue
        named = _counts(number, unit_asked & asked) or stem(unit_word) in asked
        bare = named and kind != "percent" or status  # named unit; "6.3 percent" stays
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
    if number.spelled and LABEL_QUESTION_RE.search(question):
        return False  # "what exit code": a code is written in digits; "two options" counts
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
        if (age.isdigit() or age.lower() in NUMBER_WORDS) and not known(age, asked):
            found.append(age)
    return found


def _with_unit(number: Number) -> str:
    """The number and its unit as written ("16 weeks", "two-year")."""
    if not number.unit:
        return number.text
    return f"{number.text}{'-' if number.joined else ' '}{number.unit}"


def _unit(rest: str) -> str:
    """The unit right after a number ("weeks", "year" of "-year", "working days").

    A qualifier before a unit of time joins it (`TIME_QUALIFIERS`): "five working days" is a
    duration, "a rainy day" is not.
    """
    match = UNIT_RE.match(rest)
    if match is None:
        return ""
    first, second = match.group(1), match.group(2)
    if first.lower() in FUNCTION_WORDS:
        return ""
    if second and second.lower() in TIME_UNITS and first.lower() in TIME_QUALIFIERS:
        return f"{first} {second}"  # "business days", "working days"
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
    found = [(at, s.strip()) for at, s in sorted(found) if not known(s, asked)]
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
    return [m.group(0) for m in FREQUENCY_RE.finditer(sentence) if not known(m.group(0), asked)]


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
