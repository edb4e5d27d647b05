"""Telling a retrieved sentence that states something from one that gives the reader orders.

Retrieved text is data. A sentence is a *directive* when it forges a conversation turn (markup
tags, a role label such as ``SYSTEM:``), addresses a machine reader ("note to AI models",
"assistant, ..."), obliges the reader ("you must ...", "... must be answered with ..."), or is
an imperative about the conversation itself ("ignore the above", "answer with ..."). Ordinary
instructions to a person about the world ("email support with your order number") are
statements of a procedure and stay. Directives are never answer or bridge sentences.
"""

from __future__ import annotations

from graph.models.offline.tuning.directives import (
    ADDRESSEE_NOUNS,
    ADDRESSEE_WINDOW,
    ADDRESSING_WORDS,
    CHAT_ROLES,
    CLAUSE_RE,
    CONTRACTED_WORD_RE,
    HTML_ELEMENTS,
    IMPERATIVE_LEADS,
    IMPERATIVE_OBJECTS,
    MARKUP_TAG_RE,
    OBLIGATION_WORDS,
    PASSIVE_ORDER_RE,
    REPLY_WORDS,
    ROLE_LABEL_RE,
    SECOND_PERSON,
    SPEECH_ACTS,
    VOCATIVE_RE,
)
from graph.models.offline.tuning.reading import WORD_RE


def is_directive(sentence: str) -> bool:
    """Whether `sentence` gives the reader orders or addresses a machine reader."""
    return (
        forges_turn(sentence)
        or addresses_machine(sentence)
        or obliges_reader(sentence)
        or any(is_conversation_imperative(clause) for clause in clauses(sentence))
    )


def forges_turn(sentence: str) -> bool:
    """Markup tags other than a page's HTML elements, or a leading role label ("SYSTEM: ...")."""
    if any(m.group(1).lower() not in HTML_ELEMENTS for m in MARKUP_TAG_RE.finditer(sentence)):
        return True
    head = ROLE_LABEL_RE.match(sentence)
    return bool(head) and head.group(1).lower() in CHAT_ROLES  # type: ignore[union-attr]


def addresses_machine(sentence: str) -> bool:
    """An AI, model or assistant addressed: introduced ("to AI models") or told what to do."""
    tokens = WORD_RE.findall(sentence.lower())  # `reading.words`, which imports this module
    for i, token in enumerate(tokens):
        if token not in ADDRESSEE_NOUNS:
            continue
        before = tokens[max(0, i - ADDRESSEE_WINDOW) : i]
        after = tokens[i + 1 : i + 1 + ADDRESSEE_WINDOW]
        if any(w in ADDRESSING_WORDS for w in before) or any(w in OBLIGATION_WORDS for w in after):
            return True
        marked = {m.group(1).lower() for m in VOCATIVE_RE.finditer(sentence)}
        if token in marked and i <= ADDRESSEE_WINDOW:
            return True  # vocative: "Assistant, ..." / "AI models: ..."
    return False


def obliges_reader(sentence: str) -> bool:
    """The reader told about the conversation ("you must cite"), or a passive order to answer.

    A "you" sentence obliges only when it names the reply itself (`REPLY_WORDS`): documentation
    saying what the reader can do ("you can print to standard error", "if you want to write
    your own loader") is not an order.
    """
    tokens = WORD_RE.findall(sentence.lower())
    if any(w in SECOND_PERSON for w in tokens) and any(w in REPLY_WORDS for w in tokens):
        return True  # "you must cite ...", "your answer ...", "you are now ... reply ..."
    order = PASSIVE_ORDER_RE.search(sentence)
    return bool(order) and order.group(2).lower() in SPEECH_ACTS  # type: ignore[union-attr]


def clauses(sentence: str) -> list[str]:
    """The sentence's clauses: split at colons, semicolons, dashes and a comma before "please"."""
    return [part.strip() for part in CLAUSE_RE.split(sentence) if part and part.strip()]


def is_conversation_imperative(clause: str) -> bool:
    """A clause in the imperative mood whose verb or object is part of the conversation."""
    tokens = CONTRACTED_WORD_RE.findall(clause.lower())
    while tokens and (tokens[0] in IMPERATIVE_LEADS or tokens[0] == "not"):
        tokens = tokens[1:]
    if len(tokens) < 2 or tokens[0] not in SPEECH_ACTS:
        return False
    return tokens[1] in IMPERATIVE_OBJECTS or tokens[1] in SPEECH_ACTS
