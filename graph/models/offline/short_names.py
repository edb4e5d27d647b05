"""Short answers that are names: a person, a place, or a thing of the noun the question asks.

A name is a capitalised span (`reading.names`: never a sentence-initial word the text does not
write capitalised elsewhere) that the question does not already name, its possessive "'s"
dropped. A person is not a place or a group ("the Austin office", "Hockey East team"), holds
no digit, is not a possessor ("Chopin's works"), and is one word only as the doer ("built by
Voltline"). A place is followed by a place noun or follows "in", "at", "from" or "near".

"What <noun>" and "which <noun>" questions name the kind themselves: a candidate written
against that noun ("People magazine", "the poet Adam Mickiewicz", "the package environ-config",
"the Kroc Institute") is typed by it, and when any candidate is typed only typed ones count; a
titled work ("which song") is typed by the quotes around its title. A thing of code ("which
function", "which class") is a typed name or a name written as code ("StrictUndefined"),
never any other capitalised word ("ANSI").
"""

from __future__ import annotations

from collections.abc import Collection

from graph.models.offline.reading import Name, known, names, words
from graph.models.offline.short_doers import doers
from graph.models.offline.tuning.names import (
    CODE_HEADS,
    CODE_WORD_RE,
    COMPOUND_RE,
    DEMONYM_RE,
    GROUP_NOUNS,
    HEAD_NOUN_RE,
    IDENTIFIER_RE,
    INTRO_WINDOW,
    NAME_OF_RE,
    ONE_OF_A_KIND_RE,
    PERSON_LEADS,
    PLACE_LEADS,
    PLACE_NOUNS,
    POSSESSIVE_RE,
    QUOTED_RE,
    TITLE_RE,
    WORK_HEAD_RE,
)
from graph.models.offline.tuning.numbers import DATE_RE
from graph.models.offline.tuning.reading import WORD_RE
from graph.models.support import FUNCTION_WORDS
from tools.expand import stem


def head_nouns(question: str) -> set[str]:
    """The stems of the noun the question asks a name of ("what magazine", "the poet").

    Read from "the name of the <noun>", "what was the first <noun>" or "what <noun>" (with
    the word after it, which may be the noun of a compound: "what television station").
    """
    match = (
        NAME_OF_RE.search(question)
        or ONE_OF_A_KIND_RE.search(question)
        or HEAD_NOUN_RE.search(question)
    )
    if match is None:
        return set()
    return {stem(w) for w in match.groups() if w and w.lower() not in FUNCTION_WORDS}


def named(
    kind: str, sentence: str, asked: set[str], capitalised: Collection[str], question: str
) -> list[str]:
    """The names of `sentence` of the asked-for kind that are new to the question.

    The doer of the question's verb comes first (`short_doers`). When some are typed
    (written against the question's noun: "the poet Adam Mickiewicz"; a
    person right after a lowercase question word: "the Phagmodru ruler Tai Situ") only those
    count. Of "A and B" the part the question does not name is the candidate.
    """
    named_doers = doers(sentence, question, asked, kind == "person")
    if kind in ("person", "name") and named_doers:
        return named_doers
    heads = head_nouns(question) if kind in ("name", "place") else set()
    found, typed = [], []
    for name in names(sentence, capitalised):
        text = _unnamed_part(POSSESSIVE_RE.sub("", name.text), asked)
        tokens = words(text)
        held = [t for t in tokens if stem(t) in asked and stem(t) not in heads]
        if len(held) * 2 >= len(tokens) or all(stem(t) in asked for t in tokens):
            continue  # the question names it already (its noun aside: "Dunmore Airport")
        if all(t in FUNCTION_WORDS for t in tokens):
            continue  # "For" run into a heading is no name
        if not _whole_token(name, sentence):
            continue  # "Pod" of "iPod", "US" of "US$75"
        against = bool(heads) and _against(name, sentence, heads)
        if not _of_kind(kind, name, text, sentence, against):
            continue
        found.append(text)
        if against or kind in ("person", "place") and _introduced(name, sentence, asked):
            typed.append(text)
    if heads and kind == "name":
        typed += [w for w in _code_words(sentence, heads, asked) if w not in typed]
        if asks_for_work(question):
            typed += [t for t in _titles(sentence, asked) if t not in typed]
    if heads & CODE_HEADS:  # a function, a class: a name written against the noun, or as code
        return typed or [f for f in found if CODE_WORD_RE.fullmatch(f)]
    if kind == "place":
        return typed  # a place the sentence does not tie to the question is a guess
    return typed or found


