"""The doer of the question's verb: "Who declared the mourning period?" asks who declared.

When the question is "who <verb> ..." (or "what <noun> <verb> ...") and the sentence holds
that verb, its doer is read off the sentence as written: the phrase after "<verb> by"
("denied by the Polish government"), the phrase before "who <verb>" ("the British who
colonized"), or the sentence's opening phrase right before the verb ("The State Council
declared", for a person only). A doer is a short phrase holding a capitalised word; the
question must not name it already.
"""

from __future__ import annotations

from graph.models.offline.reading import words
from graph.models.offline.tuning.names import (
    ARTICLES,
    DOER_BOUNDARIES,
    DOER_QUESTION_RE,
    DOER_WORDS,
    RELATIVE_WORDS,
    TOKEN_EDGE,
)
from graph.models.offline.tuning.reading import CONNECTORS
from graph.models.offline.tuning.short_answers import AUXILIARIES
from graph.models.support import FUNCTION_WORDS
from tools.expand import stem


def asked_verb(question: str) -> str:
    """The stem of the verb whose doer the question asks for, or ""."""
    match = DOER_QUESTION_RE.search(question)
    if match is None:
        return ""
    verb = (match.group("verb") or match.group("ing")).lower()
    return "" if verb in AUXILIARIES or verb in FUNCTION_WORDS else stem(verb)


def doers(sentence: str, question: str, asked: set[str], person: bool) -> list[str]:
    """The doers of the question's verb that `sentence` names, as written.

    A doer that is a thing (not a `person`) is a name (capitalised words and their
    connectors, "the Jefferson" but not "the confluence of the Jefferson"), never the
    sentence's opening phrase ("The Flask web framework uses").
    """
    verb = asked_verb(question)
    if not verb:
        return []
    tokens = sentence.split()
    found = []
    for i, token in enumerate(tokens):
        if not i or stem(token.strip(TOKEN_EDGE).lower()) != verb:
            continue
        if i + 1 < len(tokens) and tokens[i + 1].lower() == "by" and not _ends(token):
            found.append(_phrase(tokens[i + 2 :]))
        elif tokens[i - 1].lower() in RELATIVE_WORDS:
            found.append(_phrase_before(tokens[: i - 1]))
        elif person and i <= DOER_WORDS and not any(_ends(t) for t in tokens[:i]):
            subject = " ".join(tokens[:i])
            if _doer(subject, asked, False):  # an opening phrase is a name ("Please ask X" is not)
                found.append(subject)
    return [d for d in dict.fromkeys(found) if _doer(d, asked, person)]


def _phrase(tokens: list[str]) -> str:
    """The phrase opening `tokens`, up to a boundary word or punctuation."""
    taken: list[str] = []
    for token in tokens[:DOER_WORDS]:
        if token.lower() in DOER_BOUNDARIES:
            break
        taken.append(token.strip(TOKEN_EDGE))
        if _ends(token):
            break
    return " ".join(taken)


def _phrase_before(tokens: list[str]) -> str:
    """The noun phrase ending `tokens` ("comparing the Mongols with the British")."""
    taken: list[str] = []
    for token in reversed(tokens[-DOER_WORDS:]):
        if _ends(token) or token.lower() in DOER_BOUNDARIES:
            break
        taken.insert(0, token)
        if token.lower() in ARTICLES:
            break
    return " ".join(taken)


def _ends(token: str) -> bool:
    """Whether `token` closes a phrase (it ends in punctuation)."""
    return token != token.rstrip(TOKEN_EDGE)


def _doer(phrase: str, asked: set[str], person: bool) -> bool:
    """Whether `phrase` can be a doer the question does not name yet.

    It holds a capitalised word other than an article ("The film" is no doer).
    """
    tokens = phrase.split()
    if not any(w[:1].isupper() and w.lower() not in ARTICLES for w in tokens):
        return False
    lowercase = [w for w in tokens if w.islower() and w not in ARTICLES and w not in CONNECTORS]
    if not person and lowercase:
        return False
    content = [w for w in words(phrase) if w not in FUNCTION_WORDS]
    return bool(content) and not all(stem(w) in asked for w in content)
