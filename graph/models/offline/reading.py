"""Reading text the way the offline policy needs: terms, stems, sentences, names, questions.

Pure functions over strings, with no knowledge of any particular corpus or question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.models.offline.directives import is_directive
from graph.models.offline.tuning import (
    ANSWER_TYPES,
    CONNECTORS,
    LEADING_FUNCTION_WORDS,
    QUESTION_WORDS,
    STOPWORDS,
)
from tools.expand import stem

WORD_RE = re.compile(r"[^\W_]+")
SENTENCE_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def words(text: str) -> list[str]:
    """Lowercased runs of letters and digits (the same words BM25 indexes)."""
    return WORD_RE.findall(text.lower())


def content_terms(text: str) -> list[str]:
    """The words of `text` that carry meaning (no stopwords or question words), in order, unique."""
    seen: dict[str, None] = {}
    for word in words(text):
        if word not in STOPWORDS and word not in QUESTION_WORDS:
            seen.setdefault(word, None)
    return list(seen)


def stems(text: str) -> set[str]:
    """The stems of the content terms of `text`."""
    return {stem(word) for word in content_terms(text)}


ABBREVIATION_RE = re.compile(
    r"\b(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Mt|Ft|Jr|Sr|Sen|Rep|Gov|Gen|Col|Lt|Sgt|Capt|Rev|Prof|Inc|Ltd|"
    r"Co|Corp|Bros|No|vs|ca|approx|e\.g|i\.e)\.$"
)
"""A piece ending like "St.", "Dr." or "J.": an abbreviation or an initial, not an end."""


def sentences(text: str) -> list[str]:
    """`text` split into sentences (on ., ! or ? followed by a capital or digit).

    A split after an abbreviation or an initial ("Ken St. Andre", "Henry J. Kaiser") is undone.
    """
    merged: list[str] = []
    for part in SENTENCE_RE.split(text.strip()):
        part = part.strip()
        if not part:
            continue
        if merged and ABBREVIATION_RE.search(merged[-1]):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged


def statements(text: str) -> list[str]:
    """The sentences of a document that state something, not the ones giving orders.

    Retrieved text is data: a sentence that addresses the reader or gives it orders
    (`graph.models.offline.directives.is_directive`) is never used as an answer or a bridge.
    """
    return [sentence for sentence in sentences(text) if not is_directive(sentence)]


NAME_RE = re.compile(
    r"[A-Z][\w'’.-]*(?:\s+(?:(?:of|and|the|de|du|von|van|la|le|del|da|di|der|&)\s+)*"
    r"[A-Z0-9][\w'’.-]*)*"
)


@dataclass(frozen=True)
class Name:
    """A capitalised span in a passage: a candidate entity."""

    text: str
    start: int
    end: int


def names(text: str) -> list[Name]:
    """Capitalised spans (`Fleet Platform`, `Kiss and Tell`), leading function words dropped."""
    found = []
    for match in NAME_RE.finditer(text):
        span = match.group(0).rstrip(".'’-")
        start = match.start()
        parts = span.split()
        while parts and (parts[0] in LEADING_FUNCTION_WORDS or parts[0].lower() in CONNECTORS):
            start += len(parts[0]) + 1
            parts = parts[1:]
        while parts and parts[-1].lower() in CONNECTORS:
            parts = parts[:-1]
        if parts:
            span = " ".join(parts)
            found.append(Name(span, start, start + len(span)))
    return found


def answer_type(question: str) -> str:
    """What kind of answer the question wants: "number", "name" or "any"."""
    for pattern, kind in ANSWER_TYPES:
        if pattern.search(question):
            return kind
    return "any"


RELATIVE_RE = re.compile(
    r"\b(?P<np>(?:the|a|an)\s+(?:[\w-]+\s+){0,3}?(?P<head>[\w-]+))\s+"
    r"(?P<rel>that|which|who|whom|where|whose)\s+(?P<rest>[^?!.]+)",
    re.I,
)


@dataclass(frozen=True)
class Hop:
    """A question split at a relative clause: find the inner entity, then ask the outer part."""

    inner_query: str
    """The first search: the clause turned into its own question ("who acquired Acme")."""
    head: str
    """The noun the clause describes ("company", "team", "office")."""
    outer: str
    """The question with the clause's noun phrase replaced by {bridge}."""


def split_relative_clause(question: str) -> Hop | None:
    """The bridge structure of "... the <noun> that/who/where <clause>", or None."""
    match = RELATIVE_RE.search(question)
    if match is None:
        return None
    rest = match.group("rest").strip().rstrip(",;")
    if len(content_terms(rest)) == 0:
        return None
    rel = match.group("rel").lower()
    wh = {"where": "where", "whose": "whose"}.get(rel, "who")
    outer = question[: match.start()] + "{bridge}" + question[match.end("rest") :]
    return Hop(inner_query=f"{wh} {rest}", head=match.group("head").lower(), outer=outer)
