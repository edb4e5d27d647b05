"""The short answer: the one candidate of the asked-for kind that the answer sentence holds.

A question asks for a kind (`question_kind`): a person ("who"), a place ("where"), a name
("which company", "what magazine"), a direction, a number, a percentage, an age ("how old"),
a duration ("how long"), a frequency ("how often"), a temperature, a date ("when"), yes or no
(an auxiliary first), or one of two named options. The answer's statements are read most of the
question first (`by_relevance`); the first holding a candidate of that kind that the question
(or the chain's bridge) does not already name decides: exactly one, and it is the short
answer; more, and the sentence stands alone (None). A candidate is never a sentence-initial
word (`reading.names`), a unit without its number, or a number of another quantity. Names are
read by `short_names` (and `short_doers`), numbers and times by `short_numbers`,
yes or no by `yes_no`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from graph.models.asked import OPENING_THING_RE
from graph.models.offline.reading import split_statements, words
from graph.models.offline.short_names import named
from graph.models.offline.short_numbers import dates, frequencies, quantities
from graph.models.offline.tuning.short_answers import (
    AUXILIARIES,
    CHOICE_RE,
    DIRECTION_RE,
    KIND_PATTERNS,
    LEADING_CLAUSE_RE,
    MEASURE_KINDS,
)
from graph.models.offline.yes_no import yes_or_no
from graph.models.support import question_terms
from tools.expand import stem


def question_kind(question: str) -> str | None:
    """The kind of answer asked for, or None when the question wants a sentence."""
    question = LEADING_CLAUSE_RE.sub("", question)
    if choice_options(question) is not None:
        return "choice"
    if (words(question) or [""])[0] in AUXILIARIES:
        return "yesno"
    opening = OPENING_THING_RE.match(question)
    for pattern, kind in KIND_PATTERNS:
        match = pattern.search(question)
        if match is None:
            continue
        if opening and kind in MEASURE_KINDS and match.start() >= opening.end():
            continue  # "Which object lets me limit how many ...": the object is asked
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
    unseen: Collection[str] = frozenset(),
) -> str | None:
    """The short answer from the answer's sentences, or None.

    `known` holds the words the question and the chain's bridge already name; `capitalised`
    the words the retrieved text writes capitalised mid-sentence; `unseen` the stems of the
    question's words no searched corpus holds (for `yes_or_no`). No bar on the sentences' own
    coverage: the support bar has gated the answer already (`tuning.short_answers`).
    """
    if kind is None or not answer:
        return None
    if kind == "yesno":
        return yes_or_no(question, answer, unseen)
    if kind == "choice":
        options = choice_options(question) or ("", "")
        held = [o for o in options if o and o.lower() in " ".join(answer).lower()]
        return held[0] if len(held) == 1 else None
    asked = {stem(w) for w in words(known)}
    for sentence in by_relevance(answer, {stem(t) for t in question_terms(known)}):
        found = list(dict.fromkeys(candidates(kind, sentence, asked, capitalised, question)))
        if found:
            return found[0] if len(found) == 1 else None
    return None


def by_relevance(answer: Sequence[str], terms: set[str]) -> list[str]:
    """The answer's statements holding a question word (of the stems `terms`), most first.

    On a tie a chain's later sentence comes first: the first links, the last answers.
    """
    pieces = split_statements(answer)
    held = [len({stem(w) for w in words(p)} & terms) for p in pieces]
    order = sorted(range(len(pieces)), key=lambda i: (-held[i], -i))
    return [pieces[i] for i in order if held[i]]


def candidates(
    kind: str, sentence: str, asked: set[str], capitalised: Collection[str], question: str
) -> list[str]:
    """The spans of `sentence` of the asked-for kind that the question does not name."""
    if kind in ("person", "place", "name"):
        return named(kind, sentence, asked, capitalised, question)
    if kind == "frequency":
        return frequencies(sentence, asked)
    if kind == "date":
        return dates(sentence, asked, question)
    if kind == "direction":
        return [
            m.group(0) for m in DIRECTION_RE.finditer(sentence) if stem(m.group(0)) not in asked
        ]
    return quantities(kind, sentence, asked, question)