def _unnamed_part(text: str, asked: set[str]) -> str:
    """Of "Cyprus and Norway", the part the question does not name ("along with Cyprus")."""
    parts = text.split(" and ")
    new = [p for p in parts if not known(p, asked)]
    return new[0] if len(parts) == 2 and len(new) == 1 else text


def _of_kind(kind: str, name: Name, text: str, sentence: str, against: bool) -> bool:
    """Whether `name` (its text without a possessive) can be of `kind` where it stands.

    A name written against the question's noun is of it whatever place it names.
    """
    tokens = words(text)
    after = (words(sentence[name.end :]) or [""])[0]
    before = (words(sentence[: name.start]) or [""])[-1]
    place = after in PLACE_NOUNS or before in PLACE_LEADS or tokens[-1] in PLACE_NOUNS
    if _adjective(text, sentence[name.end :]) or DATE_RE.fullmatch(text) or len(text) < 2:
        return False
    if kind in ("person", "place") and any(t.isdigit() for t in tokens):
        return False  # "E3 2005" is no person, "Route 9" no place asked
    if kind in ("person", "place") and IDENTIFIER_RE.search(text):
        return False  # "SUPERSCRIPT_TEXT" is code
    if kind != "person" and against:
        return True
    if kind == "place":
        return place
    if kind == "name":
        return not place
    group = after in GROUP_NOUNS or tokens[-1] in GROUP_NOUNS or tokens[-1] in PLACE_NOUNS
    possessor = text != name.text or "'s" in text or "’s" in text
    if place or group or possessor:
        return False
    return len(tokens) > 1 or before in PERSON_LEADS  # one word is a person only as the doer


def asks_for_work(question: str) -> bool:
    """Whether the question asks for a titled work ("which song from", not "which film actor")."""
    match = WORK_HEAD_RE.search(question)
    return match is not None and (match.group("next") or "").lower() in FUNCTION_WORDS


def _titles(sentence: str, asked: set[str]) -> list[str]:
    """The titles `sentence` quotes that the question does not name."""
    return [t for t in TITLE_RE.findall(sentence) if not known(t, asked)]


def _whole_token(name: Name, sentence: str) -> bool:
    """Whether `name` is no part of a longer token ("iPod", "US$75")."""
    before = sentence[name.start - 1 : name.start] if name.start else ""
    after = sentence[name.end : name.end + 1]
    return not (before.isalnum() or after.isalnum() or after in "$€£" and after)


def _introduced(name: Name, sentence: str, asked: set[str]) -> bool:
    """Whether a lowercase question word introduces `name` ("the Phagmodru ruler Tai Situ").

    It is the last content word of the `INTRO_WINDOW` words before ("a guest of Prince").
    """
    before = WORD_RE.findall(sentence[: name.start])[-INTRO_WINDOW:]
    content = [w for w in before if w.lower() not in FUNCTION_WORDS]
    return bool(content) and content[-1].islower() and stem(content[-1]) in asked


def _adjective(text: str, rest: str) -> bool:
    """Whether `text` is a people's adjective before a noun ("Chinese Communist officials")."""
    after = (rest.split() or [""])[0].strip(".,;:!?\"')")
    noun_next = after.isalpha() and after.islower() and after not in FUNCTION_WORDS
    return noun_next and all(DEMONYM_RE.fullmatch(t) for t in text.split())


def _against(name: Name, sentence: str, heads: set[str]) -> bool:
    """Whether `name` is written against the question's noun: holding it or next to it."""
    after = (words(sentence[name.end :]) or [""])[0]
    before = (words(sentence[: name.start]) or [""])[-1]
    return any(stem(w) in heads for w in [*words(name.text), after, before])


def _code_words(sentence: str, heads: set[str], asked: set[str]) -> list[str]:
    """Code words next to the question's noun ("the package environ-config", "secho() function").

    Documentation names its things in lowercase, or quotes them ("the scoped modifier" where
    the sentence writes "scoped"). Before the noun a hyphenated word is an English compound
    ("a six-part series"), no name.
    """
    tokens = [t.strip(".,;:\"'") for t in sentence.split()]
    quoted = set(QUOTED_RE.findall(sentence))
    found = []
    for i, token in enumerate(tokens):
        if stem(token.lower()) not in heads:
            continue
        after = tokens[i + 1 : i + 2]
        before = [w for w in tokens[max(i - 1, 0) : i] if not COMPOUND_RE.fullmatch(w)]
        for word in before + after:
            code = CODE_WORD_RE.fullmatch(word) or word in quoted and word in before
            if code and stem(word.lower()) not in asked:
                found.append(word)
    return found
