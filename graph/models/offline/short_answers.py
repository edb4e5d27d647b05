"""The short answer a question asks for, read from the sentence that answers it.

A name ("who ...", "which company ..."), a number or date ("how many", "when", "what year"),
yes or no ("are both ...", "is ..."), or one of two options ("who is older, X or Y?") is
answered with just that; anything else (an explanation) keeps the whole sentence. The
supporting sentence stays in the thought and the citations either way.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from graph.models.offline.actions import Hit
from graph.models.offline.reading import content_terms, names, sentences, stems, words
from graph.models.offline.tuning import (
    AUXILIARIES,
    EARLIER_WORDS,
    KNOWN_NAME_SHARE,
    LATER_WORDS,
    NAME_QUESTION_NOUN_LIMIT,
    NUMBER_WORDS,
    PROPERTY_SHARE,
    STOPWORDS,
    UNIT_WORDS,
)
from tools.expand import stem

MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
NUMBER_SPAN_RE = re.compile(
    rf"(?:\d{{1,2}}\s+)?{MONTH}\s+(?:\d{{1,2}},?\s+)?\d{{4}}|{MONTH}\s+\d{{4}}"
    r"|\d[\d,]*(?:\.\d+)?(?:\s*(?:to|-|–)\s*\d[\d,]*(?:\.\d+)?)?"
    r"(?:\s+(?:million|billion|thousand|hundred))?",
)
HYPHEN_UNIT_RE = re.compile(r"-[A-Za-z]+\b")
"""A unit joined to its number by a hyphen ("two-year", "30-day"): one word, kept whole."""
QUANTITY_RE = re.compile(r"\bhow (many|much|long|old|far|often|tall|big|large)\b", re.I)
"""A question asking for a quantity, whose answer keeps the number's unit ("16 weeks")."""
YEAR_RE = re.compile(r"\b(1\d{3}|20\d{2})\b")
CHOICE_RE = re.compile(
    r"(?:,|:|\bbetween)\s*(?P<a>[^,?:]+?)\s+(?:or|and)\s+(?P<b>[^,?:]+?)\s*\??\s*$", re.I
)
NAME_QUESTION_RE = re.compile(
    rf"\b(?:what|which)\s+(?:[\w'-]+\s+){{1,{NAME_QUESTION_NOUN_LIMIT}}}?"
    r"(?:is|was|are|were|did|does|do|has|had|can|could|would|will|[a-z]+ed|[a-z]+s)\b",
    re.I,
)


NAME_OF_RE = re.compile(r"\bthe name of\b", re.I)
ASKED_AT_END_RE = re.compile(
    r"\b(?:what|which)\s+(?!(?:is|was|are|were|'s)\b)(?:[\w-]+\s+){0,2}[\w-]+\s*\?\s*$", re.I
)
EXPLAIN_RE = re.compile(r"\bwhat (is|was|are)\b", re.I)


def question_form(question: str, kind: str) -> str:
    """The form the answer should take: yesno, choice, number, name or sentence."""
    first = (words(question) or [""])[0]
    if " or " in question.lower() and choice_options(question) is not None:
        return "choice"
    if first in AUXILIARIES:
        return "yesno"
    if kind in ("number", "name"):
        return kind
    head = re.match(r"\s*(?:in|at|on|for|from|by|of)?\s*(what|which)\s+(\w+)", question, re.I)
    if head and head.group(2).lower() not in AUXILIARIES | {"'s"}:
        return "name"
    if NAME_OF_RE.search(question) or ASKED_AT_END_RE.search(question):
        return "name"  # "the name of ...", "... in what county?", "... by which company?"
    if NAME_QUESTION_RE.search(question) and not EXPLAIN_RE.search(question):
        return "name"
    return "sentence"


def choice_options(question: str) -> tuple[str, str] | None:
    """The two options of "..., X or Y?", "between X and Y" or "<name> or <name>", or None."""
    match = CHOICE_RE.search(question)
    if match is None:
        found = names(question)
        for left, right in zip(found, found[1:], strict=False):
            if question[left.end : right.start].strip().lower() == "or":
                return left.text, right.text
        return None
    a, b = (match.group(g).strip(" \"'") for g in ("a", "b"))
    return (a, b) if a and b else None


def short_answer(
    question: str, kind: str, sentence: str, known: str, hits: Sequence[Hit]
) -> str | None:
    """The short answer to `question` from `sentence` (and `hits`), or None to keep the sentence."""
    form = question_form(question, kind)
    if form == "choice":
        return choose(question, sentence, hits)
    if form == "yesno":
        return yes_or_no(question, hits)
    if form == "number":
        return number_in(sentence, known)
    if form == "name":
        titles = {str(h.get("title") or "").lower() for h in hits} - {""}
        return name_in(sentence, known, titles)
    return None


def number_in(sentence: str, known: str) -> str | None:
    """The first number, date or number word in `sentence` that the question does not give."""
    asked = {stem(w) for w in words(known)}
    spans = [
        (m.start(), m.group(0).strip(" ,"))
        for m in NUMBER_SPAN_RE.finditer(sentence)
        if not all(stem(w) in asked for w in words(m.group(0)))
    ]
    spans += [
        (m.start(), m.group(0))
        for m in re.finditer(r"[A-Za-z]+", sentence)
        if m.group(0).lower() in NUMBER_WORDS and stem(m.group(0).lower()) not in asked
    ]
    if not spans:
        return None
    start, text = min(spans)
    joined = HYPHEN_UNIT_RE.match(sentence, start + len(text))
    if joined:  # "a two-year guarantee": the unit is part of the word, and what follows is not
        return text + joined.group(0)
    if QUANTITY_RE.search(known):  # "how long": "16 weeks", not "16"
        following = re.match(rf"(?:\s+[a-z]+\b){{1,{UNIT_WORDS}}}", sentence[start + len(text) :])
        for word in following.group(0).split() if following else []:
            if word in STOPWORDS:
                break
            text = f"{text} {word}"
    return text


def name_in(sentence: str, known: str, titles: Collection[str] = ()) -> str | None:
    """The capitalised name in `sentence`, mostly new to the question, that best answers it.

    A name that titles a retrieved passage (an entity the corpus knows) comes first; a single
    capitalised word opening the sentence ("Robots in ...") last; then sentence order.
    """
    asked = {stem(w) for w in words(known)}
    found = []
    for name in names(sentence):
        tokens = words(name.text)
        if not tokens or sum(stem(t) in asked for t in tokens) >= KNOWN_NAME_SHARE * len(tokens):
            continue
        opening = name.start == 0 and len(tokens) == 1
        found.append((name.text.lower() not in titles, opening, name.start, name.text))
    return min(found)[3] if found else None


def passages_about(option: str, hits: Sequence[Hit]) -> list[str]:
    """Texts of the retrieved passages titled after, or naming, `option`."""
    wanted = option.lower()
    found = []
    for hit in hits:
        title = str(hit.get("title") or "").lower()
        text = str(hit.get("text", ""))
        if (
            title and (wanted in title or title.split(" (")[0] in wanted)
        ) or wanted in text.lower():
            found.append(text)
    return found


def choose(question: str, sentence: str, hits: Sequence[Hit]) -> str | None:
    """One of the two options: by date for older/younger questions, else by the evidence."""
    options = choice_options(question)
    if options is None:
        return None
    asked = set(words(question))
    if asked & (EARLIER_WORDS | LATER_WORDS):
        years = [first_year(passages_about(option, hits)) for option in options]
        if all(y is not None for y in years) and years[0] != years[1]:
            earlier = options[0] if years[0] < years[1] else options[1]  # type: ignore[operator]
            later = options[1] if earlier == options[0] else options[0]
            return earlier if asked & EARLIER_WORDS else later
    in_sentence = [o for o in options if o.lower() in sentence.lower()]
    if len(in_sentence) == 1:
        return in_sentence[0]
    rest = stems(question) - stems(" ".join(options))
    scores = [
        max((len(stems(t) & rest) for t in passages_about(o, hits)), default=-1) for o in options
    ]
    return options[0] if scores[0] >= scores[1] else options[1]


def first_year(texts: Sequence[str]) -> int | None:
    """The first year a passage about the option mentions (a birth or founding date)."""
    for text in texts:
        match = YEAR_RE.search(text)
        if match:
            return int(match.group(1))
    return None


def said_of(entity: str, text: str) -> str:
    """The sentences of `text` that name `entity` (all of it when none does: a titled page)."""
    naming = [s for s in sentences(text) if entity.lower() in s.lower()]
    return " ".join(naming) if naming else text


def yes_or_no(question: str, hits: Sequence[Hit]) -> str:
    """Yes when every entity the question names has a passage stating its property."""
    entities = [
        part.strip()
        for n in names(question)
        if words(n.text)[0] not in AUXILIARIES
        for part in re.split(r"\s+(?:and|&)\s+", n.text)
    ]
    entities = [e for e in entities if e.lower() not in {"both", "either"}]
    property_terms = set(content_terms(question)) - {w for e in entities for w in words(e)}
    wanted = {stem(t) for t in property_terms if t not in AUXILIARIES and t != "both"}
    if not entities or not wanted:
        return "yes"
    for entity in entities:
        texts = [said_of(entity, text) for text in passages_about(entity, hits)]
        have = max((len(stems(t) & wanted) for t in texts), default=0)
        if have < PROPERTY_SHARE * len(wanted):
            return "no"
    return "yes"
